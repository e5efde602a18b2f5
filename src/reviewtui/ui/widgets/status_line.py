"""The status line: checkpoint, draft revision, counts, watcher state, live or dry-run."""

from __future__ import annotations

from typing import Any

from rich.text import Text
from textual.reactive import reactive
from textual.widgets import Static

from reviewtui.ui.widgets.static_update import update_static


class StatusLine(Static):
    DEFAULT_CSS = """
    StatusLine { height: 1; background: $panel; color: $text; padding: 0 1; }
    """
    progress: reactive[str] = reactive("")  # a review job that takes a while: what it does

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self._shown = Text()
        self._drawn: Text | None = None

    def watch_progress(self) -> None:
        self._draw()

    def _draw(self) -> None:
        text = self._shown
        if self.progress:
            text = text.copy()
            text.append(f"  {self.progress}", style="bold reverse")
        if text == self._drawn:
            return  # the same line again (the counts' background update): nothing to draw
        self._drawn = text
        update_static(self, text)  # one line: no screen layout

    def show(self, *, checkpoint: int, turns: int, revision: int, counts: dict[str, int],
             watcher: str, dry_run: bool, note: str = "", source_format: str = "",
             pinned: int | None = None, state_at: str = "", held: int = 0) -> None:
        text = Text()
        if source_format and source_format != "fileops":
            text.append(f"{source_format}  ", style="bold cyan")  # what wrote the session
        if held:  # open for writing in another program: first, where a notice hides nothing
            text.append(f"waiting on {held} file{'s' if held > 1 else ''} open elsewhere",
                        style="bold black on yellow")
            text.append("  ")
        text.append(f"checkpoint {checkpoint}/{turns}", style="bold")
        text.append(f"  r{revision}", style="dim")
        if pinned is not None:  # ctrl+t restored a checkpoint: decisions are not written
            text.append("  ")
            text.append(f"disk pinned at checkpoint {pinned} (P unpins)",
                        style="bold black on yellow")
        for label, style in (("pending", "yellow"), ("accepted", "green"),
                             ("rejected", "red"), ("failed", "bold red")):
            text.append(f"  {label} {counts.get(label, 0)}", style=style)
        text.append(f"  watch: {watcher}", style="dim")
        text.append("  DRY-RUN" if dry_run else "  live", style="bold magenta" if dry_run
                    else "bold green")

        if state_at:  # the review state is not beside the session: say where it is
            text.append(f"  state: {state_at}", style="dim")
        if note:
            text.append(f"  {note}", style="italic")
        self._shown = text
        self._draw()
