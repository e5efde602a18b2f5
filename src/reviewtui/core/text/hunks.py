"""Hunk choice: the change blocks of an edit, and the edit with only some of them.

The blocks are numbered as ``DiffRow.hunk`` in :func:`reviewtui.core.text.diff.build_diff`'s
rows (with ``ignore_whitespace`` off): both come from the same bounded line diff.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from reviewtui.core.record import record
from reviewtui.core.text.diff import line_opcodes


@record(frozen=True, slots=True)
class DiffHunk:
    """One change block: ``before[before_start:before_end]`` became
    ``after[after_start:after_end]`` (0-based, end-exclusive)."""

    index: int
    before_start: int
    before_end: int
    after_start: int
    after_end: int
    removed: tuple[str, ...]
    added: tuple[str, ...]


def split_hunks(before: Sequence[str], after: Sequence[str]) -> list[DiffHunk]:
    """The change blocks of ``before`` -> ``after``, numbered as ``DiffRow.hunk``."""
    hunks: list[DiffHunk] = []
    for tag, i1, i2, j1, j2 in line_opcodes(before, after):
        if tag != "equal":
            hunks.append(DiffHunk(len(hunks), i1, i2, j1, j2,
                              tuple(before[i1:i2]), tuple(after[j1:j2])))
    return hunks


def apply_hunks(before: Sequence[str], after: Sequence[str], chosen: Collection[int]) -> list[str]:
    """``before`` with only the ``chosen`` change blocks applied (the others keep
    their ``before`` lines). All blocks give ``after``; none gives ``before``."""
    result: list[str] = []
    index = 0
    for tag, i1, i2, j1, j2 in line_opcodes(before, after):
        if tag == "equal":
            result.extend(before[i1:i2])
            continue
        result.extend(after[j1:j2] if index in chosen else before[i1:i2])
        index += 1
    return result
