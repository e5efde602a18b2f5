"""Outside changes: files changed on disk by anything but this review.

The watcher (or a reopen, or the live server taking its lock back) reports paths;
:func:`outside_changed` reads them and, per path the session touches:

* none of the review's own content was on disk yet: the outside content becomes the new base
  for that path and the session is re-evaluated on it (``MSG_ADOPTED``);
* over content the review had written (or over an outside change already kept there): the
  change from the draft the review last wrote is kept as an *outside layer*
  (:mod:`reviewtui.core.review.rebase`), re-applied on top of the draft whenever the path is
  replayed (``MSG_KEPT``); when it no longer lands the path is in conflict; a disk put back
  to that draft (``git stash pop``) keeps nothing (``MSG_BACK``);
* put back to what the session started from (``git checkout -- FILE``): the accepts on it
  go back to pending, one undoable step (:func:`take_back`); put back once more to what the
  review had written (``git stash pop``), they come back (:func:`bring_back`);
* deleted (or renamed, :func:`rename_target`): never recreated silently; the operations
  that need it become ``not_found`` / ``conflict`` (:func:`absorb`); back as the review
  left it, the review takes up where it was; made again with other bytes over what the
  review wrote, those are a change kept on top, as in place (``outside_returns``). A file
  the user made where the draft wants none (a file it moved away) just goes: the original
  stays.

Paths the session does not touch just refresh the base. Accepts that no longer land
afterwards go back to pending, as one undoable log entry (:func:`revert_unlanded`).
Replay then runs as after any decision (:func:`reviewtui.shell.replay.sync`).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable

from reviewtui.core.engine import Decision, OpKey, OpResult, Verdict
from reviewtui.core.engine.file_edits import normalize_or_none
from reviewtui.core.engine.links import is_link
from reviewtui.core.errors import DiskError
from reviewtui.core.model.records import ConsoleCommand
from reviewtui.core.model.tree import FileState
from reviewtui.core.record import replace
from reviewtui.core.review.log import DecisionItem, LogEntry, LogKind, fold
from reviewtui.core.review.plan import deleted_message, linked_paths, op_path
from reviewtui.core.review.rebase import Conflict, ConflictKind, OutsideLayer
from reviewtui.shell.disk import IN_THE_WAY, read_link
from reviewtui.shell.in_the_way import folders_gone, in_users_folder_over_absence, still_relinked
from reviewtui.shell.outside_returns import (
    decided_away,
    foreign_links,
    left_empty,
    move_taken_back,
    op_names,
    respell,
    returned,
    revive,
    set_base,
)
from reviewtui.shell.outside_undone import put_back, undone_outside
from reviewtui.shell.replay import (
    DIRECTORY,
    Directory,
    expand_paths,
    own_files,
    read_state,
    same,
    sync,
    wait_for_writer,
)
from reviewtui.shell.replay_report import ReplayReport

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.shell.review import Review

MSG_KEPT = "changed outside the workbench; the change is kept on top of the accepted operations"
MSG_BACK = ("changed outside the workbench back to what the review wrote; nothing outside is "
            "kept on top of it any more")
MSG_ADOPTED = "changed outside the workbench; its operations were re-evaluated on it"
MSG_RELINKED = ("made a symbolic link outside the workbench: reviewtui never replaces a link "
                "with a file; nothing is written there until the link is gone")
MSG_UNLINKED = ("the symbolic link the review made was replaced outside the workbench; "
                "nothing is written there until it is a link again or gone")
_ACCEPTING = (Verdict.ACCEPTED, Verdict.EDITED)
MSG_BEING_WRITTEN = ("another program has it open for writing: nothing is written there "
                     "until that program closes it; then what it saved is taken in and the "
                     "accepted operations are written")
MSG_BEING_WRITTEN_MANY = ("other programs have them open for writing: nothing is written there "
                          "until they are closed; then what was saved is taken in and the "
                          "accepted operations are written")


def held(review: Review, paths: Iterable[str], *, scan: bool = True) -> list[str]:
    """Those of ``paths`` another program holds open for writing (``shell/writers.py``;
    ``scan``: what a lease cannot tell is looked up in ``/proc``)."""
    from reviewtui.shell.writers import held_for_writing

    real = {os.path.realpath(review.root / path): path for path in paths}
    return sorted(real[name] for name in held_for_writing(real, scan=scan))


def outside_changed(review: Review, paths: Iterable[str]) -> ReplayReport:
    """Root-relative paths the watcher saw change: rebase, conflict or refresh.

    The review's own writes are recognised by content and ignored: when nothing else
    changed, the report says ``unchanged`` (the review is as it was).
    """
    with review._mutex:
        review._check_open()
        report = ReplayReport()
        found: dict[str, FileState | None] = {}
        paths = list(paths)
        blocked = relink(review, paths) | respell(review, paths)  # (what may be written)
        cleared: list[str] = []
        for path in sorted(expand(review, paths)):
            try:
                disk = read_state(review.root, path)
            except DiskError as err:
                if path in review._session_paths() and path not in review._unwritable:
                    review._unwritable[path] = err.message
                    review._refused_by_disk.add(path)
                    report.note(path, f"conflict - {err.message}")
                    blocked = True
                continue
            if path in review._refused_by_disk and not isinstance(disk, Directory) and not (
                    still_relinked(review, path, disk)):
                # Readable again (the link is gone): the next replay tries it again.
                review._refused_by_disk.discard(path)
                if review._unwritable.pop(path, None) == IN_THE_WAY:
                    cleared.append(path)  # (what was decided over the folder: not for it)
                blocked = True
            seen = review._seen(path)
            # A base file nobody has read yet (a workbench lists the files its session does
            # not name) is not read now to be compared: it would read what the disk holds
            # now. The change is taken as one, the file as refreshed.
            if isinstance(disk, Directory) or (
                    not getattr(seen, "unread", False) and same(disk, seen)):
                continue
            found[path] = disk
        session_paths = review._session_paths()
        # Held open for writing elsewhere: a save is taken in once whole; a write held back
        # is made once the file is closed (shell/replay.py wait_for_writer).
        waited = [p for p in paths if p in review._held and p not in found]
        still = set(held(review, [*(p for p in found if p in session_paths
                                    or p in review._records), *waited]))
        for path in sorted(still):
            found.pop(path, None)
            wait_for_writer(review, path, report, again=False)  # (asked every 0.25 s)
        for path in waited:
            if path not in still:
                review._held.discard(path)
                blocked = True  # closed: what was held back is written now
        review._held.difference_update(found)
        if not found and not blocked:
            report.unchanged = not report.events
            return report
        folders_gone(review, cleared, report)  # (first: what the draft wants there now)
        for path, disk in found.items():
            if path in session_paths or path in review._records:
                absorb(review, path, disk, report, renamed_to=rename_target(review, path, found))
            elif in_users_folder_over_absence(review, path, session_paths):
                continue  # (the user's, where the review left nothing: no original)
            elif set_base(review, path, disk):
                report.refreshed.append(path)
        review._evaluate_all()
        take_back(review, report)
        revert_unlanded(review, report, "after an outside change")
        return sync(review, report)


def kept_outside(review: Review, path: str) -> bool:
    """Whether a change made outside the workbench to ``path``, over content the review
    wrote, is kept on top of every replay (an outside layer): the session's view of the
    file does not show it, and an accept that overlaps it becomes a conflict."""
    record = review._records.get(path)
    return record is not None and record.layer is not None


def deleted_outside(review: Review, path: str) -> bool:
    """Whether ``path`` was deleted outside the workbench (its operations read not found;
    nothing recreates it until the reviewer accepts one again, or it comes back)."""
    record = review._records.get(path)
    return record is not None and record.deleted


def relink(review: Review, paths: Iterable[str]) -> bool:
    """Tell the engine about links made or removed at ``paths``; True when any was."""
    links = dict(review.rules.symlinks)
    for raw in paths:
        path = normalize_or_none(raw)
        if path is None:
            continue
        target = read_link(review.root, path)
        if target is not None:
            links[path] = target
        else:
            links.pop(path, None)
    links = foreign_links(review, links)
    if links == dict(review.rules.symlinks):
        return False
    review.rules = replace(review.rules, symlinks=links)
    return True


def rename_target(review: Review, path: str, found: dict[str, FileState | None]) -> str | None:
    """Where a file deleted outside went, when a new file has exactly its content."""
    if found.get(path, DIRECTORY) is not None:
        return None
    seen = review._seen(path)
    if seen is None:
        return None
    for other, state in found.items():
        if other != path and state is not None and state.data == seen.data:
            return other
    return None


def absorb(review: Review, path: str, disk: FileState | None, report: ReplayReport, *,
           renamed_to: str | None = None) -> None:
    """An outside change to a session path: new base, outside layer or deletion."""
    record = review._record(path)
    since = revive(review, path, record, disk) if disk is not None and record.deleted else []
    # The review's content is on disk: it wrote there (its absence too: a user's file then
    # theirs, not a new original accepts rewrite: s53 helper-226), or a layer is kept.
    ours_on_disk = record.layer is not None or not same(record.seen, record.base) or (
        record.seen is None and left_empty(review, path, record))
    was_there = record.seen is not None or (record.from_state and record.saved_seen is not None)
    review._dirty = True
    record.outside = True
    record.from_state = False
    review._unwritable.pop(path, None)
    report.outside.append(path)
    if disk is None and not record.deleted and was_there and (
            review._target().get(path) is None or move_taken_back(review, path, record)
            or (record.ref is None and left_empty(review, path, record))):
        # Where the draft wants nothing (a file it moved away), the user's own file went:
        # the original stays (its :mv still moves it; the nothing-lost property, s31). So
        # too where the disk holds a move the draft takes back (written whole, not the
        # original taken as deleted with its only copy at the other end: QA s47 helper-147
        # H1, 154 H4), or the review last left it empty (a :rm taken back: s53 221, 225).
        record.seen = record.ref = record.layer = None
    elif disk is None:
        if not record.deleted:
            record.gone = (record.base, record.seen, record.ref, record.layer)
            # The decision whose draft the review last wrote there (``ref``): the draft at
            # the deletion may be further on (an accept held by a conflict, say).
            record.gone_at = next((n for n in (record.written_at, record.saved_written_at)
                                   if n is not None), len(review._log))
        set_base(review, path, None)
        record.base = record.seen = record.ref = None
        record.layer = None
        record.deleted = True
        record.note = f"renamed outside to {renamed_to}" if renamed_to else ""
        report.note(path, deleted_message(path, review._records.get(path)))
    elif record.deleted and returned(review, path, record, disk, report):
        pass
    elif ours_on_disk and same(disk, record.base):
        # Put back outside to what the session started from (git checkout -- FILE): the
        # review's changes were discarded there. Its accepts go back to pending once the
        # session is evaluated (take_back), so that the decisions say what the disk holds
        # (kept as a layer instead, an accept made again was never written).
        record.put_back_from = record.seen.data if record.seen is not None else None
        record.put_back_layer = record.layer
        record.seen = record.ref = disk
        record.layer = None
        record.deleted = False
        record.note = ""
        report.put_back.append(path)
    elif (record.put_back_items and record.put_back_from is not None
          and disk.data == record.put_back_from and same(record.seen, record.base)):
        # ... and then back to what the review had written (git stash pop): the accepts
        # taken back come back (take_back), unless the reviewer decided them since.
        record.seen = disk
        report.back_again.append(path)
    elif not ours_on_disk or (is_link(disk) and is_link(record.ref)):
        # (A link the review wrote, retargeted outside, too: a text layer over it was written
        # back as a file of mode 0000 holding the target, the user's link lost: QA s36
        # helper-108. Taken as the new original; what no longer lands is taken back.)
        if not set_base(review, path, disk):
            report.note(path, f"conflict - {review._unwritable[path]}")
            return
        record.base = record.seen = record.ref = disk
        record.layer = None
        record.deleted = False
        record.note = ""
        report.note(path, MSG_ADOPTED)
        report.adopted.append(path)
    elif is_link(disk) != is_link(record.ref):
        # A file the review wrote became a link, or a link it wrote a file: no text layer
        # carries that (its "change" was the link's target read as the file's text, and
        # replay wrote that text over the link). The path waits until it is put back.
        record.seen = disk
        record.layer = None
        record.deleted = False
        review._unwritable[path] = MSG_RELINKED if is_link(disk) else MSG_UNLINKED
        review._refused_by_disk.add(path)
        report.note(path, f"conflict - {review._unwritable[path]}")
    else:
        # The whole outside change, from the draft the review last wrote (a second change
        # over a kept one keeps both); none when the disk holds that draft again.
        ours = record.ref.data if record.ref is not None else None
        record.layer = OutsideLayer(ours, disk.data) if disk.data != ours else None
        record.seen = disk
        record.deleted = False
        report.note(path, MSG_KEPT if record.layer is not None else MSG_BACK)
        if since:  # (made again after a deletion: decided while it was away)
            report.note(path, decided_away(since), tell=True)


def stale_accepts(review: Review) -> list[OpKey]:
    """Accepts in force whose operation does not land (files deleted outside aside).

    One the draft lands is not stale though the display does not land it (on top of an
    earlier pending operation it is not found): it is written, and counted accepted."""
    def deleted(key: OpKey) -> bool:  # the DELETED conflict's business: it stays
        path = op_path(review.result(key))
        record = review._records.get(path) if path else None
        return record is not None and record.deleted

    stale = [key for key, decision in review._folded.decisions().items()
             if decision.verdict in _ACCEPTING and key in review._ops
             and not review.result(key).landed and not deleted(key)]
    if stale:
        written = {r.key for turn in review.draft.turns for r in turn.results if r.landed}
        stale = [key for key in stale if key not in written]
    return sorted(stale)


def unlanded_words(review: Review, key: OpKey) -> tuple[str, str]:
    """How an accept that no longer lands is said, read before it is taken back: its
    status, and a console command's reason ("" for others: their outcome, pending, still
    says it). Pending, a command reads what it would do now (``:mv a m`` into the folder
    ``m`` made outside), not why its accept (``a -> m``) stopped."""
    outcome = review.result(key).outcome
    reason = outcome.message if isinstance(review._ops[key], ConsoleCommand) else ""
    return str(outcome.status).replace("_", " "), reason


def _pinned_taken_back(review: Review, paths: list[str], report: ReplayReport) -> None:
    """Accepts recorded while the disk was pinned before their turn (never written), on
    files then changed outside and taken from disk as their new original, go back to
    pending, as one log entry: each was given for the file as it was, and the new one
    may already hold its change, reworked since (QA s34: an httpx fixture a later commit
    had reworked, put on disk outside, got its first version appended again after it on
    restore; a text diff cannot tell, as both end alike). An accept caught by an outside
    change between its decision and its write (no pin) is still rebased over it."""
    pin = review._folded.pin
    if not paths or pin is None:
        return
    wanted = set(paths)
    position = {turn.index: n for n, turn in enumerate(review.session.turns)}
    items = tuple(replace(DecisionItem.for_op(key, review._ops[key], decision),
                          decision=Decision())
                  for key, decision in sorted(review._folded.decisions().items())
                  if decision.verdict in _ACCEPTING and key in review._ops
                  and position.get(key[0], -1) >= pin
                  and op_path(result := review.result(key)) in wanted
                  and result.landed)  # (one that no longer lands says why: stale_accepts)
    pending_again(review, items, report, lambda item: (
        "accepted while the disk was pinned before it, and the file was changed outside "
        "the workbench before this was written there; its accept was taken back and it is "
        "pending again (u accepts it again on the file as it is now)"))


def pending_again(review: Review, items: tuple[DecisionItem, ...], report: ReplayReport,
                  why: Callable[[DecisionItem], str]) -> None:
    """``items`` (their decisions pending) as one log step, each said with ``why``."""
    if not items:
        return
    review._log.append(LogEntry(LogKind.DECIDE, items))
    review._dirty = True
    review._evaluate_from(min(item.turn for item in items))
    for item in items:
        notice = f"{item.describe()}: {why(item)}"
        report.reverted.append(((item.turn, item.pos), notice))
        report.note(item.path, notice)


def take_back(review: Review, report: ReplayReport) -> None:
    """The accepts on the files put back outside to their original content (see
    :func:`absorb`) go back to pending, as one log entry (undo writes them again). Those
    past a pinned checkpoint were not on disk and stay. Should the draft still write
    there after that (another operation's file moved onto it), what the disk holds is
    kept on top of it. Files put back again to what the review wrote come first
    (:func:`bring_back`)."""
    bring_back(review, sorted(report.back_again), report)
    report.back_again.clear()
    _pinned_taken_back(review, sorted(report.adopted), report)
    report.adopted.clear()
    paths = set(report.put_back)
    report.put_back.clear()
    layered = {path for path in report.outside if path not in paths
               and (record := review._records.get(path)) is not None
               and record.layer is not None and record.seen is not None}
    if not paths and not layered:
        return
    pin = review._folded.pin
    position = {turn.index: n for n, turn in enumerate(review.session.turns)}
    decided = review._folded.decisions()
    taken: dict[str, list[DecisionItem]] = {path: [] for path in paths | layered}
    written = _written_then(review, paths | layered)
    unwritten: set[str] = set()  # with accepts made since the last write there, kept
    # A layered path's last write without the accepts taken back: what the outside change
    # is kept over when an accept made since (never written) must now be written.
    off: dict[str, bytes | None] = {}
    for key, decision in sorted(decided.items()):
        where = op_path(review.result(key)) if key in review._ops else None
        if (where in taken and decision.verdict in _ACCEPTING
                and (pin is None or position.get(key[0], pin) < pin)):
            if written.get(where, {key: decision}).get(key) != decision:
                unwritten.add(where)  # decided while the file was held: never on disk
            elif where in paths or (undo := undone_outside(review, key, where)) is not None:
                taken[where].append(DecisionItem.for_op(key, review._ops[key], decision))
                if where in layered:  # (layered paths are not put back: undo is set)
                    layer = review._records[where].layer
                    off[where] = put_back(undo, off.get(
                        where, layer.ours if layer is not None else None))
    items = tuple(replace(item, decision=Decision())
                  for path in sorted(taken) for item in taken[path])
    whole = {item.key for path in paths for item in taken[path]}
    if items:
        review._log.append(LogEntry(LogKind.DECIDE, items))
        review._dirty = True
        review._evaluate_from(min(item.turn for item in items))
        for item in items:
            how = ("put back outside the workbench to what the session started from"
                   if item.key in whole
                   else "its change was undone outside the workbench (its lines are as "
                   "they were before it; the rest of that outside change is kept)")
            notice = (f"{item.describe()}: {how}; its accept was taken back and it is "
                      "pending again (u writes it again)")
            report.reverted.append(((item.turn, item.pos), notice))
            report.note(item.path, notice)
    target = review._target()
    for path in sorted(layered):
        if taken[path]:  # the outside change, now over the draft without those accepts
            record = review._records[path]
            wanted, seen = target.get(path), record.seen
            assert seen is not None
            ours = wanted.data if wanted is not None else None
            if path in unwritten and off.get(path) is not None:
                ours = off[path]  # (the draft has what was decided since: written on top)
            record.layer = None if ours == seen.data else OutsideLayer(ours, seen.data)
            record.ref = wanted
    for path in sorted(paths):
        record = review._records[path]
        record.put_back_items = tuple(taken[path])
        wanted = target.get(path)
        if path in unwritten:
            continue  # what was decided since is written over the put-back file
        if not same(wanted, record.seen) and record.seen is not None:
            record.layer = OutsideLayer(wanted.data if wanted is not None else None,
                                        record.seen.data)
            record.ref = wanted


def _written_then(review: Review, paths: Iterable[str]) -> dict[str, dict[OpKey, Decision]]:
    """For each path the review has written since it opened, the decisions in force at
    its last write there: one made or changed since was never on disk (a file held open
    for writing elsewhere is not written; QA pass 82, repro-6)."""
    out: dict[str, dict[OpKey, Decision]] = {}
    folded: dict[int, dict[OpKey, Decision]] = {}
    for path in paths:
        at = review._records[path].written_at
        if at is not None and at < len(review._log):
            if at not in folded:
                folded[at] = fold(review._log[:at]).decisions()
            out[path] = folded[at]
    return out


def still_on_disk(review: Review, conflicts: dict[str, Conflict]) -> dict[str, Conflict]:
    """``conflicts``, each outside-edit conflict also naming the operations decided
    otherwise since the review last wrote its file (an undo, a reject): not written, their
    change is still on disk, and their rows say so (QA pass 82, repro-8)."""
    out = dict(conflicts)
    now: dict[OpKey, Decision] | None = None
    commands: list[OpResult] | None = None
    for path, conflict in conflicts.items():
        then = (_written_then(review, [path]).get(path)
                if conflict.kind is ConflictKind.OUTSIDE_EDIT else None)
        if not then:
            continue
        now = review._folded.decisions() if now is None else now
        since = [key for key, decision in sorted(then.items())
                 if key not in conflict.ops and now.get(key) != decision]
        if commands is None:  # (what moves files: an edit before a move acts on both names)
            commands = [result for turn in review.draft.decided_turns() for result in
                        turn.results if result.outcome.changes and result.landed]
        linked = linked_paths(path, commands)
        stuck = tuple(key for key in since if op_names(review, key) & linked)
        if not stuck and not conflict.ops:
            stuck = tuple(since)  # which one acted on it cannot be told: never on no row
        # Named: those decided otherwise since the write (the rest are on disk: QA s31).
        named = tuple(k for k in conflict.ops if now.get(k) != then.get(k)) or conflict.ops
        if stuck or named != conflict.ops:
            out[path] = replace(conflict, ops=(*named, *stuck))
    for _chain in range(len(out)):  # a move's end held on no row: on the one it waits for
        waiting = {path: out[conflict.waits_for].ops for path, conflict in out.items()
                   if not conflict.ops and out.get(conflict.waits_for, conflict).ops}
        out.update((path, replace(out[path], ops=ops)) for path, ops in waiting.items())
    return out


def bring_back(review: Review, paths: list[str], report: ReplayReport) -> None:
    """Files put back to their original content, then to what the review had written
    (git stash, git stash pop): the accepts taken back are in force again, as one log
    entry for all of them, but for those decided since (a reject made while the file was
    put back). The bytes that came back are the review's own, so what the decisions now
    want is written over them: the disk says what the screen says. Bytes that are the
    draft as it was put back with the outside change then kept on top of it come back
    with that change kept on top again; any other bytes are given their new base, as any
    outside change."""
    memory: dict[str, tuple[tuple[DecisionItem, ...], bytes | None]] = {}
    layers: dict[str, OutsideLayer] = {}  # an outside change kept on top when put back
    for path in paths:
        record = review._records[path]
        memory[path] = (record.put_back_items, record.put_back_from)
        if record.put_back_layer is not None:
            layers[path] = record.put_back_layer
        record.put_back_items, record.put_back_from = (), None
        record.put_back_layer = None
    every = tuple(item for items, _ in memory.values() for item in items)
    if not every:
        return
    first = min(item.turn for item in every)
    decided = review._folded.decisions()
    review._log.append(LogEntry(LogKind.DECIDE, every))  # the drafts as they were put back
    review._evaluate_from(first)
    target = review._target()
    # The bytes that came back are the draft as it was put back, or that with the outside
    # change kept on top then (QA s34 helper-99: sed, git stash, a reject, git stash pop
    # left the rejected change on disk, the file taken as a new original).
    ours = {path for path, (_, data) in memory.items()
            if (wanted := target.get(path)) is not None and review._records[path].seen
            is not None and (wanted.data == data or (
                path in layers and layers[path].ours == wanted.data))}
    layered = {path: wanted for path in ours if path in layers
               and (wanted := target.get(path)) is not None and wanted.data != memory[path][1]}
    review._log.pop()
    back = tuple(item for path in sorted(ours) for item in memory[path][0]
                 if decided.get(item.key, Decision()).verdict is Verdict.PENDING)
    if back:
        review._log.append(LogEntry(LogKind.DECIDE, back))
    review._evaluate_from(first)
    for path in sorted(memory):
        record = review._records[path]
        if path in ours:
            if path in layered:  # the draft as put back, the outside change on top again
                record.ref, record.layer = layered[path], layers[path]
            else:
                record.ref, record.layer = record.seen, None  # replay writes the draft over
            review._dirty = True
            since = [item.describe() for item in memory[path][0] if item not in back]
            note = ("put back outside the workbench to what the review wrote"
                    + (", with the change made outside kept on top of it" if path in layered
                       else "")
                    + ": the accepts taken back when it was put back to the original are "
                    "in force again")
            if since:
                note += (f", but for {', '.join(since)}, decided since: the file is written "
                         "as decided (accept it again to have it back)")
            report.note(path, note, tell=bool(since))
        elif record.seen is not None and set_base(review, path, record.seen):
            record.base = record.ref = record.seen
            review._evaluate_all()
            report.note(path, MSG_ADOPTED)


def revert_unlanded(review: Review, report: ReplayReport, why: str) -> None:
    """Accepts that no longer land (the file changed under them) go back to pending.

    Left accepted, such an operation would land wherever a later change lets it (a
    second match turning unique), where the reviewer never chose: it reverts to
    pending, with a notice in the report, as one log entry (undo brings it back).
    """
    while stale := stale_accepts(review):
        words = {key: unlanded_words(review, key) for key in stale}
        review._log.append(LogEntry(LogKind.DECIDE, tuple(
            DecisionItem.for_op(key, review._ops[key], Decision()) for key in stale)))
        review._dirty = True
        review._evaluate_from(stale[0][0])
        for key in stale:
            item = DecisionItem.for_op(key, review._ops[key], Decision())
            status, reason = words[key]
            notice = (f"{item.describe()}: {status} {why}" + (f" ({reason})" if reason else "")
                      + "; its accept was taken back and it is pending again (nothing of it "
                      "was written)")
            report.reverted.append((key, notice))
            report.note(op_path(review.result(key)) or item.path, notice)


def expand(review: Review, paths: Iterable[str]) -> set[str]:
    """Normalised paths; a directory stands for every file under it (then or now)."""
    state_path = review._state_file.path if review._state_file is not None else None
    return expand_paths(review.root, paths, files_under=review.base.files_under,
                        records=review._records, symlinks=review.rules.symlinks,
                        own=own_files(review.root, state_path))
