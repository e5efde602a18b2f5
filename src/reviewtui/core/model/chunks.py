"""A file version's lines as a row of shared chunks, so that an edit costs what it changes.

A :class:`ChunkedLines` holds its lines in chunks of a few hundred. Splicing copies the
one or two chunks the edit touches and the short row of chunks; every other chunk is the
same object in the version before and the one after. Each chunk answers "where is this
line" from a lookup it builds on demand and keeps, so the exact matcher asks each chunk
once instead of comparing every line, and an unchanged chunk keeps its lookup in every
version that shares it. Equality skips the chunks two versions share.

Pure: no I/O; :class:`~reviewtui.core.model.filestate.FileState` holds one per version.
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Iterable, Iterator, Sequence
from itertools import chain
from operator import is_

from reviewtui.core.typed import overload

# Lines per chunk when a store is built (at least; see chunk_size). A splice keeps every
# chunk between a quarter and twice the store's size.
CHUNK = 256
# A store of fewer chunks is scanned line by line: a look-up costs about three scans of
# its chunk to build and more than the chunk's size in memory, which small files do not
# win back.
LOOKUP_FROM = 8


class Chunk:
    """Consecutive lines of one file, shared by every version that did not change them.

    Its lookup (the set of its lines) is built on the second question, not the first: a
    chunk an edit just made is usually asked once before the next edit replaces it, and
    would pay for a lookup it never uses. A set costs about three scans of the chunk to
    build; a dict of first positions would cost ten.
    """

    __slots__ = ("_asked", "_has", "_kin", "_text", "lines")

    lines: tuple[str, ...]
    _has: frozenset[str] | None
    _asked: int
    # A chunk an edit made from one that had its lookup: that lookup and the lines the
    # edits since have written, together a superset of its lines (see Chunk.first).
    _kin: tuple[frozenset[str], tuple[str, ...]] | None

    def __init__(self, lines: tuple[str, ...],
                 kin: tuple[frozenset[str], tuple[str, ...]] | None = None) -> None:
        self.lines = lines
        self._has = None
        self._asked = 0
        self._kin = kin
        self._text: str | None = None

    def text(self) -> str:
        """Its lines joined by newlines, kept once asked (:meth:`ChunkedLines.count_in_lines`)."""
        text = self._text
        if text is None:
            text = self._text = "\n".join(self.lines)
        return text

    def first(self, line: str, lookup: bool) -> int:
        """The first position of ``line`` in this chunk, -1 if absent; ``lookup`` allows
        building the lookup (two threads may both build it: each builds the same one).

        A chunk an edit made from one with a lookup answers from that lookup and the
        lines written since, without a lookup of its own (building one costs about a
        scan of its lines per ten questions, and the next edit usually replaces it): a
        line in neither is not in it; a line in either is looked for."""
        has = self._has
        if has is None:
            kin = self._kin
            if kin is not None:
                if line not in kin[0] and line not in kin[1]:
                    return -1
            else:
                self._asked += 1
                if lookup and self._asked >= 2:
                    has = self._has = frozenset(self.lines)
        if has is not None and line not in has:
            return -1
        try:
            return self.lines.index(line)
        except ValueError:
            return -1

    def __repr__(self) -> str:
        return f"Chunk({len(self.lines)} lines)"


_KIN_LINES = 64  # written lines a chunk's kin may carry before it builds its own lookup


def _kin(source: Chunk, added: tuple[str, ...]) -> tuple[frozenset[str], tuple[str, ...]] | None:
    """What a chunk made by an edit of ``source`` alone (writing ``added``) answers from:
    ``source``'s lookup, or its own kin, and the lines written; None when it has neither
    or the written lines grew long."""
    if source._has is not None:
        return (source._has, added) if len(added) <= _KIN_LINES else None
    kin = source._kin
    if kin is None or len(kin[1]) + len(added) > _KIN_LINES:
        return None
    return kin[0], kin[1] + added


def chunk_size(count: int) -> int:
    """The chunk size for a file of ``count`` lines: ``CHUNK`` (read at call time: tests
    shrink it), larger past ~8,000 lines. An edit costs about one step per chunk in the
    file plus one per line in the chunk it copies; growing the chunks as the square root
    of the file keeps both small (50,000 lines: ~630 a chunk, ~80 chunks)."""
    product = count * CHUNK // 32
    if product < CHUNK * CHUNK:  # a square root below CHUNK: files under ~8,000 lines
        return CHUNK
    from math import isqrt  # (a shared library: loaded for big files alone, start-up)

    return isqrt(product)


def _pieces(lines: tuple[str, ...], size: int) -> list[Chunk]:
    """``lines`` cut into chunks of ``size`` or a little more, none of them small."""
    count = max(1, len(lines) // size) if lines else 0
    if count <= 1:
        return [Chunk(lines)] if lines else []
    step, extra = divmod(len(lines), count)
    out: list[Chunk] = []
    at = 0
    for n in range(count):
        width = step + (n < extra)
        out.append(Chunk(lines[at : at + width]))
        at += width
    return out


class ChunkedLines(Sequence[str]):
    """Immutable lines, stored as shared :class:`Chunk` objects.

    It reads as a sequence (``len``, indexes, slices as tuples, iteration, ``index``);
    :meth:`splice` makes a new version, :meth:`positions` finds a line through the chunks'
    lookups. ``size`` is the chunk size (small in tests, so a few lines span many chunks).
    """

    __slots__ = ("_chunks", "_len", "_size", "_starts")

    _chunks: tuple[Chunk, ...]
    _starts: tuple[int, ...]  # each chunk's first line
    _len: int
    _size: int

    def __init__(self, chunks: Iterable[Chunk], size: int | None = None) -> None:
        self._chunks = tuple(chunks)
        starts = []
        total = 0
        for chunk in self._chunks:
            if not chunk.lines:
                raise ValueError("a chunk holds at least one line")
            starts.append(total)
            total += len(chunk.lines)
        self._starts = tuple(starts)
        self._len = total
        self._size = CHUNK if size is None else size

    @classmethod
    def from_lines(cls, lines: Iterable[str], size: int | None = None) -> ChunkedLines:
        lines = tuple(lines)
        size = chunk_size(len(lines)) if size is None else size
        if size < 1:
            raise ValueError("a chunk size is at least one line")
        return cls(_pieces(lines, size), size)

    @property
    def chunks(self) -> tuple[Chunk, ...]:
        return self._chunks

    def __len__(self) -> int:
        return self._len

    def __iter__(self) -> Iterator[str]:
        return chain.from_iterable(chunk.lines for chunk in self._chunks)

    def __reversed__(self) -> Iterator[str]:
        return chain.from_iterable(reversed(chunk.lines) for chunk in reversed(self._chunks))

    def __contains__(self, line: object) -> bool:
        return isinstance(line, str) and next(self.positions(line), None) is not None

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...
    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        if isinstance(index, int):
            if index < 0:
                index += self._len
            if not 0 <= index < self._len:
                raise IndexError("line index out of range")
            starts = self._starts
            k = bisect_right(starts, index) - 1
            return self._chunks[k].lines[index - starts[k]]
        start, stop, step = index.indices(self._len)
        if step != 1:
            return self.as_tuple()[index]
        return self._range(start, stop)

    def _range(self, start: int, stop: int) -> tuple[str, ...]:
        """Lines ``start:stop`` (already within bounds) as a tuple."""
        if start >= stop:
            return ()
        starts, chunks = self._starts, self._chunks
        k = bisect_right(starts, start) - 1
        first = chunks[k].lines
        offset = start - starts[k]
        if stop - starts[k] <= len(first):
            return first[offset : stop - starts[k]]
        parts = [first[offset:]]
        k += 1
        while k < len(chunks) and starts[k] < stop:
            parts.append(chunks[k].lines[: stop - starts[k]])
            k += 1
        return tuple(chain.from_iterable(parts))

    def view(self) -> Sequence[str]:
        """The cheapest sequence to read these lines through: a small file's one chunk is a
        plain tuple (indexed in C), a longer file is read through this store."""
        chunks = self._chunks
        return chunks[0].lines if len(chunks) == 1 else self

    def as_tuple(self) -> tuple[str, ...]:
        chunks = self._chunks
        if len(chunks) == 1:
            return chunks[0].lines
        return tuple(chain.from_iterable(chunk.lines for chunk in chunks))

    def joined(self, separator: str) -> str:
        """``separator.join(self)``, a chunk at a time."""
        return separator.join(separator.join(chunk.lines) for chunk in self._chunks)

    def count_in_lines(self, fragment: str, enough: int) -> int:
        """How many times ``fragment`` (without a newline) occurs in the lines, counted up
        to ``enough``. Each chunk's joined text is kept, so a version an edit made from
        another costs the chunks it changed."""
        found = 0
        for chunk in self._chunks:
            found += chunk.text().count(fragment)
            if found >= enough:
                break
        return found

    def positions(self, line: str, lo: int = 0, hi: int | None = None) -> Iterator[int]:
        """Every index in ``[lo, hi)`` holding ``line``, ascending, each chunk asked once."""
        hi = self._len if hi is None else min(hi, self._len)
        lo = max(lo, 0)
        if lo >= hi:
            return
        starts, chunks = self._starts, self._chunks
        lookup = len(chunks) >= LOOKUP_FROM
        k = bisect_right(starts, lo) - 1
        while k < len(chunks) and starts[k] < hi:
            base = starts[k]
            chunk = chunks[k]
            k += 1
            has = chunk._has  # the common case inline: one set look-up a chunk
            if has is None:
                at = chunk.first(line, lookup)
                if at < 0:
                    continue
            elif line in has:
                at = -1  # somewhere in the chunk
            else:
                continue
            lines = chunk.lines
            low, high = max(lo - base, 0), min(hi - base, len(lines))
            if at >= high:
                continue  # its first occurrence lies past the range
            if at < low:
                try:
                    at = lines.index(line, low, high)
                except ValueError:
                    continue
            while at < high:
                yield base + at
                try:
                    at = lines.index(line, at + 1, high)
                except ValueError:
                    break

    def index(self, value: object, start: int = 0, stop: int | None = None) -> int:
        """The first index of ``value`` in ``[start, stop)``, as ``tuple.index`` has it."""
        size = self._len
        if start < 0:
            start = max(start + size, 0)
        if stop is not None and stop < 0:
            stop += size
        if isinstance(value, str):
            found = next(self.positions(value, start, stop), None)
            if found is not None:
                return found
        raise ValueError(f"{value!r} is not in the lines")

    def count(self, value: object) -> int:
        return sum(1 for _ in self.positions(value)) if isinstance(value, str) else 0

    def splice(self, start: int, end: int, new_lines: Sequence[str]) -> ChunkedLines:
        """Lines ``start:end`` replaced by ``new_lines``: the chunks the range touches are
        copied, every other chunk is shared. The range must lie within the lines."""
        if not 0 <= start <= end <= self._len:
            raise IndexError(f"splice range {start}:{end} outside {self._len} lines")
        chunks, starts, size = self._chunks, self._starts, self._size
        added = tuple(new_lines)
        if not chunks:
            return ChunkedLines.from_lines(added, size)
        # The chunks [first, last] hold the range; a pure insertion goes into the chunk
        # holding ``start`` (the last one when appending).
        first = min(bisect_right(starts, start) - 1, len(chunks) - 1)
        last = max(bisect_right(starts, end - 1) - 1, first) if end > start else first
        head = chunks[first].lines[: start - starts[first]]
        tail = chunks[last].lines[end - starts[last] :]
        middle = head + added + tail
        # A small middle joins a neighbour, so edits cannot leave a trail of tiny chunks.
        if len(middle) < max(size // 4, 1):
            if last + 1 < len(chunks):
                last += 1
                middle += chunks[last].lines
            elif first > 0:
                first -= 1
                middle = chunks[first].lines + middle
        if first == last and len(middle) <= 2 * size and middle:
            made = [Chunk(middle, _kin(chunks[first], added))]
        else:
            made = _pieces(middle, size) if len(middle) > 2 * size else (
                [Chunk(middle)] if middle else [])
        out = ChunkedLines.__new__(ChunkedLines)
        out._chunks = (*chunks[:first], *made, *chunks[last + 1 :])
        shift = len(added) - (end - start)
        at = starts[first]
        mids = []
        for chunk in made:
            mids.append(at)
            at += len(chunk.lines)
        out._starts = (*starts[:first], *mids, *map(shift.__add__, starts[last + 1 :]))
        out._len = self._len + shift
        out._size = size
        return out

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if isinstance(other, ChunkedLines):
            return self._same(other)
        if isinstance(other, tuple | list):
            return len(other) == self._len and self.as_tuple() == tuple(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to a tuple, so not hashable as one

    def _same(self, other: ChunkedLines) -> bool:
        """Equal lines, comparing only what lies between the shared leading and trailing
        chunks (two versions of one file share all but the chunks their edits touched)."""
        if self._len != other._len:
            return False
        a, b = self._chunks, other._chunks
        if len(a) == 1 == len(b):  # a small file: one chunk each
            return a[0] is b[0] or a[0].lines == b[0].lines
        # Identity chunk by chunk, at C speed, from the front and from the back.
        front = list(map(is_, a, b))
        head = front.index(False) if False in front else len(front)
        back = list(map(is_, reversed(a[head:]), reversed(b[head:])))
        tail = back.index(False) if False in back else len(back)
        mine, theirs = a[head : len(a) - tail], b[head : len(b) - tail]
        if not mine:
            return not theirs  # (both empty: equal lengths leave nothing else)
        if len(mine) == len(theirs) and all(
                len(x.lines) == len(y.lines) for x, y in zip(mine, theirs, strict=True)):
            # Same cuts (an edit that kept the line count): compare chunk to chunk.
            return all(x.lines == y.lines for x, y in zip(mine, theirs, strict=True))
        # Shared leading chunks start at 0 in both; shared trailing ones end at the end.
        lo = self._starts[head]
        hi = self._starts[len(a) - tail] if tail else self._len
        return self._range(lo, hi) == other._range(lo, hi)

    def __repr__(self) -> str:
        return f"ChunkedLines({self._len} lines in {len(self._chunks)} chunks)"
