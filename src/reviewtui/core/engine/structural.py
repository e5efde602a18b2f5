"""Structural console commands (``:rm :mv :rn :undo :unrm``) applied to a Tree, purely.

Each command either applies whole or reports why not; the one exception is ``:rm`` and
``:unrm`` with several arguments, where a bad argument is reported and the others still
apply (the protocol treats each argument as its own removal). Every command that changed
something goes on the undo stack, which lives as long as the session: ``:undo`` reverses
the most recent one, across turns, keeping any content edits made since (the engine names
the one it reverses: the command written last before it, ``order.undo_targets``).

What a ``:mv`` or ``:rn`` means can hang on the tree (:data:`READINGS`): an accept pins the
reading the reviewer saw, and the command is evaluated by it from then on.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable, Mapping
from functools import partial

from reviewtui.core.engine.structural_state import StructuralState, UndoEntry
from reviewtui.core.errors import PathRefused
from reviewtui.core.model.records import CommandName, ConsoleCommand
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.paths.safety import (
    expand_glob,
    is_glob,
    normalize_path,
    spelling_refusal,
)
from reviewtui.core.record import field, record, replace

PathChange = tuple[str | None, str | None]  # (old, new); new None = removed, old None = restored

# How a command reads where the tree decides it: ``:mv a m`` moves ``a`` INTO ``m`` when
# ``m`` is a folder, else TO the path ``m``; ``:rn old new`` renames the PATH ``old`` when
# it exists, else a part of file NAMES. An accept pins the reading the reviewer saw, so a
# folder ``m`` made since (outside, say) is not taken as a place to move ``a`` into (QA
# s36, helper-108 F5): the move stays one to the path ``m``, refused while a folder is there.
INTO, TO, PATH, NAMES = "into", "to", "path", "names"
READINGS = frozenset({INTO, TO, PATH, NAMES})


@record(frozen=True, slots=True)
class CommandResult:
    """What one command did, for the reviewer and the ledger.

    ``ok`` is False when any part failed (``rule`` names the first failure); ``changes``
    still lists what the parts that succeeded did.
    """

    ok: bool
    message: str
    rule: str = ""
    changes: tuple[PathChange, ...] = ()
    ledger: str = ""  # e.g. "mv src/a.js src/b.js r18->r19": paths and revisions, no content
    reading: str = ""  # a :mv or :rn that ran: how it read (READINGS)


# Private: collected per command in _Plan.errors and reported as refused outcomes.
class _CommandError(Exception):
    def __init__(self, rule: str, message: str) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message


@record(slots=True)
class _Plan:
    """The changes a command wants; applied in one step by :func:`_finish`."""

    message: str
    tree_changes: dict[str, FileState | None] = field(default_factory=dict)
    changes: list[PathChange] = field(default_factory=list)
    store_updates: dict[str, FileState | None] = field(default_factory=dict)
    entry: UndoEntry | None = None
    pop_undo: int | None = None  # the position in the undo stack of the entry taken back
    errors: list[_CommandError] = field(default_factory=list)
    reading: str = ""


# --- helpers -------------------------------------------------------------------------

def _normalize(raw: str) -> str:
    try:
        return normalize_path(raw)
    except PathRefused as exc:
        raise _CommandError(exc.rule, exc.message) from exc


def _is_root(raw: str) -> bool:
    return raw.strip(" ") in (".", "./")


def _exists(tree: Tree, path: str) -> bool:
    return path in tree or tree.is_dir(path)


def _blocking_file(tree: Tree, path: str, leaving: Iterable[str] = ()) -> str | None:
    """An ancestor of ``path`` that is a file staying put (so ``path`` cannot exist)."""
    gone = set(leaving)
    parts = path.split("/")
    for i in range(1, len(parts)):
        prefix = "/".join(parts[:i])
        if prefix in tree and prefix not in gone:
            return prefix
    return None


def _outermost(paths: Iterable[str]) -> list[str]:
    """Drop every path that lies under another one in the list."""
    kept: list[str] = []
    for path in sorted(paths):
        if not kept or not path.startswith(kept[-1] + "/"):
            kept.append(path)
    return kept


def _match(tree: Tree, path: str) -> list[str]:
    """Files and directories that a normalised ``path`` or glob names (outermost only)."""
    if is_glob(path):
        matched = expand_glob(path, tree.paths() + tree.dirs())
        if not matched:
            raise _CommandError("glob-matched-nothing", f"{path!r} matched no file or directory")
        return _outermost(matched)
    if not _exists(tree, path):
        raise _CommandError("no-such-path", f"{path!r} is not a file or directory in the tree")
    return [path]


def _files_of(tree: Tree, paths: Iterable[str]) -> list[str]:
    out: list[str] = []
    for path in paths:
        out.extend([path] if path in tree else tree.files_under(path))
    return out


def _summary(pairs: list[str]) -> str:
    shown = ", ".join(pairs[:3])
    return f"{shown} and {len(pairs) - 3} more" if len(pairs) > 3 else shown


def _shown_arg(raw: str) -> str:
    import shlex  # here: only the message about a console command's argument needs it

    try:
        shown = normalize_path(raw) + ("/" if raw.endswith("/") else "")
    except PathRefused:
        shown = raw
    return shlex.quote(shown)


def _command_words(cmd: ConsoleCommand, force: bool) -> str:
    words = [str(cmd.name)] + (["-f"] if force else [])
    return " ".join(words + [_shown_arg(a) for a in cmd.args if a != "-f"])


# --- :rm -----------------------------------------------------------------------------

def _plan_rm(state: StructuralState, args: list[str], force: bool) -> _Plan:
    tree = state.tree
    errors: list[_CommandError] = []
    targets: list[str] = []
    for raw in args:
        try:
            targets.extend(_files_of(tree, _match(tree, _normalize(raw))))
        except _CommandError as exc:
            errors.append(exc)
    return _removal(state, sorted(set(targets)), errors)


def _removal(state: StructuralState, files: list[str], errors: list[_CommandError]) -> _Plan:
    tree = state.tree
    plan = _Plan(f"removed {_summary(files)}" if files else "removed nothing", errors=errors)
    removed = [(p, _state(tree, p)) for p in files]
    plan.tree_changes = dict.fromkeys(files)
    plan.changes = [(p, None) for p in files]
    plan.store_updates = dict(removed)
    plan.entry = UndoEntry("", removed=tuple(removed),
                           store_before=tuple((p, state.removed.get(p)) for p in files))
    return plan


def _state(tree: Tree, path: str) -> FileState:
    found = tree.get(path)
    assert found is not None, path
    return found


# --- :mv and :rn ---------------------------------------------------------------------

def _file_moves(tree: Tree, src: str, target: str) -> dict[str, str]:
    """Per-file moves that put file or directory ``src`` at ``target``."""
    if src in tree:
        return {src: target}  # (into itself: see _plan_moves)
    if target.startswith(src + "/"):
        raise _CommandError("into-itself", f"cannot move directory {src!r} into itself")
    return {f: target + f[len(src):] for f in tree.files_under(src)}


def _check_target(tree: Tree, new: str, leaving: set[str], force: bool, *,
                  literal: bool = False) -> FileState | None:
    """Refuse a destination that cannot be written; return the file it would overwrite."""
    blocker = _blocking_file(tree, new, leaving)
    if blocker is not None:
        raise _CommandError("dest-exists", f"{blocker!r} is a file, so {new!r} cannot exist")
    if tree.is_dir(new) and not set(tree.files_under(new)) <= leaving:
        raise _CommandError("dest-exists", f"{new!r} is a directory; a file cannot replace it")
    existing = tree.get(new)
    if existing is None or new in leaving:
        return None
    if not force:
        raise _CommandError("dest-exists", f"{new!r} already exists; " + (
            "remove it first, or move to another name" if literal  # (a tool call: no -f)
            else "add -f to overwrite it (the old file stays recoverable with :unrm)"))
    return existing


def _plan_moves(state: StructuralState, moves: dict[str, str], force: bool, *,
                literal: bool = False) -> _Plan:
    tree = state.tree
    moves = {old: new for old, new in moves.items() if old != new}
    if not moves:
        return _Plan("nothing to move: already in place")
    if len(set(moves.values())) != len(moves):
        dup = next(n for n in moves.values() if list(moves.values()).count(n) > 1)
        raise _CommandError("dest-exists", f"two files would both become {dup!r}")
    inside = next((old for old, new in moves.items() if new.startswith(old + "/")), None)
    if inside is not None:  # a.py -> a.py/b.py: answered "moved", and nothing moved
        raise _CommandError("into-itself", f"cannot move file {inside!r} into a folder of "
                            "its own name")
    leaving = set(moves)
    overwritten: dict[str, FileState] = {}
    for new in moves.values():
        existing = _check_target(tree, new, leaving, force, literal=literal)
        if existing is not None:
            overwritten[new] = existing
    plan = _Plan("moved " + _summary([f"{o} -> {n}" for o, n in moves.items()]))
    plan.tree_changes = dict.fromkeys(moves)
    plan.tree_changes.update((new, _state(tree, old)) for old, new in moves.items())
    plan.changes = [(p, None) for p in overwritten] + list(moves.items())
    plan.store_updates = dict(overwritten)
    plan.entry = UndoEntry("", moves=tuple(moves.items()), removed=tuple(overwritten.items()),
                           store_before=tuple((p, state.removed.get(p)) for p in overwritten))
    if overwritten:
        plan.message += f" (overwrote {_summary(list(overwritten))})"
    return plan


def _plan_mv(state: StructuralState, args: list[str], force: bool, *,
             reading: str | None = None) -> _Plan:
    if len(args) != 2:
        raise _CommandError("bad-command-arguments", "expected :mv [-f] <src> <dest>")
    tree = state.tree
    src_raw, dest_raw = args
    src = _normalize(src_raw)
    dest = "" if _is_root(dest_raw) else _normalize(dest_raw)
    sources = _match(tree, src)
    # A trailing "/", the root or several sources: move INTO dest, whatever the tree holds.
    into = dest_raw.endswith("/") or not dest or is_glob(src)
    if not into and reading in (INTO, TO):  # as accepted, whatever is there now
        into = reading == INTO
        if not into and tree.is_dir(dest):
            raise _CommandError("dest-exists", (
                f"{dest!r} is now a folder; the move was accepted as {src} -> {dest}, to "
                "that path, not into a folder"))
    elif not into:
        into = tree.is_dir(dest)  # an existing directory: INTO it too
    moves: dict[str, str] = {}
    for source in sources:
        target = posixpath.join(dest, posixpath.basename(source)) if into else dest
        moves.update(_file_moves(tree, source, target))
    plan = _plan_moves(state, moves, force)
    plan.reading = INTO if into else TO
    return plan


def _rename_in_name(name: str, old: str, new: str) -> str | None:
    """``name`` with ``old`` replaced, or None when it does not apply.

    An ``old`` like ".js" or ".test.js" is an extension and only matches at the end,
    so ``:rn .js .ts`` leaves ``data.json`` and ``app.js.map`` alone.
    """
    if old.startswith(".") and not old.endswith("."):
        return name[: -len(old)] + new if name.endswith(old) else None
    return name.replace(old, new) if old in name else None


def _substring_moves(tree: Tree, old: str, new: str) -> dict[str, str]:
    if "/" in new:
        raise _CommandError("bad-command-arguments",
                            f"{new!r} has a '/': a name change cannot move files; use :mv")
    moves: dict[str, str] = {}
    for path in tree.paths():
        head, _, name = path.rpartition("/")
        renamed = _rename_in_name(name, old, new)
        if renamed is None:
            continue
        if not renamed:
            raise _CommandError("bad-command-arguments", f"{path!r} would get an empty name")
        moves[path] = _normalize(f"{head}/{renamed}" if head else renamed)
    if not moves:
        raise _CommandError("no-such-path", f"{old!r} is not a file or directory, and no file "
                            "name contains it")
    return moves


def _plan_rn(state: StructuralState, args: list[str], force: bool, *,
             reading: str | None = None) -> _Plan:
    if len(args) != 2:
        raise _CommandError("bad-command-arguments", "expected :rn [-f] <old> <new>")
    tree = state.tree
    old_raw, new_raw = args
    try:
        old: str | None = normalize_path(old_raw)
    except PathRefused:
        old = None
    if reading not in (PATH, NAMES):  # (none pinned, or another command's)
        reading = None
    if old is not None and (_exists(tree, old) if reading is None else reading == PATH):
        if not _exists(tree, old):  # (accepted as a rename of this path: not of names now)
            raise _CommandError("no-such-path", (
                f"{old!r} is not a file or directory in the tree; the rename was accepted "
                "as one of that path, not of a part of file names"))
        # "new" without a directory part names a sibling: `:rn src/a.js b.js` -> src/b.js
        if "/" not in new_raw.strip("/") and "/" in old:
            new_raw = f"{posixpath.dirname(old)}/{new_raw}"
        plan = _plan_moves(state, _file_moves(tree, old, _normalize(new_raw)), force)
        plan.reading = PATH
        return plan
    if not old_raw or "/" in old_raw:
        raise _CommandError("no-such-path", f"{old_raw!r} is not a file or directory in the tree")
    plan = _plan_moves(state, _substring_moves(tree, old_raw, new_raw), force)
    plan.reading = NAMES
    return plan


# --- literal :rm and :mv (imported formats) ------------------------------------------

def _exact(raw: str) -> str:
    """:func:`_normalize` of a path from a format that names files exactly: refused when
    the canonical spelling would be another file's (``path-spelling``)."""
    spelling = spelling_refusal(raw)
    if spelling is not None:
        raise _CommandError(spelling.rule, spelling.message)
    return _normalize(raw)


def _literal_file(tree: Tree, raw: str) -> str:
    """A path that must name one existing file as written: no glob, no directory."""
    path = _exact(raw)
    if path in tree:
        return path
    if tree.is_dir(path):
        raise _CommandError("not-a-file", f"{path!r} is a directory; the operation names a "
                            "single file, so nothing under it is touched")
    raise _CommandError("no-such-path", f"{path!r} is not a file in the tree")


def _plan_rm_literal(state: StructuralState, args: list[str], force: bool) -> _Plan:
    errors: list[_CommandError] = []
    files: list[str] = []
    for raw in args:
        try:
            files.append(_literal_file(state.tree, raw))
        except _CommandError as exc:
            errors.append(exc)
    return _removal(state, sorted(set(files)), errors)


def _plan_mv_literal(state: StructuralState, args: list[str], force: bool) -> _Plan:
    if len(args) != 2:
        raise _CommandError("bad-command-arguments", "expected :mv [-f] <src> <dest>")
    source = _literal_file(state.tree, args[0])
    return _plan_moves(state, {source: _exact(args[1])}, force, literal=True)


# --- :unrm ---------------------------------------------------------------------------

def _removed_matches(store: Mapping[str, FileState], path: str) -> list[str]:
    if is_glob(path):
        return expand_glob(path, store)
    if path in store:
        return [path]
    return sorted(p for p in store if p.startswith(path + "/"))  # a removed directory


def _plan_unrm(state: StructuralState, args: list[str], force: bool) -> _Plan:
    tree, store = state.tree, state.removed
    errors: list[_CommandError] = []
    restored: list[str] = []
    for raw in args:
        try:
            path = _normalize(raw)
            matches = _removed_matches(store, path)
            if not matches:
                raise _CommandError("not-removed", f"{path!r} was not removed in this session")
            for p in matches:
                if _exists(tree, p) or _blocking_file(tree, p) is not None:
                    raise _CommandError("dest-exists", f"{p!r} exists again; move it away first")
            restored.extend(p for p in matches if p not in restored)
        except _CommandError as exc:
            errors.append(exc)
    plan = _Plan(f"restored {_summary(restored)}" if restored else "restored nothing",
                 errors=errors)
    plan.tree_changes = {p: store[p] for p in restored}
    plan.changes = [(None, p) for p in restored]
    plan.store_updates = dict.fromkeys(restored)
    plan.entry = UndoEntry("", restored=tuple(restored),
                           store_before=tuple((p, store[p]) for p in restored))
    return plan


# --- :undo ---------------------------------------------------------------------------

def _check_undo_targets(tree: Tree, entry: UndoEntry) -> None:
    leaving = {new for _, new in entry.moves} | set(entry.restored)
    for path in [new for _, new in entry.moves] + list(entry.restored):
        if path not in tree:
            raise _CommandError("no-such-path", f"cannot undo: {path!r} is no longer there")
    returning = [old for old, _ in entry.moves] + [p for p, _ in entry.removed]
    for path in returning:
        if (path in tree and path not in leaving) or _blocking_file(tree, path, leaving):
            raise _CommandError("dest-exists", f"cannot undo: {path!r} exists again")


LAST = (-1, -1)  # an :undo's target: the most recent entry (the structural layer alone)


def undo_entry(stack: tuple[UndoEntry, ...], target: tuple[int, int] | None,
               ) -> int | None:
    """Where in ``stack`` the entry an ``:undo`` of ``target`` takes back is (the
    operation that ran it; :data:`LAST`: the most recent entry), None if nowhere."""
    if target == LAST:
        return len(stack) - 1 if stack else None
    return next((at for at in range(len(stack) - 1, -1, -1) if stack[at].key == target), None)


def _plan_undo(state: StructuralState, args: list[str], force: bool, *,
               target: tuple[int, int] | None = LAST) -> _Plan:
    if args:
        raise _CommandError("bad-command-arguments", ":undo takes no arguments")
    at = undo_entry(state.undo_stack, target) if target is not None else None
    if at is None:
        raise _CommandError("nothing-to-undo", "there is no structural command to undo")
    tree, entry = state.tree, state.undo_stack[at]
    _check_undo_targets(tree, entry)
    plan = _Plan(f"undid {entry.command}", pop_undo=at)
    # Removals first so a path that is both vacated and refilled ends up refilled.
    plan.tree_changes = dict.fromkeys([*entry.restored, *(new for _, new in entry.moves)])
    plan.tree_changes.update((old, _state(tree, new)) for old, new in entry.moves)
    plan.tree_changes.update(entry.removed)
    plan.changes = ([(p, None) for p in entry.restored] + [(n, o) for o, n in entry.moves]
                    + [(None, p) for p, _ in entry.removed])
    plan.store_updates = dict(entry.store_before)
    # Files :unrm brought back return to the store as they are now, later edits included.
    plan.store_updates.update((p, _state(tree, p)) for p in entry.restored)
    return plan


# --- dispatch ------------------------------------------------------------------------

_Planner = Callable[[StructuralState, list[str], bool], _Plan]
_PLANNERS: dict[str, _Planner] = {
    CommandName.RM: _plan_rm,
    CommandName.UNDO: _plan_undo,
    CommandName.UNRM: _plan_unrm,
}
# Commands whose meaning can hang on the tree: they take the reading to keep (READINGS).
_READING_PLANNERS: dict[str, Callable[..., _Plan]] = {
    CommandName.MV: _plan_mv,
    CommandName.RN: _plan_rn,
}
_LITERAL_PLANNERS: dict[str, _Planner] = {
    CommandName.RM: _plan_rm_literal,
    CommandName.MV: _plan_mv_literal,
}


def _updated_store(store: Mapping[str, FileState],
                   updates: Mapping[str, FileState | None]) -> dict[str, FileState]:
    new = dict(store)
    for path, found in updates.items():
        if found is None:
            new.pop(path, None)
        else:
            new[path] = found
    return new


def _finish(state: StructuralState, words: str, plan: _Plan,
            key: tuple[int, int] | None = None) -> tuple[StructuralState, CommandResult]:
    before = state.tree.revision
    if not plan.changes and not plan.errors:
        return state, CommandResult(True, plan.message, "", (), f"{words} r{before}",
                                    plan.reading)
    if plan.errors and not plan.changes:  # every argument failed: nothing happened
        first = plan.errors[0]
        message = "; ".join(e.message for e in plan.errors)
        return state, CommandResult(False, message, first.rule, (),
                                    f"{words} r{before} {first.rule}")
    try:
        tree = state.tree.apply(plan.tree_changes)
    except PathRefused as exc:
        failed = CommandResult(False, exc.message, exc.rule, (), f"{words} r{before} {exc.rule}")
        return state, failed
    stack = state.undo_stack
    if plan.pop_undo is not None:
        stack = stack[: plan.pop_undo] + stack[plan.pop_undo + 1 :]
    elif plan.entry is not None and plan.changes:
        stack = (*stack, replace(plan.entry, command=words, key=key))
    rule = plan.errors[0].rule if plan.errors else ""
    message = "; ".join([plan.message] + [e.message for e in plan.errors])
    ledger = f"{words} r{before}->r{tree.revision}" + (f" {rule}" if rule else "")
    new_state = StructuralState(tree, stack, _updated_store(state.removed, plan.store_updates))
    return new_state, CommandResult(not plan.errors, message, rule, tuple(plan.changes), ledger,
                                    plan.reading)


def apply_command(state: StructuralState, cmd: ConsoleCommand, *, reading: str | None = None,
                  key: tuple[int, int] | None = None,
                  undo: tuple[int, int] | None = LAST) -> tuple[StructuralState, CommandResult]:
    """Apply one structural command; a failure leaves ``state`` as it was.

    ``key``: the operation running it, kept on its undo entry. ``undo``: for an ``:undo``,
    the operation whose entry it takes back (None: none; :data:`LAST`: the top one).

    Paths go through :func:`normalize_path`; a refusal fails the command with the
    refusal's rule (``absolute-path``, ``git-dir``...). A ``:mv`` or ``:rn`` given a
    ``reading`` (one of :data:`READINGS`, pinned by an accept) means what it meant then,
    or fails saying why; without one, what the tree makes of it now.
    """
    force = cmd.force or "-f" in cmd.args
    args = [a for a in cmd.args if a != "-f"]
    words = _command_words(cmd, force)
    name = str(cmd.name)
    planner = _LITERAL_PLANNERS.get(name) if cmd.literal else None
    if planner is None and (reader := _READING_PLANNERS.get(name)) is not None:
        planner = partial(reader, reading=reading)
    if name == CommandName.UNDO and undo != LAST:
        planner = partial(_plan_undo, target=undo)
    planner = planner or _PLANNERS.get(name)
    if planner is None:
        message = f"unknown structural command {cmd.text!r}"
        return state, CommandResult(False, message, "unknown-command", (),
                                    f"{words} r{state.tree.revision} unknown-command")
    try:
        plan = planner(state, args, force)
    except _CommandError as exc:
        return state, CommandResult(False, exc.message, exc.rule, (),
                                    f"{words} r{state.tree.revision} {exc.rule}")
    return _finish(state, words, plan, key)


def apply_commands(state: StructuralState, cmds: Iterable[ConsoleCommand]
                   ) -> tuple[StructuralState, tuple[CommandResult, ...]]:
    """Apply commands in order (a failed one changes nothing and the rest still run)."""
    results: list[CommandResult] = []
    for cmd in cmds:
        state, result = apply_command(state, cmd)
        results.append(result)
    return state, tuple(results)
