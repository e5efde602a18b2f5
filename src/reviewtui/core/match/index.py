"""Normalised views of a file's lines, built once per call and only when exact fails."""

from __future__ import annotations

import _thread
from collections.abc import Callable, Iterator, Sequence
from functools import cached_property

from reviewtui.core.match.indent import IndentStyle, guess_style
from reviewtui.core.match.normalise import loose_key

TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import TypeVar

    T = TypeVar("T")

_STYLE_SAMPLE = 2000  # lines read to guess the file's indentation when a region cannot
_SQUASHED_SCANS = 8  # squashed look-ups of a version answered by a scan (then the map)


class FileIndex:
    """Loose keys of the lines in the window ``[lo, hi)``; positions are file indexes.

    The keys are computed up front (one pass, ~5 ms per 100k lines); the key -> positions
    map costs three times that, so it is only built for the stages that need many
    look-ups (elision, near match, diagnosis). Stage 2 scans the key list instead.
    """

    def __init__(self, lines: Sequence[str], lo: int, hi: int) -> None:
        self.lines = lines
        self.lo = lo
        self.hi = hi
        self._keys = [line.strip() if line.isascii() else loose_key(line)
                      for line in lines[lo:hi]]
        self._squashed_asked = 0

    def key(self, position: int) -> str:
        return self._keys[position - self.lo]

    def find(self, key: str, lo: int, hi: int) -> Iterator[int]:
        """Positions in ``[lo, hi)`` whose loose key is ``key``, ascending."""
        if "_where" in self.__dict__:  # the map is there already: no scan needed
            yield from (p for p in self.positions(key) if lo <= p < hi)
            return
        at, stop = max(lo, self.lo) - self.lo, min(hi, self.hi) - self.lo
        while at < stop:
            try:
                at = self._keys.index(key, at, stop)
            except ValueError:
                return
            yield at + self.lo
            at += 1

    def positions(self, key: str) -> list[int]:
        """Every position of a loose key in the window, ascending."""
        return self._where.get(key, [])

    def squashed_positions(self, squashed: str) -> list[int]:
        """Every position whose line reads ``squashed`` with its whitespace removed (the
        diagnosis of a SEARCH spaced otherwise inside its lines: ``f(1, 2)`` for ``f(1,2)``).

        The first few look-ups of a version scan its keys for lines that start and end as
        ``squashed`` does (a comparison each), squashing those alone: the map of every
        line's squashed key cost ~25 ms a 20,000-line version, built for each failed edit
        of a file the session changes turn after turn (QA s53 helper-221: 200 of them)."""
        if "_squashed" in self.__dict__ or not squashed:
            return self._squashed.get(squashed, [])
        self._squashed_asked += 1
        if self._squashed_asked > _SQUASHED_SCANS:
            return self._squashed.get(squashed, [])
        first, last = squashed[0], squashed[-1]
        return [position for position, key in enumerate(self._keys, self.lo)
                if key[:1] == first and key[-1:] == last and "".join(key.split()) == squashed]

    def style(self) -> IndentStyle | None:
        """The whole file's indentation style, from its first lines."""
        return self._style

    @cached_property
    def _where(self) -> dict[str, list[int]]:
        where: dict[str, list[int]] = {}
        for position, key in enumerate(self._keys, self.lo):
            bucket = where.get(key)
            if bucket is None:
                where[key] = [position]
            else:
                bucket.append(position)
        return where

    @cached_property
    def _squashed(self) -> dict[str, list[int]]:
        # From the loose keys (split and joined in C: ~3 ms per 10,000 lines), built on the
        # first SEARCH line the loose keys do not find, once per file version.
        where: dict[str, list[int]] = {}
        for position, key in enumerate(self._keys, self.lo):
            where.setdefault("".join(key.split()), []).append(position)
        return where

    @cached_property
    def _style(self) -> IndentStyle | None:
        return guess_style(self.lines[:_STYLE_SAMPLE])


_kept_lock = _thread.allocate_lock()  # the workbench evaluates in worker threads


def kept_per_version(kept: list[tuple[Sequence[str], int, int, T]], lines: Sequence[str],
                     lo: int, hi: int, build: Callable[[], T], size: int = 2) -> T:
    """What ``build`` makes of the window ``[lo, hi)`` of a file version, kept in ``kept``
    (the last ``size`` versions, most recent last) for the next failed edit of the same
    version. Only immutable lines are kept (a list may change under one id); the entry
    holds them, so the id stays theirs while it is kept."""
    from reviewtui.core.model.chunks import ChunkedLines  # (the store: loaded already)

    if type(lines) is not tuple and type(lines) is not ChunkedLines:
        return build()
    with _kept_lock:
        for held, held_lo, held_hi, value in kept:
            if held is lines and held_lo == lo and held_hi == hi:
                return value
    value = build()
    with _kept_lock:
        kept.append((lines, lo, hi, value))
        del kept[:-size]
    return value


_indexes: list[tuple[Sequence[str], int, int, FileIndex]] = []


def index_for(lines: Sequence[str], lo: int, hi: int) -> FileIndex:
    """A :class:`FileIndex` of ``lines[lo:hi]``, the same one again for the next failed edit
    of the same file version (the refused hunks of a diff, later edits failing after a
    reject): its keys and their map cost ~40% of a failure on a 28,000-line file when each
    edit built them anew."""
    return kept_per_version(_indexes, lines, lo, hi, lambda: FileIndex(lines, lo, hi))
