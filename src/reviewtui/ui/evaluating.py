"""Evaluating the rest of the session after the workbench's first frame.

``Review.open(first_frame=True)`` evaluates only the turns the first frame shows. The
app then calls :meth:`Review.evaluate_step` from its event loop, a slice of about
``SLICE`` seconds at a time with a short pause between slices (keys and repaints go
first), and tells the review screen how far it has got: the status line reads
"evaluating 120/500 turns", and a turn row not evaluated yet says so. Anything that needs
a turn sooner (selecting it, moving to the next undecided operation) evaluates up to it.

A decision, undo or redo re-evaluates the display at once only around the turn on screen
(:meth:`Review.focus_on`); once the screen has drawn it, :meth:`BackgroundEvaluation.catch_up`
walks on through the later turns the same way, the rows and counts keeping their states
from before until then. The status line says so only if that takes longer than
``SHOW_EVERY``.
"""

from __future__ import annotations

import gc
import time
from typing import TYPE_CHECKING

from rich.text import Text

from reviewtui.ui.widgets.lists import turn_prompt

if TYPE_CHECKING:
    from textual.app import App

    from reviewtui.core.engine.opstate import OpState
    from reviewtui.shell.review import Review
    from reviewtui.ui.screens.main import MainScreen

SLICE = 0.04  # seconds of evaluation per slice: the event loop is never held much longer
# After a change: shorter slices, a key coming then waits for less (the walk reuses most
# turns in stretches, so a slice can overrun its budget by one stretch).
CATCH_UP_SLICE = 0.02
PAUSE = 0.01  # between slices
SHOW_EVERY = 0.3  # seconds between updates of the rows and the status line


def progress_note(review: Review) -> str:
    """The status line's note while turns are still being evaluated ("" when done)."""
    if review.evaluation_complete:
        return ""
    total = len(review.session.turns)
    return f"evaluating {review.evaluated_turns}/{total} turns"


def turn_row(index: int, request: str, states: list[list[OpState]], pos: int, *,
             unread: int = 0) -> Text:
    """The turn list's row for the turn at ``pos``: its states, or "not evaluated yet"
    (``unread``: see :func:`turn_prompt`)."""
    if pos < len(states):
        return turn_prompt(index, request, states[pos], unread=unread)
    first_line = request.splitlines()[0] if request else "(no request)"
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append("… ", style="dim")
    text.append(f"T{index} ", style="bold")
    text.append("evaluating  ", style="dim italic")  # (before the request: never cut off)
    text.append(first_line[:120] + ("…" if len(first_line) > 120 else ""), style="dim")
    return text


class BackgroundEvaluation:
    """Drives :meth:`Review.evaluate_step` on the app's event loop until it is done."""

    def __init__(self, app: App[None], review: Review) -> None:
        self.app = app
        self.review = review
        self._shown = 0.0
        self._running = False  # a slice is due
        self._opening = True  # evaluating after the first frame (not after a change)

    def start(self) -> None:
        if not self.review.evaluation_complete:
            # From the first frame on: a slice before it only delays it.
            self._running = True
            self.app.call_after_refresh(self.app.set_timer, PAUSE, self._slice)
        else:
            # Opened whole: as after the last slice, the collector need not walk what is
            # evaluated (a full collection of a 5,000-operation session held the event
            # loop, or a review job's thread and so the loop, for a few hundred ms).
            self._opening = False
            gc.freeze()

    def catch_up(self) -> None:
        """After a change drawn on screen: the turns it left for later, slice by slice."""
        if self._running or self.review.evaluation_complete:
            return
        self._running = True
        self._shown = time.monotonic()  # a short catch-up shows no progress at all
        self.app.set_timer(PAUSE, self._slice)

    def _main_screen(self) -> MainScreen | None:
        from reviewtui.ui.screens.main import MainScreen

        return next((screen for screen in self.app.screen_stack
                     if isinstance(screen, MainScreen)), None)

    def _slice(self) -> None:
        if not self.app.is_running:
            self._running = False  # the app is quitting (see _show)
            return
        more = self.review.evaluate_step(SLICE if self._opening else CATCH_UP_SLICE)
        if self._opening:
            # What is evaluated stays: the collector need not walk it again (a full
            # collection over a 50,000-operation session held the event loop for seconds).
            # Not after a change: the change's garbage would stay too (review_jobs.py).
            gc.freeze()
        if not more or time.monotonic() - self._shown >= SHOW_EVERY:
            # Rows and counts a few times a second, and at the end: in a turn of the loop
            # of their own, so a slice and a redraw never add up into one long block.
            self.app.call_later(self._show, more)
        else:
            self.app.set_timer(PAUSE, self._slice)

    def _show(self, more: bool) -> None:
        if not self.app.is_running:
            # The app is quitting: Textual takes the screens' widgets down before the last
            # callbacks have run, and there is no turn list or status line left to update.
            self._running = False
            return
        screen = self._main_screen()
        if screen is not None and screen.is_mounted and screen.jobs.busy:
            # A job is changing the review (its end redraws): slice on, or come back after
            # it, so the last redraw (and the opening's findings) is not dropped for good
            # (no slice meanwhile: the opening's would freeze the job's garbage).
            if more:
                self.app.set_timer(PAUSE, self._slice)
            else:
                self.app.set_timer(PAUSE, self._show_again)
            return
        if screen is not None and screen.is_mounted:
            self._shown = time.monotonic()
            screen.turns_evaluated(progress_note(self.review))
            if not more and self._opening:
                screen.load_findings()  # lint reads every turn's files: now it can
        if more:
            self.app.set_timer(PAUSE, self._slice)
            return
        self._running = False
        self._opening = False

    def _show_again(self) -> None:
        """After a job: what it left may be a walk to go on with (a decision)."""
        self._show(not self.review.evaluation_complete)
