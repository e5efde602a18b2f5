"""A ``### Changed files:`` footer's list item read as a path and its note; an unfenced
full file held when the footer that ended it may be the file's own heading."""

from __future__ import annotations

from collections.abc import Sequence

from reviewtui.core.model.records import (
    FileBlock,
    FooterEntry,
    FullFile,
    ParseProblem,
    Reply,
    Span,
)
from reviewtui.core.record import replace


def footer_entry(item: str, k: int) -> FooterEntry:
    """The entry of the footer's list item ``item`` on line ``k`` (0-based)."""
    text = item.strip()
    if text.startswith("`"):
        close = text.find("`", 1)
        if close > 0:
            return FooterEntry(text[1:close], _note(text[close + 1 :]), Span(k + 1, k + 1))
    path, _, rest = text.partition(" ")
    path = path.strip("`*")
    if path.endswith(":") and len(path) > 1:  # "- src/a.py: what changed"
        path = path[:-1]
    return FooterEntry(path, _note(rest), Span(k + 1, k + 1))


def _note(rest: str) -> str:
    return rest.strip().lstrip("—–-:").strip()


def hold_inner_footer(reply: Reply, lines: Sequence[str]) -> Reply:
    """``reply`` with its unfenced full file held when the footer that ended it may be a
    heading of the file's own (QA s47 helper-154 M6: a PR template's ``## Changed files``
    section was read as the footer, and the template written cut).

    Unfenced content runs to the next footer, so a heading the grammar reads as the footer
    ends the file there. That heading is in doubt, and the file is held (``cut-off``: it
    may hold only part of the file), when another footer follows it (``second-footer``), or
    when the heading is not at the protocol's level (``###``), text or blocks follow the
    footer, and the footer's list does not name the file. ``lines`` are the lines the
    reply's spans count.
    """
    footer = reply.footer
    if footer is None:
        return reply
    at = footer.span.start
    before = [n for n, block in enumerate(reply.blocks) if block.span.end < at]
    if not before:
        return reply
    n = before[-1]
    block = reply.blocks[n]
    if (not isinstance(block, FileBlock) or block.fenced
            or not any(isinstance(op, FullFile) for op in block.ops)
            or any(block.span.end < run.span.start < at for run in reply.stray)):
        return reply
    second = next((p.span.start for p in reply.problems
                   if p.rule == "second-footer" and p.span.start > at), None)
    if second is not None:
        why = f"another footer follows (line {second})"
    elif (_level(lines[at - 1]) != 3
          and all(entry.path != block.path for entry in footer.entries)
          and (any(run.after_footer for run in reply.stray)
               or any(b.span.start > footer.span.end for b in reply.blocks))):
        why = (f"the heading is not the protocol's '### Changed files:', text follows the "
               f"footer, and the footer does not list {block.path!r}")
    else:
        return reply
    from reviewtui.core.protocol.cut import CUT_OFF  # (cut reads nothing of this module)

    problem = ParseProblem(
        CUT_OFF, f"this file's content may be cut off and is not read as an operation: it "
        f"ends at {lines[at - 1].strip()!r} (line {at}), read as the footer, but {why}: the "
        "heading may be the file's own, and the file may run on past it; fence the file",
        block.span)
    blocks = list(reply.blocks)
    blocks[n] = replace(block, ops=())
    return replace(reply, blocks=tuple(blocks),
                   problems=tuple(sorted([*reply.problems, problem],
                                         key=lambda p: p.span.start)))


def _level(heading: str) -> int:
    """How many ``#`` start ``heading`` (after its indentation)."""
    text = heading.lstrip()
    return len(text) - len(text.lstrip("#"))
