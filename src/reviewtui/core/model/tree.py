"""The virtual tree: immutable file states and snapshots of the whole project.

A :class:`Tree` is a persistent trie of directories. Changing a file copies only the
directories on its path, so a checkpoint costs a few small dicts plus the new file
versions, and :meth:`Tree.diff` skips every directory the two trees still share,
whatever the history between them. Paths are assumed normalised
(:func:`reviewtui.core.paths.safety.normalize_path`); nothing here touches the disk.
"""

from __future__ import annotations

import functools
import hashlib
from collections.abc import Iterator, Mapping, Sequence

from reviewtui.core.errors import PathRefused

UTF8_BOM = b"\xef\xbb\xbf"
_BINARY_SNIFF = 8192  # git's heuristic: a NUL early on means binary

# --- file states ---------------------------------------------------------------------


@functools.lru_cache(maxsize=256)
def _decode(data: bytes, bom: bool) -> str:
    return data[len(UTF8_BOM):].decode("utf-8") if bom else data.decode("utf-8")


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


def _is_binary(data: bytes) -> bool:
    if b"\x00" in data[:_BINARY_SNIFF]:
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

    A version made by an edit (:meth:`with_lines`) keeps the lines it was made of, which
    share every unchanged line with the version before, and builds its bytes only when
    asked (a write, a digest): an edit costs what it changes plus one pass over the line
    pointers, and a thousand versions of a file cost little more than one.
    """

    __slots__ = ("_clean", "_data", "_digest", "_lines", "binary", "bom", "encoding", "eol",
                 "final_newline", "mode", "newline", "revision")

    _data: bytes | None
    _lines: tuple[str, ...] | None
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

    def __init__(self, data: bytes | None, encoding: str = "utf-8", bom: bool = False,
                 eol: str = "\n", newline: str = "\n", final_newline: bool = False,
                 mode: int = 0o644, binary: bool = False, revision: int = 0, *,
                 lines: tuple[str, ...] | None = None, clean: bool | None = None) -> None:
        if data is None and lines is None:
            raise ValueError("a FileState needs its bytes or its lines")
        put = object.__setattr__
        put(self, "_data", data)
        put(self, "_lines", lines)
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
            assert self._lines is not None
            text = self.newline.join(self._lines) + (self.newline if self.final_newline
                                                      else "")
            data = (UTF8_BOM if self.bom else b"") + text.encode("utf-8")
            object.__setattr__(self, "_data", data)
        return data

    @property
    def text(self) -> str | None:
        """The decoded text with its line endings, BOM stripped; None for binary files."""
        return None if self.binary else _decode(self.data, self.bom)

    @property
    def lines(self) -> tuple[str, ...]:
        """Decoded lines without their endings (BOM stripped); ``()`` for binary files."""
        if self.binary:
            return ()
        lines = self._lines
        if lines is None:
            lines = _split_lines(self.data, self.bom)
            object.__setattr__(self, "_lines", lines)
        return lines

    @property
    def size(self) -> int:
        """The number of bytes (without building them, for a version made by an edit)."""
        return len(self.data)

    @property
    def digest(self) -> str:
        """sha256 of the bytes, hex: what the shell compares to recognise its own writes."""
        if self._digest is None:
            object.__setattr__(self, "_digest", hashlib.sha256(self.data).hexdigest())
        assert self._digest is not None
        return self._digest

    def __repr__(self) -> str:
        kind = "binary" if self.binary else f"text eol={self.eol!r}"
        return (f"FileState({len(self.data)} bytes, {kind}, mode={self.mode:o}, "
                f"r{self.revision})")

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
        return ((self.bom, self.eol, self.newline, self.final_newline)
                == (other.bom, other.eol, other.newline, other.final_newline)
                and self.lines == other.lines)

    def __hash__(self) -> int:
        return hash((self.data, self.mode))

    def with_data(self, data: bytes) -> FileState:
        """A new version with ``data`` as is; the same object if nothing changed."""
        if data == self.data:
            return self
        return FileState.from_bytes(data, mode=self.mode, revision=self.revision + 1)

    def with_lines(self, new_lines: Sequence[str],
                   final_newline: bool | None = None) -> FileState:
        """These lines, written in this file's conventions.

        The BOM and line-ending style stay; in a mixed file the unchanged lines before
        the first and after the last changed line keep their own endings and the rest
        get the dominant one. The final newline is kept unless ``final_newline`` says
        otherwise (an empty file has no convention yet, so it gets one).
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
        endings = self._endings_for(new_lines)
        if endings and not final_newline:
            endings[-1] = ""
        elif endings and not endings[-1]:
            endings[-1] = self.newline
        text = "".join(line + end for line, end in zip(new_lines, endings, strict=True))
        return self.with_data((UTF8_BOM if self.bom else b"") + text.encode("utf-8"))

    def splice(self, start: int, end: int, new_lines: Sequence[str],
               final_newline: bool | None = None) -> FileState:
        """Lines ``start:end`` (0-based) replaced by ``new_lines``: what :meth:`with_lines`
        gives for the whole spliced list, at the cost of the change.

        The new version shares this one's line objects and builds its bytes only when
        they are asked for. Where the conventions could change (a mixed or binary file, a
        new line holding a ``\r``, a NUL or a BOM character, a file left with no line
        ending) it takes :meth:`with_lines`' way.
        """
        old = self.lines
        if final_newline is None:
            final_newline = self.final_newline or self._empty()
        added = tuple(new_lines)
        lines = old[:start] + added + old[end:]
        joined = "".join(added)
        if (self.binary or self.eol == "mixed" or not lines or not self._is_clean()
                or "\n" in joined or "\r" in joined or "\x00" in joined
                or lines[0].startswith("\ufeff") or (not final_newline and not lines[-1])
                or len(lines) - 1 + bool(final_newline) == 0):
            return self.with_lines(lines, final_newline=final_newline)
        if added == old[start:end] and final_newline == self.final_newline:
            return self
        joined.encode("utf-8")  # a lone surrogate fails here, as in with_lines
        return FileState(None, bom=self.bom, eol=self.newline, newline=self.newline,
                         final_newline=bool(final_newline), mode=self.mode,
                         revision=self.revision + 1, lines=lines, clean=True)

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
            crs = data.count(b"\r\n") if self.newline == "\r\n" else 0
            clean = (not self.binary and self.eol != "mixed" and b"\x00" not in data
                     and data.count(b"\r") == crs and not body.startswith(UTF8_BOM))
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

    def _endings_for(self, new_lines: Sequence[str]) -> list[str]:
        """Line endings for ``new_lines``; only mixed files need per-line bookkeeping."""
        if self.eol != "mixed":
            return [self.newline] * len(new_lines)
        old = self.lines
        old_ends = _old_endings(self)
        n_new, n_old = len(new_lines), len(old)
        limit = min(n_new, n_old)
        head = 0
        while head < limit and new_lines[head] == old[head]:
            head += 1
        tail = 0
        while tail < limit - head and new_lines[n_new - 1 - tail] == old[n_old - 1 - tail]:
            tail += 1
        ends = [self.newline] * n_new
        ends[:head] = old_ends[:head]
        if tail:
            ends[n_new - tail:] = old_ends[n_old - tail:]
        return ends


def _old_endings(state: FileState) -> list[str]:
    text = state.text or ""
    parts = text.split("\n")
    ends = ["\r\n" if p.endswith("\r") else "\n" for p in parts[:-1]]
    if parts[-1]:  # a last line without a newline
        ends.append("")
    return ends


# --- the tree ------------------------------------------------------------------------


class _Dir:
    """One directory level; never mutated once a Tree holds it, so Trees can share it."""

    __slots__ = ("count", "entries")

    def __init__(self, entries: dict[str, FileState | _Dir]) -> None:
        self.entries = entries
        self.count: int = sum(
            1 if isinstance(v, FileState) else v.count for v in entries.values()
        )


_EMPTY = _Dir({})

Change = FileState | None  # None: the path ends up absent


class _Pending:
    """The changes for one directory level, grouped so each level is copied once."""

    __slots__ = ("removals", "sets", "subdirs")

    def __init__(self) -> None:
        self.removals: set[str] = set()
        self.sets: dict[str, FileState] = {}
        self.subdirs: dict[str, _Pending] = {}


def _group(changes: Mapping[str, Change]) -> _Pending:
    top = _Pending()
    for path, state in changes.items():
        *dirs, name = path.split("/")
        level = top
        for d in dirs:
            level = level.subdirs.setdefault(d, _Pending())
        if state is None:
            level.removals.add(name)
        else:
            level.sets[name] = state
            level.removals.discard(name)
    return top


def _conflict(prefix: str, name: str, why: str) -> PathRefused:
    path = prefix + name
    return PathRefused(path, "path-conflict", f"cannot write {path!r}: {why}")


def _rebuild(node: _Dir, pending: _Pending, prefix: str, exact: bool = False) -> _Dir:
    """``node`` with ``pending`` applied; ``node`` itself when nothing really changed.

    Removals first, then subdirectories, then files, so "file a becomes directory a/"
    and the reverse both work within one batch.
    """
    entries = node.entries
    copied = False

    def writable() -> dict[str, FileState | _Dir]:
        nonlocal entries, copied
        if not copied:
            entries, copied = dict(entries), True
        return entries

    for name in pending.removals:
        if isinstance(entries.get(name), FileState):
            del writable()[name]
    for name, sub in pending.subdirs.items():
        current = entries.get(name)
        if isinstance(current, FileState):
            raise _conflict(prefix, name, "it is a file, not a directory")
        child = _rebuild(current or _EMPTY, sub, f"{prefix}{name}/", exact)
        if child is not current:
            if child.count:
                writable()[name] = child
            elif current is not None:
                del writable()[name]
    for name, state in pending.sets.items():
        current = entries.get(name)
        if isinstance(current, _Dir):
            raise _conflict(prefix, name, "it is a directory")
        if current is state or (not exact and current is not None and current == state):
            continue  # identical content: keep the old object, so no new revision
        writable()[name] = state
    return _Dir(entries) if copied else node


def _walk_files(node: _Dir, prefix: str, out: list[str]) -> None:
    for name, entry in node.entries.items():
        if isinstance(entry, FileState):
            out.append(prefix + name)
        else:
            _walk_files(entry, f"{prefix}{name}/", out)


def _walk_dirs(node: _Dir, prefix: str, out: list[str]) -> None:
    for name, entry in node.entries.items():
        if isinstance(entry, _Dir):
            out.append(prefix + name)
            _walk_dirs(entry, f"{prefix}{name}/", out)


DiffEntry = tuple[FileState | None, FileState | None]


def _diff_nodes(a: _Dir, b: _Dir, prefix: str, out: dict[str, DiffEntry]) -> None:
    """Record what differs between ``a`` and ``b``, skipping subtrees they share.

    Written for speed (``type() is`` over isinstance, no set union): it runs once per
    differing directory on every checkpoint switch.
    """
    if a is b:
        return
    b_entries = b.entries
    for name, x in a.entries.items():
        y = b_entries.get(name)
        if x is y:
            continue
        if type(x) is FileState and type(y) is FileState:  # the common case, inlined
            if x != y:  # the same content in another object is the same
                out[prefix + name] = (x, y)
        else:
            _diff_entry(prefix, name, x, y, out)
    a_entries = a.entries
    for name, y in b_entries.items():
        if name not in a_entries:
            _diff_entry(prefix, name, None, y, out)


def _identity_diff(a: _Dir, b: _Dir, prefix: str, out: set[str]) -> None:
    if a is b:
        return
    for name in a.entries.keys() | b.entries.keys():
        x, y = a.entries.get(name), b.entries.get(name)
        if x is y:
            continue
        if isinstance(x, _Dir) or isinstance(y, _Dir):
            _identity_diff(x if isinstance(x, _Dir) else _EMPTY,
                           y if isinstance(y, _Dir) else _EMPTY, f"{prefix}{name}/", out)
        if isinstance(x, FileState) or isinstance(y, FileState):
            out.add(prefix + name)


def _diff_entry(prefix: str, name: str, x: FileState | _Dir | None, y: FileState | _Dir | None,
                out: dict[str, DiffEntry]) -> None:
    x_dir, y_dir = type(x) is _Dir, type(y) is _Dir
    if x_dir or y_dir:
        _diff_nodes(x if isinstance(x, _Dir) else _EMPTY, y if isinstance(y, _Dir) else _EMPTY,
                    f"{prefix}{name}/", out)
        if x_dir and y_dir:
            return
    fx = x if isinstance(x, FileState) else None
    fy = y if isinstance(y, FileState) else None
    if fx is None or fy is None:
        if fx is not fy:
            out[prefix + name] = (fx, fy)
    elif fx != fy:  # equal content in another object: the same
        out[prefix + name] = (fx, fy)


class Tree:
    """An immutable snapshot: normalised path -> :class:`FileState`.

    Every method that changes something returns a new Tree whose ``revision`` is one
    higher; a change that changes nothing returns this very Tree.
    """

    __slots__ = ("_paths", "_root", "revision")

    def __init__(self, root: _Dir = _EMPTY, revision: int = 0) -> None:
        self._root = root
        self.revision = revision
        self._paths: tuple[str, ...] | None = None

    @classmethod
    def from_files(cls, files: Mapping[str, FileState], revision: int = 0) -> Tree:
        return Tree(_rebuild(_EMPTY, _group(files), ""), revision)

    def __repr__(self) -> str:
        return f"Tree({len(self)} files, r{self.revision})"

    def __len__(self) -> int:
        return self._root.count

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths())

    def __contains__(self, path: object) -> bool:
        return isinstance(path, str) and self.get(path) is not None

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Tree):
            return NotImplemented
        return not self.diff(other)

    __hash__ = None  # type: ignore[assignment]  # equal by content, yet not frozen in a set

    def _node(self, path: str) -> FileState | _Dir | None:
        node: FileState | _Dir | None = self._root
        if not path:
            return node
        for part in path.split("/"):
            if not isinstance(node, _Dir):
                return None
            node = node.entries.get(part)
        return node

    def get(self, path: str) -> FileState | None:
        node = self._node(path)
        return node if isinstance(node, FileState) else None

    def is_dir(self, path: str) -> bool:
        """Whether some file lies under ``path/`` (directories exist only through files)."""
        node = self._node(path)
        return isinstance(node, _Dir) and node.count > 0

    def paths(self) -> tuple[str, ...]:
        """Every file path, sorted (computed once per Tree)."""
        if self._paths is None:
            out: list[str] = []
            _walk_files(self._root, "", out)
            self._paths = tuple(sorted(out))
        return self._paths

    def items(self) -> Iterator[tuple[str, FileState]]:
        for path in self.paths():
            state = self.get(path)
            assert state is not None
            yield path, state

    def dirs(self) -> tuple[str, ...]:
        """Every directory that holds a file, sorted."""
        out: list[str] = []
        _walk_dirs(self._root, "", out)
        return tuple(sorted(out))

    def files_under(self, directory: str) -> tuple[str, ...]:
        """Every file below ``directory`` (full paths, sorted); ``""`` means the root."""
        node = self._node(directory)
        if not isinstance(node, _Dir):
            return ()
        out: list[str] = []
        _walk_files(node, f"{directory}/" if directory else "", out)
        return tuple(sorted(out))

    def apply(self, changes: Mapping[str, FileState | None]) -> Tree:
        """All ``changes`` at once (None removes a file); one revision for the batch.

        Raises PathRefused (rule "path-conflict") when a file and a directory would share
        a name.
        """
        root = _rebuild(self._root, _group(changes), "")
        if root is self._root:
            return self
        return Tree(root, self.revision + 1)

    def set(self, path: str, state: FileState) -> Tree:
        return self.apply({path: state})

    def put(self, changes: Mapping[str, FileState | None], revision: int) -> Tree:
        """These very FileState objects (None: absent) at ``revision``; an equal object
        in place is replaced too (the engine patches reused checkpoints with it)."""
        return Tree(_rebuild(self._root, _group(changes), "", exact=True), revision)

    def with_revision(self, revision: int) -> Tree:
        """The same files under another revision number (the engine renumbers reused
        checkpoints after an incremental re-evaluation)."""
        return self if revision == self.revision else Tree(self._root, revision)

    def remove(self, path: str) -> Tree:
        """Without the file ``path``, or everything under the directory ``path``."""
        if path in self:
            return self.apply({path: None})
        under = self.files_under(path)
        if not under:
            raise KeyError(path)
        return self.apply(dict.fromkeys(under))

    def rename(self, mapping: Mapping[str, str]) -> Tree:
        """Move files (or whole directories) at once, so swaps and chains work.

        A destination that exists and is not itself moving away is overwritten: the
        caller decides whether that is allowed.
        """
        moves: dict[str, str] = {}
        for old, new in mapping.items():
            if old in self:
                moves[old] = new
            else:
                under = self.files_under(old)
                if not under:
                    raise KeyError(old)
                moves.update((p, new + p[len(old):]) for p in under)
        if len(set(moves.values())) != len(moves):
            raise ValueError("two files would move to the same path")
        changes: dict[str, FileState | None] = dict.fromkeys(moves)
        for old, new in moves.items():
            changes[new] = self.get(old)
        return self.apply(changes)

    def changed_objects(self, other: Tree) -> frozenset[str]:
        """Paths whose FileState objects differ (even with equal content): what the
        engine must treat as changed when it reuses checkpoints."""
        out: set[str] = set()
        _identity_diff(self._root, other._root, "", out)
        return frozenset(out)

    def diff(self, other: Tree) -> dict[str, DiffEntry]:
        """Path -> (state here, state in ``other``) for every path that differs, sorted.

        Shared directories are skipped by identity, so the cost follows what differs
        (times the width of the directories on the way), not the size of the project.
        """
        out: dict[str, DiffEntry] = {}
        _diff_nodes(self._root, other._root, "", out)
        return dict(sorted(out.items()))


def tree_from_bytes(files: Mapping[str, bytes]) -> Tree:
    """A Tree of fresh FileStates (revision 0): handy for tests and the disk loader."""
    return Tree.from_files({p: FileState.from_bytes(d) for p, d in files.items()})
