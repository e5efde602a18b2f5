"""Rules about the reply's layout: the console block, the footer and what follows it."""

from __future__ import annotations

from collections.abc import Iterator

from reviewtui.core.lint.base import (
    Hit,
    LintContext,
    contains,
    glob_match,
    is_glob,
    path_key,
    rule,
    undo_in_reply,
)
from reviewtui.core.lint.findings import Severity
from reviewtui.core.model.records import CommandName, Edit, FooterEntry, Span
from reviewtui.core.record import record
from reviewtui.core.text.plural import plural


@rule("console-not-single-block", Severity.WARNING,
      "structural commands spread over more than one console block")
def console_not_single_block(ctx: LintContext) -> Iterator[Hit]:
    blocks = ctx.console_blocks
    for block in blocks[1:]:
        yield Hit(block.span, f"another console block (the first is at line "
                  f"{blocks[0].span.start}); all moves, renames and removals belong in one "
                  "block, so the reviewer sees them together")


@rule("console-after-edits", Severity.WARNING, "a console block placed after file blocks")
def console_after_edits(ctx: LintContext) -> Iterator[Hit]:
    if not ctx.file_blocks:
        return
    first_file = ctx.file_blocks[0].span.start
    for block in ctx.console_blocks:
        if block.span.start > first_file:
            yield Hit(block.span, f"console block after the file block at line {first_file}; "
                      "commands run before every edit, so write them first, in the order they "
                      "apply")


@rule("bare-console", Severity.WARNING, "command lines outside a fenced console block")
def bare_console(ctx: LintContext) -> Iterator[Hit]:
    for block in ctx.console_blocks:
        if not block.fenced:
            yield Hit(block.span, "command lines outside a code fence; wrap them in a "
                      "```console block so they cannot be taken for text or file content")


@rule("footer-missing", Severity.ERROR, "a reply with operations but no '### Changed files:'")
def footer_missing(ctx: LintContext) -> Iterator[Hit]:
    if ctx.reply.footer is not None or not ctx.reply.blocks:
        return
    ops = len(ctx.reply.ops)
    if ops == 0:
        return
    end = max(block.span.end for block in ctx.reply.blocks)
    yield Hit(Span(end, end), f"no '### Changed files:' footer after "
              f"{plural(ops, 'operation')}; the footer is how reviewers and tools check what "
              "the reply meant to touch")


@rule("block-after-footer", Severity.WARNING, "a console or file block after the footer")
def block_after_footer(ctx: LintContext) -> Iterator[Hit]:
    footer = ctx.reply.footer
    if footer is None:
        return
    for block in ctx.reply.blocks:
        if block.span.start > footer.span.end:
            yield Hit(block.span, f"a block after the footer (line {footer.span.start}); the "
                      "footer closes the reply, and what follows it is easy to miss in review")


@rule("need-before-footer", Severity.WARNING, "a 'Need:' line placed before the footer")
def need_before_footer(ctx: LintContext) -> Iterator[Hit]:
    footer, need = ctx.reply.footer, ctx.reply.need_span
    if footer is not None and need is not None and need.start < footer.span.start:
        yield Hit(need, "'Need:' comes before the footer; it goes after '### Changed files:' "
                  "so the block stream ends cleanly at the footer")


# -- footer against what the reply did ---------------------------------------------


@record(frozen=True, slots=True)
class Touch:
    """A path the reply changes, and how."""

    path: str
    how: str
    span: Span
    loose: bool = False  # ``:rn`` arguments may be substrings (``:rn .jsx .tsx``)

    @property
    def key(self) -> str:
        return path_key(self.path)


_VERBS = {
    CommandName.RM: ("removed",),
    CommandName.UNRM: ("restored",),
    CommandName.MV: ("moved away", "the target of a move"),
    CommandName.RN: ("renamed away", "the new name in a rename"),
}


def touches(ctx: LintContext) -> list[Touch]:
    """Every path the reply touches, first mention only, in line order."""
    out: list[Touch] = []
    in_force, _ = undo_in_reply(ctx.commands)
    for cmd in in_force:
        verbs = _VERBS.get(cmd.name, ())
        loose = cmd.name is CommandName.RN
        for k, arg in enumerate(cmd.args):
            out.append(Touch(arg, verbs[min(k, len(verbs) - 1)], cmd.span, loose))
    for block in ctx.file_blocks:
        if block.path:
            how = "edited" if any(isinstance(op, Edit) for op in block.ops) else "written in full"
            out.append(Touch(block.path, how, block.header_span))
    seen: set[str] = set()
    unique: list[Touch] = []
    for t in sorted(out, key=lambda t: t.span.start):
        if t.key and t.key not in seen:
            seen.add(t.key)
            unique.append(t)
    return unique


def _names(touch: Touch, entry: FooterEntry) -> bool:
    """The entry names the touched path: the same path, a directory around it, a glob."""
    if touch.loose:
        return touch.path in entry.path
    key = path_key(entry.path)
    return (
        contains(touch.key, key)
        or contains(key, touch.key)
        or (is_glob(touch.path) and glob_match(touch.path, entry.path))
        or (is_glob(entry.path) and glob_match(entry.path, touch.path))
    )


def _in_note(touch: Touch, note: str) -> bool:
    """The note mentions the path, as in "moved from src/a.js" or "(was src/utils/)"."""
    if touch.loose:
        return touch.path in note
    return any(_whole_path_in(path, note) for path in {touch.path, touch.key})


def _whole_path_in(path: str, text: str) -> bool:
    """``path`` occurs in ``text`` not as part of a longer path (a trailing '/' is fine)."""
    at = text.find(path)
    while at >= 0:
        before = text[at - 1] if at else " "  # a space: nothing glued before
        after = text[at + len(path) : at + len(path) + 2]
        glued_before = before.isalnum() or before in "_./-"
        glued_after = bool(after) and (after[0].isalnum() or after[0] in "_-" or (
            after[0] == "/" and len(after) > 1 and (after[1].isalnum() or after[1] in "_.*")
        ))
        if not glued_before and not glued_after:
            return True
        at = text.find(path, at + 1)
    return False


def listed(touch: Touch, entries: tuple[FooterEntry, ...]) -> bool:
    return any(_names(touch, entry) or _in_note(touch, entry.note) for entry in entries)


def explained(entry: FooterEntry, done: list[Touch]) -> bool:
    return any(_names(touch, entry) for touch in done)


@rule("footer-mismatch", Severity.WARNING,
      "the footer and the operations disagree about which paths the reply touches")
def footer_mismatch(ctx: LintContext) -> Iterator[Hit]:
    footer = ctx.reply.footer
    if footer is None:
        return
    done = touches(ctx)
    for touch in done:
        if not listed(touch, footer.entries):
            yield Hit(touch.span, f"{touch.path!r} is {touch.how} on this line but the footer "
                      "does not mention it; the footer should index everything that changed",
                      touch.path)
    # An :undo of an earlier turn's command may touch anything: then any entry may be right.
    if undo_in_reply(ctx.commands)[1]:
        return
    for entry in footer.entries:
        if path_key(entry.path) and not explained(entry, done):
            yield Hit(entry.span, f"the footer lists {entry.path!r} but nothing in the reply "
                      "touches it; a stale or guessed entry misleads the review", entry.path)


RULES = (
    console_not_single_block,
    console_after_edits,
    bare_console,
    footer_missing,
    footer_mismatch,
    block_after_footer,
    need_before_footer,
)
