"""The workbench app: wires a Review to the review screen and the file watcher."""

from __future__ import annotations

import asyncio
import os
import sys
import time
from collections.abc import Callable, Sequence
from typing import Any

from textual import events, work
from textual.app import App
from textual.filter import LineFilter
from textual.geometry import Size
from textual.worker import get_current_worker

from reviewtui.core.errors import ReviewtuiError
from reviewtui.shell.replay_report import ReplayReport
from reviewtui.shell.review import Review
from reviewtui.shell.userconfig import load_keymap
from reviewtui.shell.watch import follow_review, outside_change
from reviewtui.ui import collector, pacing
from reviewtui.ui.commands import ReviewCommands
from reviewtui.ui.control_filter import DropControls
from reviewtui.ui.evaluating import BackgroundEvaluation
from reviewtui.ui.messages import FilesChanged, OutsideChangeTaken, SessionGrew, WatcherFailed
from reviewtui.ui.review_jobs import ReviewJobs
from reviewtui.ui.screens.main import MainScreen

REPEAT = 1.0  # seconds within which the same notice is not said again

TERMINAL_CHECK = 1.0  # seconds between checks that the terminal is still there


def _on_a_terminal() -> bool:
    stdin = sys.__stdin__
    try:
        return stdin is not None and os.isatty(stdin.fileno())
    except (OSError, ValueError):
        return False


class ReviewApp(App[None]):
    TITLE = "reviewtui"
    COMMANDS = App.COMMANDS | {ReviewCommands}

    def __init__(self, review: Review, *, watch: bool = True, present: bool = False,
                 live: str | None = None) -> None:
        super().__init__()
        self.review = review
        self.live_gate = live  # None: not a live session; else the gate this workbench applies
        self.present = present
        self.watch_enabled = watch
        self.watcher_state = "starting" if watch else "off"
        self.jobs = ReviewJobs(self)  # every change to the review, off the event loop
        self.main: MainScreen | None = None  # the review screen, when it is shown
        self._drop_controls = DropControls()
        self._sized: Size | None = None  # the terminal size the last Resize gave
        self._last_notice: tuple[float, tuple[str, str, str]] | None = None  # (see notify)

    async def action_quit(self) -> None:
        """``ctrl+q`` and the palette's "Quit" (Textual's own) quit as ``q`` does: asking
        first when files are in conflict or held open elsewhere (they quit at once, QA pass
        84c). Asked already, a second ``ctrl+q`` quits."""
        from reviewtui.ui.screens.dialogs import ConfirmScreen

        if self.main is None or isinstance(self.screen, ConfirmScreen):
            self.exit()
            return
        self.main.action_quit_review()

    def notify(self, message: str, *, title: str = "", severity: Any = "information",
               timeout: float | None = None, markup: bool = True) -> None:
        """Textual's, but the same notice twice within ``REPEAT`` seconds is said once: one
        outside deletion reported by two watcher events showed two identical toasts (QA
        pass s31)."""
        now, said = time.monotonic(), (str(message), title, str(severity))
        if self._last_notice is not None and self._last_notice[1] == said and (
                now - self._last_notice[0] < REPEAT):
            return
        self._last_notice = (now, said)
        super().notify(message, title=title, severity=severity, timeout=timeout,
                       markup=markup)

    def get_line_filters(self) -> Sequence[LineFilter]:
        """Textual's filters, then the one that keeps outside text's control characters
        from the terminal (ui/control_filter.py)."""
        return [*super().get_line_filters(), self._drop_controls]

    async def on_event(self, event: events.Event) -> None:
        """Every key and click first holds the background threads back (ui/pacing.py)."""
        if isinstance(event, (events.Key, events.MouseDown)) and not event.is_forwarded:
            pacing.hold_for_input()
        await super().on_event(event)

    def on_resize(self, event: events.Resize) -> None:
        """A Resize to the size the app already has stops here. Textual's App keeps such
        an event although it ignores it, and sends it to the screens at its next idle:
        at every start (the terminal driver reports the size the app was laid out at)
        that was a whole new layout of the review screen, about a tenth of its start."""
        if event.size == self._sized:
            event.prevent_default()
        self._sized = event.size

    def on_mount(self) -> None:
        self.theme = "textual-dark"
        self.sub_title = str(self.review.root)
        try:
            keymap = load_keymap()
            self.set_keymap(keymap)
            from reviewtui.ui.screens.main_keys import keymap_problems

            for problem in keymap_problems(keymap):
                self.notify(problem, severity="warning", timeout=10, markup=False)
        except ReviewtuiError as err:
            # Messages quote TOML such as "[keys]": not Rich markup.
            self.notify(str(err), severity="error", timeout=10, markup=False)
        for problem in self.review.state_problems:
            self.notify(problem, severity="warning", timeout=10, markup=False)
        self._tell_changed_while_closed()
        # No collection until the review screen's first frame is drawn (it ends the hold;
        # this refresh does if the screen never draws).
        collector.hold_first_frame()
        if not self.call_after_refresh(collector.first_frame_drawn):
            collector.first_frame_drawn()
        if self.present:
            from reviewtui.ui.screens.presenter import PresenterScreen

            self.main = PresenterScreen(self.review, self.jobs)
        else:
            self.main = MainScreen(self.review, self.jobs)
        self.push_screen(self.main)
        background = BackgroundEvaluation(self, self.review)
        background.start()  # opened with first_frame=True
        self.jobs.on_drawn = background.catch_up  # what a change left for later
        collector.start()  # (after the freeze of a whole evaluation, if it came now)
        if self.watch_enabled:
            self.run_watcher()
        if self.live_gate is not None:
            self.run_live_follower()
        if not (self.is_headless or self.is_web) and _on_a_terminal():
            self.set_interval(TERMINAL_CHECK, self._exit_if_terminal_gone)

    def _tell_changed_while_closed(self) -> None:
        """What the opening replay found and did (a reopened review: files changed while
        it was closed, rebased or kept as conflicts). Without this the workbench showed
        a saved accept as written while the disk held the user's own revert of it."""
        opened = self.review.last_report
        if opened is None or not opened.events:
            return
        lines = opened.messages
        more = f"\n… and {len(lines) - 5} more" if len(lines) > 5 else ""
        self.notify("on opening: " + "\n".join(lines[:5]) + more, severity="warning",
                    timeout=12, markup=False)

    def _exit_if_terminal_gone(self) -> None:
        """The terminal hung up without a SIGHUP reaching us (started under ``make``, whose
        shell was the one told): Textual's input thread would spin on the dead terminal at
        full CPU for ever. Exit as ``q`` does; the review was saved after every key."""
        if not _on_a_terminal():
            self.exit()

    @work(exclusive=True, group="watcher")
    async def run_watcher(self) -> None:
        """The one watcher path (:func:`follow_review`), its review work queued with the
        decisions (:class:`ReviewJobs`): an outside change never lands mid-decision."""
        try:
            self.watcher_state = "on"
            await follow_review(self.review, stop_event=asyncio.Event(),
                                run=self._outside_job, on_report=self._outside_reported)
        except ReviewtuiError as err:
            self.post_message(WatcherFailed(str(err)))

    def on_files_changed(self, message: FilesChanged) -> None:
        """Paths said to have changed (as the watcher would report them)."""
        self.run_worker(self._take_outside(message.paths), group="outside")

    async def _take_outside(self, paths: frozenset[str]) -> None:
        self._outside_reported(await outside_change(self.review, paths, run=self._outside_job))

    async def _outside_job(self, work: Callable[[], ReplayReport]) -> ReplayReport:
        return await self.jobs.run(work, "taking in an outside change")

    def _outside_reported(self, report: ReplayReport) -> None:
        if self.main is not None:
            self.main.post_message(OutsideChangeTaken(report))

    @work(thread=True, exclusive=True, group="live")
    def run_live_follower(self) -> None:
        """Poll the live session file; read it again when it grows."""
        from reviewtui.shell.live import follow_session

        worker = get_current_worker()

        def queued(work: Callable[[], Any]) -> Any:
            """The reload as a review job: never under a decision or a redraw."""
            return self.call_from_thread(self.jobs.run, work, "reading the live session")

        for grew in follow_session(self.review, self.live_gate or "review",
                                   cancelled=lambda: worker.is_cancelled, run=queued):
            self.post_message(SessionGrew(*grew))

    def on_session_grew(self, message: SessionGrew) -> None:
        if self.main is not None:
            self.main.post_message(SessionGrew(message.new, message.accepted, message.problem))

    def on_watcher_failed(self, message: WatcherFailed) -> None:
        self.watcher_state = "failed"
        self.notify(f"file watcher stopped: {message.reason}", severity="error", timeout=10,
                    markup=False)

    def on_unmount(self) -> None:
        collector.release_all()  # a job's drawing that will not come
        self.review.close()
