"""Stage 1: whole-line exact matches, without normalising anything.

A version the engine made (:class:`~reviewtui.core.model.chunks.ChunkedLines`) is asked
chunk by chunk for the longest SEARCH line, each chunk answering from its own lookup:
the cost follows the number of chunks, not lines. A plain sequence has two ways to scan,
both one C-level pass:

* ``index`` on the line sequence for the longest SEARCH line (usually the rarest),
  verifying the neighbours at each hit. It costs ~5 ns a line, no set-up.
* ``str.find`` of the whole SEARCH text in the joined file, which skips ahead on long
  needles and is several times faster -- once the joined text exists. Joining costs
  about one scan, so it is only worth it for a file version that is matched again
  (several edits or a re-check against one version, the stale check over ``history``).
  Tuples are immutable, so a tuple seen a second time gets its joined text cached.
"""

from __future__ import annotations

import _thread  # threading.Lock is _thread.allocate_lock; threading itself costs start-up
from bisect import bisect_right
from collections import OrderedDict
from collections.abc import Iterator, Sequence

from reviewtui.core.model.chunks import ChunkedLines

_STRIDE = 256  # lines between two remembered text offsets
_CACHED_VERSIONS = 4


def find_exact(lines: Sequence[str], search: Sequence[str], lo: int, hi: int) -> list[int]:
    """Every 0-based start in ``[lo, hi)`` where ``search`` occurs as whole lines.

    Overlapping occurrences count separately: ``a a`` is in ``a a a`` twice.
    """
    size = len(search)
    if not size or hi - lo < size:
        return []
    if type(lines) is ChunkedLines:  # (not isinstance: an ABC's check costs a call)
        if len(lines.chunks) == 1:  # a small file: its one chunk is a plain tuple
            return _scan(lines.chunks[0].lines, search, lo, hi)
        return _scan_chunks(lines, search, lo, hi)
    joined = _joined(lines) if type(lines) is tuple else None
    if joined is not None:
        return joined.find(search, lo, hi)
    return _scan(lines, search, lo, hi)


def found_elsewhere(lines: Sequence[str], search: Sequence[str], lo: int, hi: int,
                    at: int) -> bool:
    """Whether ``search`` occurs as whole lines at a start in ``[lo, hi)`` other than
    ``at``: :func:`find_exact` stopped at the first such one (a hunk in repetitive code
    has hundreds, and listing them all for each hunk tripled a replay's time)."""
    size = len(search)
    if not size or hi - lo < size:
        return False
    pivot_at = max(range(size), key=lambda i: len(search[i]))
    wanted = tuple(search)
    low, high = lo + pivot_at, hi - size + pivot_at + 1
    hits = (lines.positions(search[pivot_at], low, high) if type(lines) is ChunkedLines
            else _hits(lines, search[pivot_at], low, high))
    for hit in hits:
        start = hit - pivot_at
        if start != at and tuple(lines[start : start + size]) == wanted:
            return True
    return False


def _hits(lines: Sequence[str], line: str, lo: int, hi: int) -> Iterator[int]:
    position = lo
    while position < hi:
        try:
            hit = lines.index(line, position, hi)
        except ValueError:
            return
        yield hit
        position = hit + 1


def _scan(lines: Sequence[str], search: Sequence[str], lo: int, hi: int) -> list[int]:
    size = len(search)
    pivot_at = max(range(size), key=lambda i: len(search[i]))
    pivot = search[pivot_at]
    wanted = list(search)
    # A pivot hit at p puts the match at p - pivot_at; keep the whole match inside.
    stop = hi - size + pivot_at + 1
    starts: list[int] = []
    position = lo + pivot_at
    while position < stop:
        try:
            hit = lines.index(pivot, position, stop)
        except ValueError:
            break
        start = hit - pivot_at
        if list(lines[start : start + size]) == wanted:
            starts.append(start)
        position = hit + 1
    return starts


def _scan_chunks(lines: ChunkedLines, search: Sequence[str], lo: int, hi: int) -> list[int]:
    """What :func:`_scan` finds, asking each chunk where the pivot line is."""
    size = len(search)
    pivot_at = max(range(size), key=lambda i: len(search[i]))
    wanted = tuple(search)
    return [hit - pivot_at
            for hit in lines.positions(search[pivot_at], lo + pivot_at, hi - size + pivot_at + 1)
            if lines[hit - pivot_at : hit - pivot_at + size] == wanted]


class _Joined:
    """One file version as a single text, each line between two newlines, with the
    offset of every ``_STRIDE``-th line's start."""

    def __init__(self, lines: tuple[str, ...]) -> None:
        # Padding both ends lets the needle carry its own newlines: every hit is then a
        # whole-line match, and a short line ("}") does not stop at every substring.
        self.text = "\n".join(("", *lines, ""))
        self.marks = [1]
        offset = 1
        for at in range(0, len(lines), _STRIDE):
            block = lines[at : at + _STRIDE]
            offset += sum(map(len, block)) + len(block)
            self.marks.append(offset)
        # A "line" holding a newline would shift every number after it: refuse to help.
        self.sound = self.text.count("\n") == len(lines) + 1

    def line_at(self, offset: int) -> int:
        """The index of the line starting at ``offset``."""
        block = bisect_right(self.marks, offset) - 1
        return block * _STRIDE + self.text.count("\n", self.marks[block], offset)

    def find(self, search: Sequence[str], lo: int, hi: int) -> list[int]:
        needle = "\n".join(("", *search, ""))
        starts: list[int] = []
        hit = self.text.find(needle)
        while hit >= 0:
            start = self.line_at(hit + 1)
            if lo <= start and start + len(search) <= hi:
                starts.append(start)
            hit = self.text.find(needle, hit + 1)  # + 1: overlapping matches count
        return starts


class _Versions:
    """The last few tuples matched against; the second sighting gets a ``_Joined``."""

    def __init__(self) -> None:
        self._lock = _thread.allocate_lock()  # the UI matches from worker threads
        self._entries: OrderedDict[int, tuple[tuple[str, ...], _Joined | None]] = OrderedDict()

    def get(self, lines: tuple[str, ...]) -> _Joined | None:
        key = id(lines)
        with self._lock:
            entry = self._entries.get(key)
            if entry is None or entry[0] is not lines:
                # First sighting. Holding the tuple keeps its id from being reused.
                self._entries[key] = (lines, None)
                while len(self._entries) > _CACHED_VERSIONS:
                    self._entries.popitem(last=False)
                return None
            self._entries.move_to_end(key)
            joined = entry[1]
        if joined is None:
            joined = _Joined(lines)
            with self._lock:
                if key in self._entries:
                    self._entries[key] = (lines, joined)
        return joined if joined.sound else None


_VERSIONS = _Versions()


def _joined(lines: tuple[str, ...]) -> _Joined | None:
    return _VERSIONS.get(lines)
