"""The lines of a Python file around its changes, as the region and token checks read
them (:mod:`reviewtui.core.syntax.pyregions`)."""

from __future__ import annotations

from collections.abc import Sequence

from reviewtui.core.typed import overload

# A changed stretch of the file after the edits: [first, end) in its lines (0-based),
# with the matching [first, end) in the file before.
Change = tuple[int, int, int, int]


def _trimmed(changes: Sequence[Change], old: Sequence[str], new: Sequence[str]
             ) -> Sequence[Change]:
    """``changes`` without the lines at their edges that read the same before and after
    (an edit that rewrote three lines to change the middle one changed one line): the
    regions and windows around them are then the smallest. ``changes`` as they are when
    no line changed at all."""
    out: list[Change] = []
    for lo, hi, old_lo, old_hi in changes:
        while lo < hi and old_lo < old_hi and new[lo] == old[old_lo]:
            lo, old_lo = lo + 1, old_lo + 1
        while lo < hi and old_lo < old_hi and new[hi - 1] == old[old_hi - 1]:
            hi, old_hi = hi - 1, old_hi - 1
        if lo < hi or old_lo < old_hi:
            out.append((lo, hi, old_lo, old_hi))
    return out or changes


class _Ended(Sequence[str]):
    """``lines`` and the empty string a final newline leaves after them: what
    ``text.split("\n")`` gives for such a text, read from the lines without the text."""

    __slots__ = ("_len", "_lines")

    def __init__(self, lines: Sequence[str]) -> None:
        self._lines = lines
        self._len = len(lines) + 1

    def __len__(self) -> int:
        return self._len

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...
    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        last = self._len - 1
        if isinstance(index, slice):
            start, stop, step = index.indices(self._len)
            if step != 1:
                return (*self._lines, "")[index]
            part = tuple(self._lines[start : min(stop, last)])
            return (*part, "") if start < stop == self._len else part
        if index < 0:
            index += self._len
        if index == last:
            return ""
        return self._lines[index]


def split_lines(text: str, lines: Sequence[str] | None = None) -> Sequence[str]:
    """``text.split("\n")``, from ``lines`` -- the text's lines as a ``FileState`` has them
    (without endings; a "\r" before a "\n" is taken off) -- when no "\r" makes them
    differ: a copy of references instead of a new string for every line."""
    if lines is None or "\r" in text or (lines and not lines[-1]):
        # (An empty last line: the lines alone cannot say whether the text ends with a
        # newline after it, "a\n" being ["a", ""] without a final newline or ["a"] with
        # one.)
        return text.split("\n")
    return (*lines, "") if not text or text.endswith("\n") else lines


def _accounted(changes: Sequence[Change], old: Sequence[str], new: Sequence[str]) -> bool:
    """Whether ``changes`` account for the difference in length of the two texts (their
    ``split("\n")``); if not, something changed outside them (a final newline gained or
    lost below the last change) and nothing here may be read as unchanged."""
    return len(new) - len(old) == sum((hi - lo) - (old_hi - old_lo)
                                      for lo, hi, old_lo, old_hi in changes)
