"""Resuming a review: opening it, loading its saved state, catching the disk up; saving.

The state file's format lives in :mod:`reviewtui.shell.state`; this module is what the
review does with it:

* :func:`open_review` loads the session, takes the root's lock and calls :func:`resume`;
* :func:`resume` loads the saved log and path records (:func:`load_saved`), evaluates,
  tells the review's own finished or unfinished writes from changes made while it was
  closed (:func:`reconcile`), takes back saved accepts that no longer land
  (:func:`drop_unlanded_saved`) and replays (:func:`reviewtui.shell.replay.sync`);
* :func:`save` writes the log and the path records (with their blobs) atomically.

A saved record the session and the disk do not explain is never replayed: it is
reported and kept under ``orphaned`` (:func:`reviewtui.shell.resume_fit.drop_unfit_records`).
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterable
from pathlib import Path

from reviewtui.core.digests import sha256
from reviewtui.core.engine import OpKey, Verdict
from reviewtui.core.engine.file_edits import normalize_or_none
from reviewtui.core.engine.lineage import on_other_base
from reviewtui.core.errors import DiskError, PathRefused, UsageError
from reviewtui.core.model.records import ConsoleCommand
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.record import replace
from reviewtui.core.review.log import (
    LogEntry,
    LogKind,
    drop_in_force,
    fold,
    reconcile_log,
)
from reviewtui.core.review.plan import PathRecord, op_path
from reviewtui.shell.deciding import note_textless_edits
from reviewtui.shell.disk import IN_THE_WAY, remove_temp, scratch_copy
from reviewtui.shell.loader import LoadedSession, gc_paused, load_session
from reviewtui.shell.lock import RootLock
from reviewtui.shell.outside import absorb, stale_accepts, take_back, unlanded_words
from reviewtui.shell.outside_returns import forget_own_links, forget_unfit_gone
from reviewtui.shell.project import load_project, named_paths, read_now
from reviewtui.shell.replay import Directory, read_state, same, sync, want_at
from reviewtui.shell.replay_report import ReplayReport
from reviewtui.shell.resume_absent import keep_users_over_absence, place_saved_base
from reviewtui.shell.resume_aside import hold_ignored, hold_unread, set_aside
from reviewtui.shell.resume_fit import drop_unfit_records, ends_not_saved, previous_target
from reviewtui.shell.state import ReviewState, StateFile
from reviewtui.shell.state_git_apply import encode_rules, with_saved_rules
from reviewtui.shell.state_records import blobs_of, decode_record, encode_record, orphaned_blobs
from reviewtui.shell.statemark import finished, mark_finished, new_nonce
from reviewtui.shell.statepath import review_files, state_path_for

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.shell.review import Review


def session_sha(path: Path) -> str:
    """The session file's hash, saved with the state (a changed session is noticed)."""
    with contextlib.suppress(OSError):  # (a pipe: none, a FIFO opened again waits for ever)
        if path.is_file():
            return sha256(path.read_bytes()).hexdigest()
    return sha256(b"").hexdigest()


def _digest(state: FileState | None) -> str | None:
    return None if state is None else state.digest


def open_review(cls: type[Review], session_path: str | Path, root: Path | None = None, *,
                dry_run: bool = False, state_path: Path | None = None,
                persist: bool | None = None, read_only_state: bool = False,
                format: str | None = None, first_frame: bool = False,
                loaded: LoadedSession | None = None, lazy: bool = False) -> Review:
    """:meth:`Review.open`'s work (its docstring says what each argument does): load the
    session and its saved review, take the root's lock, finish any replay.

    For the workbench (``first_frame``) the collector is off meanwhile and what was made
    is frozen: the workbench keeps the session's records and their first evaluation (the
    draft's results for every turn) as long as it runs, and the collector need not walk
    them (on a 50,000-operation session its collections cost a fifth of the time to the
    first frame, then ~0.1 s of the evaluation). ui/evaluating.py does the same with
    each slice of evaluation.
    """
    with gc_paused() if first_frame else contextlib.nullcontext():
        return _open_review(cls, session_path, root, dry_run=dry_run, state_path=state_path,
                            persist=persist, read_only_state=read_only_state, format=format,
                            first_frame=first_frame, loaded=loaded, lazy=lazy)


def _open_review(cls: type[Review], session_path: str | Path, root: Path | None, *,
                 dry_run: bool, state_path: Path | None, persist: bool | None,
                 read_only_state: bool, format: str | None, first_frame: bool,
                 loaded: LoadedSession | None, lazy: bool) -> Review:
    if loaded is None:
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
        # The workbench (first_frame) reads at once what the session names, so that an
        # outside change to those files is told from what they held at opening, and the
        # rest of the project when first needed; all at once when a command may reach
        # files it does not name (a folder, a glob).
        named = named_paths(loaded.session) if lazy and first_frame else None
        project = load_project(root, config_dirs=(loaded.directory,),
                               lazy=lazy and (not first_frame or named is not None))
        if named:
            read_now(project.tree, named)
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
            # A dry run's decisions are never on disk, so they are never saved either: a
            # state holding them read as a replay cut short, and the next writer wrote
            # them (QA s46 helper-141 F13; with --live the server answered from them).
            state_file = StateFile(state_path, read_only=read_only_state or dry_run)
        loaded = with_saved_rules(loaded, root, state_file)
        own = review_files(root, loaded.file, state_path)
        if own:  # no operation writes them (rule review-file)
            project = replace(project, rules=replace(project.rules, own=own))
        review = cls(loaded, project, root=root, dry_run=dry_run, state_file=state_file,
                     lock=lock, scratch=scratch)
        if loaded.format_note:
            review.state_problems.append(loaded.format_note)
        if persist and where:
            review.state_problems.append(where)
            review.state_elsewhere = state_path  # the status line says where
        if lock is not None:  # only a reviewtui that died can have left these
            remove_leftovers(review, project.leftovers)
        resume(review, first_frame=first_frame)
    except BaseException:
        if lock is not None:
            lock.release()
        raise
    return review


def close_review(review: Review) -> None:
    """Save the state, drop blobs nothing refers to, release the root's lock."""
    with review._mutex:
        if review._closed:
            return
        review._closed = True
        try:
            state_file = review._state_file
            if state_file is not None and not state_file.read_only:
                save(review, final=True)
                keep = {sha for rec in review._records.values() for sha, _ in blobs_of(rec)}
                keep |= orphaned_blobs(review.orphaned) | state_file.log_blobs()
                state_file.blobs.collect(keep)
        finally:
            if review._lock is not None:
                review._lock.release()


def resume(review: Review, *, first_frame: bool = False) -> None:
    """Load the saved review, check it against the session and the disk, catch up.

    With ``first_frame``, the display is evaluated only up to the turn the workbench
    shows first (the saved selection, else the first turn) and what checking the saved
    accepts needs; :meth:`Review.evaluate_step` does the rest.
    """
    saved: ReviewState | None = None
    if review._state_file is not None:
        saved, problems = review._state_file.load()
        review.state_problems.extend(problems)
    if saved is not None:
        load_saved(review, saved)
        forget_own_links(review)
    review._folded = fold(review._log)
    pin = review._folded.pin
    if pin is not None and pin >= len(review.session.turns) + 1:
        review.state_problems.append(f"the restored checkpoint {pin} no longer exists; "
                                     "the whole draft goes on disk")
        review._log.append(LogEntry(LogKind.RESTORE, checkpoint=None))
        review._folded = fold(review._log)
        review._dirty = True
    upto = first_turn_shown(review) if first_frame else None
    review.evaluation.start(review.base, review.rules, review._folded.decisions(), upto=upto)
    report = ReplayReport()
    for item in review.set_aside:  # (named like the accepts an opening takes back)
        report.reverted.append(((item.turn, item.pos), f"{item.describe()}: the review "
                                "state was saved for another folder or not on this machine: "
                                "its decision is set aside, pending (u takes it back in)"))
    as_saved = list(review._log) if saved is not None and not review._dirty else None
    reconcile(review, report, saved.nonce if saved is not None else "")
    drop_pinned_on_changed_files(review)
    drop_unlanded_saved(review)
    if as_saved is not None and review._log == as_saved:
        # The log as saved: each file's last write is at the length saved with it, as
        # for the review that never closed (an outside revert of a file took back every
        # accept on it, also one never written: QA s43 helper-133 M2).
        for record in review._records.values():
            at = record.saved_written_at
            if record.written_at is None and at is not None and at <= len(as_saved):
                record.written_at = at
    note_textless_edits(review)
    sync(review, report)


def first_turn_shown(review: Review) -> int:
    """The number of the turn the workbench selects on opening (its saved selection)."""
    turns = review.session.turns
    selected = review.ui_state.get("selected")
    wanted = selected[0] if isinstance(selected, list) and len(selected) == 2 else None
    if isinstance(wanted, int) and any(turn.index == wanted for turn in turns):
        return wanted
    return turns[0].index if turns else 0


def load_saved(review: Review, saved: ReviewState) -> None:
    """Take the saved log and path records, each checked; what does not fit is reported."""
    assert review._state_file is not None
    path = review._state_file.path
    if saved.session_sha and saved.session_sha != review._session_sha:
        review.state_problems.append(f"{review.loaded.file}: the session file changed since "
                                     "the review was saved; every decision was checked against it")
    # A state this machine sealed is its own wherever it is (moved with its project);
    # any other decides nothing on its own, on the root it names too (shell/stateseal.py).
    from reviewtui.shell.stateseal import can_seal  # (a saved review alone)

    foreign = not review.scratch and not review._state_file.sealed_here and (
        saved.root != str(review.root.resolve()) or can_seal())
    review._log, orphaned, problems = reconcile_log(saved.log, review.session, path)
    review.state_problems.extend(problems)
    review._dirty = bool(problems)  # orphans move to their own list in the file
    review.orphaned = [*saved.orphaned, *orphaned]
    review.ui_state = dict(saved.ui)
    held = [] if foreign else [entry for entry in fold(review._log).applied if entry.aside]
    if held:  # set aside by an earlier opening (maybe the MCP server's): said again
        count = sum(len(entry.items) for entry in held)
        review.state_problems.append(
            f"{path}: {count} decision(s) of a review state saved {held[-1].aside} are set "
            "aside, pending: u back past the step that set them aside takes them in")
    if foreign:
        set_aside(review, path, saved.root or "")
        # (its path records describe another folder's files: not read, but kept in the
        # state file with the originals they hold, never collected)
        review.orphaned.extend(dict(path=rel, reason="saved for another folder",
                                    record=data) for rel, data in saved.paths.items())
        return
    changes: dict[str, FileState | None] = {}
    review._saved_paths = saved.paths
    review._folders = saved.folders
    for rel, data in saved.paths.items():
        if normalize_or_none(rel) != rel:
            review.state_problems.append(f"{path}: ignored the unsafe path {rel!r}")
            continue
        record, why = decode_record(rel, data, review._state_file.blobs)
        if record is None:
            review.state_problems.append(why)
            continue
        review._records[rel] = record
        changes[rel] = record.base
    try:
        review.base = review.base.apply(changes)
    except PathRefused:  # a folder on the way is a file now (a link put there): one by one
        for rel in changes:
            refused = place_saved_base(review, rel, review._records[rel])
            if refused is not None:
                del review._records[rel]  # (kept in the file, as drop_unfit_records does)
                why = ("it is a folder on disk now" if review.base.is_dir(rel) else
                       f"a folder on its way is no folder on disk now ({refused.message})")
                review.orphaned.append(dict(path=rel, reason=why, record=saved.paths.get(rel)))
                review.state_problems.append(f"{path}: ignored the saved record of {rel}: "
                                             f"{why}; the saved record is kept in the state file")


def reconcile(review: Review, report: ReplayReport, saved_nonce: str = "") -> None:
    """Reopened: tell our own finished or unfinished writes from outside changes
    (``saved_nonce``: the loaded state's, see :mod:`reviewtui.shell.statemark`)."""
    gone = {str(item.get("path")) for item in review.orphaned}
    unread = [rel for rel in review._saved_paths if rel not in review._records
              and rel not in gone and normalize_or_none(rel) == rel]
    keep_users_over_absence(review, report)  # (first: the records' drafts are without them)
    ignored = drop_unfit_records(review)
    forget_unfit_gone(review)  # a deleted file's saved before-state, read if it fits
    hold_unread(review, unread, report)
    hold_ignored(review, ignored, report)
    tree = review._target()
    ends_not_saved(review, tree)
    # Killed mid-replay (after the save, before its last write): what was not written yet
    # is written now. Else a file as it was before the last write was put back meanwhile.
    killed_mid_replay = review._state_file is not None and finished(
        review._state_file.path, saved_nonce) is False
    previous: list[Tree] = []  # the draft one entry ago, made only if asked for
    for path, record in sorted(review._records.items()):
        if not record.from_state:
            continue
        record.from_state = False
        try:
            disk = read_state(review.root, path)
        except DiskError as err:
            review._unwritable[path] = err.message
            record.seen = record.base
            continue
        want = want_at(review, path, tree)
        if isinstance(disk, Directory):
            if record.saved_seen is None and want.ok and want.state is None:
                record.seen = None  # (the user's folder where the review left nothing)
                continue
            review._unwritable[path] = IN_THE_WAY
            review._refused_by_disk.add(path)
            record.seen = record.base
            continue
        wrote = (record.saved_writing is not None and want.ok and want.state is not None
                 and want.state.digest == record.saved_writing)
        # Killed mid-replay, the old bytes may be unwritten or written and put back: the
        # file's identity at the save tells (a checkout makes a new file).
        left = killed_mid_replay and not _touched_since_save(review, path, record)
        if record.seen_last(disk) and (left or not killed_mid_replay and not (
                wrote and record.saved_writing != record.saved_seen)):
            record.seen = disk  # as left; replay finishes whatever was not written yet
        elif record.seen_last(disk):
            # As before the last write, and that replay finished: put back since (git
            # checkout while it was down), or the mark is unknown (a state saved before
            # it existed). Taken as put back: the accepts go back to pending, announced,
            # one u writes them; a user's revert is never written over with no keypress.
            assert want.state is not None
            record.seen, record.ref = want.state, tree.get(path)
            absorb(review, path, disk, report)
        elif want.ok and same(disk, want.state) and not record.deleted:
            record.seen, record.ref = disk, tree.get(path)  # written, then the crash
        elif review.scratch and same(disk, record.base):
            record.seen = record.ref = record.base  # a fresh scratch copy: replay
        else:
            # Changed while closed. What was on disk decides between a new base and an
            # outside layer over what we had written (that needs the saved ``ref``). The
            # state was saved just before the last write to it: when that write was what
            # the draft still wants, it is what the disk held (killed after writing, the
            # save after it never came; the ``ref`` blob is kept at close only).
            if wrote and not killed_mid_replay:  # (killed mid-replay: maybe never written)
                assert want.state is not None
                record.seen, record.ref = want.state, tree.get(path)
            elif (had := _had_there(review, path, record.saved_seen, want.state,
                                    previous)) is not None:
                # What the disk held before the last write, known by its saved digest: the
                # draft the last or the previous entry wanted (killed mid-replay before
                # this file's write, an undo say). The change is kept over that.
                record.seen = record.ref = had
            elif record.saved_seen is None and record.base is not None:
                record.seen = None
            elif record.saved_seen != _digest(record.base) and record.ref is not None:
                record.seen = record.ref
            else:
                record.seen = record.base
            absorb(review, path, disk, report)
    if report.outside:
        review._evaluate_all()
        take_back(review, report)  # files put back to their original content meanwhile


def note_writing(review: Review, path: str, state: FileState | None,
                 ends: tuple[str, ...] = ()) -> None:
    """What the replay is about to write at ``path``, saved with the state just before it
    (``PathRecord.writing``), with the file's identity at that moment, and the ends of
    moves it will be one end of, beside those it is (killed mid-replay, either can be on
    disk: the write replaces them, ``replay.write``)."""
    record = review._record(path)
    record.writing = state
    if ends:
        record.moved_with = tuple(sorted({*record.moved_with, *ends}))
    record.writing_stat = _identity(review.root / path)


def _identity(full: Path) -> tuple[int, int, int, int] | None:
    """The file's (inode, size, mtime, ctime), None when there is none."""
    try:
        found = os.lstat(full)
    except OSError:
        return None
    return found.st_ino, found.st_size, found.st_mtime_ns, found.st_ctime_ns


def _touched_since_save(review: Review, path: str, record: PathRecord) -> bool:
    """Whether the file at ``path`` is another file than the one the last save saw, or
    was changed in place since (see ``PathRecord.writing_stat``); False when unknown."""
    saved = record.saved_writing_stat
    return saved is not None and saved != _identity(review.root / path)


def _had_there(review: Review, path: str, digest: str | None, wanted: FileState | None,
               previous: list[Tree]) -> FileState | None:
    """The content of ``digest`` (what the disk held before the review's last write there)
    among the drafts the last and the previous log entry want at ``path``; None."""
    if digest is None:
        return None
    if wanted is not None and _digest(wanted) == digest:
        return wanted
    if not previous:
        previous.append(previous_target(review))
    before = previous[0].get(path)
    return before if isinstance(before, FileState) and _digest(before) == digest else None


def drop_pinned_on_changed_files(review: Review) -> None:
    """Reopened with the disk pinned: a saved accept past the pin (never written) whose
    file changed since it was accepted (its pin names lines of another original: the
    file was put at another version while the review was closed) goes back to pending,
    reported, as ``outside._pinned_taken_back`` does while it is open: the new file may
    already hold its change, reworked, and it would land again beside it (QA s34 p51)."""
    pin = review._folded.pin
    if pin is None:
        return
    position = {turn.index: n for n, turn in enumerate(review.session.turns)}
    changed = []
    for key, decision in review._folded.decisions().items():
        if (decision.verdict not in (Verdict.ACCEPTED, Verdict.EDITED) or decision.at is None
                or key not in review._ops or position.get(key[0], -1) < pin):
            continue
        result = review.result(key)
        before = result.outcome.before_state
        # (one that no longer lands says why: drop_unlanded_saved) Not a file as the
        # review last saw it: changed while it was open, the accept was taken back then,
        # and made again since (QA s43 helper-131: an undo that brought it back was
        # undone on reopening, said to be for a change while closed).
        if result.landed and isinstance(before, FileState) and not _as_last_seen(
                review, op_path(result)) and on_other_base(decision.at, before):
            changed.append(key)
    if not changed:
        return
    review._log, dropped = drop_in_force(review._log, set(changed))
    review._dirty = True
    review._evaluate_from(min(changed)[0])
    for item in dropped:
        if item.key not in changed:
            continue
        why = "its file changed since, while the review was closed"
        review.orphaned.append({**item.to_json(), "reason": why})
        review.state_problems.append(
            f"{item.describe()}: the saved accept was made while the disk was pinned before "
            f"it, and {why}; {_taken(review)} (nothing of it was written)")


def drop_unlanded_saved(review: Review) -> None:
    """Reopened: saved accepts that do not land on the files as they are go back to
    pending (kept under ``orphaned``, reported), so they never land elsewhere later. Not
    one whose file is as the review last saw it: it did not land when the review was
    saved either (a later accept took its lines), and the review goes on as it was left.
    Taken back, it let the accept it clashed with be written on opening, over the file
    it had kept (QA s43 helper-132 M1, older: the notice said the files stay as they are)."""
    # (a command's paths: taken back, as before)
    as_left = {key for key in stale_accepts(review) if not isinstance(
        review._ops[key], ConsoleCommand) and _as_last_seen(review, op_path(review.result(key)))}
    while stale := [key for key in stale_accepts(review) if key not in as_left]:
        words = {key: unlanded_words(review, key) for key in stale}
        review._log, dropped = drop_in_force(review._log, set(stale))
        review._dirty = True
        review._evaluate_from(stale[0][0])
        for item in dropped:
            if item.key not in words:
                continue
            status, reason = words.pop(item.key)
            why = f"{status} on the files as they are now" + (f": {reason}" if reason else "")
            review.orphaned.append({**item.to_json(), "reason": why})
            review.state_problems.append(
                f"{item.describe()}: the saved accept does not land ({why}); "
                f"{_taken(review)} (nothing of it is written now: the files stay as they are)")


def _as_last_seen(review: Review, path: str | None) -> bool:
    """Whether the file at ``path`` is as the saved review last saw it (its saved record
    kept, the disk read again holding what it saved as seen)."""
    record = review._records.get(path) if path else None
    return (record is not None and path in review._saved_paths
            and record.saved_seen == _digest(record.seen))


def _taken(review: Review) -> str:
    """How a saved accept taken back is said: a preview changes no state, so it says
    what opening the review to write will do."""
    if review._state_file is None or review._state_file.read_only:
        return ("it is taken back when the review is opened to write, and the operation is "
                "pending again")
    return "it was taken back and the operation is pending again"


def remove_leftovers(review: Review, leftovers: Iterable[str]) -> None:
    """Temp files a reviewtui that died left under the root and beside the state."""
    for rel in leftovers:  # only names our atomic writes make (shell/disk.py)
        remove_temp(review.root, rel)
    if review._state_file is not None and not review._state_file.read_only:
        review._state_file.remove_leftovers()


def save(review: Review, *, final: bool = False) -> None:
    """Write the state file: the log, the path records and their blobs (blobs first)."""
    if review._state_file is None or review._state_file.read_only:
        return
    blobs = review._state_file.blobs
    for record in review._records.values():
        for sha, data in blobs_of(record, with_ref=final):
            blobs.put(data, sha)
    review._dirty = False
    state = ReviewState(
        session_sha=review._session_sha,
        root=None if review.scratch else str(review.root.resolve()),
        log=review._log,
        orphaned=review.orphaned,
        ui=review.ui_state,
        paths={path: encode_record(record)
               for path, record in sorted(review._records.items())},
        folders=review._folders,
        nonce=new_nonce(),
        git_apply=(None if review.loaded.git_rules is None
                   else encode_rules(review.loaded.git_rules)),
    )
    review._state_file.save(state, review.loaded.file)
    if final:  # nothing is to be written after it
        mark_finished(review._state_file.path, state.nonce)


def reload_session(review: Review, loaded: LoadedSession | None = None) -> list[OpKey]:
    """The session file grew (a live session): read it again, keeping every decision.

    Returns the keys of the operations that are new. Operations already known must be
    unchanged (an append-only log); anything else is refused with a message and the
    review goes on with the session it has. ``loaded`` is the same file as the caller
    has just read it (the live server parses it once per call, not twice).
    """
    with review._mutex:
        review._check_open()
        if loaded is None or loaded.file != review.loaded.file:
            loaded = load_session(review.loaded.file, format=review.session.format,
                                  root=review.root, after=review.loaded)
        ops = {(turn.index, pos): op for turn in loaded.session.turns
               for pos, op in enumerate(turn.reply.ops)}
        for key, op in review._ops.items():
            now = ops.get(key)  # (the same object when the reading went on: no compare)
            if now is not op and now != op:
                raise UsageError("the live session changed an operation it had already "
                                 f"recorded (turn {key[0]}, operation {key[1] + 1}); "
                                 "reopen it to review the new text",
                                 source=str(review.loaded.file), rule="live-rewritten")
        new = [key for key in ops if key not in review._ops]
        if not new:
            return []
        review.loaded = loaded
        review.session = loaded.session
        review._ops = ops
        review._session_lines = None
        review._session_sha = session_sha(loaded.file)
        grown = min(key[0] for key in new)
        review.evaluation.replace_session(review.session, grown)
        review._evaluate_all()  # new operations are pending: the draft is unchanged
        review._dirty = True  # the next save records the session as it is now
        return new
