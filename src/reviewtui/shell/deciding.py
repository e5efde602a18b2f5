"""Deciding: the reviewer's steps appended to the decision log, then replayed.

Each step is one log entry (:mod:`reviewtui.core.review.log`): ``decide`` (one or
several decisions; an accept is recorded only if its operation lands as shown),
``undo`` / ``redo`` (:func:`step`) and ``restore`` (a checkpoint pinned on disk). After
the entry the review re-evaluates what it affects (:mod:`reviewtui.shell.evaluation`)
and replays (:func:`reviewtui.shell.replay.sync`), which saves the state file before it
touches the disk.
"""

from __future__ import annotations

from collections.abc import Iterable

from reviewtui.core.engine import PENDING, Decision, OpKey, OpResult, Verdict
from reviewtui.core.engine.decisions import refusal_hint, status_words
from reviewtui.core.engine.file_edits import normalize_or_none
from reviewtui.core.engine.filebytes import NO_TEXT_EDIT, takes_no_text
from reviewtui.core.engine.lineage import landing_pin
from reviewtui.core.errors import DecisionRefused, UsageError
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.records import CommandName, ConsoleCommand, Edit, Operation
from reviewtui.core.record import replace
from reviewtui.core.review.log import DecisionItem, LogEntry, LogKind, fold
from reviewtui.core.review.plan import op_path
from reviewtui.shell.outside import deleted_outside, kept_outside
from reviewtui.shell.replay import checkpoint, sync
from reviewtui.shell.replay_report import ReplayReport

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.shell.review import Review

_ACCEPTING = (Verdict.ACCEPTED, Verdict.EDITED)


def decide_many(review: Review, items: Iterable[tuple[OpKey, Decision]], *,
                skip_unappliable: bool = False, by_draft: bool = False) -> ReplayReport:
    """Several decisions as one log entry (one save, one replay, one undo step).

    An accept is recorded only if the operation lands with it (as the workbench shows
    it): accepting an ambiguous, not-found or refused operation raises
    :class:`DecisionRefused` and records nothing, or with ``skip_unappliable`` (bulk
    keys) leaves those operations out and lists them in the report's ``skipped``.
    ``by_draft`` (``apply --turns``): judged by what is written, the accepted operations
    alone, not by the workbench's view, where the pending turns before them land too (an
    edit of turn 4 over text turns 1-3 would change was refused there: QA pass 84c).
    """
    with review._mutex:
        review._check_open()
        entries: list[DecisionItem] = []
        for key, decision in items:
            op = review._ops.get(key)
            if op is None:
                raise UsageError(f"no operation {key[1] + 1} in turn {key[0]}",
                                 source=str(review.loaded.file), rule="no-such-operation")
            if decision.verdict is Verdict.EDITED and takes_no_text(op):
                item = DecisionItem.for_op(key, op, decision)
                raise DecisionRefused(key, "binary-edit",
                                      f"{item.describe()}: {NO_TEXT_EDIT}; nothing was recorded")
            entries.append(DecisionItem.for_op(key, op, _pinned(review, key, op, decision,
                                                                by_draft=by_draft)))
        # A decision an operation already has changes nothing and is not logged: as a
        # step, the next `u` would take it back and seem to do nothing. (Not on a file in
        # conflict: accepting again is how a file deleted outside is written back.)
        held = review._folded.decisions()
        entries = [item for item in entries if not _same(held.get(item.key, PENDING),
                                                         item.decision)
                   or item.key in review._conflict_ops]
        if not entries:  # nothing logged; the replay still reports where things stand
            return sync(review, ReplayReport())
        skipped: list[OpKey] = []
        while entries:
            first = min(item.turn for item in entries)
            now = review.clock()
            review._log.append(LogEntry(LogKind.DECIDE, tuple(entries),
                                        seconds=now - review._since))
            # What the reviewer would see (or, by_draft, what would be written).
            review._evaluate_from(first, draft=by_draft)
            late = _late_pins(review, entries, by_draft=by_draft)
            if late is not None:  # (pinned as they read now: logged again with the pin)
                entries = late
                review._log.pop()
                review._evaluate_from(first, draft=by_draft)
                review._log.append(LogEntry(LogKind.DECIDE, tuple(entries),
                                            seconds=now - review._since))
                review._evaluate_from(first, draft=by_draft)
            drafted = _drafted(review) if by_draft else set()
            unlanded = [item for item in entries if item.decision.verdict in _ACCEPTING
                        and not (item.key in drafted if by_draft
                                 else review.result(item.key).landed)]
            if not unlanded:
                break
            refused = refusal(review, unlanded[0])  # the outcome with the accept
            review._log.pop()
            review._evaluate_from(first, draft=by_draft)
            if not skip_unappliable:
                raise refused
            skipped += [item.key for item in unlanded]
            entries = [item for item in entries if item not in unlanded]
        if not entries:
            report = sync(review, ReplayReport())  # nothing new: where things stand
            report.skipped = skipped
            return report
        for item in entries:
            if item.decision.verdict in _ACCEPTING:
                consent_to_recreate(review, item.key)
        review._since = now
        # The display already holds these decisions (evaluated above): the draft only.
        review._dirty = True
        review._evaluate_from(min(item.turn for item in entries), display=False)
        report = sync(review, ReplayReport())
        report.skipped = skipped
        return report


# Commands whose paths a glob, a folder or a part of names decides (Decision.moves).
_TAKING = (CommandName.MV, CommandName.RN, CommandName.RM)


def _draft_result(review: Review, key: OpKey) -> OpResult | None:
    """The draft's result for ``key`` (what is written: the accepted operations alone)."""
    for turn in review.draft.turns:
        if turn.index == key[0]:
            return next((result for result in turn.results if result.key == key), None)
    return None


def _late_pins(review: Review, entries: list[DecisionItem], *,
               by_draft: bool = False) -> list[DecisionItem] | None:
    """``entries`` with the accepts of commands pinned that :func:`_pinned` could not pin
    when they were made, as they read once evaluated with the accept; None when there are
    none. A rejected command does not run, so its display holds no reading to pin: an accept
    after a reject stayed unpinned, and the move landed inside a folder made since (QA s37
    helper-112 H2)."""
    out, changed = [], False
    for item in entries:
        op, decision = review._ops[item.key], item.decision
        if isinstance(op, ConsoleCommand):  # (_pinned fills only what is not pinned yet)
            pinned = _pinned(review, item.key, op, decision, by_draft=by_draft)
            if pinned != decision:
                item, changed = DecisionItem.for_op(item.key, op, pinned), True
        out.append(item)
    return out if changed else None


def note_textless_edits(review: Review) -> None:
    """Reopened: an edit saved (before such edits were refused) on a binary patch, a link
    or a mode change stands as the accept it always was, its text unused: said, not kept
    from the reviewer (QA s36 helper-107: it still read "edited")."""
    for key, decision in review._folded.decisions().items():
        op = review._ops.get(key)
        if decision.verdict is Verdict.EDITED and op is not None and takes_no_text(op):
            item = DecisionItem.for_op(key, op, decision)
            review.state_problems.append(
                f"{item.describe()}: saved as edited, but {NO_TEXT_EDIT.partition(':')[0]}: "
                "it stands as an accept of the operation as sent, the text unused")


def _same(held: Decision, new: Decision) -> bool:
    """The same decision, pinned at the same place (a pin is not compared by ``==``)."""
    return held == new and held.at == new.at


def _pinned(review: Review, key: OpKey, op: Operation, decision: Decision, *,
            by_draft: bool = False) -> Decision:
    """An accept binds to what the reviewer sees it do: should an earlier decision change
    that, it does nothing rather than something else.

    An accept of a ``:undo`` names the command it takes back (QA pass s31: rejecting the
    ``:rn`` an accepted ``:undo`` took back made it undo the ``:unrm`` before, deleting a
    file the reviewer had seen restored). An accept of a ``:mv`` or ``:rn`` keeps how it
    read (QA s36, helper-108 F5: ``:mv a m`` accepted as ``a -> m``, then a folder ``m``
    made outside, moved ``a`` to ``m/a``). An accept of a SEARCH edit holds the origins of
    the lines it replaces on screen (:mod:`reviewtui.core.engine.lineage`; QA pass s32:
    rejecting an edit that swapped two bodies moved a later accepted edit into the other
    function, and with that edit only pending the disk got it there at once)."""
    if isinstance(op, ConsoleCommand):
        if decision.verdict is not Verdict.ACCEPTED:
            return decision
        # (``by_draft``, apply --turns: what is written, where no pending turn before it
        # makes a file its glob takes: QA s37 helper-113 M1, the pin was the display's)
        outcome = ((by_draft and _draft_result(review, key)) or review.result(key)).outcome
        if op.name == CommandName.UNDO and decision.undoes is None:
            return replace(decision, undoes=outcome.undid) if outcome.undid else decision
        if op.name in (CommandName.MV, CommandName.RN) and decision.reading is None \
                and outcome.reading:
            decision = replace(decision, reading=outcome.reading)
        if op.name in _TAKING and decision.moves is None and outcome.moves:
            decision = replace(decision, moves=outcome.moves)
        return decision
    # A call by line numbers is bound by its revision; one carried into the review's
    # version with the call as sent (``sent``: two forms, the draft may land the other)
    # is pinned too, so a session whose two forms name different lines (forged) writes
    # nothing the reviewer did not see (tests/hostile/test_hostile_carried_lines.py).
    if (not isinstance(op, Edit) or (op.shape is not None and getattr(op.shape, "sent", None)
                                     is None) or decision.at is not None
            or decision.verdict not in _ACCEPTING or decision.placement is not None
            or decision.search is not None):
        return decision
    at = landing_pin(review.result(key).outcome, op.search_lines, op.replace_lines)
    return replace(decision, at=at) if at is not None else decision


def in_draft(review: Review, key: OpKey) -> bool:
    """Whether ``key`` lands in the draft (what is written: the accepted operations alone),
    not only in the display run, where the pending ones before it land too."""
    result = _draft_result(review, key)
    return result is not None and result.landed


def _drafted(review: Review) -> set[OpKey]:
    """Every operation that lands in the draft (:func:`in_draft` for a whole batch)."""
    return {result.key for turn in review.draft.turns for result in turn.results
            if result.landed}


def refusal(review: Review, item: DecisionItem) -> DecisionRefused:
    """The refusal of an accept that does not land, with the outcome that stops it."""
    result = review.result(item.key)
    outcome, path = result.outcome, op_path(result)
    aside, hint = "", refusal_hint(outcome.status, forceable=outcome.forceable)
    if outcome.status is Status.NOT_FOUND and path is not None:
        if deleted_outside(review, path):
            aside, hint = (f": {path} was deleted outside the workbench",
                           "reject it, or put the file back")
        elif kept_outside(review, path):
            # Its text may be in what the change kept on top brought (QA s34 helper-99: a
            # file written outside in two steps, an accept made between them).
            aside, hint = (" in the session's version of the file (the change made "
                           "outside the workbench, kept on top, is not searched)",
                           "edit it, or reject it")
    return DecisionRefused(
        item.key, str(outcome.status),
        f"{item.describe()}: cannot accept an operation that is "
        f"{status_words(outcome.status)}{aside} - {hint}; nothing was recorded")


def consent_to_recreate(review: Review, key: OpKey) -> None:
    """A new accept on a path deleted outside is the reviewer's say-so to recreate it: the
    file an operation writes, or each a command moves a file to (the notice asks for it;
    an accept of a ``:mv`` did nothing, QA s37 helper-112 M5)."""
    op = review._ops[key]
    if isinstance(op, ConsoleCommand):
        raws = [new for _old, new in review.result(key).outcome.changes if new is not None]
    else:
        raws = [op.path] if op.path else []
    for raw in raws:
        path = normalize_or_none(raw)
        record = review._records.get(path) if path else None
        if record is not None and record.deleted:
            record.deleted = False
            review._dirty = True


def step(review: Review, *, redo: bool) -> ReplayReport | None:
    """Undo (or redo) the last decision step; None when there is none."""
    with review._mutex:
        review._check_open()
        stack = review._folded.undone if redo else review._folded.applied
        if not stack:
            return None
        entry = stack[-1]
        review._log.append(LogEntry(LogKind.REDO if redo else LogKind.UNDO))
        review._since = review.clock()
        review._dirty = True
        review._evaluate_from(min(item.turn for item in entry.items))
        return sync(review, ReplayReport())


def restore(review: Review, n: int) -> ReplayReport:
    """Put checkpoint ``n`` of the draft on disk and pin it there (see the module doc)."""
    with review._mutex:
        review._check_open()
        n = checkpoint(review, n)
        pin = None if n == len(review.draft.states) - 1 else n
        review._log.append(LogEntry(LogKind.RESTORE, checkpoint=pin))
        review._folded = fold(review._log, review._folded)
        review._dirty = True
        return sync(review, ReplayReport())
