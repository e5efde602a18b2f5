"""The review screen's panes: what it shows, read from the review, and how it is redrawn.

The base of the review screen (:mod:`reviewtui.ui.screens.main`): the cursor and
checkpoint as reactive vars, the data accessors, the redraw of the lists, timeline,
status line and the selected operation, which keys are live (``check_action``), and the
workers that check syntax, run project checks and lint in the background.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import TypeVar

from rich.text import Text
from textual import work
from textual.reactive import var
from textual.screen import Screen
from textual.worker import get_current_worker

from reviewtui.core.engine import OpKey, OpResult, Verdict, file_text_for
from reviewtui.core.engine.file_edits import normalize_or_none
from reviewtui.core.engine.opstate import OpState, op_state
from reviewtui.core.lint.findings import Finding
from reviewtui.core.lint.rules import lint_session
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.records import ConsoleCommand, Turn
from reviewtui.core.record import replace
from reviewtui.core.review.diagnostics import diagnose_result
from reviewtui.shell.outside import kept_outside
from reviewtui.shell.review import Review
from reviewtui.shell.userconfig import load_layout
from reviewtui.ui import collector, pacing
from reviewtui.ui.diagnostics import deferred, op_badge, with_diagnostics
from reviewtui.ui.evaluating import turn_row
from reviewtui.ui.opview import (
    OpView,
    build_view,
    conflict_sides,
    op_title,
    warm_symbols,
    with_outside_note,
)
from reviewtui.ui.prefetch import warm
from reviewtui.ui.project_checks import ProjectChecks, explanation_with
from reviewtui.ui.review_jobs import ReviewJobs
from reviewtui.ui.screens.review_states import ReviewStates, draft_twin, review_states
from reviewtui.ui.widgets.diff_render import sanitize
from reviewtui.ui.widgets.findings import FindingsPanel
from reviewtui.ui.widgets.lists import (
    OpList,
    TurnList,
    op_prompt,
    op_row_titles,
    unread_note,
    unread_parts,
)
from reviewtui.ui.widgets.op_detail import OpDetail
from reviewtui.ui.widgets.request_block import RequestBlock
from reviewtui.ui.widgets.status_line import StatusLine
from reviewtui.ui.widgets.timeline import Timeline
from reviewtui.ui.worker_results import show_later

T = TypeVar("T")


class ReviewPanes(Screen[None]):
    # The cursor (positions in the display run's turns and that turn's operations) and the
    # checkpoint the timeline shows.
    turn_pos: var[int] = var(0)
    op_pos: var[int] = var(0)
    checkpoint: var[int] = var(0)
    # What decides which keys are live (check_action). Their bindings are not in the
    # footer, so a change needs no footer refresh (bindings=True would recompose it).
    can_redo: var[bool] = var(False)
    pinned: var[bool] = var(False)
    forceable: var[bool] = var(False)
    editable: var[bool] = var(True)  # e (and its button): not on a console command

    def __init__(self, review: Review, jobs: ReviewJobs | None = None) -> None:
        super().__init__()
        self.review = review
        self._jobs = jobs
        self.findings: list[Finding] = []
        self.first_frame_at: float | None = None
        self.view_layout = load_layout()
        self.states = ReviewStates()
        self.project_checks = ProjectChecks(review.config)
        self._prefetched: OpResult | None = None  # the last result prepared (prefetch.py)
        # While a review job's result is drawn: the explanation keeps its height (OpDetail).
        self.holding_explanation = False

    @property
    def jobs(self) -> ReviewJobs:
        """Where every change to the review runs (the app's, shared with its watcher)."""
        if self._jobs is None:
            self._jobs = ReviewJobs(self.app)
        return self._jobs

    @property
    def session_turns(self) -> tuple[Turn, ...]:
        return self.review.display.session.turns

    def result(self, turn_pos: int, op_pos: int) -> OpResult | None:
        turns = self.review.display.turns
        if turn_pos >= len(turns) or op_pos >= len(turns[turn_pos].results):
            return None
        return turns[turn_pos].results[op_pos]

    def state_of(self, result: OpResult) -> OpState:
        return op_state(result, self.review.outcome(result.key).status,
                        draft_twin(self.review, result))

    def current(self) -> OpResult | None:
        return self.result(self.turn_pos, self.op_pos)

    def iter_results(self) -> Iterator[tuple[int, int, OpResult]]:
        """Every result in reading order, evaluating turns as it reaches them."""
        for tp, turn in enumerate(self.session_turns):
            self.review.evaluate_through(turn.index)
            for opp, result in enumerate(self.review.display.turns[tp].results):
                yield tp, opp, result

    def _recompute_states(self, states: ReviewStates | None = None) -> None:
        self.states = states or review_states(self.review)

    @property
    def _turn_states(self) -> list[list[OpState]]:
        return self.states.turns

    def _and_states(self, work: Callable[[], T]) -> Callable[[], tuple[T, ReviewStates]]:
        """``work``, then the states it left (both in the job's thread: off the loop; only
        the turns the job changed are computed again)."""
        # The turn on screen now (read on the loop): the display is re-evaluated at once
        # around it, the rest of the session in the background (ui/evaluating.py).
        turns = self.session_turns
        focus = turns[min(self.turn_pos, len(turns) - 1)].index if turns else None

        def both() -> tuple[T, ReviewStates]:
            self.review.focus_on(focus)
            done = work()
            return done, review_states(self.review, before=self.states)

        return both

    def refresh_all(self) -> None:
        self._recompute_states()
        prompts = [
            turn_row(turn.index, turn.request, self._turn_states, pos,
                     unread=unread_parts(turn))
            for pos, turn in enumerate(self.session_turns)
        ]
        turn_list = self.query_one("#turns", TurnList)
        with self.app.batch_update():
            turn_list.set_turns(prompts)
            if prompts:
                turn_list.highlighted = self.turn_pos
            self.refresh_turn()
            self.refresh_timeline()

    def refresh_timeline(self) -> None:
        timeline = self.query_one(Timeline)
        timeline.set_marks(self.states.marks)
        timeline.current = self.checkpoint
        self.refresh_status()

    def refresh_status(self, note: str = "") -> None:
        self.query_one(StatusLine).show(
            checkpoint=self.checkpoint, turns=len(self.session_turns),
            revision=self.review.revision, counts=self.states.counts,
            watcher=getattr(self.app, "watcher_state", "off"), dry_run=self.review.dry_run,
            note=note, source_format=self.review.session.format,
            pinned=self.review.disk_checkpoint, state_at=self._state_at(),
            held=len(self.review.held_paths))

    def _state_at(self) -> str:
        """Where the review state is kept when it is not beside the session ("" if it is)."""
        where = self.review.state_elsewhere
        if where is None:
            return ""
        home = str(Path.home())
        text = str(where)
        return "~" + text[len(home):] if text.startswith(home + "/") else text

    def refresh_turn(self) -> None:
        ops = self.query_one("#ops", OpList)
        if self.session_turns:  # a turn not evaluated yet is evaluated when shown
            self.review.evaluate_through(self.session_turns[self.turn_pos].index)
        turns = self.review.display.turns
        if not turns:
            ops.set_ops([])
            self.query_one(OpDetail).show(None)
            return
        results = turns[self.turn_pos].results
        self.op_pos = max(0, min(self.op_pos, len(results) - 1))
        ops.border_title = f"Turn {turns[self.turn_pos].index}: operations"
        self._show_request()
        titles = op_row_titles([r.op for r in results], self._op_room())
        ops.set_ops([op_prompt(title, self.state_of(r), op_badge(r, wait=False))
                     for r, title in zip(results, titles, strict=True)],
                    self.op_pos)
        self.refresh_detail()
        self._check_syntax_later(results)

    def _op_room(self) -> int:
        """Cells for an operation row's title (the glyph aside)."""
        width = self.query_one("#ops", OpList).scrollable_content_region.width
        return max(16, (width or 40) - 5)

    def _refresh_op_rows(self) -> None:
        """Re-title the operation rows for the list's width (after a resize)."""
        if not self.session_turns:
            return
        ops = self.query_one("#ops", OpList)
        turns = self.review.display.turns
        if self.turn_pos >= len(turns):
            return
        results = turns[self.turn_pos].results
        if ops.option_count != len(results):
            # The turn grew or shrank since the rows were built (a live operation arrived
            # between the resize and this call): rebuild rather than re-title.
            self.refresh_turn()
            return
        titles = op_row_titles([r.op for r in results], self._op_room())
        for pos, result in enumerate(results):
            # wait=False: a big file's check belongs to the worker (_check_syntax_later),
            # whose end re-badges the rows; a resize or `b` must not run it on the loop.
            ops.update_op(pos, op_prompt(titles[pos], self.state_of(result),
                                         op_badge(result, wait=False)))

    def _show_request(self) -> None:
        turns = self.session_turns
        block = self.query_one(RequestBlock)
        if not turns:
            block.show(None, "")
            return
        turn = turns[self.turn_pos]
        block.show(turn.index, turn.request)

    def check_action(self, action: str, parameters: tuple[object, ...]) -> bool | None:
        """Keys that cannot do anything here are not live (nor shown in the footer)."""
        live = {"redo": self.can_redo, "unpin": self.pinned, "force": self.forceable,
                "edit": self.editable, "no_edit": not self.editable}
        return live.get(action, True)

    def watch_editable(self) -> None:
        self.refresh_bindings()  # the footer's `e Edit` comes and goes (rarely: console ops)

    def _sync_live_keys(self, result: OpResult | None) -> None:
        self.can_redo = self.review.can_redo
        self.pinned = self.review.disk_checkpoint is not None
        self.forceable = result is not None and result.outcome.forceable
        self.editable = result is None or not isinstance(result.op, ConsoleCommand)

    def refresh_detail(self, *, keep_pane: bool = False) -> None:
        result = self.current()
        self._sync_live_keys(result)
        detail = self.query_one(OpDetail)
        if result is None:
            turns = self.session_turns
            detail.show(None, unread=unread_note(turns[self.turn_pos], self.review.loaded.file)
                        if 0 <= self.turn_pos < len(turns) else None)
            return
        outcome = self.review.outcome(result.key)
        conflict = None
        message = ""
        path = getattr(result.op, "path", None)
        if path and path in self.review.conflicts:
            c = self.review.conflicts[path]
            conflict = conflict_sides(c.wanted, c.disk)
            message = c.message
        if isinstance(result.op, ConsoleCommand) and outcome.status is Status.CONFLICT:
            # Each path it moves or removes that is in conflict, and why (a move's two ends).
            known = self.review.conflicts
            ends = dict.fromkeys(p for pair in result.outcome.changes for p in pair if p)
            message = "\n".join(f"{p}: {known[p].message}" for p in ends if p in known)
        twin = draft_twin(self.review, result) if outcome.status is not Status.CONFLICT else None
        if twin is not None and twin.landed:  # written: show what the disk got
            view = self._written_view(result, twin)
        else:
            view = with_diagnostics(build_view(result, outcome.status, conflict, message),
                                    result, wait=False)
        if path and outcome.status is not Status.CONFLICT and kept_outside(self.review, path):
            view = with_outside_note(view, path,
                                     not_found=outcome.status is Status.NOT_FOUND)
        waiting = self._waits_on(result)
        if waiting:  # as the exports say it: accepted, not written until that one is
            state, sep, rest = view.subtitle.partition(" · ")
            view = replace(
                view, subtitle=f"{state}, waits on {waiting} (not written yet){sep}{rest}")
        if (path and result.decision.verdict is not Verdict.PENDING
                and normalize_or_none(path) in self.review.held_paths):
            state, sep, rest = view.subtitle.partition(" · ")
            view = replace(view, subtitle=f"{state}, waits until {sanitize(path)} is closed "
                           f"by the program writing it (not written yet){sep}{rest}")
        view, to_run = explanation_with(view, self.project_checks, result)
        if to_run:
            self.run_project_checks(result)
        # The same operation shown again (keep_pane: a check or an outside change came in)
        # keeps the height a job's result left too: the diff moves only when the reviewer does.
        detail.show(view, keep_pane=keep_pane, hold=self.holding_explanation or keep_pane)
        self.review.ui_state = {"checkpoint": self.checkpoint,
                                "selected": [result.key[0], result.key[1]]}
        self.call_after_refresh(self.set_timer, collector.AFTER_DRAW, self._prefetch_next)

    def _prefetch_next(self) -> None:
        """Once this operation is drawn: prepare the view of the one a decision would
        move to (ui/prefetch.py)."""
        if self.jobs.busy or not self.is_mounted:
            return  # the review is changing: the job's redraw asks again
        here = (self.turn_pos, self.op_pos)  # where move_to_next_undecided will go
        target = self.states.next_undecided(self.turn_pos, skip=here,
                                            wrap=self.review.evaluation_complete)
        result = self.result(*target) if target is not None else None
        if result is None or result is self._prefetched:
            return
        self._prefetched = result
        self.load_next_view(result)

    @work(thread=True, exclusive=True, group="prefetch", description="load_next_view")
    def load_next_view(self, result: OpResult) -> None:
        warm(result)

    def _written_view(self, result: OpResult, written: OpResult) -> OpView:
        """An accept the draft lands but the display does not: the draft's view (what was
        written), with why the display would not find it."""
        from reviewtui.shell.export import held_by  # here: the exports load lint rules

        view = with_diagnostics(build_view(written), written, wait=False)
        held = held_by(self.review.draft, self.review.display, result.key)
        note = Text(f"Written as shown. On top of {held or 'an earlier pending operation'} "
                    "(as this screen shows pending operations, applied) it would not be "
                    f"found: {result.outcome.message or result.outcome.status}. Accepting "
                    "that one would make this one fail.", style="yellow")
        if view.explanation.plain:
            note = note + Text("\n\n") + view.explanation
        return replace(view, explanation=note)

    def _waits_on(self, result: OpResult) -> str:
        """What an accept shown as landing waits on (an earlier pending operation), "" when
        the draft has it too: checked cheaply here, named by the exports' definition."""
        if not result.landed or result.decision.verdict not in (Verdict.ACCEPTED,
                                                                Verdict.EDITED):
            return ""
        draft = self.review.draft.turns
        turn_pos, op_pos = self.turn_pos, self.op_pos
        if turn_pos >= len(draft) or op_pos >= len(draft[turn_pos].results):
            return ""
        mine = draft[turn_pos].results[op_pos]
        if mine.key != result.key or mine.landed:
            return ""
        from reviewtui.shell.export import waits_on  # here: the exports load lint rules

        return waits_on(self.review.draft, self.review.display, result.key)

    def _check_syntax_later(self, results: Sequence[OpResult]) -> None:
        """Syntax checks too big to run on a key press go to a worker."""
        waiting = [r for r in results if deferred(r)]
        if waiting:
            self.run_syntax_checks(waiting)

    @work(thread=True, exclusive=True, group="syntax", description="run_syntax_checks")
    def run_syntax_checks(self, results: list[OpResult]) -> None:
        worker = get_current_worker()
        for result in results:
            if worker.is_cancelled:
                return
            diagnose_result(result)
            warm_symbols(result)
        show_later(self, self._syntax_checked)

    def _syntax_checked(self) -> None:
        turns = self.review.display.turns
        if not turns:
            return
        ops = self.query_one("#ops", OpList)
        for pos, result in enumerate(turns[self.turn_pos].results):
            ops.update_op(pos, op_prompt(op_title(result.op), self.state_of(result),
                                         op_badge(result, wait=False)))
        self.refresh_detail(keep_pane=True)

    @work(thread=True, exclusive=True, group="checks", description="run_project_checks")
    def run_project_checks(self, result: OpResult) -> None:
        self.project_checks.run(result)
        show_later(self, self._project_checks_done, result.key)

    def _project_checks_done(self, key: OpKey) -> None:
        current = self.current()
        if current is not None and current.key == key:
            self.refresh_detail(keep_pane=True)

    def ask_check_trust(self) -> None:
        """Untrusted project checks: show their commands and ask before anything runs."""
        from reviewtui.ui.project_checks import TrustScreen

        checks = self.project_checks
        if checks.note:
            self.notify(checks.note, severity="warning", markup=False)
        if checks.offer is None:
            return

        def done(ok: bool | None) -> None:
            checks.answer(bool(ok))
            if ok:
                self.refresh_detail(keep_pane=True)
            else:
                self.notify("project checks stay off (not trusted)", markup=False)

        self.app.push_screen(TrustScreen(checks.question()), done)

    @work(thread=True, exclusive=True, group="lint")
    def load_findings(self) -> None:
        # Seconds long on a big session, beside the screen: paced (ui/pacing.py).
        with pacing.quick_switches():
            findings = lint_session(self.review.display.session,
                                    file_text_for(self.review.display), pace=pacing.pause)
        if not get_current_worker().is_cancelled:  # (the app closing: nothing to show)
            show_later(self, self._findings_loaded, findings)

    def _findings_loaded(self, findings: list[Finding]) -> None:
        from reviewtui.ui.screens.raw import FindingsArrived, RawReplyScreen

        panel = next(iter(self.query(FindingsPanel)), None)
        if not self.is_mounted or panel is None:
            return  # the lint ended as the screen was closing (its widgets may be gone)
        self.findings = findings
        for screen in self.app.screen_stack:  # a raw view opened before lint was done
            if isinstance(screen, RawReplyScreen):
                screen.post_message(FindingsArrived(findings))
        if panel.display and self.session_turns:
            panel.show_turn(findings, self.session_turns[self.turn_pos].index)
        self.call_after_refresh(collector.idle)  # the findings stay: freeze them if many
