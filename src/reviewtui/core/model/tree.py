"""The virtual tree: immutable snapshots of the whole project (the file states it holds
are in :mod:`reviewtui.core.model.filestate`, re-exported here).

A :class:`Tree` is a persistent trie of directories. Changing a file copies only the
directories on its path, so a checkpoint costs a few small dicts plus the new file
versions, and :meth:`Tree.diff` skips every directory the two trees still share,
whatever the history between them. Paths are assumed normalised
(:func:`reviewtui.core.paths.safety.normalize_path`); nothing here touches the disk.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from reviewtui.core.errors import PathRefused
from reviewtui.core.model.filestate import FileState

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)

__all__ = ["FileState", "Tree", "tree_from_bytes", "versions_along"]

# --- the tree ------------------------------------------------------------------------


class _Dir:
    """One directory level; never mutated once a Tree holds it, so Trees can share it."""

    __slots__ = ("count", "entries")

    def __init__(self, entries: dict[str, FileState | _Dir], count: int | None = None) -> None:
        self.entries = entries
        # The files below it: given when known (a rebuild keeps it up to date), else counted.
        self.count: int = count if count is not None else sum(
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
    levels: dict[str, _Pending] = {"": top}  # folder -> its level, each walked to once
    for path, state in changes.items():
        folder, _, name = path.rpartition("/")
        level = levels.get(folder)
        if level is None:
            level = top
            for d in folder.split("/"):
                sub = level.subdirs.get(d)
                if sub is None:  # (not setdefault: that made a level per path and folder)
                    sub = level.subdirs[d] = _Pending()
                level = sub
            levels[folder] = level
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
    count = node.count  # kept up to date with every change below (no recount)

    def writable() -> dict[str, FileState | _Dir]:
        nonlocal entries, copied
        if not copied:
            entries, copied = dict(entries), True
        return entries

    for name in pending.removals:
        if isinstance(entries.get(name), FileState):
            del writable()[name]
            count -= 1
    for name, sub in pending.subdirs.items():
        current = entries.get(name)
        if isinstance(current, FileState):
            raise _conflict(prefix, name, "it is a file, not a directory")
        child = _rebuild(current or _EMPTY, sub, f"{prefix}{name}/", exact)
        if child is not current:
            count += child.count - (current.count if current is not None else 0)
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
        if current is None:
            count += 1
        writable()[name] = state
    return _Dir(entries, count) if copied else node


def _put_one(node: _Dir, parts: list[str], at: int, state: Change, prefix: str) -> _Dir:
    """``node`` with the one file ``parts[at:]`` set to this very ``state`` (None:
    absent): what ``_rebuild(node, _group({path: state}), prefix, exact=True)`` gives,
    without grouping (the engine patches thousands of reused checkpoints one path each)."""
    name, entries = parts[at], node.entries
    current = entries.get(name)
    if at + 1 < len(parts):  # a directory on the way
        if isinstance(current, FileState):
            raise _conflict(prefix, name, "it is a file, not a directory")
        child = _put_one(current or _EMPTY, parts, at + 1, state, f"{prefix}{name}/")
        if child is current or (not child.count and current is None):
            return node
        entries = dict(entries)
        if child.count:
            entries[name] = child
        else:
            del entries[name]
        return _Dir(entries, node.count + child.count - (current.count if current else 0))
    if state is None:
        if not isinstance(current, FileState):
            return node
        entries = dict(entries)
        del entries[name]
        return _Dir(entries, node.count - 1)
    if isinstance(current, _Dir):
        raise _conflict(prefix, name, "it is a directory")
    if current is state:
        return node
    entries = dict(entries)
    entries[name] = state
    return _Dir(entries, node.count + (current is None))


def _supersedes(changes: Mapping[str, Change], last: Mapping[str, Change]) -> bool:
    """Whether putting ``changes`` after ``last`` gives what putting it alone gives, and
    fails alike: the same paths, none inside another (then each path's own folders
    decide, and ``last`` made none of them a file). ``d`` and ``d/c.txt`` together are
    not: ``last`` may have made ``d`` a folder that ``changes`` empties before setting it.
    """
    if changes.keys() != last.keys():
        return False
    return len(changes) == 1 or not any(
        path.startswith(f"{other}/") for path in changes for other in changes)


def _put(root: _Dir, changes: Mapping[str, Change]) -> _Dir:
    """``root`` with these very FileState objects (None: absent) at their paths."""
    if len(changes) == 1:
        ((path, state),) = changes.items()
        return _put_one(root, path.split("/"), 0, state, "")
    return _rebuild(root, _group(changes), "", exact=True)


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

    __slots__ = ("_base", "_patches", "_paths", "_root", "revision")

    def __init__(self, root: _Dir = _EMPTY, revision: int = 0) -> None:
        self._root = root
        self.revision = revision
        self._paths: tuple[str, ...] | None = None
        # A tree made by patched() has no root until it is read: ``_base`` with
        # ``_patches`` put in, in order (the engine makes thousands of checkpoints nobody
        # may read); ``_base`` is None again once it is built.
        self._base: _Dir | None = None
        self._patches: tuple[Mapping[str, Change], ...] | None = None

    if not TYPE_CHECKING:  # (typed as a plain attribute: no other name is looked up here)
        def __getattr__(self, name: str) -> _Dir:
            base, patches = self._base, self._patches
            if name != "_root" or patches is None:
                raise AttributeError(name)
            if base is None:  # built meanwhile by another thread
                return self._root
            root = base
            for changes in patches:
                root = _put(root, changes)
            self._root = root  # two threads may both build it: equal trees, either is kept
            self._base = None  # (then the old root is not kept alive by this tree)
            return root

    @classmethod
    def _lazy(cls, base: _Dir, patches: tuple[Mapping[str, Change], ...],
              revision: int) -> Tree:
        tree = cls.__new__(cls)
        tree.revision, tree._paths, tree._base, tree._patches = revision, None, base, patches
        return tree

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

    def states(self) -> Iterator[FileState]:
        """Every file state, in no particular order (no path built or looked up)."""
        pending = [self._root]
        while pending:
            for entry in pending.pop().entries.values():
                if isinstance(entry, _Dir):
                    pending.append(entry)
                else:
                    yield entry

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
        """``apply({path: state})`` for the one path, without grouping (once an edit)."""
        current = self.get(path)
        if current is state or (current is not None and current == state):
            return self  # identical content: the old object stays, no new revision
        return Tree(_put_one(self._root, path.split("/"), 0, state, ""), self.revision + 1)

    def put(self, changes: Mapping[str, FileState | None], revision: int) -> Tree:
        """These very FileState objects (None: absent) at ``revision``; an equal object
        in place is replaced too (the engine patches reused checkpoints with it)."""
        return Tree(_put(self._root, changes), revision)

    def patched(self, changes: Mapping[str, FileState | None], revision: int,
                rows: dict[int, tuple[Mapping[str, Change], ...]] | None = None) -> Tree:
        """What :meth:`put` gives, built when first read (``changes`` must not change
        afterwards; a path conflict is raised then): a re-evaluation patches thousands of
        reused checkpoints that may never be looked at. A tree not built yet is patched
        by adding to its patches, replacing the last one when that makes no difference
        (:func:`_supersedes`): a reject, undone and redone, patches the same path.

        ``rows``: the rows of patches made so far with these ``changes`` (the caller's,
        empty at first), by the row they were made from (0: a built tree): trees patched
        alike share one row instead of a tuple each (a reject patches the ~5,000
        checkpoints after it, and each tuple was one more object for the collector)."""
        base, patches = self._base, self._patches
        if base is None or patches is None:  # built
            base, patches, key = self._root, (), 0
        else:  # (rows lives shorter than the trees whose rows it keys by identity)
            key = id(patches)
        row = rows.get(key) if rows is not None else None
        if row is None:
            if patches and _supersedes(changes, patches[-1]):
                patches = patches[:-1]
            row = (*patches, changes)
            if rows is not None:
                rows[key] = row
        return Tree._lazy(base, row, revision)

    def with_revision(self, revision: int) -> Tree:
        """The same files under another revision number (the engine renumbers reused
        checkpoints after an incremental re-evaluation)."""
        if revision == self.revision:
            return self
        base, patches = self._base, self._patches
        if base is not None and patches is not None:  # not built yet
            return Tree._lazy(base, patches, revision)
        return Tree(self._root, revision)

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


def versions_along(trees: Iterable[Tree], path: str) -> Iterator[FileState]:
    """The versions of the file ``path`` through ``trees``, in order, each object once
    per stretch of trees that hold it (an absence is passed over, not a change).

    A tree that shares the previous one's root, or the directory ``path`` lies in, holds
    the same object there: looked at with one identity test, so a walk of thousands of
    checkpoints costs little more than the changes of the file along them.
    """
    *dirs, name = path.split("/")
    last_root: _Dir | None = None
    last_dir: object = None
    previous: FileState | None = None
    for tree in trees:
        node: FileState | _Dir | None = tree._root
        if node is last_root:
            continue
        last_root = tree._root
        for part in dirs:
            node = node.entries.get(part) if isinstance(node, _Dir) else None
        if node is last_dir:
            continue
        last_dir = node
        version = node.entries.get(name) if isinstance(node, _Dir) else None
        if isinstance(version, FileState) and version is not previous:
            previous = version
            yield version


def tree_from_bytes(files: Mapping[str, bytes]) -> Tree:
    """A Tree of fresh FileStates (revision 0): handy for tests and the disk loader."""
    return Tree.from_files({p: FileState.from_bytes(d) for p, d in files.items()})
