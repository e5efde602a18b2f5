"""Replay's disk side: the report, reading and walking the root, the guarded write loop.

What one replay (or one batch of outside changes) did to the disk is a
:class:`~reviewtui.shell.replay_report.ReplayReport`. The functions read files and
folders under the root (never through a link) and order a batch of content-guarded
writes and removals (:func:`write_in_order`).

:func:`sync` is the replay itself: after the state file is saved, every path the draft
(pinned by ``restore``, if it is) wants different from what the review last saw is
written or removed, each guarded by a compare-and-swap on its content (:func:`put`);
what is in conflict (``core/review/plan.py`` decides) is left exactly as it is. A path
found changed under a write is absorbed as an outside change
(:func:`reviewtui.shell.outside.absorb`) and the replay goes round again. What it writes
and leaves is one :func:`plan`, which :func:`restore_preview` reads too: a preview names
exactly what the restore would write and leave in conflict.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

from reviewtui.core.engine import OpKey, OpResult
from reviewtui.core.engine.file_edits import normalize_or_none
from reviewtui.core.engine.links import is_link, link_state, link_target
from reviewtui.core.errors import DiskChanged, DiskError, UsageError
from reviewtui.core.model.outcome import Outcome, Status
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.paths.safety import link_on_path
from reviewtui.core.record import record, replace
from reviewtui.core.review.plan import (
    Want,
    compute_conflicts,
    conflict_note,
    deleted_message,
    move_ends,
    op_path,
    ops_in_conflict,
    want,
)
from reviewtui.core.review.rebase import Conflict
from reviewtui.shell.disk import (
    IN_THE_WAY,
    LINK_MODE,
    SKIP_DIRS,
    Link,
    atomic_write,
    read_file,
    read_link,
    remove_file,
    set_mode,
    write_link,
)
from reviewtui.shell.in_the_way import folders_in_the_way, settle_folders
from reviewtui.shell.replay_report import ReplayReport
from reviewtui.shell.state import StateFile
from reviewtui.shell.statemark import mark_finished
from reviewtui.shell.statepath import blob_dir_for

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.core.review.folders import FolderLedger
    from reviewtui.shell.review import Review
    from reviewtui.shell.write_batch import WriteBatch


# --- reading and walking the disk ------------------------------------------------------


class Directory:
    """The path is a directory on disk (the watcher reports those too)."""


DIRECTORY = Directory()


def same(a: FileState | None, b: FileState | None) -> bool:
    """Same content (absent counts); modes are the disk's business, not the guard's, but
    a link is never the same as a file holding its target."""
    if a is None or b is None:
        return a is b
    return a.data == b.data and is_link(a) == is_link(b)


def disk_state(found: tuple[bytes, int] | None) -> FileState | None:
    """What the disk layer found (bytes and mode; a link as its target) as a file state."""
    if found is None:
        return None
    data, mode = found
    return link_state(data) if mode == LINK_MODE else FileState.from_bytes(data, mode=mode)


def expected_of(state: FileState | None) -> bytes | None | Link:
    """What a guarded write expects on disk for ``state`` (a link: its target, as a link)."""
    if state is None:
        return None
    return Link(state.data) if is_link(state) else state.data


def put_state(root: Path, path: str, state: FileState | None, expected: bytes | None | Link,
              ledger: FolderLedger | None = None) -> bool | None:
    """Write or remove ``path`` when either concerns a link; None when neither does (the
    caller writes the regular file). True when the disk changed."""
    if state is not None and is_link(state):
        return write_link(root, path, link_target(state), expected=expected, ledger=ledger)
    if state is None and isinstance(expected, Link):
        return remove_file(root, path, expected=expected, ledger=ledger)
    return None


def nested(a: str, b: str) -> bool:
    """Whether one path is a folder of the other (they cannot both be files)."""
    return a.startswith(b + "/") or b.startswith(a + "/")


def read_state(root: Path, path: str) -> FileState | None | Directory:
    """The file at ``path`` under ``root`` (None: absent), never through a link."""
    try:
        found = read_file(root, path)
    except DiskError as err:
        if err.rule == "directory":
            return DIRECTORY
        target = read_link(root, path) if err.rule == "symlink" else None
        if target is not None:  # the path itself is a link (none on its way): its target
            return link_state(os.fsencode(target))
        raise DiskError(err.message, source=path, rule=err.rule) from None
    return None if found is None else FileState.from_bytes(found[0], mode=found[1])


def walk_files(root: Path, directory: Path) -> Iterator[str]:
    """Root-relative files under ``directory``, skipping the folders reviewtui never reads."""
    for dirpath, dirnames, filenames in os.walk(directory, followlinks=False):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        base = Path(dirpath)
        for name in filenames:
            yield (base / name).relative_to(root).as_posix()


def own_files(root: Path, state_path: Path | None) -> set[str]:
    """The state file and its blobs, when they live inside the root."""
    if state_path is None:
        return set()
    out: set[str] = set()
    for own in (state_path, blob_dir_for(state_path)):
        try:
            out.add(own.resolve().relative_to(root.resolve()).as_posix())
        except ValueError:
            continue
    return out


def expand_paths(root: Path, paths: Iterable[str], *,
                 files_under: Callable[[str], Iterable[str]], records: Iterable[str],
                 symlinks: Mapping[str, str], own: set[str]) -> set[str]:
    """Normalised paths; a directory stands for every file under it, then (the base tree's
    ``files_under`` and the ``records``' paths) or now (on disk). Our own files are left
    out."""
    def skipped(path: str) -> bool:
        return (any(path == mine or path.startswith(mine + "/") for mine in own)
                or any(part in SKIP_DIRS for part in path.split("/")))

    record_paths = list(records)
    out: set[str] = set()
    for raw in paths:
        path = normalize_or_none(raw)
        if path is None or skipped(path):
            continue
        prefix = path + "/"
        under = set(files_under(path))
        under.update(p for p in record_paths if p.startswith(prefix))
        full = root / path
        # Never walk through a link: it may lead out of the root (and is never written).
        if link_on_path(path, symlinks) is None and full.is_dir() and not full.is_symlink():
            under.update(walk_files(root, full))
        out.update(under or {path})
    return {path for path in out if not skipped(path)}


# --- the guarded write loop --------------------------------------------------------------


def write_in_order(changes: list[tuple[str, FileState | None]], report: ReplayReport, *,
                   put: Callable[[str, FileState | None], bool],
                   held_for: Callable[[str, list[str], set[str], dict[str, FileState | None]],
                                      str | None]) -> None:
    """Write, then remove, each through ``put`` (a content-guarded write or removal).

    Writes go first and a removal waits for the write that replaces it (a move's
    destination; ``held_for`` says "" while it waits, the failed replacement, or None):
    a file's last copy is never removed unless its replacement is on disk. A write waits
    for a removal only when one path is a folder of the other (a file becoming a folder,
    or back).
    """
    wanted = dict(changes)
    writes = sorted(path for path, state in changes if state is not None)
    removals = sorted(path for path, state in changes if state is None)
    failed: set[str] = set()
    progress = True
    while progress and (writes or removals):
        progress = False
        for path in list(writes):
            if any(nested(path, other) for other in removals):
                continue
            writes.remove(path)
            progress = True
            if not put(path, wanted[path]):
                failed.add(path)
        for path in list(removals):
            held = held_for(path, writes, failed, wanted)
            if held == "":
                continue  # its replacement is not written yet
            removals.remove(path)
            progress = True
            if held is not None:
                report.note(path, f"not removed: its content goes to {held}, which was "
                            "not written; the file stays until it is")
                continue
            put(path, None)
    for path in writes:  # waiting on a removal that waits on it: try, and report
        put(path, wanted[path])
    for path in removals:
        report.note(path, "not removed: what replaces it could not be written")


# --- the replay: the disk made to match the (pinned) draft ---------------------------------

_REPLAY_ATTEMPTS = 3  # a path that keeps changing under us ends as a conflict
MSG_REBASED = "rebased over an outside change"

PreviewEntry = tuple[str, FileState | None, FileState | None]


def _new_mode(wanted: FileState | None, seen: FileState | None) -> bool:
    """Whether the session changes the mode (git's ``new mode``) of a file it saw."""
    return wanted is not None and seen is not None and wanted.mode != seen.mode


def sync(review: Review, report: ReplayReport) -> ReplayReport:
    """Save the state, then make the disk match the (pinned) draft: the replay."""
    saved: StateFile | None = None
    settled = False  # the last plan's conflicts are the disk's after its writes
    for _attempt in range(_REPLAY_ATTEMPTS):
        tree = review._target()
        prepare_records(review, tree)
        settle_folders(review, tree)
        planned = plan(review, tree, review._folded.pin)
        if folders_in_the_way(review, planned.changes, report):  # (before any write)
            planned = plan(review, tree, review._folded.pin)
        set_conflicts(review, planned.conflicts)
        review._folders.creating(path for path, state in planned.changes
                                 if state is not None and review._seen(path) is None)
        ends = move_ends(review.evaluation.move_pairs(review._folded.pin), tree,
                         (path for path, _state in planned.changes))
        if review._dirty:
            from reviewtui.shell.resume import note_writing, save  # (resume replays: a cycle)

            for path, state in planned.changes:
                note_writing(review, path, state, ends.get(path, ()))  # (hashed if saved)
            save(review)
            for path, _state in planned.changes:
                review._record(path).writing = None
            saved = review._state_file
        if review.dry_run:
            report.would_write = [path for path, _ in planned.changes]
            break
        unwritable = dict(review._unwritable)
        moved_under_us = write(review, planned.changes, tree, report, ends)
        if not moved_under_us:
            # The writes changed only the paths written, none in conflict: the plan's
            # conflicts stand unless a write was refused (~25 ms a replay at 50,000 ops).
            settled = review._unwritable == unwritable
            break
        review._evaluate_all()  # outcomes follow the last outside change
        from reviewtui.shell.outside import take_back  # outside changes replay: a cycle

        take_back(review, report)  # a file put back to its original content meanwhile
    if saved is not None and not review.dry_run and not report.held:  # all writes made
        mark_finished(saved.path, saved.nonce)
    if not settled:
        set_conflicts(review, conflicts_in(review, review._target()))
    for path in sorted(review._conflicts):
        if path not in report.conflicts:
            report.conflicts.append(path)
    return finish(review, report)


@record(frozen=True, slots=True)
class ReplayPlan:
    """What a replay to one tree does: ``changes`` (path, state to write; None removes)
    for every path whose disk content it changes, and the paths it leaves in conflict."""

    changes: list[tuple[str, FileState | None]]
    conflicts: dict[str, Conflict]


def plan(review: Review, tree: Tree, pin: int | None) -> ReplayPlan:
    """The replay's plan for ``tree`` with the disk pinned at ``pin``: what :func:`sync`
    writes and :func:`restore_preview` lists, so the two cannot disagree. Reads the
    review only (a path without a record plans as one freshly made would)."""
    conflicts = conflicts_at(review, tree, pin)
    changes: list[tuple[str, FileState | None]] = []
    for path in sorted(managed(review, tree)):
        if path in conflicts:
            continue
        wanted = want_at(review, path, tree)
        seen = review._seen(path)
        if wanted.ok and (not same(seen, wanted.state) or _new_mode(wanted.state, seen)):
            changes.append((path, wanted.state))
    return ReplayPlan(changes, conflicts)


def prepare_records(review: Review, tree: Tree) -> None:
    """A record (with the original content) for every path replay may write."""
    for path in review.base.diff(tree):
        review._record(path)


def write(review: Review, changes: list[tuple[str, FileState | None]], tree: Tree,
          report: ReplayReport, ends: Mapping[str, tuple[str, ...]]) -> set[str]:
    """Write, then remove (see :func:`write_in_order`); the paths found changed under
    us (absorbed) are returned. A path written is one end of the draft's moves ``ends``
    names for it (``PathRecord.moved_with``)."""
    from reviewtui.shell.outside import held  # (a cycle)
    from reviewtui.shell.write_batch import WriteBatch  # here: reading needs none of it

    moved: set[str] = set()

    def put_unless_held(path: str, state: FileState | None) -> bool:
        # Open for writing elsewhere (asked right before its write, after the temp files'
        # fsyncs): not replaced nor removed, as a later save would go into the file
        # replaced; a failed write, so a removal whose content goes there waits.
        if _on_disk(review, path) and held(review, [path], scan=False):
            return wait_for_writer(review, path, report)
        if not put(review, path, state, tree, report, moved, batch):
            return False
        record = review._record(path)
        now = ends.get(path, ())
        for end in set(record.moved_with) - set(now):
            other = review._records.get(end)
            # (an end the move back needs nothing at: the file is gone from there, as the
            # draft wants, and no write will come to end the pair: hypothesis, s55, a file
            # edited after such an undo waited on that path's conflict, unwritten)
            if (other is not None and path in other.moved_with and other.seen is None
                    and tree.get(end) is None):
                other.moved_with = tuple(p for p in other.moved_with if p != path)
        record.moved_with = now
        return True

    with WriteBatch(review.root) as batch:
        # Each regular file's temp file written and fsynced ahead, all at once.
        batch.prepare((path, state.data) for path, state in changes
                      if state is not None and not is_link(state)
                      and not _mode_only(review, path, state))
        write_in_order(
            changes, report, put=put_unless_held,
            held_for=lambda path, writes, failed, wanted: held_for(
                review, path, tree, writes, failed, wanted))
    return moved


def _on_disk(review: Review, path: str) -> bool:
    """Whether the review last saw a regular file at ``path`` (one a program may hold)."""
    record = review._records.get(path)
    return record is not None and record.seen is not None and not is_link(record.seen)


def wait_for_writer(review: Review, path: str, report: ReplayReport, *,
                    again: bool = True) -> bool:
    """``path`` is open for writing in another program: not written now (False), said
    (``again``: though it was already held), and asked about again (``held_paths``)."""
    from reviewtui.shell.outside import MSG_BEING_WRITTEN  # (a cycle)

    report.held.append(path)
    if again or path not in review._held:
        report.note(path, MSG_BEING_WRITTEN)
    review._held.add(path)
    return False


def _mode_only(review: Review, path: str, state: FileState) -> bool:
    """Whether :func:`put` would change only the mode of ``path`` (no bytes written)."""
    record = review._records.get(path)
    seen = record.seen if record is not None else None
    return seen is not None and not is_link(seen) and seen.data == state.data


def held_for(review: Review, path: str, tree: Tree, writes: list[str], failed: set[str],
             wanted: dict[str, FileState | None]) -> str | None:
    """Why removing ``path`` must wait: "" (its replacement is still to be written),
    the replacement that failed, or None (it may go)."""
    moves = review.evaluation.moves(review._folded.pin)
    dest, seen = moves.get(path), {path}
    while dest is not None and dest not in seen and tree.get(dest) is None:
        seen.add(dest)
        dest = moves.get(dest)  # moved on again: follow it to where it ends
    if dest is not None and dest not in seen:
        if dest in writes:
            return ""
        if dest in failed or dest in review._conflicts:
            return dest
    # Whatever the engine says, bytes that a failed write was to carry stay on disk.
    current = review._seen(path)
    for other in failed:
        state = wanted.get(other)
        if current is not None and state is not None and state.data == current.data:
            return other
    return None


def put(review: Review, path: str, state: FileState | None, tree: Tree, report: ReplayReport,
        moved: set[str], batch: WriteBatch | None = None) -> bool:
    """Write (or remove) one path, guarded by content; True when the disk holds ``state``."""
    record = review._record(path)
    expected = expected_of(record.seen)
    try:
        if batch is not None and (state is None or is_link(state)):
            batch.flush()  # a removal or a link waits until the writes before it are durable
        ledger = review._folders  # the folders made, and those a removal may take
        linked = put_state(review.root, path, state, expected, ledger)  # a link made or removed
        if linked is not None:
            if linked:
                (report.written if state is not None else report.removed).append(path)
        elif state is None:
            if remove_file(review.root, path, expected=expected, ledger=ledger):
                report.removed.append(path)
        else:
            keep = record.seen is not None and not _new_mode(state, record.seen)
            mode = None if keep else state.mode
            if (record.seen is not None and expected == state.data
                    and not keep):  # the mode alone changes: no bytes rewritten
                if set_mode(review.root, path, state.mode, expected=expected):
                    report.written.append(path)
            elif atomic_write(review.root, path, state.data, mode, expected=expected,
                              batch=batch, ledger=ledger):
                report.written.append(path)
    except DiskChanged as changed:
        disk = disk_state(changed.current)
        if same(disk, state):  # someone made exactly this change: taken as written
            record.seen, record.ref = disk, tree.get(path)
            record.written_at = len(review._log)
            return True
        from reviewtui.shell.outside import absorb, held  # (a cycle)

        if held(review, [path]):  # the watcher reports it again once the save is whole
            return wait_for_writer(review, path, report)
        absorb(review, path, disk, report)
        moved.add(path)
        return False
    except DiskError as err:
        if err.rule == "directory":
            if review._unwritable.get(path) != IN_THE_WAY:  # (said once)
                report.note(path, f"conflict - {IN_THE_WAY}; nothing written there")
            review._unwritable[path] = IN_THE_WAY
            review._refused_by_disk.add(path)  # (retried once the folder is gone)
            moved.add(path)
            return False
        review._unwritable[path] = err.message
        review._refused_by_disk.add(path)
        report.note(path, f"conflict - {err.message}")
        return False
    record.seen, record.ref = state, tree.get(path)
    record.written_at = len(review._log)
    layered = record.layer is not None and record.layer.ours != (
        record.ref.data if record.ref is not None else None)
    if path in report.outside or layered:
        report.rebased.append(path)
        report.note(path, MSG_REBASED)
    return True


def set_conflicts(review: Review, conflicts: dict[str, Conflict]) -> None:
    """The paths in conflict and, for the outcomes, their operations."""
    review._conflicts = conflicts
    review._conflict_ops = ops_in_conflict(conflicts)


def finish(review: Review, report: ReplayReport) -> ReplayReport:
    """Note each conflict once, count the revision, keep the report for the UI."""
    for path in report.conflicts:
        conflict = review._conflicts.get(path)
        if conflict is not None and not any(p == path for p, _ in report.events):
            report.note(path, conflict_note(conflict))
    review.revision += 1
    review.last_report = report
    return report


@record(frozen=True, slots=True)
class RestorePreview:
    """What ``restore(n)`` would do: ``changes`` (path, on disk now, after restore) for
    every path it would write or remove, ``conflicts`` (path, why) for every path it
    would leave as it is, in conflict."""

    changes: list[PreviewEntry]
    conflicts: list[tuple[str, str]]

    @property
    def nothing_to_do(self) -> bool:
        return not self.changes and not self.conflicts


def change_verb(old: FileState | None, new: FileState | None) -> str:
    """How a preview names one change: create, remove, rewrite or change the mode."""
    if old is None or new is None:
        return "create" if old is None else "remove"
    return "change the mode of" if same(old, new) else "rewrite"


def checkpoint(review: Review, n: int) -> int:
    """``n``, a checkpoint of the draft (UsageError when there is no such checkpoint)."""
    last = len(review.draft.states) - 1
    if not 0 <= n <= last:
        raise UsageError(f"checkpoint {n} is outside 0-{last}", rule="checkpoint")
    return n


def restore_preview(review: Review, n: int) -> RestorePreview:
    """What ``restore(n)`` would do, planned as its replay plans it (:func:`plan`)."""
    with review._mutex:
        pin = checkpoint(review, n)  # the last checkpoint plans as no pin does
        planned = plan(review, review.evaluation.tree_at(pin), pin)
        return RestorePreview(
            [(path, review._seen(path), state) for path, state in planned.changes],
            [(path, conflict_note(conflict, ahead=True))
             for path, conflict in sorted(planned.conflicts.items())])


def managed(review: Review, tree: Tree) -> set[str]:
    """The paths replay looks after: every recorded one and every one the draft changes."""
    return set(review._records) | set(review.base.diff(tree))


def want_at(review: Review, path: str, tree: Tree) -> Want:
    """What replay should put at ``path`` for ``tree`` (the outside layer on top)."""
    return want(path, tree, review._records.get(path))


def conflicts_in(review: Review, tree: Tree) -> dict[str, Conflict]:
    """The paths replay must leave alone for ``tree`` where the disk is pinned now."""
    return conflicts_at(review, tree, review._folded.pin)


def conflicts_at(review: Review, tree: Tree, pin: int | None) -> dict[str, Conflict]:
    """The paths replay leaves alone for ``tree``, the disk pinned at ``pin``, and why."""
    from reviewtui.shell.outside import still_on_disk  # (a cycle)
    records, evaluation = review._records, review.evaluation
    # Only the turns with a decision: compute_conflicts reads nothing of a pending result.
    return still_on_disk(review, compute_conflicts(
        review.draft.decided_turns(evaluation.turns_on_disk(pin)), tree, records,
        review._unwritable, lambda path: deleted_message(path, records.get(path)),
        evaluation.decided_by_path))


def outcome_now(review: Review, key: OpKey) -> Outcome:
    """:meth:`Review.outcome`, without ever waiting while another thread changes the review.

    The workbench asks from its event loop, and its job worker holds the review for a
    whole decision: waiting would freeze the screen for as long. Instead it reads the
    outcome as it stands (the job's end redraws anyway); while the operation's turn is
    being re-evaluated, the outcome last read with the review to itself. Only an
    operation never read and not evaluated yet waits (evaluating it needs the review).
    """
    mutex = review._mutex
    if not mutex.acquire(blocking=False):
        result = review.evaluation.peek(key)
        if result is not None:
            return outcome_of(review, result)
        known = review._last_outcomes.get(key)
        if known is not None:
            return known
        mutex.acquire()
    try:
        outcome = review._last_outcomes[key] = outcome_of(review, review.result(key))
        return outcome
    finally:
        mutex.release()


def outcome_of(review: Review, result: OpResult) -> Outcome:
    """What the reviewer sees for an operation: the display outcome, CONFLICT when its
    path is in conflict (the engine's outcome kept inside), or a deletion explained."""
    path = review._conflict_ops.get(result.key)
    if path is not None and path in review._conflicts:
        conflict = review._conflicts[path]
        # The engine's outcome stays inside (closest matches help re-anchoring).
        return replace(
            result.outcome, status=Status.CONFLICT, rule=str(conflict.kind),
            message=conflict.message, path=path,
            engine_outcome=result.outcome)
    outcome = result.outcome
    named = op_path(result)
    record = review._records.get(named) if named else None
    if outcome.status is Status.NOT_FOUND and record is not None and record.deleted:
        return replace(outcome, message=deleted_message(named or "", record))
    return outcome
