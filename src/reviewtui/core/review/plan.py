"""What should be on disk: the wanted state per path and the conflicts that stop replay.

Pure (records and trees in, plans out): :func:`want` is the draft's content for a path
with any outside change kept on top; :func:`compute_conflicts` lists the paths replay must
leave alone, and why. The shell's replay (``reviewtui.shell.review``) writes the plan.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterable, Mapping, Sequence

from reviewtui.core.engine import OpKey, OpResult, TurnResult
from reviewtui.core.engine.decisions import Verdict
from reviewtui.core.engine.file_edits import normalize_or_none
from reviewtui.core.engine.links import is_link
from reviewtui.core.model.records import ConsoleCommand
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.record import record, replace
from reviewtui.core.review.log import DecisionItem
from reviewtui.core.review.rebase import (
    Conflict,
    ConflictKind,
    OutsideHunk,
    OutsideLayer,
    apply_layer,
)

_ACCEPTING = (Verdict.ACCEPTED, Verdict.EDITED)


@record(slots=True)
class PathRecord:
    """What the workbench knows about one path it writes or wrote.

    ``base``: the content the session's operations start from (None: absent);
    ``seen``: what the workbench last saw or wrote on disk; ``ref``: the draft content
    (without the outside layer) that ``seen`` was built from; ``layer``: an outside
    change kept on top of the draft; ``outside``: the path changed outside during the
    review; ``deleted``: deleted outside, so nothing may recreate it silently.
    """

    base: FileState | None
    seen: FileState | None
    ref: FileState | None
    layer: OutsideLayer | None = None
    outside: bool = False
    deleted: bool = False
    note: str = ""
    # Loaded from a state file: ``seen`` is unknown until the disk is read again, and
    # ``saved_seen`` is the hash of what was last seen (None: the file was absent).
    from_state: bool = False
    saved_seen: str | None = None
    # What a replay is about to write there, its hash saved with ``seen`` just before the
    # write: the state file is saved before each write, not after, so after a kill it
    # tells what was most likely on disk last (``saved_writing`` once loaded).
    writing: FileState | None = None
    saved_writing: str | None = None
    # The file's (inode, size, mtime, ctime) when that save was made: after a kill in the
    # middle of the replay, a file that holds its old bytes but not this identity was
    # written and then put back while the review was down (git checkout makes a new
    # file), not left unwritten. Content decides everything else; this only breaks that tie.
    writing_stat: tuple[int, int, int, int] | None = None
    saved_writing_stat: tuple[int, int, int, int] | None = None
    # The length of the decision log at the review's last write here: what was decided
    # after it is not on disk (the file was held open elsewhere meanwhile). Saved, and read
    # back as ``saved_written_at`` alone: which draft ``ref`` is, should the file be
    # deleted outside after a reopen (``gone_at``; a log rewritten on loading may have
    # other lengths: checked, never trusted).
    written_at: int | None = None
    saved_written_at: int | None = None
    # Put back outside to ``base`` (git checkout, git stash) over what the review had
    # written, ``put_back_from``; its accepts, ``put_back_items``, were taken back. The
    # disk coming back to those bytes (git stash pop) brings them back. Not saved.
    put_back_from: bytes | None = None
    put_back_items: tuple[DecisionItem, ...] = ()
    put_back_layer: OutsideLayer | None = None  # an outside change kept on top then
    # Deleted outside: what it was before (base, seen, ref, layer), for when the file
    # comes back as the review left it or as the session started from, and the length of
    # the decision log then. Saved; read back only when the session explains it
    # (``shell/outside_returns.saved_gone_fits``).
    gone: tuple[FileState | None, FileState | None, FileState | None,
                OutsideLayer | None] | None = None
    gone_at: int | None = None
    # The other ends of the moves the review's last write here was one end of (the file
    # came from there, or went there: :func:`move_ends`). Saved: taking such a move back
    # later (u, n, restore) holds its two ends together (QA s47 helper-147 H1).
    moved_with: tuple[str, ...] = ()

    def seen_last(self, disk: FileState | None) -> bool:
        """Whether ``disk`` is what was saved as seen here last (``saved_seen``, a hash of
        the bytes alone): a link where the draft held a file, or a file where it held a
        link, is not. An outside link to the bytes of the file the review had written (or
        of the file it started from) was taken as left on reopening, and replaced with a
        file by the next write (QA s42 helper-128 H1)."""
        if (None if disk is None else disk.digest) != self.saved_seen:
            return False
        return disk is None or self.ref is None or is_link(disk) == is_link(self.ref)



@record(frozen=True, slots=True)
class Want:
    """What replay should put at a path: ``state`` (None: absent), or why it cannot."""

    ok: bool
    state: FileState | None = None
    message: str = ""
    hunk: OutsideHunk | None = None


def deleted_message(path: str, record: PathRecord | None) -> str:
    """What the reviewer is told about a session path deleted (or renamed) outside."""
    moved = record.note if record is not None and record.note else ""
    where = f" ({moved})" if moved else ""
    return (f"{path} was deleted outside the workbench{where}: its operations no longer "
            "apply and nothing is recreated; reject them, or accept one again to "
            "recreate the file")


# Operation paths are normalised on every decision (conflicts, session paths): memoised.
_normalized = functools.lru_cache(maxsize=1 << 16)(normalize_or_none)


def op_path(result: OpResult) -> str | None:
    """The normalised path an operation acted on or names (None: a command or refused)."""
    if result.outcome.path:
        return _normalized(result.outcome.path)
    raw = result.op.path
    return _normalized(raw) if raw else None


def want(path: str, tree: Tree, record: PathRecord | None) -> Want:
    """The draft's ``path`` in ``tree``, with the record's outside layer on top."""
    wanted = tree.get(path)
    if record is None or record.layer is None:
        return Want(True, wanted)
    if wanted is not None and is_link(wanted):
        # No text layer goes over a link: a file made outside holding the link's target
        # was taken as merged with it, and replaced by the link (QA s42 helper-129 H1).
        return Want(False, message="changed outside the workbench where the session makes "
                    "a symbolic link: reviewtui never replaces that file with a link")
    applied = apply_layer(record.layer, wanted.data if wanted is not None else None)
    if not applied.ok:
        return Want(False, message=applied.message, hunk=applied.hunk)
    if applied.data is None:
        return Want(True, None)
    if wanted is not None:
        return Want(True, wanted.with_data(applied.data))
    mode = record.seen.mode if record.seen is not None else 0o644
    return Want(True, FileState.from_bytes(applied.data, mode=mode))


class DecidedByPath:
    """The decided operations of each turn by the path they act on, remembered per turn
    result: a decision re-evaluates a few turns, and :func:`compute_conflicts` reads the
    others from here rather than every operation of every turn again (25,000 decided in a
    50,000-operation session: about half of a decision's time with a conflict present).
    Only the turns of the last read are kept."""

    __slots__ = ("_turns",)

    def __init__(self) -> None:
        # id(turn) -> (the turn, so the id is not reused meanwhile, and what it holds)
        self._turns: dict[int, tuple[TurnResult, _TurnDecided]] = {}

    def read(self, turns: Sequence[TurnResult]) -> list[_TurnDecided]:
        """What each of ``turns`` holds, in order."""
        known, kept = self._turns, {}
        out: list[_TurnDecided] = []
        for turn in turns:
            hit = known.get(id(turn))
            if hit is None or hit[0] is not turn:
                hit = (turn, _TurnDecided.of(turn))
            kept[id(turn)] = hit
            out.append(hit[1])
        self._turns = kept
        return out


@record(frozen=True, slots=True)
class _TurnDecided:
    """One turn's decided results by normalised path, and those that move, remove or
    restore paths (a console command, or any result with path changes), in reply order."""

    by_path: Mapping[str, tuple[OpResult, ...]]
    commands: tuple[OpResult, ...]

    @classmethod
    def of(cls, turn: TurnResult) -> _TurnDecided:
        by_path: dict[str, list[OpResult]] = {}
        commands: list[OpResult] = []
        for result in turn.results:
            if result.decision.verdict is Verdict.PENDING:
                continue
            if result.outcome.changes or isinstance(result.op, ConsoleCommand):
                commands.append(result)  # (one that did not land: by its arguments)
            path = op_path(result)
            if path is not None:
                by_path.setdefault(path, []).append(result)
        return cls({path: tuple(found) for path, found in by_path.items()}, tuple(commands))


def compute_conflicts(turns: Sequence[TurnResult], tree: Tree, records: Mapping[str, PathRecord],
                  unwritable: Mapping[str, str],
                  deleted_message: Callable[[str], str],
                  index: DecidedByPath | None = None) -> dict[str, Conflict]:
    """The paths replay must not write, and why: unwritable, deleted outside, accepted
    operations no longer landing on an outside change, or an outside edit that cannot
    be kept on top of the draft. ``turns``: the draft's turns that are on disk; ``index``:
    what the turns of the last call held (a caller's, kept between calls).

    Only a path changed outside or unwritable can be in conflict, and a path a command
    links to one (a move's other end waits with it): the decided operations of those
    alone are gathered.
    """
    changed = {path for path, record in records.items()
               if record.deleted or record.outside or record.layer is not None}
    changed.update(unwritable)
    if not changed:
        return {}  # nothing changed outside and every path writable: nothing can clash
    held = (index or DecidedByPath()).read(turns)
    commands = [result for turn in held for result in turn.commands]
    needed = _linked(set(changed), commands)
    touching: dict[str, list[OpResult]] = {path: [] for path in needed}  # in reading order
    for turn in held:
        if not needed.isdisjoint(turn.by_path):
            for path, results in turn.by_path.items():
                if path in needed:
                    touching[path].extend(results)
    decided = {path: [result.key for result in found] for path, found in touching.items()}
    # Accepted or edited, per path; and of those, what no longer lands on an outside change.
    accepted = {path: [result.key for result in found if result.decision.verdict in _ACCEPTING]
                for path, found in touching.items()}
    failing: dict[str, list[OpKey]] = {}
    for path, found in touching.items():
        record = records.get(path)
        if record is not None and record.outside:
            missed = [result.key for result in found
                      if result.decision.verdict in _ACCEPTING and not result.landed]
            if missed:
                failing[path] = missed
    conflicts: dict[str, Conflict] = {}
    for path, record in records.items():
        if path not in changed:
            continue
        ops = tuple(accepted.get(path, ()))
        disk, ours = record.seen, record.ref
        wanted = tree.get(path)
        if path in unwritable:
            conflicts[path] = Conflict(path, ConflictKind.UNWRITABLE,
                                       unwritable[path], disk, ours, wanted,
                                       tuple(decided.get(path, ())))
        elif record.deleted and (wanted is not None or path in failing):
            conflicts[path] = Conflict(path, ConflictKind.DELETED,
                                       deleted_message(path), disk, ours, wanted, ops)
        elif path in failing:
            keys = ", ".join(f"turn {t} operation {p + 1}" for t, p in failing[path])
            message = (f"accepted operations no longer land on the content changed "
                       f"outside the workbench ({keys}); nothing was written: re-anchor, "
                       "edit or reject them")
            conflicts[path] = Conflict(path, ConflictKind.REBASE, message, disk, ours,
                                       wanted, ops)
        else:
            wanted_here = want(path, tree, records.get(path))
            if not wanted_here.ok:
                layer = record.layer or OutsideLayer(None, None)
                # A removal (a move's source, :rm) has no text to edit (QA pass s29).
                fix = ("undo or reject the decision that removes it" if wanted is None else
                       "edit the operation to match it, or undo the decision that clashed")
                message = (f"{wanted_here.message}; nothing was written and the disk version is "
                           f"kept: {fix}")
                conflicts[path] = Conflict(path, ConflictKind.OUTSIDE_EDIT, message,
                                           disk, ours, wanted, tuple(decided.get(path, ())),
                                           layer.hunks())
    for path in unwritable:
        if path not in conflicts:
            conflicts[path] = Conflict(path, ConflictKind.UNWRITABLE,
                                       unwritable[path], None, None, tree.get(path),
                                       tuple(decided.get(path, ())))
    if conflicts:
        _hold_moves(commands, tree, records, conflicts, accepted)
        _name_the_clash(touching, commands, records, conflicts)
        _on_some_row(touching, commands, conflicts)
    return conflicts


MSG_CONFLICT = ("conflict - changed on disk where accepted operations write; nothing was "
                "written, the disk version is kept as it is")
MSG_CONFLICT_AHEAD = ("changed on disk where accepted operations write; nothing would be "
                      "written there, the disk version would be kept as it is")


def conflict_note(conflict: Conflict, *, ahead: bool = False) -> str:
    """What a replay reports for a path it leaves in conflict (``ahead``: a preview's
    words for it)."""
    if conflict.kind is ConflictKind.OUTSIDE_EDIT or conflict.kind is ConflictKind.REBASE:
        return MSG_CONFLICT_AHEAD if ahead else MSG_CONFLICT
    return conflict.message


def ops_in_conflict(conflicts: Mapping[str, Conflict]) -> dict[OpKey, str]:
    """Each operation in conflict and the path whose conflict it reads. One in two (a
    ``:mv`` whose source changed outside, its destination held for it) reads the one that
    is not only waiting: the held ones are mapped first, the others over them."""
    ordered = sorted(conflicts.items(), key=lambda item: item[1].kind is not ConflictKind.HELD)
    return {key: path for path, conflict in ordered for key in conflict.ops}


def _hold_moves(commands: Sequence[OpResult], tree: Tree, records: Mapping[str, PathRecord],
                conflicts: dict[str, Conflict], accepted: Mapping[str, list[OpKey]]) -> None:
    """A move is written whole or not at all: when one end of a file an accepted command
    moves (``:mv``, ``:rn``), or of a move the disk holds (``PathRecord.moved_with``: the
    draft may take it back), is in conflict, the other end waits with it (and so on along
    a chain of moves, through the paths on it that need no write). Else the destination
    would be written with the draft's content beside a source the disk keeps with an
    outside change, or one end removed with nothing written in its place. Settling the
    conflict releases both."""
    drafted = [(old, new) for result in commands
               if result.landed and result.decision.verdict in _ACCEPTING
               for old, new in result.outcome.changes if old is not None and new is not None]
    # And the moves the disk holds: one taken back since (u, n, a restore) moves the file
    # back, both ends or neither (its destination was removed, the only copy of the file,
    # while its source stayed in conflict: QA s47 helper-147 H1).
    records_ends = [(path, end) for path, record in records.items() for end in record.moved_with]
    if not drafted and not records_ends:
        return
    adjacent: dict[str, set[str]] = {}
    for old, new in (*drafted, *records_ends):
        adjacent.setdefault(old, set()).add(new)
        adjacent.setdefault(new, set()).add(old)
    named = {path for pair in drafted for path in pair}
    # Followed through the paths that need no write (a swap's or a chain's file on its way
    # back passes where the draft holds nothing, or what the disk holds already: QA s47
    # helper-154 H4), each path to write waiting for the nearest one in conflict.
    queue, reached = [(path, path) for path in sorted(conflicts)], set(conflicts)
    for node, by in queue:
        for held in sorted(adjacent.get(node, set()) - reached):
            reached.add(held)
            record = records.get(held)
            if (record is None and held not in named) or (
                    record is not None and _as_wanted(record.seen, tree.get(held))):
                queue.append((held, by))  # nothing of it there, or nothing to write there
                continue  # (a move done before: QA s34 F4)
            message = (f"waits for {by}, which is in conflict: moving a file writes both "
                       f"ends or neither, so {held} is left as it is on disk until "
                       f"{by} is settled")
            conflicts[held] = Conflict(
                held, ConflictKind.HELD, message,
                record.seen if record is not None else None,
                record.ref if record is not None else None, tree.get(held),
                tuple(accepted.get(held, ())), waits_for=by)
            queue.append((held, held))


def move_ends(moves: Iterable[tuple[str, str]], tree: Tree,
              paths: Iterable[str]) -> dict[str, tuple[str, ...]]:
    """For each of ``paths`` a landed move of the draft took a file to or from, the paths at
    its other end: where the file ``tree`` holds there was before the draft's moves, and
    where the file that was there before them is now. ``moves``: (old path, new path) of
    each file moved, in the draft's order (every move, not only the last out of a path).

    The moves are followed as a file's line (``a`` -> ``tmp`` -> ``b`` is one end pair, a
    and b): a swap through a temp name pairs both paths (each holds the other's file, QA
    s47 helper-154 H4), and a path moved out of twice pairs with both destinations (the
    original in the first, the file made anew there in the second: H5). A path a move left
    and a file was made at again is the old path of what moves out of it next (that file
    was made there). Costs the size of ``moves`` once when a path is written (20,000
    files moved: ~10 ms), not per path."""
    came: dict[str, str] = {}  # path -> where its file was before the moves (if moved)
    for old, new in moves:
        came[new] = came.pop(old, old)
    went: dict[str, set[str]] = {}  # path -> where the file there before the moves is
    for new, old in came.items():
        if old != new and tree.get(new) is not None:
            went.setdefault(old, set()).add(new)
    out: dict[str, tuple[str, ...]] = {}
    for path in paths:
        ends = set(went.get(path, ()))
        old = came.get(path, path)
        if old != path and tree.get(path) is not None:
            ends.add(old)
        if ends:
            out[path] = tuple(sorted(ends))
    return out


def _as_wanted(seen: FileState | None, wanted: FileState | None) -> bool:
    """Whether the disk (as last seen) already holds what the draft wants there."""
    if seen is None or wanted is None:
        return seen is None and wanted is None
    return seen.mode == wanted.mode and seen.data == wanted.data


_UNKNOWN = object()  # a state the walk below cannot tell (a file brought back by :unrm...)


def _name_the_clash(touching: Mapping[str, list[OpResult]], commands: Sequence[OpResult],
                    records: Mapping[str, PathRecord], conflicts: dict[str, Conflict]) -> None:
    """Put on an outside-edit or held conflict the operations that clash: those decided
    since the draft last held what the workbench wrote there (``ref``), not every decided
    operation on the path. An edit written before the outside change is on disk and stays
    as it was; the accept that came after it (a ``:mv`` removing the file, an ``:undo``
    moving it back) is the one that cannot be written (QA pass s29, helper-90 F1: the
    move's conflict was shown on the earlier edit, and an ``:undo`` that clashed read
    accepted). Where the walk cannot tell (a state it does not know, a rejected operation
    that was written), every decided operation stays on it: a conflict is never hidden.

    ``touching``: the decided results of each path, ``commands``: those that move, remove
    or restore paths, both in reading order. Only the paths in conflict and those linked
    to them by a command are followed (a decision in a 50,000-operation session walks
    what names them, not the whole draft)."""
    wanted = {path for path, conflict in conflicts.items()
              if conflict.kind in (ConflictKind.OUTSIDE_EDIT, ConflictKind.HELD)}
    if not wanted:
        return
    followed = set().union(*(linked_paths(path, commands) for path in wanted))
    events = {result.key: result for path in followed for result in touching.get(path, ())}
    events.update((result.key, result) for result in commands
                  if any(end in followed for pair in result.outcome.changes for end in pair))
    now: dict[str, object] = {}  # path -> its draft state so far (else its record's base)
    steps: dict[str, list[tuple[OpKey, object]]] = {path: [] for path in wanted}

    def state(path: str) -> object:
        return now[path] if path in now else _base_of(records.get(path))

    for key in sorted(events):  # reading order: (turn, position)
        result = events[key]
        if not result.landed:
            continue
        outcome = result.outcome
        made: dict[str, object] = {}
        if outcome.changes:
            moved = {old: state(old) for old, _ in outcome.changes if old is not None}
            for old, new in outcome.changes:
                if old is not None:
                    made.setdefault(old, None)
                if new is not None:
                    made[new] = moved[old] if old is not None else _UNKNOWN
        elif (path := op_path(result)) is not None:
            after = outcome.after_state
            made[path] = after if isinstance(after, FileState) else _UNKNOWN
        now.update(made)
        for path in made.keys() & wanted:
            steps[path].append((key, made[path]))
    for path in wanted:
        record = records.get(path)
        ours = record.ref if record is not None else None
        shown = [(None, _base_of(records.get(path))), *steps[path]]
        last = max((n for n, (_, was) in enumerate(shown)
                    if was is not _UNKNOWN and _same_state(was, ours)), default=None)
        clash = tuple(key for key, _ in shown[last + 1:] if key is not None) if (
            last is not None) else ()
        if clash:
            conflicts[path] = replace(conflicts[path], ops=clash)


def _on_some_row(touching: Mapping[str, list[OpResult]], commands: Sequence[OpResult],
                 conflicts: dict[str, Conflict]) -> None:
    """A conflict named on none of its own operations (a move's destination deleted or
    changed outside, the move's own path being its source; a move that no longer lands):
    every decided operation on it or on a path a command links it to or names, rather
    than a conflict on no row."""
    for path, conflict in conflicts.items():
        if conflict.ops:
            continue
        linked = linked_paths(path, commands)
        conflicts[path] = replace(conflict, ops=tuple(sorted(
            {result.key for end in linked for result in touching.get(end, ())}
            | {result.key for result in commands if _names(result) & linked})))


def _names(result: OpResult) -> set[str]:
    """The paths a command moved or removed, or names in its arguments."""
    ends = {end for pair in result.outcome.changes for end in pair if end is not None}
    if isinstance(result.op, ConsoleCommand):
        ends.update(name for name in map(normalize_or_none, result.op.args) if name)
    return ends


def linked_paths(path: str, commands: Sequence[OpResult]) -> set[str]:
    """``path`` and every path a command (a move, a removal, a restore) links to it,
    transitively."""
    return _linked({path}, commands)


def _linked(linked: set[str], commands: Sequence[OpResult]) -> set[str]:
    """``linked`` grown by every path a command links to one of them, transitively."""
    grown = True
    while grown:
        grown = False
        for result in commands:
            for pair in result.outcome.changes:
                ends = {end for end in pair if end is not None}
                if ends & linked and not ends <= linked:
                    linked |= ends
                    grown = True
    return linked


def _base_of(record: PathRecord | None) -> object:
    return record.base if record is not None else _UNKNOWN


def _same_state(a: object, b: FileState | None) -> bool:
    return a is b or (isinstance(a, FileState) and isinstance(b, FileState) and a == b)
