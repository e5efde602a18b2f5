"""The live review: decisions in, outcomes out, and the project on disk kept in step.

A :class:`Review` holds a session, a project root and the reviewer's decisions. It is a
façade: each job lives in its own room, and the methods here hand over to them.

* :mod:`reviewtui.core.review.log`: the decision log (records, fold, undo/redo);
* :mod:`reviewtui.shell.deciding`: a decision, undo, redo or restore as a log entry;
* :mod:`reviewtui.shell.evaluation`: the session evaluated twice over the same base
  tree with the same decisions -- ``display`` (``Policy.headless()``: what each
  operation would do if the pending ones that apply were accepted, what the workbench
  shows) and ``draft`` (``Policy.decided_only()``: only what the reviewer accepted,
  what is written to disk); the display may be evaluated in steps after opening;
* :mod:`reviewtui.core.review.plan`: what should be on disk per path, and conflicts;
* :mod:`reviewtui.shell.replay`: the disk made to match the draft (guarded writes);
* :mod:`reviewtui.shell.outside`: files changed outside the review;
* :mod:`reviewtui.shell.resume`: opening, the saved state, catching the disk up.

Replay guards by content, never by time. For every path the review keeps the bytes it
last saw or wrote; right before each file's own rename (a compare-and-swap per file, see
:func:`reviewtui.shell.replay.put`), the disk is compared with them:

* equal: write (identical bytes are never rewritten);
* different, and none of the review's own content was on disk yet: the outside content
  becomes the new base for that path and the session is re-evaluated on it. If every
  accepted operation still lands, the result is written ("rebased over an outside
  change"); if one does not, the path is in conflict;
* different, over content the review had written: the outside change is kept as an
  *outside layer* (:mod:`reviewtui.core.review.rebase`) and re-applied, anchored by content,
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

import threading
import time
from collections.abc import Callable, Iterable
from pathlib import Path
from types import TracebackType

from reviewtui.core.engine import Decision, OpKey, OpResult, SessionRun
from reviewtui.core.errors import UsageError
from reviewtui.core.model.outcome import Outcome
from reviewtui.core.model.records import Operation, Session
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.review.folders import FolderLedger
from reviewtui.core.review.log import (
    DecisionItem,
    Folded,
    LogEntry,
    fold,
    time_spent,
)
from reviewtui.core.review.plan import MSG_CONFLICT, PathRecord
from reviewtui.core.review.rebase import Conflict
from reviewtui.core.text.lines import split_lines
from reviewtui.shell import deciding, outside, replay, resume
from reviewtui.shell.evaluation import Evaluation
from reviewtui.shell.loader import LoadedSession, gc_paused, read_text
from reviewtui.shell.lock import RootLock
from reviewtui.shell.outside import MSG_ADOPTED, MSG_KEPT
from reviewtui.shell.project import Project
from reviewtui.shell.replay import MSG_REBASED, RestorePreview
from reviewtui.shell.replay_report import ReplayReport
from reviewtui.shell.resume import close_review, open_review, save, session_sha
from reviewtui.shell.state import StateFile

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from typing import Any

__all__ = ["MSG_ADOPTED", "MSG_CONFLICT", "MSG_KEPT", "MSG_REBASED", "Review", "RestorePreview"]

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
        # Decisions of a state saved for another folder, pending again (shell/resume.py)
        self.set_aside: tuple[DecisionItem, ...] = ()
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
        self._last_outcomes: dict[OpKey, Outcome] = {}
        self._unwritable: dict[str, str] = {}
        self._refused_by_disk: set[str] = set()  # of those, the disk's refusals: retried
        self._held: set[str] = set()  # open for writing elsewhere: see held_paths
        self._folders = FolderLedger()  # the folders a removal may take (saved)
        self._closed = False
        self._session_lines: list[str] | None = None
        self._session_sha = session_sha(loaded.file)
        self._ops: dict[OpKey, Operation] = {
            (turn.index, pos): op for turn in self.session.turns
            for pos, op in enumerate(turn.reply.ops)
        }
        # Evaluated by resume (Review.open); built directly, call resume(review) first.
        self.evaluation = Evaluation(self.session, self.base, self.rules)
        self._dirty = False  # something the state file must hold before the next write

    # -- opening and closing ------------------------------------------------------------
    @classmethod
    def open(cls, session_path: str | Path, root: Path | None = None, *, dry_run: bool = False,
             state_path: Path | None = None, persist: bool | None = None,
             read_only_state: bool = False, format: str | None = None,
             first_frame: bool = False, loaded: LoadedSession | None = None,
             lazy: bool = False) -> Review:
        """Load a session and its saved review, take the root's lock, finish any replay.

        Without ``root``, a session directory's ``base/`` is copied to a scratch folder.
        ``persist`` (default: on unless ``dry_run`` without a ``state_path``) saves the
        review state to ``state_path`` or ``<session file>.review.json``;
        ``read_only_state`` loads that state without ever writing it (for previews). A dry
        run never writes the project and takes no lock. ``format`` names the session's
        format (None: detected from its content; see :mod:`reviewtui.core.importers`).
        ``first_frame`` (the workbench): evaluate what the first frame shows, then
        :meth:`evaluate_step` until False. ``loaded``: the session as already read for this
        ``root`` and ``format``. ``lazy``: see ``shell.project.load_project``."""
        return open_review(cls, session_path, root, dry_run=dry_run, state_path=state_path,
                           persist=persist, read_only_state=read_only_state, format=format,
                           first_frame=first_frame, loaded=loaded, lazy=lazy)

    def close(self) -> None:
        """Save the state, drop blobs nothing refers to, release the root's lock."""
        close_review(self)

    def __enter__(self) -> Review:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()

    @property
    def session_lines(self) -> list[str]:
        """The session file's lines as its readers split it (spans count them; text.lines)."""
        if self._session_lines is None:
            # (an undecodable byte as U+FFFD: a diff's file that is not UTF-8 is not read
            # as operations, core/importers/notutf8.py, and is shown so)
            self._session_lines = split_lines(read_text(self.loaded.file, sha=self._session_sha,
                                                        errors="replace"))
        return self._session_lines

    @property
    def state_path(self) -> Path | None:
        return self._state_file.path if self._state_file is not None else None

    # -- what the UI reads --------------------------------------------------------------
    @property
    def display(self) -> SessionRun:
        """What each operation would do if the pending ones that apply were accepted."""
        return self.evaluation.display

    @property
    def draft(self) -> SessionRun:
        """Only what the reviewer accepted: what replay writes."""
        return self.evaluation.draft

    @property
    def decisions(self) -> dict[OpKey, Decision]:
        return self._folded.decisions()

    @property
    def can_undo(self) -> bool:
        return bool(self._folded.applied)

    @property
    def can_redo(self) -> bool:
        return bool(self._folded.undone)

    def next_step(self, *, redo: bool = False) -> LogEntry | None:
        """The log entry the next undo (or redo) takes back (makes again); None: none."""
        stack = self._folded.undone if redo else self._folded.applied
        return stack[-1] if stack else None

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

    @property
    def held_paths(self) -> frozenset[str]:
        """Open for writing in another program: not written, nor taken in, till closed."""
        return frozenset(self._held)

    def result(self, key: OpKey) -> OpResult:
        """The display run's result for ``key`` (KeyError when there is no such operation)."""
        return self.evaluation.result(key)

    def outcome(self, key: OpKey) -> Outcome:
        """What the reviewer sees for an operation: the display outcome, or CONFLICT.
        Never waits for a job changing the review in another thread (see
        :func:`reviewtui.shell.replay.outcome_now`)."""
        return replay.outcome_now(self, key)

    # -- evaluation after the first frame (Review.open(first_frame=True)) ---------------
    @property
    def evaluated_turns(self) -> int:
        """Turns the display has evaluated (every method evaluates what it needs first)."""
        return self.evaluation.evaluated_turns

    @property
    def evaluation_complete(self) -> bool:
        return self.evaluation.complete

    def evaluate_step(self, budget: float = 0.04) -> bool:
        """Evaluate more turns for about ``budget`` seconds; True while more remain.
        Returns at once, having done nothing, while another thread holds the review."""
        if not self._mutex.acquire(blocking=False):
            return not self.evaluation.complete
        try:
            return self.evaluation.step(budget)
        finally:
            self._mutex.release()

    def evaluate_through(self, turn: int) -> None:
        """Evaluate the display at least up to the turn numbered ``turn``."""
        with self._mutex:
            self.evaluation.ensure(turn)

    def focus_on(self, turn: int | None) -> None:
        """The turn on screen: a change evaluates around it first (Evaluation.update)."""
        self.evaluation.focus = turn

    def finish_evaluation(self) -> None:
        with self._mutex:
            self.evaluation.finish()

    # -- decisions --------------------------------------------------------------------
    def decide(self, key: OpKey, decision: Decision) -> ReplayReport:
        return self.decide_many([(key, decision)])

    def decide_many(self, items: Iterable[tuple[OpKey, Decision]], *,
                    skip_unappliable: bool = False, by_draft: bool = False) -> ReplayReport:
        """Several decisions as one log entry, save, replay and undo step (deciding.py)."""
        return deciding.decide_many(self, items, skip_unappliable=skip_unappliable,
                                    by_draft=by_draft)

    def undo(self) -> ReplayReport | None:
        return deciding.step(self, redo=False)

    def redo(self) -> ReplayReport | None:
        return deciding.step(self, redo=True)

    def time_spent(self) -> dict[OpKey, float]:
        """Seconds the reviewer spent on each decided operation (a bulk step is shared)."""
        return time_spent(self._log)

    def applicable(self, turns: tuple[int, int] | None = None, *,
                   accept_fuzzy: bool = False) -> list[tuple[OpKey, Decision]]:
        """Accepts for every pending operation that applies (what ``apply --yes`` does)."""
        with self._mutex:
            return self.evaluation.applicable(turns, accept_fuzzy=accept_fuzzy)

    def save_ui_state(self) -> None:
        with self._mutex:
            save(self)

    # -- checkpoints --------------------------------------------------------------------
    def restore(self, n: int) -> ReplayReport:
        """Put checkpoint ``n`` of the draft on disk and pin it there (see the module doc)."""
        return deciding.restore(self, n)

    def restore_preview(self, n: int) -> RestorePreview:
        """What ``restore(n)`` would write, remove and leave in conflict (its own plan)."""
        return replay.restore_preview(self, n)

    # -- outside changes and a live session ----------------------------------------------
    def outside_changed(self, paths: Iterable[str]) -> ReplayReport:
        """Root-relative paths the watcher saw change (:mod:`reviewtui.shell.outside`); the
        review's own writes are recognised by content (a report that says ``unchanged``)."""
        return outside.outside_changed(self, paths)

    def release_lock(self) -> None:
        """Save everything (as on close) and hand the root's lock back (the live server's
        writer); decide nothing until :meth:`reacquire_lock` and :meth:`catch_up`."""
        with self._mutex:
            self._check_open()
            if self._state_file is not None and not self._state_file.read_only:
                save(self, final=True)
            if self._lock is not None:
                self._lock.release()

    def reacquire_lock(self) -> None:
        """Take the root's lock again (LockedError while another process holds it)."""
        with self._mutex:
            self._check_open()
            if self._lock is not None:
                self._lock.acquire()

    def reload_session(self, loaded: LoadedSession | None = None) -> list[OpKey]:
        """The (live) session file grew: read it again (or take ``loaded``), keeping every
        decision; the new operations' keys (:func:`reviewtui.shell.resume.reload_session`)."""
        return resume.reload_session(self, loaded)

    def catch_up(self) -> ReplayReport:
        """After :meth:`reacquire_lock`: what changed on disk meanwhile, as outside changes."""
        return self.outside_changed(self._session_paths() | set(self._records))

    def abandon(self) -> None:
        """Forget this review without saving: another process owns its state file now."""
        with self._mutex:
            self._closed = True
            if self._lock is not None:
                self._lock.release()

    # -- internals: evaluation (see reviewtui.shell.evaluation) ---------------------------
    def _evaluate_all(self) -> None:
        """Both runs as the base, rules and decisions are now (only what changed)."""
        self.evaluation.sync(self.base, self.rules, self._folded.decisions())

    def _evaluate_from(self, from_turn: int, *, display: bool = True,
                       draft: bool = True) -> None:
        """The log changed (from turn ``from_turn`` on): fold it, re-evaluate."""
        self._folded = fold(self._log, self._folded)
        with gc_paused(freeze=False):  # not frozen: the screen's garbage (gc_paused)
            self.evaluation.update(self._folded, display, draft, from_turn)

    def _check_open(self) -> None:
        if self._closed:
            raise UsageError("this review is closed", rule="closed")

    def _target(self) -> Tree:
        return self.evaluation.tree_at(self._folded.pin)

    def _session_paths(self) -> set[str]:
        return self.evaluation.session_paths(self.base, self._records)

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

