"""The live review: decisions in, outcomes out, and the project on disk kept in step.

A :class:`Review` holds a session, a project root and the reviewer's decisions, and
evaluates the session twice over the same base tree with the same decisions:

* ``display`` (``Policy.headless()``): what each operation would do if the pending ones
  that apply were accepted -- what the workbench shows;
* ``draft`` (``Policy.decided_only()``): only what the reviewer accepted -- what is
  written to disk ("replay"), for the paths the session touches and nothing else.

Replay guards by content, never by time. For every path the review keeps the bytes it
last saw or wrote; right before each file's own rename (a compare-and-swap per file, see
``_write``), the disk is compared with them:

* equal: write (identical bytes are never rewritten);
* different, and none of the review's own content was on disk yet: the outside content
  becomes the new base for that path and the session is re-evaluated on it. If every
  accepted operation still lands, the result is written ("rebased over an outside
  change"); if one does not, the path is in conflict;
* different, over content the review had written: the outside change is kept as an
  *outside layer* (:mod:`reviewtui.core.rebase`) and re-applied, anchored by content,
  on top of the draft whenever the path is replayed, so it survives later decisions.
  When a hunk of it or an accepted operation no longer lands, the path is in conflict.

A path in conflict is not written: its disk bytes stay exactly as they are, and the
affected operations read ``CONFLICT`` until a decision, undo or another outside change
settles it. A file deleted (or renamed) outside is never recreated silently: the
operations that need it become ``not_found`` / ``conflict``, and only a new accept of
an operation on that path recreates it.

A conflict clears when the draft lets everything land again: for an outside layer,
undoing the decision that clashed, or editing the operation so that it writes what the
disk now holds; for a rebase, rejecting or editing the operation that no longer lands.

``restore(n)`` puts checkpoint ``n`` of the draft on disk and *pins* the disk there:
decisions still change the draft and the outcomes, but replay writes checkpoint ``n``
until ``restore`` is called with the last checkpoint. The pin is in the state file
(a ``restore`` log entry; ``undo`` steps through decisions only, not restores), and an
outside layer is kept on top of a restored checkpoint like on any replay.

Every change of the decisions is appended to the log and saved atomically *before* the
disk is touched, with the original content of every path about to be written, so a
crash at any point loses no decision and a reopen finishes the replay. On reopen, a
path whose disk bytes are neither what was last seen nor what the draft wants changed
while the review was closed and is treated like any outside change (a fresh scratch
copy is simply replayed).
"""

from __future__ import annotations

import dataclasses
import hashlib
import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from types import TracebackType
from typing import Any

from reviewtui.core.engine import (
    Decision,
    OpKey,
    OpResult,
    Policy,
    SessionRun,
    Verdict,
    evaluate_session,
)
from reviewtui.core.engine.decisions import refusal_hint
from reviewtui.core.engine.fileops import normalize_or_none
from reviewtui.core.errors import (
    DecisionRefused,
    DiskChanged,
    DiskError,
    PathRefused,
    UsageError,
)
from reviewtui.core.model import ConsoleCommand, Operation, Session
from reviewtui.core.outcome import Outcome, Status
from reviewtui.core.rebase import (
    Conflict,
    ConflictKind,
    OutsideLayer,
    apply_layer,
)
from reviewtui.core.review.log import LogKind
from reviewtui.core.review.plan import Want, compute_conflicts, op_path, want
from reviewtui.core.tree import FileState, Tree
from reviewtui.shell.disk import (
    atomic_write,
    read_link,
    remove_file,
    remove_temp,
    scratch_copy,
    set_mode,
)
from reviewtui.shell.loader import LoadedSession, load_session, read_text
from reviewtui.shell.lock import RootLock
from reviewtui.shell.project import Project, load_project
from reviewtui.shell.replay import (
    DIRECTORY,
    Directory,
    ReplayReport,
    expand_paths,
    expected_of,
    own_files,
    put_state,
    read_state,
    same,
    write_in_order,
)
from reviewtui.shell.replay import disk_state as replay_disk_state
from reviewtui.shell.state import (
    DecisionItem,
    Folded,
    LogEntry,
    PathRecord,
    ReviewState,
    StateFile,
    blobs_of,
    decode_record,
    drop_in_force,
    encode_record,
    fold,
    orphaned_blobs,
    reconcile_log,
    time_spent,
)
from reviewtui.shell.statepath import state_path_for

MSG_REBASED = "rebased over an outside change"
MSG_KEPT = "changed outside the workbench; the change is kept on top of the accepted operations"
MSG_ADOPTED = "changed outside the workbench; its operations were re-evaluated on it"
MSG_CONFLICT = ("conflict - changed on disk where accepted operations write; nothing was "
                "written, the disk version is kept as it is")
_ACCEPTING = (Verdict.ACCEPTED, Verdict.EDITED)
_REPLAY_ATTEMPTS = 3  # a path that keeps changing under us ends as a conflict

PreviewEntry = tuple[str, FileState | None, FileState | None]


def _new_mode(wanted: FileState | None, seen: FileState | None) -> bool:
    """Whether the session changes the mode (git's ``new mode``) of a file it saw."""
    return wanted is not None and seen is not None and wanted.mode != seen.mode


def _digest(state: FileState | None) -> str | None:
    return None if state is None else state.digest


class Review:
    """One session under review against one project root. See the module docstring."""

    def __init__(self, loaded: LoadedSession, project: Project, *, root: Path,
                 dry_run: bool = False, state_file: StateFile | None = None,
                 lock: RootLock | None = None, scratch: bool = False) -> None:
        self.loaded = loaded
        self.session: Session = loaded.session
        self.root = root
        self.dry_run = dry_run
        self.scratch = scratch
        self.rules = project.rules
        self.config = project.config  # reviewtui.toml: [checks] run only once trusted
        self.base: Tree = project.tree
        self.state_problems: list[str] = []
        # Set when the state is kept under $XDG_STATE_HOME (a transcript, an unwritable folder).
        self.state_elsewhere: Path | None = None
        self.orphaned: list[dict[str, Any]] = []
        self.ui_state: dict[str, Any] = {}
        self.revision = 0
        self.last_report: ReplayReport | None = None
        self._state_file = state_file
        self._lock = lock
        self._mutex = threading.RLock()
        self._records: dict[str, PathRecord] = {}
        self._saved_paths: dict[str, dict[str, Any]] = {}  # as read from the state file
        self._log: list[LogEntry] = []
        # The reviewer's time per decision: from their previous step (or opening) to it.
        self.clock: Callable[[], float] = time.monotonic
        self._since = self.clock()
        self._folded = Folded()
        self._conflicts: dict[str, Conflict] = {}
        self._conflict_ops: dict[OpKey, str] = {}
        self._unwritable: dict[str, str] = {}
        self._refused_by_disk: set[str] = set()  # of those, the disk's refusals: retried
        self._closed = False
        self._session_lines: list[str] | None = None
        self._session_sha = hashlib.sha256(_read_bytes(loaded.file)).hexdigest()
        # Turn number -> position: the UI asks for thousands of results per repaint.
        self._turn_positions = {turn.index: pos for pos, turn in enumerate(self.session.turns)}
        self._ops: dict[OpKey, Operation] = {
            (turn.index, pos): op for turn in self.session.turns
            for pos, op in enumerate(turn.reply.ops)
        }
        # Evaluated by _resume (Review.open); built directly, call _resume() first.
        self.display = SessionRun(self.session, self.base, rules=self.rules,
                                  policy=Policy.headless())
        self.draft = SessionRun(self.session, self.base, rules=self.rules,
                                policy=Policy.decided_only())
        self._dirty = False  # something the state file must hold before the next write

    # -- opening and closing ------------------------------------------------------------
    @classmethod
    def open(cls, session_path: str | Path, root: Path | None = None, *, dry_run: bool = False,
             state_path: Path | None = None, persist: bool | None = None,
             read_only_state: bool = False, format: str | None = None) -> Review:
        """Load a session and its saved review, take the root's lock, finish any replay.

        Without ``root``, a session directory's ``base/`` is copied to a scratch folder.
        ``persist`` (default: on unless ``dry_run`` without a ``state_path``) saves the
        review state to ``state_path`` or ``<session file>.review.json``;
        ``read_only_state`` loads that state without ever writing it (for previews). A dry
        run never writes the project and takes no lock. ``format`` names the session's
        format (None: detected from its content; see :mod:`reviewtui.core.importers`).
        """
        loaded = load_session(session_path, format=format, root=root)
        scratch = False
        if root is None:
            if loaded.base is None:
                raise UsageError("no root given and the session has no base/ folder to copy",
                                 source=str(loaded.file), rule="root")
            root, scratch = scratch_copy(loaded.base, "review"), True
        root = Path(root)
        if not root.is_dir():
            raise DiskError("project root is not a directory", source=str(root), rule="root")
        lock = None if dry_run else RootLock(root).acquire()
        try:
            project = load_project(root, config_dirs=(loaded.directory,))
            if persist is None:
                persist = state_path is not None or not dry_run or read_only_state
            state_file = None
            if persist:
                if state_path is None and scratch:
                    # A scratch review keeps its state beside the copy: samples and demos
                    # are never modified, and each copy starts fresh.
                    state_path = root.with_name(root.name + ".review.json")
                where = ""
                if state_path is None:
                    state_path, where = state_path_for(loaded)
                    if where and not read_only_state:
                        state_path.parent.mkdir(parents=True, exist_ok=True)
                state_file = StateFile(state_path, read_only=read_only_state)
            review = cls(loaded, project, root=root, dry_run=dry_run, state_file=state_file,
                         lock=lock, scratch=scratch)
            if loaded.format_note:
                review.state_problems.append(loaded.format_note)
            if persist and where:
                review.state_problems.append(where)
                review.state_elsewhere = state_path  # the status line says where
            if lock is not None:  # only a reviewtui that died can have left these
                review._remove_leftovers(project.leftovers)
            review._resume()
        except BaseException:
            if lock is not None:
                lock.release()
            raise
        return review

    def close(self) -> None:
        """Save the state, drop blobs nothing refers to, release the root's lock."""
        with self._mutex:
            if self._closed:
                return
            self._closed = True
            try:
                if self._state_file is not None and not self._state_file.read_only:
                    self._save(final=True)
                    keep = {sha for rec in self._records.values() for sha, _ in blobs_of(rec)}
                    keep |= orphaned_blobs(self.orphaned)
                    self._state_file.blobs.collect(keep)
            finally:
                if self._lock is not None:
                    self._lock.release()

    def __enter__(self) -> Review:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    @property
    def session_lines(self) -> list[str]:
        """The session file's text, line by line (spans in records are 1-based into it)."""
        if self._session_lines is None:
            self._session_lines = read_text(self.loaded.file).splitlines()
        return self._session_lines

    @property
    def state_path(self) -> Path | None:
        return self._state_file.path if self._state_file is not None else None

    # -- what the UI reads --------------------------------------------------------------
    @property
    def decisions(self) -> dict[OpKey, Decision]:
        return self._folded.decisions()

    @property
    def can_undo(self) -> bool:
        return bool(self._folded.applied)

    @property
    def can_redo(self) -> bool:
        return bool(self._folded.undone)

    def step_keys(self, *, redo: bool = False) -> list[OpKey]:
        """The operations the next undo (or redo) changes, in log order."""
        stack = self._folded.undone if redo else self._folded.applied
        return [item.key for item in stack[-1].items] if stack else []

    @property
    def disk_checkpoint(self) -> int | None:
        """The checkpoint pinned on disk by :meth:`restore`; None: the whole draft."""
        return self._folded.pin

    @property
    def checkpoint_count(self) -> int:
        return len(self.draft.states)

    @property
    def conflicts(self) -> dict[str, Conflict]:
        return dict(self._conflicts)

    def result(self, key: OpKey) -> OpResult:
        """The display run's result for ``key`` (KeyError when there is no such operation)."""
        pos = self._turn_positions.get(key[0])
        turns = self.display.turns
        if pos is not None and pos < len(turns) and 0 <= key[1] < len(turns[pos].results):
            return turns[pos].results[key[1]]
        raise KeyError(key)

    def outcome(self, key: OpKey) -> Outcome:
        """What the reviewer sees for an operation: the display outcome, or CONFLICT."""
        with self._mutex:
            result = self.result(key)
            path = self._conflict_ops.get(key)
            if path is not None and path in self._conflicts:
                conflict = self._conflicts[path]
                # The engine's outcome stays inside (closest matches help re-anchoring).
                return dataclasses.replace(
                    result.outcome, status=Status.CONFLICT, rule=str(conflict.kind),
                    message=conflict.message, path=path,
                    engine_outcome=result.outcome)
            outcome = result.outcome
            named = op_path(result)
            record = self._records.get(named) if named else None
            if outcome.status is Status.NOT_FOUND and record is not None and record.deleted:
                return dataclasses.replace(outcome, message=self._deleted_message(named or ""))
            return outcome

    # -- decisions --------------------------------------------------------------------
    def decide(self, key: OpKey, decision: Decision) -> ReplayReport:
        return self.decide_many([(key, decision)])

    def decide_many(self, items: Iterable[tuple[OpKey, Decision]], *,
                    skip_unappliable: bool = False) -> ReplayReport:
        """Several decisions as one log entry (one save, one replay, one undo step).

        An accept is recorded only if the operation lands with it (as the workbench shows
        it): accepting an ambiguous, not-found or refused operation raises
        :class:`DecisionRefused` and records nothing, or with ``skip_unappliable`` (bulk
        keys) leaves those operations out and lists them in the report's ``skipped``.
        """
        with self._mutex:
            self._check_open()
            entries: list[DecisionItem] = []
            for key, decision in items:
                op = self._ops.get(key)
                if op is None:
                    raise UsageError(f"no operation {key[1] + 1} in turn {key[0]}",
                                     source=str(self.loaded.file), rule="no-such-operation")
                entries.append(DecisionItem.for_op(key, op, decision))
            skipped: list[OpKey] = []
            while entries:
                first = min(item.turn for item in entries)
                now = self.clock()
                self._log.append(LogEntry(LogKind.DECIDE, tuple(entries),
                                          seconds=now - self._since))
                self._evaluate_from(first, draft=False)  # what the reviewer would see
                unlanded = [item for item in entries if item.decision.verdict in _ACCEPTING
                            and not self.result(item.key).landed]
                if not unlanded:
                    break
                refusal = self._refusal(unlanded[0])  # the outcome with the accept
                self._log.pop()
                self._evaluate_from(first, draft=False)
                if not skip_unappliable:
                    raise refusal
                skipped += [item.key for item in unlanded]
                entries = [item for item in entries if item not in unlanded]
            if not entries:
                report = self._sync(ReplayReport())  # nothing new: where things stand
                report.skipped = skipped
                return report
            for item in entries:
                if item.decision.verdict in _ACCEPTING:
                    self._consent_to_recreate(item.key)
            self._since = now
            # The display already holds these decisions (evaluated above): the draft only.
            self._dirty = True
            self._evaluate_from(min(item.turn for item in entries), display=False)
            report = self._sync(ReplayReport())
            report.skipped = skipped
            return report

    def _refusal(self, item: DecisionItem) -> DecisionRefused:
        outcome = self.result(item.key).outcome
        return DecisionRefused(
            item.key, str(outcome.status),
            f"{item.describe()}: cannot accept an operation that is "
            f"{str(outcome.status).replace('_', ' ')} - {refusal_hint(outcome.status)}; "
            "nothing was recorded")

    def _evaluate_from(self, from_turn: int, *, display: bool = True,
                       draft: bool = True) -> None:
        self._folded = fold(self._log)
        decisions = self._folded.decisions()
        runs = [run for run, wanted in ((self.display, display), (self.draft, draft)) if wanted]
        for run in runs:  # each re-evaluates only what the changed decisions affect
            run.decisions, previous = dict(decisions), run.decisions
            if run is self.draft and not display and self.draft.adopt(self.display):
                continue  # no pending operation lands: the display run is the draft
            run.decisions = previous
            run.update(decisions)

    def _stale_accepts(self) -> list[OpKey]:
        """Accepts in force whose operation does not land (files deleted outside aside)."""
        def deleted(key: OpKey) -> bool:  # the DELETED conflict's business: it stays
            path = op_path(self.result(key))
            record = self._records.get(path) if path else None
            return record is not None and record.deleted

        return sorted(key for key, decision in self._folded.decisions().items()
                      if decision.verdict in _ACCEPTING and key in self._ops
                      and not self.result(key).landed and not deleted(key))

    def _drop_unlanded_saved(self) -> None:
        """Reopened: saved accepts that do not land on the files as they are go back to
        pending (kept under ``orphaned``, reported), so they never land elsewhere later."""
        while stale := self._stale_accepts():
            statuses = {key: self.result(key).outcome.status for key in stale}
            self._log, dropped = drop_in_force(self._log, set(stale))
            self._dirty = True
            self._evaluate_from(stale[0][0])
            for item in dropped:
                if item.key not in statuses:
                    continue
                status = str(statuses.pop(item.key)).replace("_", " ")
                why = f"{status} on the files as they are now"
                self.orphaned.append({**item.to_json(), "reason": why})
                self.state_problems.append(
                    f"{item.describe()}: the saved accept is {why}; it was taken back and the "
                    "operation is pending again (nothing of it was written)")

    def _revert_unlanded(self, report: ReplayReport, why: str) -> None:
        """Accepts that no longer land (the file changed under them) go back to pending.

        Left accepted, such an operation would land wherever a later change lets it (a
        second match turning unique), where the reviewer never chose: it reverts to
        pending, with a notice in the report, as one log entry (undo brings it back).
        """
        while stale := self._stale_accepts():
            statuses = {key: self.result(key).outcome.status for key in stale}
            self._log.append(LogEntry(LogKind.DECIDE, tuple(
                DecisionItem.for_op(key, self._ops[key], Decision()) for key in stale)))
            self._dirty = True
            self._evaluate_from(stale[0][0])
            for key in stale:
                item = DecisionItem.for_op(key, self._ops[key], Decision())
                status = str(statuses[key]).replace("_", " ")
                notice = (f"{item.describe()}: {status} {why}; its accept was taken back "
                          "and it is pending again (nothing of it was written)")
                report.reverted.append((key, notice))
                report.note(op_path(self.result(key)) or item.path, notice)

    def time_spent(self) -> dict[OpKey, float]:
        """Seconds the reviewer spent on each decided operation (a bulk step is shared)."""
        return time_spent(self._log)

    def undo(self) -> ReplayReport | None:
        with self._mutex:
            self._check_open()
            if not self._folded.applied:
                return None
            entry = self._folded.applied[-1]
            self._log.append(LogEntry(LogKind.UNDO))
            self._since = self.clock()
            return self._after_log_change(min(item.turn for item in entry.items))

    def redo(self) -> ReplayReport | None:
        with self._mutex:
            self._check_open()
            if not self._folded.undone:
                return None
            entry = self._folded.undone[-1]
            self._log.append(LogEntry(LogKind.REDO))
            self._since = self.clock()
            return self._after_log_change(min(item.turn for item in entry.items))

    def applicable(self, turns: tuple[int, int] | None = None, *,
                   accept_fuzzy: bool = False) -> list[tuple[OpKey, Decision]]:
        """Accepts for every pending operation that applies (what ``apply --yes`` does).

        Turns are evaluated from the draft's checkpoint before the first one asked for,
        so the draft with these decisions is exactly the headless result.
        """
        with self._mutex:
            first, last = turns or (1, max((t.index for t in self.session.turns), default=0))
            policy = Policy.headless(accept_fuzzy=accept_fuzzy)
            everything = turns is None or (first <= min(
                (t.index for t in self.session.turns), default=first) and last >= max(
                (t.index for t in self.session.turns), default=last))
            if everything and policy == self.display.policy:
                run = self.display  # the same turns, base, rules, policy and decisions
            else:
                run = self.draft.fork(policy=policy, first=first, last=last)
            return [(r.key, Decision.accept(force=r.outcome.status is not Status.APPLIED))
                    for turn in run.turns for r in turn.results
                    if r.landed and r.decision.verdict is Verdict.PENDING]

    def save_ui_state(self) -> None:
        with self._mutex:
            self._save()

    # -- checkpoints --------------------------------------------------------------------
    def restore_preview(self, n: int) -> list[PreviewEntry]:
        """(path, on disk now, after restore) for every path ``restore(n)`` would write."""
        with self._mutex:
            tree = self._tree_at(self._check_checkpoint(n))
            conflicts = self._compute_conflicts(tree)
            out: list[PreviewEntry] = []
            for path in sorted(self._managed(tree)):
                if path in conflicts:
                    continue
                want = self._want(path, tree)
                current = self._seen(path)
                if want.ok and not same(current, want.state):
                    out.append((path, current, want.state))
            return out

    def restore(self, n: int) -> ReplayReport:
        """Put checkpoint ``n`` of the draft on disk and pin it there (see the module doc)."""
        with self._mutex:
            self._check_open()
            n = self._check_checkpoint(n)
            pin = None if n == len(self.draft.states) - 1 else n
            self._log.append(LogEntry(LogKind.RESTORE, checkpoint=pin))
            self._folded = fold(self._log)
            self._dirty = True
            return self._sync(ReplayReport())

    # -- outside changes ----------------------------------------------------------------
    def outside_changed(self, paths: Iterable[str]) -> ReplayReport:
        """Root-relative paths the watcher saw change: rebase, conflict or refresh.

        The review's own writes are recognised by content and ignored; a report without
        events means nothing changed for the review.
        """
        with self._mutex:
            self._check_open()
            report = ReplayReport()
            found: dict[str, FileState | None] = {}
            paths = list(paths)
            blocked = self._relink(paths)  # a new link changes what may be written
            for path in sorted(self._expand(paths)):
                try:
                    disk = self._read(path)
                except DiskError as err:
                    if path in self._session_paths() and path not in self._unwritable:
                        self._unwritable[path] = err.message
                        self._refused_by_disk.add(path)
                        report.note(path, f"conflict - {err.message}")
                        blocked = True
                    continue
                if path in self._refused_by_disk and not isinstance(disk, Directory):
                    # Readable again (the link is gone): the next replay tries it again.
                    self._refused_by_disk.discard(path)
                    self._unwritable.pop(path, None)
                    blocked = True
                if isinstance(disk, Directory) or same(disk, self._seen(path)):
                    continue
                found[path] = disk
            if not found and not blocked:
                return report
            session_paths = self._session_paths()
            for path, disk in found.items():
                if path in session_paths or path in self._records:
                    self._absorb(path, disk, report, renamed_to=self._rename_target(path, found))
                elif self._set_base(path, disk):
                    report.refreshed.append(path)
            self._evaluate_all()
            self._revert_unlanded(report, "after an outside change")
            return self._sync(report)

    def _relink(self, paths: Iterable[str]) -> bool:
        """Tell the engine about links made or removed at ``paths``; True when any was."""
        links = dict(self.rules.symlinks)
        for raw in paths:
            path = normalize_or_none(raw)
            if path is None:
                continue
            target = read_link(self.root, path)
            if target is not None:
                links[path] = target
            else:
                links.pop(path, None)
        if links == dict(self.rules.symlinks):
            return False
        self.rules = dataclasses.replace(self.rules, symlinks=links)
        return True

    # -- a live session -----------------------------------------------------------------
    def reload_session(self) -> list[OpKey]:
        """The session file grew (a live session): read it again, keeping every decision.

        Returns the keys of the operations that are new. Operations already known must be
        unchanged (an append-only log); anything else is refused with a message and the
        review goes on with the session it has.
        """
        with self._mutex:
            self._check_open()
            loaded = load_session(self.loaded.file, format=self.session.format,
                                  root=self.root)
            ops = {(turn.index, pos): op for turn in loaded.session.turns
                   for pos, op in enumerate(turn.reply.ops)}
            for key, op in self._ops.items():
                if ops.get(key) != op:
                    raise UsageError("the live session changed an operation it had already "
                                     f"recorded (turn {key[0]}, operation {key[1] + 1}); "
                                     "reopen it to review the new text",
                                     source=str(self.loaded.file), rule="live-rewritten")
            new = [key for key in ops if key not in self._ops]
            if not new:
                return []
            self.loaded = loaded
            self.session = loaded.session
            self._ops = ops
            self._turn_positions = {turn.index: pos
                                    for pos, turn in enumerate(self.session.turns)}
            self._session_lines = None
            self._session_sha = hashlib.sha256(_read_bytes(loaded.file)).hexdigest()
            grown = min(key[0] for key in new)
            self.display.replace_session(self.session, grown)
            self.draft.replace_session(self.session, grown)
            self._evaluate_all()  # new operations are pending: the draft is unchanged
            self._dirty = True  # the next save records the session as it is now
            return new

    def release_lock(self) -> None:
        """Save everything (as on close) and hand the root's lock back between bursts of
        work (the live server's writer). Nothing may be decided until
        :meth:`reacquire_lock` has taken it again and :meth:`catch_up` has run."""
        with self._mutex:
            self._check_open()
            if self._state_file is not None and not self._state_file.read_only:
                self._save(final=True)
            if self._lock is not None:
                self._lock.release()

    def reacquire_lock(self) -> None:
        """Take the root's lock again (LockedError while another process holds it)."""
        with self._mutex:
            self._check_open()
            if self._lock is not None:
                self._lock.acquire()

    def catch_up(self) -> ReplayReport:
        """After :meth:`reacquire_lock`: whatever changed on disk meanwhile is an outside
        change like any other (rebased over, kept, or a conflict)."""
        return self.outside_changed(self._session_paths() | set(self._records))

    def abandon(self) -> None:
        """Forget this review without saving: another process owns its state file now."""
        with self._mutex:
            self._closed = True
            if self._lock is not None:
                self._lock.release()

    # -- internals: evaluation ----------------------------------------------------------
    def _evaluate_all(self) -> None:
        """Both runs as the base, rules and decisions are now (only what changed)."""
        decisions = self._folded.decisions()
        self.display.sync(self.base, self.rules, decisions)
        # The first time, the draft starts from the display's evaluation (once per op).
        self.draft.sync(self.base, self.rules, decisions, like=self.display)

    def _after_log_change(self, from_turn: int) -> ReplayReport:
        self._dirty = True
        self._evaluate_from(from_turn)
        return self._sync(ReplayReport())

    def _check_open(self) -> None:
        if self._closed:
            raise UsageError("this review is closed", rule="closed")

    def _check_checkpoint(self, n: int) -> int:
        last = len(self.draft.states) - 1
        if not 0 <= n <= last:
            raise UsageError(f"checkpoint {n} is outside 0-{last}", rule="checkpoint")
        return n

    def _tree_at(self, pin: int | None) -> Tree:
        states = self.draft.states
        if pin is None or pin >= len(states):
            return states[-1].tree
        return states[pin].tree

    def _target(self) -> Tree:
        return self._tree_at(self._folded.pin)

    def _turns_on_disk(self) -> int:
        pin = self._folded.pin
        return len(self.draft.turns) if pin is None else min(pin, len(self.draft.turns))

    def _session_paths(self) -> set[str]:
        paths = set(self._records)
        for run in (self.display, self.draft):
            paths.update(self.base.diff(run.states[-1].tree))
            for turn in run.turns:
                for result in turn.results:
                    path = op_path(result)
                    if path:
                        paths.add(path)
        return paths

    # -- internals: what goes where -----------------------------------------------------
    def _seen(self, path: str) -> FileState | None:
        record = self._records.get(path)
        return record.seen if record is not None else self.base.get(path)

    def _record(self, path: str) -> PathRecord:
        record = self._records.get(path)
        if record is None:
            state = self.base.get(path)
            record = self._records[path] = PathRecord(base=state, seen=state, ref=state)
            self._dirty = True
        return record

    def _managed(self, tree: Tree) -> set[str]:
        return set(self._records) | set(self.base.diff(tree))

    def _want(self, path: str, tree: Tree) -> Want:
        return want(path, tree, self._records.get(path))

    def _compute_conflicts(self, tree: Tree) -> dict[str, Conflict]:
        return compute_conflicts(self.draft.turns[: self._turns_on_disk()], tree, self._records,
                                 self._unwritable, self._deleted_message)

    def _deleted_message(self, path: str) -> str:
        record = self._records.get(path)
        moved = record.note if record is not None and record.note else ""
        where = f" ({moved})" if moved else ""
        return (f"{path} was deleted outside the workbench{where}: its operations no longer "
                "apply and nothing is recreated; reject them, or accept one again to "
                "recreate the file")

    def _consent_to_recreate(self, key: OpKey) -> None:
        """A new accept on a path deleted outside is the reviewer's say-so to recreate it."""
        op = self._ops[key]
        raw = op.path if not isinstance(op, ConsoleCommand) else None
        path = normalize_or_none(raw) if raw else None
        record = self._records.get(path) if path else None
        if record is not None and record.deleted:
            record.deleted = False
            self._dirty = True

    # -- internals: the disk ------------------------------------------------------------
    def _read(self, path: str) -> FileState | None | Directory:
        return read_state(self.root, path)

    def _expand(self, paths: Iterable[str]) -> set[str]:
        """Normalised paths; a directory stands for every file under it (then or now)."""
        state_path = self._state_file.path if self._state_file is not None else None
        return expand_paths(self.root, paths, files_under=self.base.files_under,
                            records=self._records, symlinks=self.rules.symlinks,
                            own=own_files(self.root, state_path))

    def _without(self, path: str) -> Tree:
        return self.base.remove(path) if path in self.base else self.base

    def _set_base(self, path: str, state: FileState | None) -> bool:
        """Take ``state`` as the base for ``path``; False when the tree cannot hold it."""
        try:
            self.base = self.base.set(path, state) if state is not None else self._without(path)
        except PathRefused as err:  # a file where the tree has a folder, or the reverse
            self._unwritable[path] = err.message
            return False
        return True

    def _rename_target(self, path: str, found: dict[str, FileState | None]) -> str | None:
        """Where a file deleted outside went, when a new file has exactly its content."""
        if found.get(path, DIRECTORY) is not None:
            return None
        seen = self._seen(path)
        if seen is None:
            return None
        for other, state in found.items():
            if other != path and state is not None and state.data == seen.data:
                return other
        return None

    def _absorb(self, path: str, disk: FileState | None, report: ReplayReport, *,
                renamed_to: str | None = None) -> None:
        """An outside change to a session path: new base, outside layer or deletion."""
        record = self._record(path)
        ours_on_disk = not same(record.seen, record.base)
        self._dirty = True
        record.outside = True
        record.from_state = False
        self._unwritable.pop(path, None)
        report.outside.append(path)
        if disk is None:
            self._set_base(path, None)
            record.base = record.seen = record.ref = None
            record.layer = None
            record.deleted = True
            record.note = f"renamed outside to {renamed_to}" if renamed_to else ""
            report.note(path, self._deleted_message(path))
        elif not ours_on_disk:
            if not self._set_base(path, disk):
                report.note(path, f"conflict - {self._unwritable[path]}")
                return
            record.base = record.seen = record.ref = disk
            record.layer = None
            record.deleted = False
            record.note = ""
            report.note(path, MSG_ADOPTED)
        else:
            ours = record.ref.data if record.ref is not None else None
            record.layer = OutsideLayer(ours, disk.data)
            record.seen = disk
            record.deleted = False
            report.note(path, MSG_KEPT)

    def _prepare_records(self, tree: Tree) -> None:
        """A record (with the original content) for every path replay may write."""
        for path in self.base.diff(tree):
            self._record(path)

    def _sync(self, report: ReplayReport) -> ReplayReport:
        """Save the state, then make the disk match the (pinned) draft: the replay."""
        for _attempt in range(_REPLAY_ATTEMPTS):
            tree = self._target()
            self._prepare_records(tree)
            self._set_conflicts(tree)
            if self._dirty:
                self._save()
            changes: list[tuple[str, FileState | None]] = []
            for path in sorted(self._managed(tree)):
                if path in self._conflicts:
                    continue
                want = self._want(path, tree)
                if want.ok and (not same(self._seen(path), want.state)
                                or _new_mode(want.state, self._seen(path))):
                    changes.append((path, want.state))
            if self.dry_run:
                report.would_write = [path for path, _ in changes]
                break
            moved_under_us = self._write(changes, tree, report)
            if not moved_under_us:
                break
            self._evaluate_all()  # outcomes follow the last outside change
        self._set_conflicts(self._target())
        for path in sorted(self._conflicts):
            if path not in report.conflicts:
                report.conflicts.append(path)
        return self._finish(report)

    def _write(self, changes: list[tuple[str, FileState | None]], tree: Tree,
               report: ReplayReport) -> set[str]:
        """Write, then remove (see :func:`write_in_order`); the paths found changed under
        us (absorbed) are returned."""
        moved: set[str] = set()
        write_in_order(
            changes, report,
            put=lambda path, state: self._put(path, state, tree, report, moved),
            held_for=lambda path, writes, failed, wanted: self._held_for(
                path, tree, writes, failed, wanted))
        return moved

    def _held_for(self, path: str, tree: Tree, writes: list[str], failed: set[str],
                  wanted: dict[str, FileState | None]) -> str | None:
        """Why removing ``path`` must wait: "" (its replacement is still to be written),
        the replacement that failed, or None (it may go)."""
        moves = self._moves()
        dest, seen = moves.get(path), {path}
        while dest is not None and dest not in seen and tree.get(dest) is None:
            seen.add(dest)
            dest = moves.get(dest)  # moved on again: follow it to where it ends
        if dest is not None and dest not in seen:
            if dest in writes:
                return ""
            if dest in failed or dest in self._conflicts:
                return dest
        # Whatever the engine says, bytes that a failed write was to carry stay on disk.
        current = self._seen(path)
        for other in failed:
            state = wanted.get(other)
            if current is not None and state is not None and state.data == current.data:
                return other
        return None

    def _moves(self) -> dict[str, str]:
        """Old path -> new path for the draft's landed moves, up to the pinned checkpoint."""
        moved = self.draft.moved
        pin = self._folded.pin
        return moved[-1] if pin is None or pin >= len(moved) else moved[pin]

    def _put(self, path: str, state: FileState | None, tree: Tree, report: ReplayReport,
             moved: set[str]) -> bool:
        """Write (or remove) one path, guarded by content; True when the disk holds ``state``."""
        record = self._record(path)
        expected = expected_of(record.seen)
        try:
            linked = put_state(self.root, path, state, expected)  # a link made or removed
            if linked is not None:
                if linked:
                    (report.written if state is not None else report.removed).append(path)
            elif state is None:
                if remove_file(self.root, path, expected=expected):
                    report.removed.append(path)
            else:
                keep = record.seen is not None and not _new_mode(state, record.seen)
                mode = None if keep else state.mode
                if (record.seen is not None and expected == state.data
                        and not keep):  # the mode alone changes: no bytes rewritten
                    if set_mode(self.root, path, state.mode, expected=expected):
                        report.written.append(path)
                elif atomic_write(self.root, path, state.data, mode, expected=expected):
                    report.written.append(path)
        except DiskChanged as changed:
            disk = replay_disk_state(changed.current)
            if same(disk, state):  # someone made exactly this change: taken as written
                record.seen, record.ref = disk, tree.get(path)
                return True
            self._absorb(path, disk, report)
            moved.add(path)
            return False
        except DiskError as err:
            if err.rule == "directory":
                self._unwritable[path] = "a directory is in the way"
                moved.add(path)
                return False
            self._unwritable[path] = err.message
            self._refused_by_disk.add(path)
            report.note(path, f"conflict - {err.message}")
            return False
        record.seen = state
        record.ref = tree.get(path)
        layered = record.layer is not None and record.layer.ours != (
            record.ref.data if record.ref is not None else None)
        if path in report.outside or layered:
            report.rebased.append(path)
            report.note(path, MSG_REBASED)
        return True

    def _set_conflicts(self, tree: Tree) -> None:
        self._conflicts = self._compute_conflicts(tree)
        self._conflict_ops = {key: path for path, conflict in self._conflicts.items()
                              for key in conflict.ops}

    def _finish(self, report: ReplayReport) -> ReplayReport:
        for path in report.conflicts:
            conflict = self._conflicts.get(path)
            if conflict is not None and not any(p == path for p, _ in report.events):
                report.note(path, MSG_CONFLICT if conflict.kind is ConflictKind.OUTSIDE_EDIT
                            or conflict.kind is ConflictKind.REBASE else conflict.message)
        self.revision += 1
        self.last_report = report
        return report

    def _remove_leftovers(self, leftovers: Iterable[str]) -> None:
        for rel in leftovers:  # only names our atomic writes make (shell/disk.py)
            remove_temp(self.root, rel)
        if self._state_file is not None and not self._state_file.read_only:
            self._state_file.remove_leftovers()

    # -- internals: persistence ---------------------------------------------------------
    def _save(self, *, final: bool = False) -> None:
        if self._state_file is None or self._state_file.read_only:
            return
        blobs = self._state_file.blobs
        for record in self._records.values():
            for sha, data in blobs_of(record, with_ref=final):
                blobs.put(data, sha)
        self._dirty = False
        state = ReviewState(
            session_sha=self._session_sha,
            root=None if self.scratch else str(self.root.resolve()),
            log=self._log,
            orphaned=self.orphaned,
            ui=self.ui_state,
            paths={path: encode_record(record)
                   for path, record in sorted(self._records.items())},
        )
        self._state_file.save(state, self.loaded.file)

    def _resume(self) -> None:
        """Load the saved review, check it against the session and the disk, catch up."""
        saved: ReviewState | None = None
        if self._state_file is not None:
            saved, problems = self._state_file.load()
            self.state_problems.extend(problems)
        if saved is not None:
            self._load_saved(saved)
        self._folded = fold(self._log)
        pin = self._folded.pin
        if pin is not None and pin >= len(self.session.turns) + 1:
            self.state_problems.append(f"the restored checkpoint {pin} no longer exists; "
                                       "the whole draft goes on disk")
            self._log.append(LogEntry(LogKind.RESTORE, checkpoint=None))
            self._folded = fold(self._log)
            self._dirty = True
        self._evaluate_all()
        report = ReplayReport()
        self._reconcile(report)
        self._drop_unlanded_saved()
        self._sync(report)

    def _load_saved(self, saved: ReviewState) -> None:
        assert self._state_file is not None
        path = self._state_file.path
        if saved.session_sha and saved.session_sha != self._session_sha:
            self.state_problems.append(f"{self.loaded.file}: the session file changed since "
                                       f"the review was saved; every decision was checked "
                                       "against it")
        if saved.root and not self.scratch and saved.root != str(self.root.resolve()):
            self.state_problems.append(f"{path}: the review was saved for {saved.root}, and "
                                       f"is now opened on {self.root.resolve()}")
        self._log, orphaned, problems = reconcile_log(saved.log, self.session, path)
        self.state_problems.extend(problems)
        self._dirty = bool(problems)  # orphans move to their own list in the file
        self.orphaned = [*saved.orphaned, *orphaned]
        self.ui_state = dict(saved.ui)
        changes: dict[str, FileState | None] = {}
        self._saved_paths = saved.paths
        for rel, data in saved.paths.items():
            if normalize_or_none(rel) != rel:
                self.state_problems.append(f"{path}: ignored the unsafe path {rel!r}")
                continue
            record, why = decode_record(rel, data, self._state_file.blobs)
            if record is None:
                self.state_problems.append(why)
                continue
            self._records[rel] = record
            changes[rel] = record.base
        self.base = self.base.apply(changes)

    def _op_paths(self) -> set[str]:
        """Every path an operation of the session names or changes (either run)."""
        paths: set[str] = set()
        for run in (self.display, self.draft):
            paths.update(self.base.diff(run.states[-1].tree))
            for turn in run.turns:
                for result in turn.results:
                    named = op_path(result)
                    if named:
                        paths.add(named)
                    changes = result.outcome.changes  # (old, new) pairs
                    for change in changes if isinstance(changes, tuple) else ():
                        named_paths = (normalize_or_none(x) for x in change
                                       if isinstance(x, str))
                        paths.update(p for p in named_paths if p)
        return paths

    def _previous_target(self) -> Tree:
        """The disk the review wanted one log entry ago (a crash between save and write)."""
        folded = fold(self._log[:-1])
        run = evaluate_session(self.session, self.base, rules=self.rules,
                               policy=Policy.decided_only(), decisions=folded.decisions())
        states = run.states
        pin = folded.pin
        return states[-1].tree if pin is None or pin >= len(states) else states[pin].tree

    def _saved_record_fits(self, path: str, record: PathRecord, disk: FileState | None,
                           targets: Callable[[], list[FileState | None]]) -> bool:
        """Whether the disk is what this review could have left at ``path``.

        The disk must hold the saved original, or what the draft wanted at the last or the
        previous log entry (with the saved outside layer on top, if any); or, changed while
        closed, what the review had on disk must be one of those. Anything else means the
        record was not made by this review over this disk: it must not be replayed.
        """
        data = disk.data if disk is not None else None

        def content(state: FileState | None) -> bytes | None:
            return state.data if state is not None else None

        if same(disk, record.base):
            return True
        wanted = [content(state) for state in targets()]
        if data in wanted:
            return True
        layer = record.layer
        if layer is not None:
            if data == layer.theirs and layer.ours in wanted:
                return True
            for want in wanted:
                applied = apply_layer(layer, want)
                if applied.ok and applied.data == data:
                    return True
        if _digest(disk) == record.saved_seen:
            return False  # "as left", yet nothing this review wrote
        # Changed while closed: _reconcile takes the disk as the new base (fine) unless it
        # keeps the change as a layer over what the review had written; that must be ours.
        if record.saved_seen is None and record.base is not None:
            return content(record.ref) in wanted
        if record.saved_seen != _digest(record.base) and record.ref is not None:
            return content(record.ref) in wanted
        return True

    def _drop_unfit_records(self) -> None:
        """Saved path records the session and the disk do not explain: reported, ignored."""
        touched: set[str] | None = None
        previous: list[Tree] = []  # computed once, only when some record needs it
        dropped = False
        for path, record in sorted(self._records.items()):
            if not record.from_state:
                continue
            try:
                disk = self._read(path)
            except DiskError:
                continue  # _reconcile makes it a conflict: nothing is written there
            if isinstance(disk, Directory):
                continue
            if touched is None:
                touched = self._op_paths()

            def targets(path: str = path) -> list[FileState | None]:
                if not previous:
                    previous.append(self._previous_target())
                return [self._target().get(path), previous[0].get(path)]

            if path not in touched:
                why = "no operation of the session touches it"
            elif not self._saved_record_fits(path, record, disk, targets):
                why = "the file on disk is not what this review left there"
            else:
                continue
            del self._records[path]
            self._set_base(path, disk)
            dropped = True
            # Kept in the file (never applied), so an original it names is not lost.
            self.orphaned.append({"path": path, "reason": why,
                                  "record": self._saved_paths.get(path)})
            where = self._state_file.path if self._state_file is not None else "state"
            self.state_problems.append(f"{where}: ignored the saved record of {path} ({why}); "
                                       "the file on disk is its original and stays as it is")
        if dropped:
            self._evaluate_all()

    def _reconcile(self, report: ReplayReport) -> None:
        """Reopened: tell our own finished or unfinished writes from outside changes."""
        self._drop_unfit_records()
        tree = self._target()
        for path, record in sorted(self._records.items()):
            if not record.from_state:
                continue
            record.from_state = False
            try:
                disk = self._read(path)
            except DiskError as err:
                self._unwritable[path] = err.message
                record.seen = record.base
                continue
            if isinstance(disk, Directory):
                self._unwritable[path] = "a directory is in the way"
                record.seen = record.base
                continue
            want = self._want(path, tree)
            if _digest(disk) == record.saved_seen:
                record.seen = disk  # as left; replay finishes whatever was not written yet
            elif want.ok and same(disk, want.state):
                record.seen, record.ref = disk, tree.get(path)  # written, then the crash
            elif self.scratch and same(disk, record.base):
                record.seen = record.ref = record.base  # a fresh scratch copy: replay
            else:
                # Changed while closed. What was on disk decides between a new base and an
                # outside layer over what we had written (that needs the saved ``ref``).
                if record.saved_seen is None and record.base is not None:
                    record.seen = None
                elif record.saved_seen != _digest(record.base) and record.ref is not None:
                    record.seen = record.ref
                else:
                    record.seen = record.base
                self._absorb(path, disk, report)
        if report.outside:
            self._evaluate_all()


def _read_bytes(path: Path) -> bytes:
    try:
        return path.read_bytes()
    except OSError:
        return b""
