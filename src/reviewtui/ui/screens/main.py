"""The review screen: timeline, turns, operations, the selected operation, findings.

The screen owns the review keys. It reads everything from the ``Review`` (the I/O
shell around the engine) and every decision runs as a review job off the event loop;
widgets only display. Its rooms, each a class this screen inherits:

- ``main_keys.py``: the bindings (ids for the user's keymap) and palette-only commands;
- ``main_panes.py``: what is shown and how it is redrawn, which keys are live, the
  background checks (syntax, project checks, lint);
- ``main_cursor.py``: selection, keys that wait for a running job, showing a job's report;
- ``main_navigation.py``: moving between operations, files and checkpoints, search;
- ``main_decisions.py``: accept, reject, force, bulk keys, undo and redo;
- ``main_edits.py``: edit in place, edit the SEARCH, $EDITOR, split into blocks;
- ``main_disk.py``: restore and unpin checkpoints, export, git commits;
- ``main_view.py``: layout preferences, diff options, panels and the other views;
- ``review_states.py``: the per-operation states a job computes in its thread.
"""

from __future__ import annotations

import time

from textual.app import ComposeResult
from textual.containers import Horizontal, Vertical

from reviewtui.core.text.plural import plural
from reviewtui.ui import collector
from reviewtui.ui.screens.main_disk import DiskActions
from reviewtui.ui.screens.main_edits import EditActions
from reviewtui.ui.screens.main_keys import MAIN_BINDINGS, MAIN_EXTRA_COMMANDS
from reviewtui.ui.screens.main_navigation import NavigationActions
from reviewtui.ui.screens.main_view import NARROW, TINY, ViewOptions
from reviewtui.ui.widgets.findings import FindingsPanel
from reviewtui.ui.widgets.footer import KeyFooter
from reviewtui.ui.widgets.lists import OpList, TurnList
from reviewtui.ui.widgets.op_detail import OpDetail
from reviewtui.ui.widgets.request_block import RequestBlock
from reviewtui.ui.widgets.status_line import StatusLine
from reviewtui.ui.widgets.timeline import Timeline

__all__ = ["NARROW", "TINY", "MainScreen"]


class MainScreen(EditActions, NavigationActions, DiskActions, ViewOptions):
    CSS_PATH = "main.tcss"
    BINDINGS = MAIN_BINDINGS
    # The first focus goes to the operations, as on_mount asks: Textual's auto focus comes
    # at the screen's first resume, before on_mount, and its "*" gave it to the turn list
    # first, so every start built the key bar twice and restyled both lists for nothing.
    AUTO_FOCUS = "#ops"
    # Palette-only commands (no key): the exports of `reviewtui export`.
    EXTRA_COMMANDS = MAIN_EXTRA_COMMANDS

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
        yield KeyFooter(adaptive=True)

    def on_mount(self) -> None:
        self.jobs.on_progress = self._show_progress
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
        saved = ui.get("checkpoint")  # (from the state file: a number of this session's)
        self.checkpoint = (saved if type(saved) is int and 0 <= saved <= len(turns)
                           else turns[self.turn_pos].index if turns else 0)
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
        # The screen's own widgets, styles and rows stay as long as it does: frozen once
        # drawn, the collector's walks between keys skip them.
        collector.first_frame_drawn()
        collector.idle()

    def action_quit_review(self) -> None:
        from reviewtui.ui.screens.dialogs import ConfirmScreen

        self.review.save_ui_state()
        review = self.review
        question = quit_question(len(review.conflicts), sorted(review.held_paths),
                                 resumes=review.state_path is not None and not review.scratch)
        if question is None:
            self.app.exit()
            return

        def done(ok: bool | None) -> None:
            if ok:
                self.app.exit()

        self.app.push_screen(ConfirmScreen(question), done)


def quit_question(conflicts: int, held: list[str], *, resumes: bool) -> str | None:
    """What ``q`` asks before quitting, or None: files in conflict are not written, nor
    are files another program holds open for writing (written as soon as they are closed
    while the review stays open; ``resumes``: else when it is opened again)."""
    parts = []
    if conflicts:
        parts.append(f"{plural(conflicts, 'file')} in conflict, not written.")
    if held:
        names = ", ".join(held[:3]) + (f" and {len(held) - 3} more" if len(held) > 3 else "")
        parts.append(f"{names} {'is' if len(held) == 1 else 'are'} open for writing in "
                     "another program: the accepts there are not written yet"
                     + (" (they are written when this review is opened again)." if resumes
                        else "."))
    if not parts:
        return None
    return " ".join(parts) + " Quit anyway? (decisions are saved)"
