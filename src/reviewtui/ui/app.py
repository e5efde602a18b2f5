"""The workbench app: wires a Review to the review screen and the file watcher."""

from __future__ import annotations

from textual import work
from textual.app import App
from textual.worker import get_current_worker

from reviewtui.core.errors import ReviewtuiError
from reviewtui.shell.review import Review
from reviewtui.shell.userconfig import load_keymap
from reviewtui.shell.watch import watch_root
from reviewtui.ui.commands import ReviewCommands
from reviewtui.ui.evaluating import BackgroundEvaluation
from reviewtui.ui.messages import FilesChanged, SessionGrew, WatcherFailed
from reviewtui.ui.screens.main import MainScreen


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

    def on_mount(self) -> None:
        self.theme = "textual-dark"
        self.sub_title = str(self.review.root)
        try:
            self.set_keymap(load_keymap())
        except ReviewtuiError as err:
            # Messages quote TOML such as "[keys]": not Rich markup.
            self.notify(str(err), severity="error", timeout=10, markup=False)
        for problem in self.review.state_problems:
            self.notify(problem, severity="warning", timeout=10, markup=False)
        if self.present:
            from reviewtui.ui.screens.presenter import PresenterScreen

            self.push_screen(PresenterScreen(self.review))
        else:
            self.push_screen(MainScreen(self.review))
        BackgroundEvaluation(self, self.review).start()  # opened with first_frame=True
        if self.watch_enabled:
            self.run_watcher()
        if self.live_gate is not None:
            self.run_live_follower()

    @work(exclusive=True, group="watcher")
    async def run_watcher(self) -> None:
        try:
            self.watcher_state = "on"
            async for paths in watch_root(self.review.root):
                self.post_message(FilesChanged(frozenset(paths)))
        except ReviewtuiError as err:
            self.post_message(WatcherFailed(str(err)))

    def on_files_changed(self, message: FilesChanged) -> None:
        report = self.review.outside_changed(message.paths)
        screen = self.screen
        if isinstance(screen, MainScreen):
            screen._report(report)
            screen.refresh_after_decision()

    @work(thread=True, exclusive=True, group="live")
    def run_live_follower(self) -> None:
        """Poll the live session file; read it again when it grows."""
        from reviewtui.shell.live import follow_session

        worker = get_current_worker()
        for grew in follow_session(self.review, self.live_gate or "review",
                                   cancelled=lambda: worker.is_cancelled):
            self.post_message(SessionGrew(*grew))

    def on_session_grew(self, message: SessionGrew) -> None:
        screen = self.screen
        if isinstance(screen, MainScreen):
            screen.session_grew(message.new, message.accepted, message.problem)

    def on_watcher_failed(self, message: WatcherFailed) -> None:
        self.watcher_state = "failed"
        self.notify(f"file watcher stopped: {message.reason}", severity="error", timeout=10,
                    markup=False)

    def on_unmount(self) -> None:
        self.review.close()
