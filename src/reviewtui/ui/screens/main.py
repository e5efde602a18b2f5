"""The review screen: timeline, turns, operations, the selected operation, findings.

The screen owns the review keys. It reads everything from the ``Review`` (the I/O
shell around the engine) and calls it for every decision; widgets only display.
"""

from __future__ import annotations

import time
from collections.abc import Iterator, Sequence
from itertools import chain
from pathlib import Path, PurePosixPath

from textual import on, work
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.events import Resize
from textual.screen import Screen
from textual.widgets import Footer, OptionList
from textual.worker import get_current_worker

from reviewtui.core.diagnostics import diagnose_result
from reviewtui.core.engine import Decision, OpKey, OpResult, Verdict, file_text_for
from reviewtui.core.engine.opstate import OpState, op_state
from reviewtui.core.errors import DecisionRefused
from reviewtui.core.lint.findings import Finding
from reviewtui.core.lint.rules import lint_session
from reviewtui.core.model import ConsoleCommand, Edit, FullFile, Turn
from reviewtui.core.outcome import Status
from reviewtui.core.plural import plural
from reviewtui.core.tree import FileState
from reviewtui.shell.review import Review
from reviewtui.shell.userconfig import load_layout, save_layout
from reviewtui.ui.diagnostics import BADGE, changes_config, deferred, op_badge, with_diagnostics
from reviewtui.ui.evaluating import turn_row
from reviewtui.ui.opview import build_view, op_title, warm_symbols
from reviewtui.ui.project_checks import ProjectChecks, explanation_with
from reviewtui.ui.widgets.findings import FindingsPanel
from reviewtui.ui.widgets.lists import OpList, TurnList, op_prompt, op_row_title
from reviewtui.ui.widgets.op_detail import OpDetail
from reviewtui.ui.widgets.request_block import RequestBlock
from reviewtui.ui.widgets.status_line import StatusLine
from reviewtui.ui.widgets.timeline import Timeline, TurnMark

NARROW = 100  # below this many columns the diff switches to unified by itself
TINY = 70  # below this the operation list moves above the diff


class MainScreen(Screen[None]):
    CSS_PATH = "main.tcss"

    BINDINGS = [
        Binding("y,space", "accept", "Accept", id="accept",
                tooltip="accept this operation; the cursor moves to the next undecided one"),
        Binding("n", "reject", "Reject", id="reject",
                tooltip="reject it: later edits are re-evaluated as if it was never written"),
        Binding("N", "reject_reason", "Reject with reason", show=False, id="reject-reason",
                tooltip="reject it with a one-line reason (kept for the next prompt: "
                        "export --format context)"),
        Binding("a", "accept_file", "Accept file", show=False, id="accept-file",
                tooltip="accept this and the later undecided operations of this file in "
                        "the turn"),
        Binding("d", "reject_file", "Reject file", show=False, id="reject-file",
                tooltip="reject this and the later undecided operations of this file in "
                        "the turn"),
        Binding("A", "accept_turn", "Accept turn", id="accept-turn",
                tooltip="accept every pending operation of the turn that applies (asks)"),
        Binding("F", "force", "Force", show=False, id="force",
                tooltip="accept a near match or a duplicate-line refusal after seeing it"),
        Binding("e", "edit", "Edit", id="edit",
                tooltip="edit the replacement in place (ctrl+s applies, escape cancels)"),
        Binding("ctrl+e", "edit_search", "Edit SEARCH", show=False, id="edit-search",
                tooltip="edit the SEARCH of a failed edit in place and run the matching "
                        "cascade on it again (ctrl+s applies, escape cancels)"),
        Binding("E", "edit_external", "$EDITOR", show=False, id="edit-external",
                tooltip="edit the replacement in $VISUAL / $EDITOR"),
        Binding("s", "split", "Split", show=False, id="split",
                tooltip="split the edit into its change blocks; take some blocks or lines (v)"),
        Binding("u,ctrl+z", "undo", "Undo", id="undo",
                tooltip="undo the last decision (a bulk key is one step)"),
        Binding("U,ctrl+r", "redo", "Redo", show=False, id="redo",
                tooltip="redo the last undone decision"),
        Binding("j,down", "cursor(1)", "Down", show=False, id="down",
                tooltip="next operation of this turn"),
        Binding("k,up", "cursor(-1)", "Up", show=False, id="up",
                tooltip="previous operation of this turn"),
        Binding("J,right_square_bracket", "next_op(1)", "Next op", show=False, id="next-op",
                tooltip="next operation, across turns"),
        Binding("K,left_square_bracket", "next_op(-1)", "Prev op", show=False, id="prev-op",
                tooltip="previous operation, across turns"),
        Binding("right_curly_bracket", "next_file(1)", "Next file", show=False,
                id="next-file", tooltip="first operation of the next file"),
        Binding("left_curly_bracket", "next_file(-1)", "Prev file", show=False,
                id="prev-file", tooltip="first operation of the previous file"),
        Binding("full_stop", "checkpoint(1)", "Next cp", id="next-checkpoint",
                tooltip="next checkpoint (read-only scrubbing: nothing is written)"),
        Binding("comma", "checkpoint(-1)", "Prev cp", show=False, id="prev-checkpoint",
                tooltip="previous checkpoint"),
        Binding("t", "tree", "Tree", show=False, id="tree",
                tooltip="the whole tree as it stood at this checkpoint (read-only)"),
        Binding("T", "pick_checkpoint", "Checkpoints", show=False, id="pick-checkpoint",
                tooltip="pick a checkpoint from a list of turns with their requests"),
        Binding("ctrl+t", "restore", "Restore", show=False, id="restore",
                tooltip="restore the current checkpoint onto disk (previews, then asks)"),
        Binding("P", "unpin", "Unpin disk", show=False, id="unpin",
                tooltip="after ctrl+t: unpin the disk and replay every decision onto it"),
        Binding("V", "toggle_mode", "Split/unified", show=False, id="toggle-mode",
                tooltip="side-by-side or unified diff"),
        Binding("H", "toggle_hashline", "Line ids", show=False, id="toggle-hashline",
                tooltip="show every line's id (12:a3) instead of its number"),
        Binding("W", "toggle_whitespace", "Whitespace", show=False, id="toggle-whitespace",
                tooltip="ignore whitespace in the diff"),
        Binding("R", "toggle_request", "Request", show=False, id="toggle-request",
                tooltip="fold / unfold the turn's whole request above the operation"),
        Binding("w", "toggle_wrap", "Wrap", show=False, id="toggle-wrap",
                tooltip="wrap long diff lines (default) or scroll them sideways (← →)"),
        Binding("b", "toggle_panel", "Side panel", show=False, id="toggle-panel",
                tooltip="hide / show the turn and operation lists (the diff takes the width)"),
        Binding("left", "scroll_diff(-8)", "Scroll left", show=False, id="scroll-left",
                tooltip="scroll the diff left (long lines, wrapping off)"),
        Binding("right", "scroll_diff(8)", "Scroll right", show=False, id="scroll-right",
                tooltip="scroll the diff right (long lines, wrapping off)"),
        Binding("minus", "context(-1)", "Less context", show=False, id="less-context",
                tooltip="fewer unchanged lines around changes"),
        Binding("plus", "context(1)", "More context", show=False, id="more-context",
                tooltip="more unchanged lines around changes"),
        Binding("x", "expand", "Expand", show=False, id="expand",
                tooltip="expand every collapsed region (or click one)"),
        Binding("c", "next_pane", "Next candidate", show=False, id="next-pane",
                tooltip="next candidate / location of a failed edit"),
        Binding("f", "toggle_findings", "Findings", id="findings",
                tooltip="the turn's lint findings; Enter jumps to the operation"),
        Binding("r", "raw", "Raw reply", show=False, id="raw",
                tooltip="the raw reply with findings marked in place"),
        Binding("g", "goto_edit", "Go to edit", show=False, id="goto",
                tooltip="jump to Edit N of this file"),
        Binding("slash", "search", "Search", show=False, id="search",
                tooltip="search paths, SEARCH/REPLACE and file text (enter / shift+enter: "
                        "next / previous)"),
        Binding("question_mark", "help", "Help", id="help", tooltip="this list"),
        Binding("colon", "app.command_palette", "Commands", show=False, id="commands",
                tooltip="the command palette (also ctrl+p): every action by name"),
        Binding("q", "quit_review", "Quit", id="quit",
                tooltip="quit (decisions are already saved; asks if files are in conflict)"),
        Binding("tab", "app.focus_next", "Focus", show=False, id="focus-next",
                tooltip="move focus between the lists, the diff and the findings"),
        Binding("S", "stats", "Statistics", show=False, id="stats",
                tooltip="session statistics with bar charts (reviewtui stats)"),
        Binding("G", "commit_turns", "Commit turns", show=False, id="commit-turns",
                tooltip="git sessions: commit the accepted turns, one commit per turn"),
    ]

    # Palette-only commands (no key): the exports of `reviewtui export`.
    EXTRA_COMMANDS = [
        (f"Export: {fmt}", f"write the accepted result {what} beside the session",
         f"export('{fmt}')")
        for fmt, what in (("patch", "as a unified diff that git apply accepts"),
                          ("markdown", "as a review report"),
                          ("json", "as a JSON report"),
                          ("fileops", "as canonical File Ops replies"))
    ]

    def __init__(self, review: Review) -> None:
        super().__init__()
        self.review = review
        self.turn_pos = 0
        self.op_pos = 0
        self.checkpoint = 0
        self.findings: list[Finding] = []
        self.first_frame_at: float | None = None
        self.view_layout = load_layout()
        self._turn_states: list[list[OpState]] = []
        self._statuses: dict[OpKey, Status] = {}
        self.project_checks = ProjectChecks(review.config)

    # -- layout ------------------------------------------------------------------
    def compose(self) -> ComposeResult:
        yield Timeline(id="timeline")
        with Horizontal(id="body"):
            with Vertical(id="left"):
                yield TurnList(id="turns")
                yield OpList(id="ops")
            with Vertical(id="main"):
                yield RequestBlock(id="request")
                yield OpDetail(id="detail")
                yield FindingsPanel(id="findings")
        yield StatusLine(id="status")
        yield Footer()

    def on_mount(self) -> None:
        self.query_one("#turns", TurnList).border_title = "Turns"
        self.query_one("#ops", OpList).border_title = "Operations"
        self.query_one("#findings", FindingsPanel).display = False
        self._apply_layout()
        ui = self.review.ui_state
        selected = ui.get("selected")
        turns = self.session_turns
        if isinstance(selected, list) and len(selected) == 2:
            self.turn_pos = next((p for p, t in enumerate(turns) if t.index == selected[0]), 0)
            self.op_pos = int(selected[1])
        self.checkpoint = int(ui.get("checkpoint", turns[self.turn_pos].index if turns else 0))
        self.refresh_all()
        self.query_one("#ops", OpList).focus()
        # Lint runs after the first paint: on a long session its thread would hold the
        # GIL while the screen is being drawn (measured: 0.33 s -> 0.61 s first paint).
        self.call_after_refresh(self._first_frame)

    def _first_frame(self) -> None:
        self.first_frame_at = time.perf_counter()  # read by bench/bench_ui.py
        if self.review.evaluation_complete:  # else once it is (ui/evaluating.py)
            self.load_findings()
        self.ask_check_trust()

    # -- project checks (reviewtui.toml [checks]) --------------------------------------
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

    def _check_syntax_later(self, results: Sequence[OpResult]) -> None:
        """Syntax checks too big to run on a key press go to a worker."""
        waiting = [r for r in results if deferred(r)]
        if waiting:
            self.run_syntax_checks(waiting)

    @work(thread=True, exclusive=True, group="syntax")
    def run_syntax_checks(self, results: list[OpResult]) -> None:
        worker = get_current_worker()
        for result in results:
            if worker.is_cancelled:
                return
            diagnose_result(result)
            warm_symbols(result)
        self.app.call_from_thread(self._syntax_checked)

    def _syntax_checked(self) -> None:
        turns = self.review.display.turns
        if not turns:
            return
        ops = self.query_one("#ops", OpList)
        for pos, result in enumerate(turns[self.turn_pos].results):
            ops.update_op(pos, op_prompt(op_title(result.op), self.state_of(result),
                                         op_badge(result, wait=False)))
        self.refresh_detail(keep_pane=True)

    @work(thread=True, exclusive=True, group="checks")
    def run_project_checks(self, result: OpResult) -> None:
        self.project_checks.run(result)
        self.app.call_from_thread(self._project_checks_done, result.key)

    def _project_checks_done(self, key: OpKey) -> None:
        current = self.current()
        if current is not None and current.key == key:
            self.refresh_detail(keep_pane=True)

    @property
    def session_turns(self) -> tuple[Turn, ...]:
        return self.review.display.session.turns

    # -- data --------------------------------------------------------------------
    def result(self, turn_pos: int, op_pos: int) -> OpResult | None:
        turns = self.review.display.turns
        if turn_pos >= len(turns) or op_pos >= len(turns[turn_pos].results):
            return None
        return turns[turn_pos].results[op_pos]

    def state_of(self, result: OpResult) -> OpState:
        return op_state(result, self.review.outcome(result.key).status)

    def current(self) -> OpResult | None:
        return self.result(self.turn_pos, self.op_pos)

    def iter_results(self) -> Iterator[tuple[int, int, OpResult]]:
        """Every result in reading order, evaluating turns as it reaches them."""
        for tp, turn in enumerate(self.session_turns):
            self.review.evaluate_through(turn.index)
            for opp, result in enumerate(self.review.display.turns[tp].results):
                yield tp, opp, result

    # -- rendering -----------------------------------------------------------------
    def turns_evaluated(self, note: str) -> None:
        """More turns were evaluated after the first frame (ui/evaluating.py)."""
        done, turns = len(self._turn_states), self.review.display.turns
        self._turn_states += [[self.state_of(r) for r in t.results] for t in turns[done:]]
        self._statuses.update({r.key: r.outcome.status for t in turns[done:] for r in t.results})
        turn_list = self.query_one("#turns", TurnList)
        for pos in range(done, len(self._turn_states)):
            turn = self.session_turns[pos]
            turn_list.update_turn(pos, turn_row(turn.index, turn.request, self._turn_states, pos))
        if not note:
            self.refresh_timeline()  # every mark at once, when all are known
        self.refresh_status(note)

    def _recompute_states(self) -> None:
        """What every operation shows: its outcome and the reviewer's decision, combined."""
        self._turn_states = [
            [self.state_of(r) for r in turn.results] for turn in self.review.display.turns
        ]
        self._statuses = {r.key: r.outcome.status for turn in self.review.display.turns
                          for r in turn.results}

    def _note_reevaluated(self, paths: list[str]) -> None:
        """Name the pending operations an outside change re-evaluated to another outcome."""
        changed = []
        for _, _, result in self.iter_results():
            was = self._statuses.get(result.key)
            if (was is not None and was is not result.outcome.status
                    and not self.state_of(result).decided
                    and getattr(result.op, "path", None) in paths):
                label = op_row_title(result.op, 60)
                changed.append(f"turn {result.key[0]} {label}: now {result.outcome.status}")
        if changed:
            more = f" and {len(changed) - 3} more" if len(changed) > 3 else ""
            self.notify("outside change re-evaluated " + "; ".join(changed[:3]) + more,
                        severity="warning", markup=False, timeout=8)

    def refresh_all(self) -> None:
        self._recompute_states()
        prompts = [
            turn_row(turn.index, turn.request, self._turn_states, pos)
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
        marks = []
        for pos, turn in enumerate(self.session_turns):
            states = self._turn_states[pos] if pos < len(self._turn_states) else None
            if states is None:
                state = "evaluating"  # not evaluated yet (ui/evaluating.py)
            elif not states:
                state = "empty"  # the list's "·" too
            elif any(s.failed for s in states):
                state = "failed"
            elif all(s.decided for s in states):
                state = "decided"
            else:
                state = "pending"
            marks.append(TurnMark(turn.index, state))
        timeline = self.query_one(Timeline)
        timeline.set_marks(tuple(marks))
        timeline.current = self.checkpoint
        self.refresh_status()

    def refresh_status(self, note: str = "") -> None:
        counts = {"pending": 0, "accepted": 0, "rejected": 0, "failed": 0}
        for states in self._turn_states:
            for s in states:
                if s.failed:
                    counts["failed"] += 1
                elif s is OpState.REJECTED:
                    counts["rejected"] += 1
                elif s.decided:
                    counts["accepted"] += 1
                else:
                    counts["pending"] += 1
        self.query_one(StatusLine).show(
            checkpoint=self.checkpoint, turns=len(self.session_turns),
            revision=self.review.revision, counts=counts,
            watcher=getattr(self.app, "watcher_state", "off"), dry_run=self.review.dry_run,
            note=note, source_format=self.review.session.format,
            pinned=self.review.disk_checkpoint, state_at=self._state_at())

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
        room = self._op_room()
        ops.set_ops([op_prompt(op_row_title(r.op, room), self.state_of(r),
                               op_badge(r, wait=False))
                     for r in results],
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
        room = self._op_room()
        for pos, result in enumerate(results):
            ops.update_op(pos, op_prompt(op_row_title(result.op, room), self.state_of(result),
                                         op_badge(result)))

    def _show_request(self) -> None:
        turns = self.session_turns
        block = self.query_one(RequestBlock)
        if not turns:
            block.show(None, "")
            return
        turn = turns[self.turn_pos]
        block.show(turn.index, turn.request)

    def action_toggle_request(self) -> None:
        self.query_one(RequestBlock).toggle()

    def refresh_detail(self, *, keep_pane: bool = False) -> None:
        result = self.current()
        detail = self.query_one(OpDetail)
        if result is None:
            detail.show(None)
            return
        outcome = self.review.outcome(result.key)
        conflict = None
        message = ""
        path = getattr(result.op, "path", None)
        if path and path in self.review.conflicts:
            c = self.review.conflicts[path]
            conflict = (c.wanted.data if c.wanted else None, c.disk.data if c.disk else None)
            message = c.message
        view = with_diagnostics(build_view(result, outcome.status, conflict, message), result,
                                wait=False)
        view, to_run = explanation_with(view, self.project_checks, result)
        if to_run:
            self.run_project_checks(result)
        detail.show(view, keep_pane=keep_pane)
        self.review.ui_state = {"checkpoint": self.checkpoint,
                                "selected": [result.key[0], result.key[1]]}

    def on_resize(self, event: Resize) -> None:
        width = event.size.width
        self.set_class(width < NARROW, "-narrow")
        self.set_class(width < TINY, "-tiny")
        # The lists take about a quarter of the terminal, within bounds (44 was fixed).
        if width >= TINY:
            self.query_one("#left").styles.width = max(28, min(56, width * 3 // 11))
        height = event.size.height
        # The request takes a few lines, fewer on a short terminal: the diff comes first.
        self.query_one(RequestBlock).set_room(
            1 if width < TINY or height < 26 else 4 if height < 36 else 6)
        if self._turn_states:
            self.call_after_refresh(self._refresh_op_rows)
        self.query_one(OpDetail).set_auto_unified(width < NARROW)

    # -- selection -----------------------------------------------------------------
    @on(OptionList.OptionHighlighted, "#turns")
    def _turn_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        # Messages arrive after the fact: act only on one that still describes the list.
        if event.option_list.highlighted != event.option_index:
            return
        if event.option_index != self.turn_pos:
            self.turn_pos = event.option_index
            self.op_pos = 0
            self.checkpoint = self.session_turns[self.turn_pos].index
            self.refresh_turn()
            self.refresh_timeline()

    @on(OptionList.OptionHighlighted, "#ops")
    def _op_highlighted(self, event: OptionList.OptionHighlighted) -> None:
        if event.option_list.highlighted != event.option_index:
            return
        if event.option_index != self.op_pos:
            self.op_pos = event.option_index
            self.refresh_detail()

    @on(Timeline.Picked)
    def _timeline_picked(self, event: Timeline.Picked) -> None:
        self.go_checkpoint(event.checkpoint)

    @on(FindingsPanel.Jump)
    def _finding_jump(self, event: FindingsPanel.Jump) -> None:
        self.select_line(event.turn, event.line)

    def select(self, turn_pos: int, op_pos: int) -> None:
        changed_turn = turn_pos != self.turn_pos
        self.turn_pos, self.op_pos = turn_pos, op_pos
        if changed_turn:
            self.checkpoint = self.session_turns[turn_pos].index
            self.query_one("#turns", TurnList).highlighted = turn_pos
            self.refresh_turn()
            self.refresh_timeline()
        else:
            self.query_one("#ops", OpList).highlighted = op_pos
            self.refresh_detail()

    def select_line(self, turn_index: int | None, line: int) -> None:
        """Select the operation whose span holds ``line`` (a finding's line)."""
        for tp, opp, result in self.iter_results():
            if turn_index is not None and result.key[0] != turn_index:
                continue
            if result.op.span.start <= line <= result.op.span.end:
                self.select(tp, opp)
                return
        for tp, turn in enumerate(self.session_turns):
            if turn.index == turn_index:
                self.select(tp, 0)
                return

    # -- decisions -----------------------------------------------------------------
    def decide(self, decision: Decision, keys: list[OpKey] | None = None) -> None:
        """Record ``decision`` for the current operation, or for ``keys`` (bulk keys).

        An accept that cannot apply (ambiguous, not found, refused) is not recorded: the
        reviewer is told why; bulk keys skip such operations and say how many.
        """
        result = self.current()
        if result is None:
            return
        # One log entry however many operations: one `u` takes a bulk key back whole.
        try:
            report = self.review.decide_many([(key, decision) for key in keys or [result.key]],
                                             skip_unappliable=keys is not None)
        except DecisionRefused as err:
            self.notify(str(err), severity="warning", markup=False)
            self.refresh_after_decision()
            return
        self._report(report)
        skipped = len(report.skipped)
        if skipped:
            self.notify(f"{plural(skipped, 'operation')} left pending: an accept cannot apply "
                        "to them (ambiguous, not found or refused)", severity="warning",
                        markup=False)
        pin = self.review.disk_checkpoint
        if pin is not None:
            self.notify(f"recorded, not written: the disk is pinned at checkpoint {pin} "
                        "(P unpins and replays)", severity="warning")
        self.refresh_after_decision()
        self.move_to_next_undecided()

    def _report(self, report: object) -> None:
        outside = getattr(report, "outside", None)
        if outside:
            self._note_reevaluated(list(outside))
        conflicts = getattr(report, "conflicts", None)
        rebased = getattr(report, "rebased", None)
        if conflicts:
            self.notify(f"conflict: {', '.join(conflicts)} changed on disk; nothing written "
                        "there", severity="warning", markup=False)
        if rebased:
            self.notify(f"rebased over an outside change: {', '.join(rebased)}", markup=False)
        for _key, notice in getattr(report, "reverted", ()):
            self.notify(notice, severity="warning", markup=False)

    def refresh_after_decision(self) -> None:
        self._recompute_states()
        turn_list = self.query_one("#turns", TurnList)
        ops = self.query_one("#ops", OpList)
        for pos, turn in enumerate(self.session_turns):
            turn_list.update_turn(pos, turn_row(turn.index, turn.request, self._turn_states,
                                                pos))
        results = self.review.display.turns[self.turn_pos].results
        for pos, result in enumerate(results):
            ops.update_op(pos, op_prompt(op_row_title(result.op, self._op_room()),
                                         self.state_of(result),
                                         op_badge(result, wait=False)))
        self.refresh_timeline()
        self.refresh_detail(keep_pane=True)
        self._check_syntax_later(results)

    def session_grew(self, new: tuple[OpKey, ...], accepted: tuple[OpKey, ...],
                     problem: str) -> None:
        """A live session recorded operations: show them, and say so."""
        if problem:
            self.notify(problem, severity="error", timeout=10, markup=False)
            return
        was_empty = not self.review.display.turns or self.current() is None
        self.refresh_all()
        titles = [op_title(self.review.result(key).op) for key in new]
        shown = ", ".join(titles[:3]) + (f" and {len(titles) - 3} more" if len(titles) > 3
                                         else "")
        note = f"arrived: {shown}"
        if accepted:
            note += f" ({len(accepted)} accepted by the gate)"
        self.notify(note, markup=False)
        current = self.current()
        if was_empty or (current is not None and self.state_of(current).decided):
            first = next(((tp, opp) for tp, opp, r in self.iter_results() if r.key == new[0]),
                         None)
            if first is not None:
                self.select(*first)

    def move_to_next_undecided(self) -> None:
        """The next undecided operation in reading order, from the start of this turn."""
        turns = self.session_turns  # evaluated lazily: usually only a turn or two ahead
        here = self.turn_pos if turns and turns[self.turn_pos].reply.ops else 0
        ahead = (at for at in self.iter_results() if at[0] >= here)
        for tp, opp, result in chain(ahead, (at for at in self.iter_results() if at[0] < here)):
            if not self.state_of(result).decided and not self.state_of(result).failed:
                self.select(tp, opp)
                return

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
        self.decide(Decision.accept())

    def _placement(self) -> Decision | None:
        """For an ambiguous edit, the location shown (`c` cycles them); for a missed one,
        the candidate shown: accept the edit exactly there (the reviewer's placement)."""
        result = self.current()
        if result is None or not isinstance(result.op, Edit) or result.op.shape is not None:
            return None
        outcome = self.review.outcome(result.key)
        before = outcome.extra.get("before_state")
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
        result = self.current()
        if result is None or not result.outcome.forceable:
            self.notify("only a near match or a duplicate-line refusal can be forced",
                        severity="warning")
            return
        self.decide(Decision.accept(force=True))

    def action_accept_file(self) -> None:
        self.decide(Decision.accept(), self.file_keys(accepting=True))

    def action_reject_file(self) -> None:
        self.decide(Decision.reject(), self.file_keys())

    def action_accept_turn(self) -> None:
        from reviewtui.ui.screens.dialogs import ConfirmScreen

        results = self.review.display.turns[self.turn_pos].results
        clean = [r for r in results if self.state_of(r) in (OpState.PENDING, OpState.FUZZY)]
        # Accepting in bulk never takes an operation that breaks its file's syntax or
        # changes reviewtui.toml (what runs here): those are left pending for a one-by-one
        # look (y still accepts them).
        breaking = [r for r in clean if BADGE in op_badge(r).split()]
        config = [r for r in clean if changes_config(r)]
        keys = [r.key for r in clean if r not in breaking and r not in config]
        if not keys:
            held = [f"{len(breaking)} would introduce a syntax error"] if breaking else []
            held += [f"{len(config)} change reviewtui.toml"] if config else []
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
        self.app.push_screen(
            ConfirmScreen(f"Accept {plural(len(keys), 'pending operation')} of turn "
                          f"{results[0].key[0]} that apply cleanly?{left}"), done)

    def action_edit(self) -> None:
        from reviewtui.ui.screens.edit import EditScreen

        result = self.current()
        if result is None or isinstance(result.op, ConsoleCommand):
            self.notify("only edits and full files have text to edit", severity="warning")
            return
        text = self._editable_text(result)

        def done(new_text: str | None) -> None:
            if new_text is not None:
                self.decide(Decision.edit(tuple(new_text.split("\n"))))

        self.app.push_screen(EditScreen(text, path=result.op.path), done)

    def action_edit_search(self) -> None:
        from reviewtui.ui.screens.edit import EditScreen

        result = self.current()
        if result is None or not isinstance(result.op, Edit) or result.op.shape is not None:
            self.notify("only search/replace edits have a SEARCH to edit", severity="warning")
            return
        op = result.op
        search = result.decision.search if result.decision.search is not None else (
            op.search_lines)
        replacement = (result.decision.replacement
                       if result.decision.verdict is Verdict.EDITED else None)

        def done(new_text: str | None) -> None:
            if new_text is None:
                return
            self.decide(Decision.with_search(tuple(new_text.split("\n")), replacement),
                        [result.key])
            outcome = self.review.outcome(result.key)
            self.notify(f"SEARCH edited: {outcome.status} - {outcome.message}",
                        markup=False, severity="information"
                        if outcome.status is Status.APPLIED else "warning")

        self.app.push_screen(EditScreen("\n".join(search), path=op.path, what="SEARCH"),
                             done)

    def _editable_text(self, result: OpResult) -> str:
        replacement = result.decision.replacement
        if replacement is not None:
            return "\n".join(replacement)
        op = result.op
        if isinstance(op, Edit):
            return "\n".join(op.replace_lines)
        assert isinstance(op, FullFile)
        return "\n".join(op.lines)

    def action_edit_external(self) -> None:
        result = self.current()
        if result is None or isinstance(result.op, ConsoleCommand):
            self.notify("only edits and full files have text to edit", severity="warning")
            return
        from reviewtui.ui.editor import edit_externally

        text = edit_externally(self.app, self._editable_text(result),
                               suffix=PurePosixPath(result.op.path).suffix)
        if text is not None:
            self.decide(Decision.edit(tuple(text.split("\n"))))

    def action_split(self) -> None:
        from reviewtui.ui.screens.hunks import HunkScreen, split_source

        result = self.current()
        source = split_source(result) if result is not None else "no operation selected"
        if isinstance(source, str):
            self.notify(source, severity="warning", markup=False)
            return

        def done(lines: tuple[str, ...] | None) -> None:
            if lines is not None:
                self.decide(source.decision_for(lines))

        self.app.push_screen(HunkScreen(source), done)

    def action_search(self) -> None:
        from reviewtui.ui.screens.search import SearchScreen

        self.app.push_screen(SearchScreen(self))

    def action_undo(self) -> None:
        if not self.review.can_undo:
            self.notify("nothing to undo")
            return
        keys = self.review.step_keys()
        self._report(self.review.undo())
        self.refresh_after_decision()
        self.select_key(keys[0] if keys else None)

    def action_redo(self) -> None:
        if not self.review.can_redo:
            self.notify("nothing to redo")
            return
        keys = self.review.step_keys(redo=True)
        self._report(self.review.redo())
        self.refresh_after_decision()
        self.select_key(keys[0] if keys else None)

    # -- movement ------------------------------------------------------------------
    def action_cursor(self, delta: int) -> None:
        results = self.review.display.turns[self.turn_pos].results if self.session_turns else ()
        if results:
            self.select(self.turn_pos, max(0, min(len(results) - 1, self.op_pos + delta)))

    def select_key(self, key: OpKey | None) -> None:
        """Select the operation ``key`` (the one an undo or redo changed)."""
        pos = next((p for p, t in enumerate(self.session_turns) if key and t.index == key[0]),
                   None)
        if key is not None and pos is not None:
            self.select(pos, key[1])

    def action_next_op(self, delta: int) -> None:
        flat = [(tp, opp) for tp, opp, _ in self.iter_results()]
        if not flat:
            return
        if (self.turn_pos, self.op_pos) in flat:
            here = flat.index((self.turn_pos, self.op_pos))
            self.select(*flat[max(0, min(len(flat) - 1, here + delta))])
            return
        # A turn without operations: the nearest one in the direction asked for.
        ahead = [at for at in flat if (at[0] > self.turn_pos) == (delta > 0)
                 and at[0] != self.turn_pos]
        if ahead:
            self.select(*(ahead[0] if delta > 0 else ahead[-1]))

    def action_next_file(self, delta: int) -> None:
        flat = list(self.iter_results())
        here = next((i for i, (tp, opp, _) in enumerate(flat)
                     if (tp, opp) == (self.turn_pos, self.op_pos)), 0)
        current_path = getattr(flat[here][2].op, "path", None) if flat else None

        def path_at(i: int) -> str | None:
            op = flat[i][2].op
            return op.path if isinstance(op, Edit | FullFile) else None

        steps = range(here + delta, len(flat) if delta > 0 else -1, delta)
        for i in steps:
            path = path_at(i)
            if path is not None and path != current_path:
                # `{` lands like `}`: on the first operation of that file's run.
                while delta < 0 and i > 0 and path_at(i - 1) == path:
                    i -= 1
                self.select(flat[i][0], flat[i][1])
                return

    def action_checkpoint(self, delta: int) -> None:
        self.go_checkpoint(self.checkpoint + delta)

    def go_checkpoint(self, checkpoint: int) -> None:
        """Scrub: show the session as it stood at ``checkpoint``. Nothing is written."""
        turns = self.session_turns
        if not turns:
            return
        checkpoint = max(0, min(turns[-1].index, checkpoint))
        self.checkpoint = checkpoint
        pos = max(0, next((p for p, t in enumerate(turns) if t.index >= checkpoint), 0))
        if pos != self.turn_pos:
            self.turn_pos, self.op_pos = pos, 0
            self.query_one("#turns", TurnList).highlighted = pos
            self.refresh_turn()
        self.refresh_timeline()

    def action_export(self, fmt: str) -> None:
        from reviewtui.core.export import render
        from reviewtui.shell.disk import atomic_write
        from reviewtui.shell.export import accepted_from_review

        text = render(accepted_from_review(self.review), fmt)
        suffix = {"patch": "patch", "markdown": "md", "json": "json", "fileops": "fileops.md"}
        # A scratch review writes beside its copy: samples in the repository stay untouched.
        anchor = self.review.root if self.review.scratch else self.review.loaded.file
        target = anchor.with_name(f"{anchor.name}.export.{suffix[fmt]}")
        atomic_write(target.parent, target.name, text.encode("utf-8"))
        self.notify(f"exported {fmt} to {target}", markup=False)

    def action_commit_turns(self) -> None:
        from reviewtui.ui.git_commit import commit_question
        from reviewtui.ui.screens.dialogs import ConfirmScreen

        question = commit_question(self.review)
        if not question:
            self.notify("nothing to commit: no accepted turn changes a file" if question == ""
                        else "only a --git or --worktree session can be committed")
            return

        def done(ok: bool | None) -> None:
            if ok:
                self.run_commit_turns()

        self.app.push_screen(ConfirmScreen(question), done)

    @work(thread=True, exclusive=True, group="git")
    def run_commit_turns(self) -> None:
        from reviewtui.ui.git_commit import commit_now

        text, severity = commit_now(self.review)
        self.app.call_from_thread(self.notify, text, severity=severity,
                                  markup=False)

    def action_tree(self) -> None:
        from reviewtui.ui.screens.tree import TreeScreen

        def done(checkpoint: int | None) -> None:
            if checkpoint is not None:
                self.go_checkpoint(checkpoint)

        self.app.push_screen(TreeScreen(self.review, self.checkpoint), done)

    def action_pick_checkpoint(self) -> None:
        from reviewtui.ui.screens.dialogs import CheckpointPicker

        rows = [(t.index, t.request, states) for t, states in
                zip(self.session_turns, self._turn_states, strict=False)]

        def done(choice: int | None) -> None:
            if choice is not None:
                self.go_checkpoint(choice)

        self.app.push_screen(CheckpointPicker(rows, self.checkpoint), done)

    def action_restore(self) -> None:
        from reviewtui.ui.screens.dialogs import ConfirmScreen

        preview = self.review.restore_preview(self.checkpoint)
        if not preview:
            self.notify(f"the disk already matches checkpoint {self.checkpoint}")
            return
        lines = []
        for path, old, new in preview[:20]:
            verb = "create" if old is None else "remove" if new is None else "rewrite"
            lines.append(f"  {verb} {path}")
        if len(preview) > 20:
            lines.append(f"  … and {len(preview) - 20} more")
        where = "(dry-run: nothing is written)" if self.review.dry_run else "on disk"
        question = (f"Restore checkpoint {self.checkpoint} {where}?\n" + "\n".join(lines))

        def done(ok: bool | None) -> None:
            if ok:
                self._report(self.review.restore(self.checkpoint))
                self.notify(f"restored checkpoint {self.checkpoint}")
                self.refresh_after_decision()

        self.app.push_screen(ConfirmScreen(question), done)

    def action_unpin(self) -> None:
        if self.review.disk_checkpoint is None:
            self.notify("the disk is not pinned: every decision is already on it")
            return
        self._report(self.review.restore(self.review.checkpoint_count - 1))
        self.notify("unpinned: every decision replayed onto the disk")
        self.refresh_after_decision()

    def action_goto_edit(self) -> None:
        from reviewtui.ui.screens.dialogs import PromptScreen

        def done(answer: str | None) -> None:
            if not answer or not answer.strip().isdigit():
                return
            number = int(answer)
            results = self.review.display.turns[self.turn_pos].results
            selected = self.current()
            current_path = getattr(selected.op, "path", None) if selected else None
            for opp, r in enumerate(results):
                if isinstance(r.op, Edit) and r.op.label == number and (
                    current_path is None or r.op.path == current_path):
                    self.select(self.turn_pos, opp)
                    return
            self.notify(f"no Edit {number} in this file and turn", severity="warning")

        self.app.push_screen(PromptScreen("Go to edit number:"), done)

    # -- view options ----------------------------------------------------------------
    def _apply_layout(self) -> None:
        """The remembered layout (user config folder, layout.toml), before the first paint."""
        detail = self.query_one(OpDetail)
        layout = self.view_layout
        detail.mode = "unified" if layout["mode"] == "unified" else "split"
        detail.wrap = bool(layout["wrap"])
        detail.ignore_whitespace = bool(layout["whitespace"])
        detail.context = int(layout["context"])
        self.query_one("#left").display = bool(layout["panel"])

    def _remember(self, **changes: bool | int | str) -> None:
        self.view_layout.update(changes)
        save_layout(self.view_layout)

    def action_toggle_mode(self) -> None:
        detail = self.query_one(OpDetail)
        detail.set_mode("unified" if detail.mode == "split" else "split")
        self._remember(mode=detail.mode)

    def action_toggle_wrap(self) -> None:
        detail = self.query_one(OpDetail)
        detail.set_wrap(not detail.wrap)
        self._remember(wrap=detail.wrap)
        self.notify("long lines wrap" if detail.wrap else
                    "long lines are cut (› marks it): ← → scroll them")

    def action_toggle_panel(self) -> None:
        left = self.query_one("#left")
        left.display = not left.display
        if not left.display:
            self.query_one(OpDetail).diff_view.focus()
        else:
            self.query_one("#ops", OpList).focus()
        self._remember(panel=bool(left.display))
        self.call_after_refresh(self._refresh_op_rows)

    def action_scroll_diff(self, cells: int) -> None:
        view = self.query_one(OpDetail).diff_view
        view.scroll_to(x=max(0, view.scroll_offset.x + cells), animate=False)

    def action_toggle_hashline(self) -> None:
        view = self.query_one(OpDetail).diff_view
        view.set_hashline(not view.hashline)

    def action_toggle_whitespace(self) -> None:
        detail = self.query_one(OpDetail)
        changed = detail.toggle_whitespace()
        self._remember(whitespace=detail.ignore_whitespace)
        state = "ignored" if detail.ignore_whitespace else "shown"
        if not changed:
            self.notify(f"whitespace {state}: no whitespace-only differences here")
        else:
            self.notify(f"whitespace {state}")

    def action_context(self, delta: int) -> None:
        detail = self.query_one(OpDetail)
        detail.change_context(delta * 3)
        self._remember(context=detail.context)

    def action_expand(self) -> None:
        self.query_one(OpDetail).expand_region()

    def action_next_pane(self) -> None:
        self.query_one(OpDetail).next_pane()

    def action_toggle_findings(self) -> None:
        panel = self.query_one(FindingsPanel)
        panel.display = not panel.display
        if panel.display:
            panel.show_turn(self.findings, self.session_turns[self.turn_pos].index
                            if self.session_turns else None)
            panel.focus()

    def action_raw(self) -> None:
        from reviewtui.ui.screens.raw import RawReplyScreen

        if not self.session_turns:
            return
        turn = self.session_turns[self.turn_pos]
        findings = [f for f in self.findings if f.turn == turn.index]
        self.app.push_screen(RawReplyScreen(self.review.session_lines, turn, findings))

    def action_stats(self) -> None:
        from reviewtui.ui.screens.stats import StatsScreen

        self.app.push_screen(StatsScreen(self.review))

    def action_help(self) -> None:
        from reviewtui.ui.screens.help import HelpScreen

        self.app.push_screen(HelpScreen(self))

    def action_quit_review(self) -> None:
        from reviewtui.ui.screens.dialogs import ConfirmScreen

        self.review.save_ui_state()
        if not self.review.conflicts:
            self.app.exit()
            return

        def done(ok: bool | None) -> None:
            if ok:
                self.app.exit()

        self.app.push_screen(ConfirmScreen(
            f"{plural(len(self.review.conflicts), 'file')} in conflict, not written. "
            "Quit anyway? (decisions are saved)"), done)

    # -- findings --------------------------------------------------------------------
    @work(thread=True, exclusive=True, group="lint")
    def load_findings(self) -> None:
        findings = lint_session(self.review.display.session, file_text_for(self.review.display))
        self.app.call_from_thread(self._findings_loaded, findings)

    def _findings_loaded(self, findings: list[Finding]) -> None:
        self.findings = findings
        panel = self.query_one(FindingsPanel)
        if panel.display and self.session_turns:
            panel.show_turn(findings, self.session_turns[self.turn_pos].index)
