"""The checkpoint timeline across the top: 0 … N, each turn coloured by its state."""

from __future__ import annotations

from rich.text import Text
from textual import events
from textual.message import Message
from textual.reactive import reactive
from textual.widget import Widget

from reviewtui.core.record import record


@record(frozen=True, slots=True)
class TurnMark:
    index: int
    state: str  # "decided", "pending", "failed"


_STYLE = {"decided": "green", "pending": "yellow", "failed": "red", "empty": "dim",
          "evaluating": "dim"}
_GLYPH = {"decided": "●", "pending": "○", "failed": "✗", "empty": "·",
          "evaluating": "…"}  # as in the list


class Timeline(Widget):
    """One cell per checkpoint; the current one is marked. Click a cell to go there."""

    DEFAULT_CSS = """
    Timeline { height: 1; width: 1fr; }
    """

    current: reactive[int] = reactive(0)

    class Picked(Message):
        def __init__(self, checkpoint: int) -> None:
            self.checkpoint = checkpoint
            super().__init__()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.marks: tuple[TurnMark, ...] = ()
        self._cells: list[tuple[int, int, int]] = []  # (x0, x1, checkpoint)

    def set_marks(self, marks: tuple[TurnMark, ...]) -> None:
        if marks is self.marks:  # a decision that changed no turn's mark: nothing to draw
            return
        self.marks = marks
        self.refresh()

    def render(self) -> Text:
        text = Text("checkpoints ", style="dim")
        self._cells = []
        # Only the cells that can show are labelled: a long session has thousands.
        width = self.size.width or 120
        start = self._first_visible(width - len(text))
        if start:
            text.append("… ", style="dim")
        for at in range(start, len(self.marks) + 1):
            checkpoint, label, style = self._cell(at)
            if len(text) + len(label) + 2 > width:
                text.append("…", style="dim")
                break
            x0 = len(text)
            if checkpoint == self.current:
                text.append(f"[{label}]", style=f"bold reverse {style}")
            else:
                text.append(f" {label} ", style=style)
            self._cells.append((x0, len(text), checkpoint))
        return text

    def _cell(self, at: int) -> tuple[int, str, str]:
        """The checkpoint, label and style of cell ``at``: checkpoint 0, then one per
        turn's mark."""
        if at == 0:
            return 0, "0", "dim"
        mark = self.marks[at - 1]
        return mark.index, f"{_GLYPH[mark.state]}{mark.index}", _STYLE[mark.state]

    def _first_visible(self, width: int) -> int:
        """Scroll so that the current checkpoint is visible on long sessions."""
        total = 0
        for i in range(min(self.current, len(self.marks)), -1, -1):
            total += len(self._cell(i)[1]) + 2
            if total > width * 2 // 3:
                return i + 1
        return 0

    def watch_current(self) -> None:
        self.refresh()

    def on_click(self, event: events.Click) -> None:
        for x0, x1, checkpoint in self._cells:
            if x0 <= event.x < x1:
                self.post_message(self.Picked(checkpoint))
                return
