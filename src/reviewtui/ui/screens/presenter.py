"""Presenter mode: the review screen with a narration panel, autoplay and clicker keys.

For workshops: the narration tells the room what the current turn asked for, how the
selected operation matched and which protocol rules its turn broke. Page Down / Page Up
(what presentation clickers send) step through the operations; ``p`` plays them.
"""

from __future__ import annotations

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.timer import Timer
from textual.widgets import Static

from reviewtui.core.lint.findings import Finding
from reviewtui.shell.review import Review
from reviewtui.ui.review_jobs import ReviewJobs
from reviewtui.ui.screens.main import MainScreen
from reviewtui.ui.widgets.diff_render import sanitize_text

SPEEDS = (8.0, 5.0, 3.0, 2.0, 1.0)  # seconds per operation


class PresenterScreen(MainScreen):
    DEFAULT_CSS = """
    PresenterScreen #narration {
        dock: bottom; height: auto; max-height: 9; padding: 0 1;
        background: $boost; border-top: solid $accent;
    }
    PresenterScreen #dry-run-banner {
        dock: top; height: 1; width: 1fr; content-align: center middle;
        background: $warning 40%; color: $text; text-style: bold;
    }
    """

    BINDINGS = [
        # priority: the focused list would otherwise take Page Down as "scroll a page".
        Binding("pagedown", "next_op(1)", "Next", id="present-next", priority=True,
                tooltip="next operation (presentation clickers send Page Down)"),
        Binding("pageup", "next_op(-1)", "Previous", id="present-previous", priority=True,
                tooltip="previous operation (presentation clickers send Page Up)"),
        Binding("p", "toggle_play", "Play/pause", id="present-play",
                tooltip="autoplay: step to the next operation every few seconds"),
        Binding("plus", "speed(1)", "Faster", id="present-faster",
                tooltip="autoplay faster"),
        Binding("minus", "speed(-1)", "Slower", id="present-slower",
                tooltip="autoplay slower"),
    ]

    def __init__(self, review: Review, jobs: ReviewJobs | None = None) -> None:
        super().__init__(review, jobs)
        self.speed_index = 1
        self.playing = False
        self._timer: Timer | None = None

    def compose(self) -> ComposeResult:
        if self.review.dry_run:
            yield Static("DRY-RUN: nothing you decide here touches the disk",
                         id="dry-run-banner")
        yield from super().compose()
        yield Static(id="narration")

    @property
    def interval(self) -> float:
        return SPEEDS[self.speed_index]

    def refresh_detail(self, *, keep_pane: bool = False) -> None:
        super().refresh_detail(keep_pane=keep_pane)
        if self.is_mounted:
            self.query_one("#narration", Static).update(self.narration())

    def narration(self) -> Text:
        text = Text()
        turns = self.session_turns
        if not turns:
            return text
        turn = turns[self.turn_pos]
        text.append(f"Turn {turn.index} of {len(turns)}  ", style="bold")
        text.append(sanitize_text(turn.request) or "(no request)")
        result = self.current()
        if result is not None:
            outcome = self.review.outcome(result.key)
            state = self.state_of(result)
            text.append(f"\n{state.glyph} {state.label}", style="bold")
            if outcome.method:
                text.append(f" · matched by {outcome.method}")
            if outcome.hint:
                text.append(f" · {outcome.hint}", style="italic")
            if outcome.message and state.failed:
                text.append(f"\n{outcome.message}")
        rules = [f for f in self.findings if f.turn == turn.index]
        for finding in rules[:3]:
            text.append(f"\nrule {finding.rule}: ", style="bold yellow")
            text.append(finding.message)
        status = "playing" if self.playing else "paused"
        text.append(f"\n[{status}, {self.interval:g} s per operation · p play/pause · "
                    "+/- speed · PgDn/PgUp step]", style="dim")
        return text

    def action_toggle_play(self) -> None:
        self.playing = not self.playing
        self._restart_timer()
        self.refresh_detail(keep_pane=True)

    def action_speed(self, delta: int) -> None:
        self.speed_index = max(0, min(len(SPEEDS) - 1, self.speed_index + delta))
        self._restart_timer()
        self.refresh_detail(keep_pane=True)

    def _restart_timer(self) -> None:
        if self._timer is not None:
            self._timer.stop()
            self._timer = None
        if self.playing:
            self._timer = self.set_interval(self.interval, self._tick)

    def _tick(self) -> None:
        flat = [(tp, opp) for tp, opp, _ in self.iter_results()]
        if not flat or flat[-1] == (self.turn_pos, self.op_pos):
            self.playing = False  # the end of the session: stop, do not wrap around
            self._restart_timer()
            self.refresh_detail(keep_pane=True)
            return
        self.action_next_op(1)

    def _findings_loaded(self, findings: list[Finding]) -> None:
        super()._findings_loaded(findings)
        self.refresh_detail(keep_pane=True)
