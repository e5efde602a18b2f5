"""Deciding: accept, reject, force, the bulk keys, undo and redo.

Every decision runs as a review job (off the event loop); the screen is redrawn from the
states the job computed in its thread.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from functools import partial

from reviewtui.core.engine import Decision, OpKey, OpResult, Verdict
from reviewtui.core.engine.opstate import OpState
from reviewtui.core.errors import DecisionRefused, ReviewtuiError
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.records import ConsoleCommand, Edit, FullFile
from reviewtui.core.model.tree import FileState
from reviewtui.core.review.log import describe_step
from reviewtui.core.review.plan import op_path
from reviewtui.core.text.plural import plural
from reviewtui.shell.outside import deleted_outside
from reviewtui.shell.replay_report import ReplayReport
from reviewtui.ui.diagnostics import BADGE, changes_config, op_badge
from reviewtui.ui.screens.main_cursor import ReviewCursor
from reviewtui.ui.screens.review_states import ReviewStates
from reviewtui.ui.widgets.diff_render import sanitize
from reviewtui.ui.widgets.lists import op_row_title
from reviewtui.ui.widgets.op_detail import OpDetail


class DecisionActions(ReviewCursor):
    def decide(self, decision: Decision, keys: list[OpKey] | None = None, *,
               then: Callable[[], None] | None = None) -> None:
        """Record ``decision`` for the current operation, or for ``keys`` (bulk keys).

        An accept that cannot apply (ambiguous, not found, refused) is not recorded: the
        reviewer is told why; bulk keys skip such operations and say how many. ``then``
        runs once the decision is in (what it says reads the new outcome).
        """
        result = self.current()
        if result is None:
            return
        # One log entry however many operations: one `u` takes a bulk key back whole.
        items = [(key, decision) for key in keys or [result.key]]
        self.jobs.submit("deciding", self._and_states(partial(
            self.review.decide_many, items, skip_unappliable=keys is not None)),
            partial(self._decided, self.turn_pos, [key for key, _ in items], then))

    def _decided(self, turn_pos: int, keys: list[OpKey], then: Callable[[], None] | None,
                 answer: tuple[ReplayReport, ReviewStates] | ReviewtuiError) -> None:
        if isinstance(answer, DecisionRefused):
            self.notify(str(answer), severity="warning", markup=False)
            self.refresh_after_decision()
            return
        if isinstance(answer, ReviewtuiError):
            raise answer
        report, states = answer
        self._report(report)
        skipped = len(report.skipped)
        if skipped:
            # A file deleted outside is named: its operations read "not found" alone.
            gone = self._deleted_files(self.review.result(key) for key in report.skipped)
            self.notify(f"{plural(skipped, 'operation')} left pending: an accept cannot apply "
                        "to them (ambiguous, not found or refused)"
                        + (f"; deleted outside the workbench: {', '.join(gone)}"
                           if gone else ""), severity="warning", markup=False)
        pin = self.review.disk_checkpoint
        if pin is not None and (report.written or report.removed):
            # A turn up to the pinned checkpoint: the disk is that checkpoint of the decided
            # draft, so it changed (it said "recorded, not written": QA pass s31).
            self.notify(f"written: the disk is pinned at checkpoint {pin}, which this "
                        "decision changes (P unpins and replays the later ones)",
                        markup=False)
        elif pin is not None:
            self.notify(f"recorded, not written: the disk is pinned at checkpoint {pin} "
                        "(P unpins and replays)", severity="warning")
        else:
            self._note_not_written(turn_pos, keys)
        # The cursor moves on: the operation shown is drawn once, after the move (with the
        # explanation's height held: the diff below does not move, no layout).
        self.refresh_after_decision(states, detail=False)
        self.holding_explanation = True
        try:
            if not self.move_to_next_undecided():
                self.refresh_detail(keep_pane=True)
        finally:
            self.holding_explanation = False
        if then is not None:
            then()

    def _note_not_written(self, turn_pos: int, keys: list[OpKey]) -> None:
        """An accept shown as landing (pending operations before it that apply count as
        accepted on screen) that the disk does not get, because it lands only on what
        those still-pending operations write: say so, the screen alone would not."""
        draft = self.review.draft.turns
        if turn_pos >= len(draft):
            return
        held = []
        for key in keys:
            try:
                shown = self.review.result(key)
            except KeyError:
                continue
            written = draft[turn_pos].results
            if (shown.landed and shown.decision.verdict in (Verdict.ACCEPTED, Verdict.EDITED)
                    and key[1] < len(written) and written[key[1]].key == key
                    and not written[key[1]].landed):
                held.append(f"turn {key[0]} {op_row_title(shown.op, 60)}")
        if held:
            more = f" and {len(held) - 3} more" if len(held) > 3 else ""
            self.notify("recorded, not written yet: " + "; ".join(held[:3]) + more
                        + " lands only on what earlier pending operations write; accepting "
                        "them writes it", severity="warning", markup=False, timeout=10)

    def file_keys(self, *, accepting: bool = False) -> list[OpKey]:
        """This operation and the later undecided ones of its file in this turn (add -p's
        a/d): a decided operation is changed only by a key aimed at it, and accepting in
        bulk leaves the ones that cannot apply alone."""
        result = self.current()
        if result is None or isinstance(result.op, ConsoleCommand):
            return [result.key] if result else []
        path = result.op.path
        later = self.review.display.turns[self.turn_pos].results[self.op_pos + 1 :]
        return [result.key] + [
            r.key for r in later
            if isinstance(r.op, Edit | FullFile) and r.op.path == path
            and not self.state_of(r).decided and not (accepting and self.state_of(r).failed)]

    def action_accept(self) -> None:
        placed = self._placement()
        if placed is not None:  # an ambiguous or missed edit: at the location on screen
            self.decide(placed)
            return
        result = self.current()
        if result is None or result.decision.verdict is not Verdict.EDITED:
            self.decide(Decision.accept())
            return
        key = result.key

        def said() -> None:  # (QA s44 helper-135 F6: the reviewer's text went without a word)
            if self.review.result(key).decision.verdict is Verdict.ACCEPTED:
                self.notify("accepted as the model wrote it: your edit is set aside (u "
                            "brings it back)", severity="warning", markup=False, timeout=8)

        self.decide(Decision.accept(), then=said)

    def _placement(self) -> Decision | None:
        """For an ambiguous edit, the location shown (`c` cycles them); for a missed one,
        the candidate shown: accept the edit exactly there (the reviewer's placement)."""
        result = self.current()
        if result is None or not isinstance(result.op, Edit) or result.op.shape is not None:
            return None
        outcome = self.review.outcome(result.key)
        before = outcome.before_state
        lines = before.lines if isinstance(before, FileState) else None
        pane = self.query_one(OpDetail).pane_index
        if outcome.status is Status.AMBIGUOUS and outcome.locations:
            first, last = outcome.locations[pane % len(outcome.locations)]
        elif outcome.status is Status.NOT_FOUND and outcome.candidates:
            candidate = outcome.candidates[pane % len(outcome.candidates)]
            first, last = candidate.start, candidate.end
        else:
            return None
        if lines is None or not 1 <= first <= last <= len(lines):
            return None
        self.notify(f"placed by reviewer at lines {first}-{last} of {result.op.path}",
                    markup=False)
        return Decision.place((first, last), tuple(lines[first - 1 : last]))

    def action_reject(self) -> None:
        self.decide(Decision.reject())

    def action_reject_reason(self) -> None:
        from reviewtui.ui.screens.dialogs import PromptScreen

        result = self.current()
        if result is None:
            return
        key = result.key

        def done(reason: str | None) -> None:
            if reason is not None and self.current() is not None:
                self.decide(Decision.reject(reason), [key])

        self.app.push_screen(PromptScreen("Reject with a reason (one line; Enter rejects, "
                                          "Escape cancels):"), done)

    def action_force(self) -> None:
        self.decide(Decision.accept(force=True))  # live only on a forceable one

    def action_accept_file(self) -> None:
        self.decide(Decision.accept(), self.file_keys(accepting=True))

    def action_reject_file(self) -> None:
        self.decide(Decision.reject(), self.file_keys())

    def _deleted_files(self, results: Iterable[OpResult]) -> list[str]:
        """The files of ``results`` deleted outside the workbench (shown escaped): their
        operations read "not found" alone, and a bulk accept leaves them out."""
        return sorted({sanitize(path) for result in results if (path := op_path(result))
                       and deleted_outside(self.review, path)})

    def action_accept_turn(self) -> None:
        from reviewtui.ui.screens.dialogs import ConfirmScreen

        turns = self.review.display.turns
        results = turns[self.turn_pos].results if self.turn_pos < len(turns) else ()
        clean = [r for r in results if self.state_of(r) in (OpState.PENDING, OpState.FUZZY)]
        # Accepting in bulk never takes an operation that breaks its file's syntax or
        # changes reviewtui.toml (what runs here): those are left pending for a one-by-one
        # look (y still accepts them).
        breaking = [r for r in clean if BADGE in op_badge(r).split()]
        config = [r for r in clean if changes_config(r)]
        keys = [r.key for r in clean if r not in breaking and r not in config]
        gone = self._deleted_files(r for r in results if r.key not in keys
                                   and r.decision.verdict is Verdict.PENDING)
        if not keys:
            held = [f"{len(breaking)} would introduce a syntax error"] if breaking else []
            held += [f"{len(config)} change reviewtui.toml"] if config else []
            held += [f"deleted outside the workbench: {', '.join(gone)}"] if gone else []
            extra = f" ({'; '.join(held)})" if held else ""
            self.notify(f"nothing pending in this turn applies cleanly{extra}")
            return

        def done(ok: bool | None) -> None:
            if ok:
                self.decide(Decision.accept(), keys)

        left = (f"\n{len(breaking)} more would introduce a syntax error: they stay pending "
                "for a look one by one." if breaking else "")
        left += (f"\n{len(config)} more change reviewtui.toml, what runs on this machine: "
                 "they stay pending for a look one by one." if config else "")
        left += (f"\nDeleted outside the workbench, so left pending: {', '.join(gone)} (put "
                 "it back, or reject its operations)." if gone else "")
        # One of the turn's decided operations is held by a conflict (a :mv whose source
        # changed outside): the rest would be written without it (QA pass s29, helper-90 F2).
        waiting = [op_row_title(r.op, 60) for r in results
                   if self.state_of(r) is OpState.CONFLICT]
        left += (f"\nIn conflict, not written until settled: {', '.join(waiting)}. What is "
                 "accepted here is written without it." if waiting else "")
        self.app.push_screen(
            ConfirmScreen(f"Accept {plural(len(keys), 'pending operation')} of turn "
                          f"{results[0].key[0]} that "
                          f"{'applies' if len(keys) == 1 else 'apply'} cleanly?{left}"), done)

    def action_undo(self) -> None:
        self._step(redo=False)

    def action_redo(self) -> None:
        self._step(redo=True)

    def _step(self, *, redo: bool) -> None:
        entry = self.review.next_step(redo=redo)
        if entry is None:
            self.notify(f"nothing to {'redo' if redo else 'undo'}")
            return
        keys = [item.key for item in entry.items]
        self.jobs.submit("redoing" if redo else "undoing",
                         self._and_states(self.review.redo if redo else self.review.undo),
                         partial(self._stepped, keys, describe_step(entry, redo=redo)))

    def _stepped(self, keys: list[OpKey], said: str,
                 answer: tuple[ReplayReport | None, ReviewStates] | ReviewtuiError) -> None:
        """An undo or redo is done: say what it took back (or made again), and show it on
        the operation it changed."""
        if isinstance(answer, ReviewtuiError):
            raise answer
        report, states = answer
        if report is not None:  # (None: nothing was left to step after all)
            # Said once the screen has drawn the step: the toast's mount lays the screen
            # out again (~25 ms at 120x40), which the changed row would otherwise wait on.
            self.call_after_refresh(self.notify, sanitize(said), markup=False)
        self._report(report)
        self.refresh_after_decision(states, detail=False)
        self.holding_explanation = True
        try:
            if not self.select_key(keys[0] if keys else None):
                self.refresh_detail(keep_pane=True)
        finally:
            self.holding_explanation = False
