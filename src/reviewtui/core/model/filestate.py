"""File states: one version of one file, immutable, its lines shared with the version it
came from.

A :class:`FileState` holds either bytes or the lines an edit produced (with the line
endings of the version before); its bytes, text and digest are built on first use. Trees
(:mod:`reviewtui.core.model.tree`) hold them; nothing here touches the disk.
"""

from __future__ import annotations

from collections.abc import Sequence
from sys import getsizeof

from reviewtui.core.model import chunks as _chunks
from reviewtui.core.model.chunks import ChunkedLines
from reviewtui.core.text.kept import KeptByIdentity

UTF8_BOM = b"\xef\xbb\xbf"
_BINARY_SNIFF = 8192  # git's heuristic: a NUL early on means binary
# Texts decoded or built, kept for the bytes object (or, for FileState.text_unkept, the
# FileState) they came from: 256 at most, and within 48 MB of bytes and texts together (a
# text of two bytes a character counted as such). By count alone the versions of a 3 MB
# file held 256 x (its bytes + its text): 2.4 GB after 86 accepts in the workbench.
_decoded = KeptByIdentity(256, 48 << 20)


def _decode(data: bytes, bom: bool) -> str:
    """The text of ``data`` (BOM stripped), remembered for this very bytes object, so that
    the lines and the text of a version decode once. Keyed by identity, not content: a
    content key hashed all of a file's bytes on its first decode (~0.2 ms for 350 KB)."""
    text = _remembered(data, bom)
    if text is None:
        text = data[len(UTF8_BOM):].decode("utf-8") if bom else data.decode("utf-8")
        _remember(data, bom, text)
    return text


def _remembered(owner: bytes | FileState, bom: bool = False) -> str | None:
    found = _decoded.get(owner)
    return found[1] if isinstance(found, tuple) and found[0] == bom else None


def _remember(owner: bytes | FileState, bom: bool, text: str) -> None:
    """Keep ``text`` as the decoding of this very ``owner`` (a FileState's lines are
    shared with other versions: only its text counts)."""
    _decoded.put(owner, (bom, text),
                 getsizeof(text) + (len(owner) if isinstance(owner, bytes) else 0))


def _split_lines(data: bytes, bom: bool) -> tuple[str, ...]:
    # Kept on the FileState: a version made by an edit shares the unchanged line objects
    # with the version it came from, so the lines of many versions cost little.
    return tuple(_text_lines(_decode(data, bom))[0])


def _text_lines(text: str) -> tuple[list[str], bool]:
    r"""(lines without endings, ends with a newline).

    Only "\n" ends a line (not "\f", "\x1c" or "\u2028", as ``splitlines`` would have
    it), and a "\r" goes with it only right before it: a lone "\r" is content.
    """
    parts = text.split("\n")
    last = parts.pop()
    lines = [p[:-1] if p.endswith("\r") else p for p in parts] if "\r" in text else parts
    if last:
        lines.append(last)
    return lines, not last and bool(parts)


def looks_like_data(data: bytes) -> bool:
    """git's heuristic: a NUL byte early on means data, not text in any encoding."""
    return b"\x00" in data[:_BINARY_SNIFF]


def _is_binary(data: bytes) -> bool:
    if looks_like_data(data):
        return True
    if data.isascii():
        return False
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return True
    return False


def _line_endings(data: bytes) -> tuple[str, str]:
    """(style label, newline for new lines): the label is "mixed" when both occur."""
    if b"\r" not in data:  # no CRLF, whatever the LF count (one fast scan, not two counts)
        return "\n", "\n"
    crlf = data.count(b"\r\n")
    lf = data.count(b"\n") - crlf
    dominant = "\r\n" if crlf > lf else "\n"
    if crlf and lf:
        return "mixed", dominant
    return dominant, dominant


class FileState:
    """One version of one file: its bytes and the conventions read from them.

    Build with :meth:`from_bytes`; the fields after ``data`` describe it and must agree.
    Equality is about content (bytes and mode); ``revision`` counts versions of the file
    and does not take part. ``text`` and ``lines`` are decoded on demand.

    A version made by an edit (:meth:`splice`) keeps its lines as a
    :class:`~reviewtui.core.model.chunks.ChunkedLines` sharing every chunk the edit did
    not touch with the version before, and builds its bytes only when asked (a write, a
    digest): an edit costs what it changes, whatever the file's length, and a thousand
    versions of a file cost little more than one. ``lines`` (a tuple) is built from the
    chunks on first use; :attr:`line_store` reads them without building it.
    """

    __slots__ = ("_clean", "_data", "_digest", "_lines", "_store", "binary", "bom",
                 "encoding", "eol", "final_newline", "lineage", "mode", "newline",
                 "revision")

    _data: bytes | None
    _lines: tuple[str, ...] | None
    _store: ChunkedLines | None
    _clean: bool | None
    _digest: str | None
    encoding: str
    bom: bool
    eol: str  # "\n", "\r\n" or "mixed"
    newline: str  # what a new line ends with
    final_newline: bool
    mode: int
    binary: bool
    revision: int
    # Where this version's lines came from, for a version an evaluated operation made
    # (reviewtui.core.engine.lineage); None for one read from disk. Not content: it takes
    # no part in equality.
    lineage: object | None

    def __init__(self, data: bytes | None, encoding: str = "utf-8", bom: bool = False,
                 eol: str = "\n", newline: str = "\n", final_newline: bool = False,
                 mode: int = 0o644, binary: bool = False, revision: int = 0, *,
                 lines: tuple[str, ...] | None = None, clean: bool | None = None,
                 store: ChunkedLines | None = None) -> None:
        if data is None and lines is None and store is None:
            raise ValueError("a FileState needs its bytes or its lines")
        put = object.__setattr__
        put(self, "_data", data)
        put(self, "_lines", lines)
        put(self, "_store", store)
        put(self, "_clean", clean)
        put(self, "_digest", None)
        put(self, "encoding", encoding)
        put(self, "bom", bom)
        put(self, "eol", eol)
        put(self, "newline", newline)
        put(self, "final_newline", final_newline)
        put(self, "mode", mode)
        put(self, "binary", binary)
        put(self, "revision", revision)
        put(self, "lineage", None)

    def __setattr__(self, name: str, value: object) -> None:
        raise AttributeError(f"FileState is immutable: cannot set {name}")

    def __delattr__(self, name: str) -> None:
        raise AttributeError(f"FileState is immutable: cannot delete {name}")

    def __reduce__(self) -> tuple[object, ...]:
        return (FileState.from_bytes, (self.data, self.mode, self.revision))

    @classmethod
    def from_bytes(cls, data: bytes, mode: int = 0o644, revision: int = 0) -> FileState:
        # Permission bits only, whatever the source (disk, state file, patch): replay never
        # sets a setuid, setgid or sticky bit.
        mode &= 0o777
        if _is_binary(data):
            return cls(data, bom=False, final_newline=data.endswith(b"\n"), mode=mode,
                       binary=True, revision=revision)
        eol, newline = _line_endings(data)
        return cls(data, bom=data.startswith(UTF8_BOM), eol=eol, newline=newline,
                   final_newline=data.endswith(b"\n"), mode=mode, revision=revision)

    @classmethod
    def from_text(cls, text: str, mode: int = 0o644) -> FileState:
        """A new file written as the model wrote it: UTF-8, the text's own line endings."""
        return cls.from_bytes(text.encode("utf-8"), mode=mode)

    @property
    def data(self) -> bytes:
        """The file's bytes (built from the lines, once, for a version made by an edit)."""
        data = self._data
        if data is None:
            data = self._build()[0]
        return data

    def _build(self) -> tuple[bytes, str]:
        """The bytes of a version made by an edit, from its lines (kept), and its text
        (in the decode cache alone, within its budget: a text held by each written file
        made the next one's join slower, in fresh memory)."""
        text = _remembered(self) or self._joined()  # (joined already for a check: not again)
        data = (UTF8_BOM if self.bom else b"") + text.encode("utf-8")
        object.__setattr__(self, "_data", data)
        _remember(data, self.bom, text)  # asked again: this very text (its key is known)
        return data, text

    @property
    def text(self) -> str | None:
        """The decoded text with its line endings, BOM stripped; None for binary files."""
        if self.binary:
            return None
        data = self._data
        return self._build()[1] if data is None else _decode(data, self.bom)

    def text_unkept(self) -> str | None:
        """:attr:`text`, without keeping the bytes of a version made by an edit (which
        :attr:`text` builds and keeps): for a reader that looks at every version of a
        session (lint, the syntax checks), which would otherwise hold a whole copy of
        each. The text itself is remembered within the decode cache's budget."""
        if self.binary or self._data is not None:
            return self.text
        text = _remembered(self)  # (asked again: the same text object, not joined again)
        if text is None:
            text = self._joined()
            _remember(self, False, text)
        return text

    def _joined(self) -> str:
        """The text, joined from the lines (a version made by an edit)."""
        store = self._store
        text = store.joined(self.newline) if store is not None else self.newline.join(self.lines)
        return text + self.newline if self.final_newline else text

    @property
    def lines(self) -> tuple[str, ...]:
        """Decoded lines without their endings (BOM stripped); ``()`` for binary files."""
        if self.binary:
            return ()
        lines = self._lines
        if lines is None:
            store = self._store
            lines = store.as_tuple() if store is not None else _split_lines(self.data,
                                                                            self.bom)
            object.__setattr__(self, "_lines", lines)
        return lines

    @property
    def line_store(self) -> ChunkedLines:
        """The lines as shared chunks: what the engine reads and splices, so that an edit
        costs what it changes (``lines`` builds a whole tuple per version)."""
        store = self._store
        if store is None:
            store = ChunkedLines.from_lines(self.lines)
            object.__setattr__(self, "_store", store)
        return store

    @property
    def line_view(self) -> Sequence[str]:
        """The lines as the engine reads them: a short file's plain tuple (below the
        length where chunks get look-ups, a tuple is scanned and copied faster than
        chunks), else the shared chunks."""
        store = self._store
        if store is not None:
            return store.view()
        lines = self.lines
        short = len(lines) < _chunks.LOOKUP_FROM * _chunks.CHUNK
        return lines if short else self.line_store

    @property
    def line_count(self) -> int:
        """``len(lines)``, without building the tuple for a version made by an edit."""
        store = self._store
        return len(store) if store is not None else len(self.lines)

    def larger_than(self, limit: int) -> bool:
        """Whether the text holds more than ``limit`` characters (bytes, once built), told
        without building the bytes of a version made by an edit: a long one by its line
        count alone (a newline between two lines), a short one by its lines' lengths.
        (The workbench asked ``len(data)`` of every row's versions to choose where to check
        them, and so kept every version's bytes: 3 MB each of a big file.)"""
        if self.binary or self._data is not None:
            return len(self.data) > limit
        count = self.line_count  # (count - 1 newlines between the lines, and maybe a last)
        if count - 1 > limit:
            return True
        return sum(map(len, self.line_view)) + max(count - 1, 0) + self.final_newline > limit

    @property
    def size(self) -> int:
        """The number of bytes (without building them, for a version made by an edit)."""
        return len(self.data)

    @property
    def digest(self) -> str:
        """sha256 of the bytes, hex: what the shell compares to recognise its own writes."""
        if self._digest is None:
            import hashlib  # here: a headless ``check`` never asks (OpenSSL: ~3 ms to load)

            object.__setattr__(self, "_digest", hashlib.sha256(self.data).hexdigest())
        assert self._digest is not None
        return self._digest

    def __repr__(self) -> str:
        # The size as far as it is known: building a version's bytes to say how many it
        # has kept them (a worker's description repr'd every row's versions of a big file).
        kind = "binary" if self.binary else f"text eol={self.eol!r}"
        size = (f"{len(self._data)} bytes" if self._data is not None
                else f"{self.line_count} lines")
        return f"FileState({size}, {kind}, mode={self.mode:o}, r{self.revision})"

    def __eq__(self, other: object) -> bool:
        if self is other:
            return True
        if not isinstance(other, FileState):
            return NotImplemented
        if self.mode != other.mode:
            return False
        if self._data is not None and other._data is not None:
            return self._data == other._data
        # Every FileState is what from_bytes makes of its bytes, so for a text file with one
        # line ending its bytes follow from these fields and the lines, and the reverse:
        # comparing lines (shared objects, mostly) spares building the bytes.
        if self.binary or other.binary or self.eol == "mixed" or other.eol == "mixed":
            return self.data == other.data
        if ((self.bom, self.eol, self.newline, self.final_newline)
                != (other.bom, other.eol, other.newline, other.final_newline)):
            return False
        if self._store is None and other._store is None:
            return self.lines == other.lines
        # The chunks two versions of a file share are skipped, not compared line by line.
        return self.line_store == other.line_store

    def __hash__(self) -> int:
        return hash((self.data, self.mode))

    def with_data(self, data: bytes) -> FileState:
        """A new version with ``data`` as is; the same object if nothing changed."""
        if data == self.data:
            return self
        return FileState.from_bytes(data, mode=self.mode, revision=self.revision + 1)

    def with_lines(self, new_lines: Sequence[str], final_newline: bool | None = None, *,
                   span: tuple[int, int] | None = None) -> FileState:
        """These lines, written in this file's conventions.

        The BOM and line-ending style stay; in a mixed file every line keeps its own
        ending and a changed line takes that of the line it replaces (see
        :func:`_changed_endings`). ``span``: which of this version's lines were replaced
        (the rest are ``new_lines``' first and last lines), when the caller knows it; else
        the unchanged lines are found by comparing the two lists from each end. The final
        newline is kept unless ``final_newline`` says otherwise (an empty file has no
        convention yet, so it gets one).
        """
        if self.binary:
            raise ValueError("a binary file has no lines to replace")
        if final_newline is None:
            final_newline = self.final_newline or self._empty()
        if self.eol != "mixed" and new_lines:
            # One ending for every line: a single join (this runs for every edit).
            text = self.newline.join(new_lines)
            if text.count("\n") != (len(new_lines) - 1) * self.newline.count("\n"):
                raise ValueError("lines must not contain a newline")
            text += self.newline if final_newline else ""
            return self._with_joined(text, len(new_lines) - 1 + final_newline)
        if any("\n" in line for line in new_lines):
            raise ValueError("lines must not contain a newline")
        endings = self._endings_for(new_lines, span)
        if endings and not final_newline:
            endings[-1] = ""
        elif endings and not endings[-1]:
            endings[-1] = self.newline
        text = "".join(line + end for line, end in zip(new_lines, endings, strict=True))
        return self.with_data((UTF8_BOM if self.bom else b"") + text.encode("utf-8"))

    def splice(self, start: int, end: int, new_lines: Sequence[str],
               final_newline: bool | None = None) -> FileState:
        """Lines ``start:end`` (0-based) replaced by ``new_lines``: what :meth:`with_lines`
        gives for the whole spliced list and that ``span``, at the cost of the change.

        The new version shares all but the chunks holding the range with this one (see
        :mod:`reviewtui.core.model.chunks`) and builds its bytes only when they are asked
        for. Where the conventions could change (a mixed or binary file, a new line
        holding a ``\r``, a NUL or a BOM character, a file left with no line ending) it
        takes :meth:`with_lines`' way. The range must lie within the lines.
        """
        if self.binary:
            raise ValueError("a binary file has no lines to replace")
        old = self.line_view
        if not 0 <= start <= end <= len(old):
            raise IndexError(f"splice range {start}:{end} outside {len(old)} lines")
        if final_newline is None:
            final_newline = self.final_newline or self._empty()
        added = tuple(new_lines)
        store = self._store
        lines: tuple[str, ...] | ChunkedLines
        if store is None and isinstance(old, tuple):  # a small file: one tuple, as it was
            lines = old[:start] + added + old[end:]
            first, last = (lines[0], lines[-1]) if lines else ("", "")
        else:
            lines = (store if store is not None else self.line_store).splice(start, end,
                                                                            added)
            chunks = lines.chunks  # (its first and last line without a look-up)
            first, last = (chunks[0].lines[0], chunks[-1].lines[-1]) if chunks else ("", "")
        joined = "".join(added)
        if (self.eol == "mixed" or not lines or not self._is_clean()
                or "\n" in joined or "\r" in joined or "\x00" in joined
                or first.startswith("\ufeff") or (not final_newline and not last)
                or len(lines) - 1 + bool(final_newline) == 0):
            whole = lines if isinstance(lines, tuple) else lines.as_tuple()
            return self.with_lines(whole, final_newline=final_newline, span=(start, end))
        if (len(added) == end - start and tuple(old[start:end]) == added
                and final_newline == self.final_newline):
            return self
        joined.encode("utf-8")  # a lone surrogate fails here, as in with_lines
        if isinstance(lines, tuple):
            return FileState(None, bom=self.bom, eol=self.newline, newline=self.newline,
                             final_newline=bool(final_newline), mode=self.mode,
                             revision=self.revision + 1, clean=True, lines=lines)
        return FileState(None, bom=self.bom, eol=self.newline, newline=self.newline,
                         final_newline=bool(final_newline), mode=self.mode,
                         revision=self.revision + 1, clean=True, store=lines)

    def _empty(self) -> bool:
        """No content (a BOM alone counts as none): no line-ending convention yet."""
        # A version made by an edit always has a line ending, so it is never empty.
        return self._data is not None and not self._data.removeprefix(UTF8_BOM)

    def _is_clean(self) -> bool:
        """No line holds a ``\r`` or a NUL and the text does not start with a BOM
        character: the file's conventions follow from its line ending alone."""
        clean = self._clean
        if clean is None:
            data = self.data
            body = data[len(UTF8_BOM):] if self.bom else data
            # Every "\r" ends a line: counted only for CRLF files ("in" is one fast scan,
            # a count a slow one: ~0.4 ms for 350 KB).
            endings_only = (data.count(b"\r") == data.count(b"\r\n") if self.newline == "\r\n"
                            else b"\r" not in data)
            clean = (not self.binary and self.eol != "mixed" and b"\x00" not in data
                     and endings_only and not body.startswith(UTF8_BOM))
            object.__setattr__(self, "_clean", clean)
        return clean

    def _with_joined(self, text: str, newlines: int) -> FileState:
        """:meth:`with_data` of ``text`` joined in this file's conventions, without
        re-reading the whole file for them when nothing in it can change them: every
        ``\r`` is one of our line endings, no NUL, no BOM character at the start. The
        result is field for field what :meth:`from_bytes` gives (tests check it)."""
        data = (UTF8_BOM if self.bom else b"") + text.encode("utf-8")
        if data == self.data:
            return self
        crs = newlines if self.newline == "\r\n" else 0
        if (newlines == 0 or text.count("\r") != crs or "\x00" in text[:_BINARY_SNIFF]
                or text.startswith("\ufeff")):
            return self.with_data(data)
        return FileState(data, bom=self.bom, eol=self.newline, newline=self.newline,
                         final_newline=data.endswith(b"\n"), mode=self.mode,
                         revision=self.revision + 1)

    def with_text(self, text: str) -> FileState:
        """A whole-file replacement keeping BOM, line-ending style and mode.

        The final newline follows ``text``. A binary file is simply replaced.
        """
        if self.binary:
            return self.with_data(text.encode("utf-8"))
        lines, final = _text_lines(text.removeprefix("\ufeff"))
        return self.with_lines(lines, final_newline=final)

    def _endings_for(self, new_lines: Sequence[str],
                     span: tuple[int, int] | None = None) -> list[str]:
        """Line endings for ``new_lines`` (``span``: see :meth:`with_lines`); only mixed
        files need per-line bookkeeping."""
        if self.eol != "mixed":
            return [self.newline] * len(new_lines)
        old = self.lines
        old_ends = _old_endings(self)
        n_new, n_old = len(new_lines), len(old)
        # Without a span the whole text is the block: _changed_endings keeps the ending of
        # each line it begins and ends with unchanged.
        head, tail = (span[0], n_old - span[1]) if span is not None else (0, 0)
        ends = [self.newline] * n_new
        ends[:head] = old_ends[:head]
        if tail:
            ends[n_new - tail:] = old_ends[n_old - tail:]
        if n_new - tail > head:
            ends[head : n_new - tail] = _changed_endings(
                old[head : n_old - tail], old_ends[head : n_old - tail],
                new_lines[head : n_new - tail], self.newline,
                above=(old_ends[head - 1] or None) if head else None)
        return ends


# Above this many old times new changed lines, the changed lines of a mixed file are aligned
# by a linear walk (:func:`_greedy_endings`), not by difflib.
_ALIGN_LIMIT = 4_000_000
_NEAR = 64  # old lines a repeated line may be looked for ahead in that walk


def _changed_endings(old: Sequence[str], old_ends: Sequence[str], new: Sequence[str],
                     dominant: str, above: str | None = None) -> list[str]:
    """The endings of the changed lines ``new`` of a mixed file, which replace ``old``
    (ending in ``old_ends``; "": the file's last line, without one).

    A model types LF whatever the file holds: it means the lines' text, not their
    endings. So the new lines take the endings of the lines they replace: where every
    replaced line ends alike, that ending for all of them (an added line too, wherever it
    is in the block: the block's own convention); else line for line when as many lines
    replace as many, else each equal line its own and each replaced run line for line
    (what it replaces being the nearest old line, an inserted line the one above it,
    ``above`` for the first ones). The file's dominant ending is only for lines that
    replace nothing that had one, with no line above."""
    known = [end or dominant for end in old_ends]
    if not known:
        return [above or dominant] * len(new)
    if len(set(known)) == 1:
        return [known[0]] * len(new)
    if len(old) == len(new):
        return list(known)
    # The lines the block begins and ends with unchanged keep their own endings (SEARCH
    # quotes context); only the middle needs aligning.
    head, limit = 0, min(len(old), len(new))
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[len(old) - 1 - tail] == new[len(new) - 1 - tail]:
        tail += 1
    if head or tail:
        middle = _changed_endings(old[head : len(old) - tail], known[head : len(old) - tail],
                                  new[head : len(new) - tail], dominant,
                                  known[head - 1] if head else above)
        return [*known[:head], *middle, *known[len(old) - tail :]]
    if len(old) * len(new) > _ALIGN_LIMIT:
        return _greedy_endings(old, known, new, above)
    from difflib import SequenceMatcher  # (the changed lines alone: bounded above)

    ends: list[str] = []
    for tag, i1, i2, j1, j2 in SequenceMatcher(None, old, new, autojunk=False).get_opcodes():
        for j in range(j2 - j1):
            if tag == "insert":
                ends.append(known[i1 - 1] if i1 > 0 else above or known[0])
            else:
                ends.append(known[i1 + min(j, i2 - i1 - 1)])
    return ends


def _old_endings(state: FileState) -> list[str]:
    text = state.text or ""
    parts = text.split("\n")
    ends = ["\r\n" if p.endswith("\r") else "\n" for p in parts[:-1]]
    if parts[-1]:  # a last line without a newline
        ends.append("")
    return ends


def _greedy_endings(old: Sequence[str], known: Sequence[str], new: Sequence[str],
                    above: str | None) -> list[str]:
    """:func:`_changed_endings` of a block too big for difflib: each new line that is an
    old line further on (the next one, or for a line repeated in the block one within
    :data:`_NEAR` lines) takes that line's ending and the walk goes on after it; any other
    takes the ending of the old line it stands at. Linear in the block, and every
    unchanged line keeps its ending (QA pass s28: past the limit every line of the block
    took the ending most of them had, unchanged ones too, exit 0)."""
    from bisect import bisect_left

    where: dict[str, list[int]] = {}
    for position, line in enumerate(old):
        where.setdefault(line, []).append(position)
    ends: list[str] = []
    at = 0  # the first old line not passed yet
    for line in new:
        found = where.get(line)
        if found:
            k = bisect_left(found, at)
            if k < len(found) and (len(found) == 1 or found[k] - at <= _NEAR):
                ends.append(known[found[k]])
                at = found[k] + 1
                continue
        ends.append(known[at] if at < len(known) else known[-1] if known else above or "\n")
    return ends
