"""Rules about the shape of file blocks and their search/replace edits."""

from __future__ import annotations

from collections.abc import Iterator
from itertools import pairwise

from reviewtui.core.lint.base import Hit, LintContext, contains, effective_moves, path_key, rule
from reviewtui.core.lint.findings import Severity
from reviewtui.core.lint.tokens import MAX_SEARCH_LINES, MERGE_GAP, locate
from reviewtui.core.model.records import Edit, FileBlock, Span


def _lines(n: int) -> str:
    return f"{n} line" if n == 1 else f"{n} lines"


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@rule("duplicate-header", Severity.ERROR, "one file with two '--- File:' headers in one reply")
def duplicate_header(ctx: LintContext) -> Iterator[Hit]:
    first: dict[str, FileBlock] = {}
    for block in ctx.file_blocks:
        key = path_key(block.path)
        if not key:
            continue
        if key in first:
            yield Hit(block.header_span, f"second header for {block.path!r} (the first is at "
                      f"line {first[key].header_span.start}); one header per file keeps all its "
                      "edits in one numbered sequence", block.path)
        else:
            first[key] = block


@rule("long-search", Severity.WARNING, f"a SEARCH block longer than {MAX_SEARCH_LINES} lines")
def long_search(ctx: LintContext) -> Iterator[Hit]:
    for edit in ctx.edits:
        n = len(edit.search_lines)
        if n > MAX_SEARCH_LINES:
            yield Hit(edit.search_span, f"Edit {edit.label} of {edit.path!r} searches {n} lines "
                      f"(at most {MAX_SEARCH_LINES}); past that the anchor is mostly resent "
                      "code: keep the shortest block that matches once", edit.path)


def _blank(lines: tuple[str, ...]) -> bool:
    return not any(line.strip() for line in lines)


@rule("empty-search", Severity.ERROR, "an edit with an empty SEARCH on a file that may exist")
def empty_search(ctx: LintContext) -> Iterator[Hit]:
    for edit in ctx.edits:
        if edit.shape is not None or not _blank(edit.search_lines):
            continue  # a line-addressed edit is anchored by its line numbers or ids
        if ctx.file_text is not None:
            if not ctx.file_lines(edit.path):
                continue  # the file is new (or empty): an empty SEARCH creates it
            why = "the file exists, so nothing anchors where the text goes"
        else:
            why = "nothing anchors where the text goes, and only a file that does not exist " \
                  "yet may be created this way"
        yield Hit(edit.search_span, f"Edit {edit.label} of {edit.path!r} has an empty SEARCH: "
                  f"{why}", edit.path)


def interior_unchanged(search: tuple[str, ...], replace: tuple[str, ...]) -> tuple[int, int] | None:
    """The first run of ``MERGE_GAP``+ SEARCH lines kept as is between two changes."""
    # Such a run is in both texts, and each change around it takes a line from one of
    # them: shorter texts hold none (a one-line fix needs no diff, nor difflib imported).
    if min(len(search), len(replace)) < MERGE_GAP or \
            len(search) + len(replace) < 2 * MERGE_GAP + 2:
        return None
    from difflib import SequenceMatcher  # here: not a start-up import

    ops = SequenceMatcher(None, list(search), list(replace), autojunk=False).get_opcodes()
    for k in range(1, len(ops) - 1):
        tag, i1, i2, _, _ = ops[k]
        if tag == "equal" and i2 - i1 >= MERGE_GAP:
            return i1, i2
    return None


@rule("split-edit", Severity.INFO, "an edit that keeps 2+ unchanged lines between two changes")
def split_edit(ctx: LintContext) -> Iterator[Hit]:
    for edit in ctx.edits:
        run = interior_unchanged(edit.search_lines, edit.replace_lines)
        if run is None:
            continue
        i1, i2 = run
        first = edit.search_span.start + 1 + i1
        yield Hit(Span(first, first + i2 - i1 - 1), f"Edit {edit.label} of {edit.path!r} keeps "
                  f"{_lines(i2 - i1)} unchanged between two changes; two edits would not resend "
                  "them (if each half has a unique anchor)", edit.path)


def _where(first: int, end: int) -> str:
    """File line indexes ``first``..``end`` (exclusive) as 1-based text."""
    return f"file line {first + 1}" if end - first <= 1 else f"file lines {first + 1}-{end}"


def _located(ctx: LintContext, edits: list[Edit]) -> list[tuple[int, int, Edit]]:
    """(first, end) file line indexes of each edit whose SEARCH matches exactly once."""
    lines = ctx.file_lines(edits[0].path)
    if not lines:
        return []
    out: list[tuple[int, int, Edit]] = []
    for edit in edits:
        if _blank(edit.search_lines):
            continue
        at = locate(lines, edit.search_lines)
        if at is not None:
            out.append((at, at + len(edit.search_lines), edit))
    return out


@rule("merge-adjacent", Severity.WARNING,
      "two edits of one file less than 2 unchanged lines apart", needs_file=True)
def merge_adjacent(ctx: LintContext) -> Iterator[Hit]:
    for edits in ctx.edits_by_path.values():
        located = sorted(_located(ctx, edits), key=lambda t: t[0])
        for (a0, a1, ea), (b0, b1, eb) in pairwise(located):
            gap = b0 - a1
            if gap >= MERGE_GAP:
                continue
            earlier, later = sorted((ea, eb), key=lambda e: e.span.start)
            how = ("overlap" if gap < 0 else "touch" if gap == 0
                   else "are 1 unchanged line apart")
            yield Hit(later.span, f"Edit {ea.label} ({_where(a0, a1)}) and Edit {eb.label} "
                      f"({_where(b0, b1)}) of {later.path!r} {how}; as one edit they cannot "
                      "fight over the same anchor", later.path)


@rule("edit-order", Severity.WARNING, "edits of one file not in top-to-bottom file order",
      needs_file=True)
def edit_order(ctx: LintContext) -> Iterator[Hit]:
    for edits in ctx.edits_by_path.values():
        lowest: tuple[int, Edit] | None = None  # the furthest-down match so far
        for at, _, edit in _located(ctx, edits):
            if lowest is not None and at < lowest[0]:
                yield Hit(edit.span, f"Edit {edit.label} of {edit.path!r} matches file line "
                          f"{at + 1}, above Edit {lowest[1].label} (line {lowest[0] + 1}); "
                          "numbered top to bottom, edits read like the file", edit.path)
            elif lowest is None or at > lowest[0]:
                lowest = (at, edit)


@rule("edit-numbering", Severity.WARNING, "edit labels that do not run 1, 2, 3... per file")
def edit_numbering(ctx: LintContext) -> Iterator[Hit]:
    for block in ctx.file_blocks:
        for op in block.ops:
            if isinstance(op, Edit) and op.number is not None and op.number != op.ordinal:
                yield Hit(Span(op.span.start, op.span.start), f"'Edit {op.number}' is the "
                          f"{_ordinal(op.ordinal)} edit under {block.path!r}; labels count 1, 2, "
                          "3... and restart under every header, so checkpoints can be named",
                          block.path)
                break


@rule("edit-old-path", Severity.ERROR, "edits aimed at a path this reply moves away")
def edit_old_path(ctx: LintContext) -> Iterator[Hit]:
    moves = effective_moves(ctx.commands)
    for block in ctx.file_blocks:
        key = path_key(block.path)
        if not key or not any(isinstance(op, Edit) for op in block.ops):
            continue
        for cmd in moves:
            if contains(path_key(cmd.args[0]), key):
                yield Hit(block.header_span, f"{block.path!r} is moved away by {cmd.text!r} "
                          f"(line {cmd.span.start}), which runs before any edit; name the file "
                          "by its new path", block.path)
                break


RULES = (
    duplicate_header,
    edit_old_path,
    long_search,
    empty_search,
    split_edit,
    merge_adjacent,
    edit_numbering,
    edit_order,
)
