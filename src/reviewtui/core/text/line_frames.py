"""Where lines of one version of a file stand in another, told by content and a line diff.

:class:`Frames` carries line numbers read in one text (``source``) into another
(``target``) when the lines named are certainly the same lines in both: the lines with
their neighbours (one on each side where there is one, more until the stretch occurs once
in ``source``) occur exactly once in ``target``, and a line diff of the two texts pairs
each of them with the line found there (a copy elsewhere, the original changed, is found
by content but not paired by the diff); where only a wider window (or the whole file) told
the lines apart, a diff read from the texts' other end must pair them there too (repeated
lines a diff may pair either way). Else it says it cannot tell (None).

Used for an agent's numbers read on disk (``core/agent/frames.py``) and for a turn's
numbers read in the file as its author had it (``core/engine/authored.py``). Pure.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Sequence

from reviewtui.core.text.diff import Opcode, line_opcodes

_MAX_CONTEXT = 40  # neighbours on each side at most before a stretch is called ambiguous


def _hits(lines: Sequence[str], window: Sequence[str], limit: int = 2) -> list[int]:
    """0-based starts of ``window`` in ``lines`` as whole lines, at most ``limit``."""
    found: list[int] = []
    size, head = len(window), window[0]
    at = 0
    stop = len(lines) - size + 1
    while at < stop:
        try:
            at = lines.index(head, at, stop)
        except ValueError:
            break
        if tuple(lines[at : at + size]) == tuple(window):
            found.append(at)
            if len(found) >= limit:
                break
        at += 1
    return found


class Frames:
    """The disk's text (``source``) against the review's version (``target``)."""

    def __init__(self, source: Sequence[str], target: Sequence[str]) -> None:
        self.source, self.target = source, target
        self._equal: list[Opcode] | None = None
        self._starts: list[int] = []
        self._back: dict[int, int] = {}

    def _paired(self, line: int, both: bool = False) -> int | None:
        """The 0-based line of ``target`` the diff pairs with ``source[line]``, if any;
        with ``both``, None too where the diff read from the other end pairs it elsewhere
        (repeated lines a diff may pair either way: which copy is the line is not known,
        QA s50 helper-196's two-turn fuzz, a number placed on the wrong "y" of "x y y")."""
        if self._equal is None:
            self._equal = [op for op in line_opcodes(self.source, self.target)
                           if op[0] == "equal"]
            self._starts = [op[1] for op in self._equal]
            size, other = len(self.source), len(self.target)
            back = [op for op in line_opcodes(self.source[::-1], self.target[::-1])
                    if op[0] == "equal"]
            # (each pair of the reversed texts, read back in the texts' own order)
            self._back = {size - 1 - (lo + k): other - 1 - (target_lo + k)
                          for _, lo, hi, target_lo, _ in back for k in range(hi - lo)}
        equal = self._equal
        k = bisect_right(self._starts, line) - 1
        if k < 0:
            return None
        _, lo, hi, target_lo, _ = equal[k]
        found = target_lo + (line - lo) if lo <= line < hi else None
        return found if not both or self._back.get(line) == found else None

    def block(self, first: int, last: int) -> int | None:
        """Where the 1-based lines ``first..last`` of ``source`` start in ``target``
        (1-based), or None when that is not certain (see the module's doc)."""
        source, target = self.source, self.target
        if not 1 <= first <= last <= len(source):
            return None
        for context in range(1, _MAX_CONTEXT + 1):
            lo, hi = max(1, first - context), min(len(source), last + context)
            window = source[lo - 1 : hi]
            whole = lo == 1 and hi == len(source)
            if len(_hits(source, window)) > 1:
                if whole:
                    return None
                continue
            hits = _hits(target, window)
            if len(hits) == 1:
                start = hits[0] + 1 + (first - lo)
                # (told apart only by a wide window, or by the whole file: repeated lines
                # a diff may pair either way, so both ends' readings must agree)
                both = context > 1 or whole
                break
            if not hits or whole:
                return None
        else:
            return None
        if all(self._paired(line - 1, both) == start - 1 + (line - first)
               for line in range(first, last + 1)):
            return start
        return None

    def shift(self, first: int, last: int) -> int | None:
        """How far the 1-based lines ``first..last`` of ``source`` move in ``target``
        (where they start there, minus ``first``); None when that is not certain.
        ``last == first - 1`` is the gap before line ``first`` (where an insertion went,
        or a removal was): carried with the lines on both sides of it (at an end of the
        file, that end)."""
        source, target = self.source, self.target
        if last >= first:
            start = self.block(first, last)
            return None if start is None else start - first
        if last != first - 1 or not source:
            return None
        if first <= 1:
            return 0 if self.block(1, 1) == 1 else None
        if first > len(source):
            start = self.block(len(source), len(source))
            return None if start != len(target) else start - len(source)
        start = self.block(first - 1, first)
        return None if start is None else start - (first - 1)
