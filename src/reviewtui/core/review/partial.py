"""Take only part of an edit: some of its change blocks, or some lines of a block.

An edit turns ``before`` into ``after`` (SEARCH into REPLACE, or a file's old content
into the model's full file). :func:`change_blocks` cuts that into the change blocks of
:func:`reviewtui.core.text.hunks.split_hunks` and lists each block's removed and added lines
in the order the diff view shows them: a removed line comes right before the added
line it became (paired by similarity, as the side-by-side view pairs them), unpaired
lines where they fall. :func:`apply_chosen` rebuilds the text from a choice of lines:

* a chosen removed line is removed, an unchosen removed line is kept;
* a chosen added line is added, an unchosen added line is not.

Kept and added lines come out in the block's display order, so taking only the second
of two changed lines keeps the first line as it was and the second as the model wrote
it, in place. Choosing every line gives ``after``, choosing none gives ``before``.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from enum import StrEnum

from reviewtui.core.record import record
from reviewtui.core.text.diff import Span, build_diff
from reviewtui.core.text.hunks import split_hunks

Choice = Mapping[int, Collection[int]]
"""Block index -> positions in that block's ``lines`` that are taken."""


class LineSide(StrEnum):
    REMOVED = "-"
    ADDED = "+"


@record(frozen=True, slots=True)
class BlockLine:
    """One removed or added line of a change block.

    ``number`` is its 0-based index in ``before`` (removed) or ``after`` (added);
    ``spans`` are the character ranges that differ from the line it is paired with.
    """

    side: LineSide
    number: int
    text: str
    spans: tuple[Span, ...] = ()


@record(frozen=True, slots=True)
class ChangeBlock:
    """``before[before_start:before_end]`` became ``after[after_start:after_end]``;
    ``lines`` are those removed and added lines in display order."""

    index: int
    before_start: int
    before_end: int
    after_start: int
    after_end: int
    lines: tuple[BlockLine, ...]

    @property
    def removed(self) -> int:
        return self.before_end - self.before_start

    @property
    def added(self) -> int:
        return self.after_end - self.after_start

    @property
    def positions(self) -> frozenset[int]:
        """Every position in ``lines``: the whole block chosen."""
        return frozenset(range(len(self.lines)))


def change_blocks(before: Sequence[str], after: Sequence[str]) -> tuple[ChangeBlock, ...]:
    """The change blocks of ``before`` -> ``after`` with their lines in display order."""
    hunks = split_hunks(before, after)
    ordered: dict[int, list[BlockLine]] = {hunk.index: [] for hunk in hunks}
    for row in build_diff(before, after, context=0).rows:
        if row.hunk < 0:
            continue
        lines = ordered[row.hunk]
        if row.left is not None:
            lines.append(BlockLine(LineSide.REMOVED, row.left.number - 1, row.left.text,
                                   row.left.spans))
        if row.right is not None:
            lines.append(BlockLine(LineSide.ADDED, row.right.number - 1, row.right.text,
                                   row.right.spans))
    blocks: list[ChangeBlock] = []
    for hunk in hunks:
        lines = ordered[hunk.index]
        expected = ({(LineSide.REMOVED, i) for i in range(hunk.before_start, hunk.before_end)}
                    | {(LineSide.ADDED, j) for j in range(hunk.after_start, hunk.after_end)})
        if {(line.side, line.number) for line in lines} != expected or len(lines) != len(
                expected):
            # The display rows always cover the block; if they ever did not, removed
            # lines then added ones (git's order) is still a correct rebuild.
            lines = [BlockLine(LineSide.REMOVED, hunk.before_start + k, text)
                     for k, text in enumerate(hunk.removed)]
            lines += [BlockLine(LineSide.ADDED, hunk.after_start + k, text)
                      for k, text in enumerate(hunk.added)]
        blocks.append(ChangeBlock(hunk.index, hunk.before_start, hunk.before_end,
                                  hunk.after_start, hunk.after_end, tuple(lines)))
    return tuple(blocks)


def apply_chosen(before: Sequence[str], blocks: Sequence[ChangeBlock],
                 chosen: Choice) -> list[str]:
    """``before`` with only the chosen lines of ``blocks`` applied (see the module doc).

    ``blocks`` are :func:`change_blocks` of ``before`` and some ``after``; a block
    missing from ``chosen`` is not taken at all.
    """
    out: list[str] = []
    position = 0
    for block in blocks:
        out.extend(before[position : block.before_start])
        picked = chosen.get(block.index, ())
        for n, line in enumerate(block.lines):
            if (line.side is LineSide.ADDED) == (n in picked):
                out.append(line.text)
        position = block.before_end
    out.extend(before[position:])
    return out


def choose_all(blocks: Sequence[ChangeBlock]) -> dict[int, frozenset[int]]:
    return {block.index: block.positions for block in blocks}
