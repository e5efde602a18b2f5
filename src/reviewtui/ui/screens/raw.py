"""The raw reply, line-numbered as in the session file, with findings marked in place."""

from __future__ import annotations

from collections.abc import Sequence

from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.message import Message
from textual.widgets import Static

from reviewtui.core.lint.findings import Finding
from reviewtui.core.model.records import Turn
from reviewtui.core.text.hashline import line_id
from reviewtui.ui.screens.ready import ReadyScreen
from reviewtui.ui.widgets.diff_render import sanitize
from reviewtui.ui.widgets.footer import KeyFooter

_MARK = {"error": "bold red", "warning": "yellow", "info": "cyan"}


def render_raw(lines: Sequence[str], turn: Turn, findings: Sequence[Finding], *,
               hashed: bool = False) -> Text:
    by_line: dict[int, list[Finding]] = {}
    for finding in findings:
        for line in range(finding.span.start, finding.span.end + 1):
            by_line.setdefault(line, []).append(finding)
    text = Text()
    width = len(str(turn.span.end)) + (3 if hashed else 0)
    for number in range(turn.span.start, min(turn.span.end, len(lines)) + 1):
        marks = by_line.get(number, [])
        style = _MARK.get(str(marks[0].severity), "") if marks else "dim"
        label = line_id(number, lines[number - 1]) if hashed else str(number)
        text.append(f"{label:>{width}} ", style=style)
        text.append("▌" if marks else " ", style=style)
        # (what the model wrote: a character that takes no cell is drawn as its picture,
        # as in the diffs; QA s44 helper-135 F3: ``config<ZWSP>.py`` read ``config.py``)
        text.append(sanitize(lines[number - 1]) + "\n")
        first_of = [f for f in marks if f.span.start == number]
        for finding in first_of:
            text.append(" " * (width + 2))
            text.append(f"↳ {finding.rule}: {sanitize(finding.message)}\n",
                        style=_MARK.get(str(finding.severity), ""))
    return text


class FindingsArrived(Message):
    """Lint's findings of the whole session are in (it runs after the first frame, so the
    raw view may be open before them)."""

    def __init__(self, findings: Sequence[Finding]) -> None:
        super().__init__()
        self.findings = findings


class RawReplyScreen(ReadyScreen[None]):
    """The turn's reply as the model wrote it. Its keys are live once it is mounted
    (ready.py)."""

    DEFAULT_CSS = """
    RawReplyScreen VerticalScroll { padding: 0 1; }
    """
    BINDINGS = [
        Binding("escape,r,q", "app.pop_screen", "Back", id="raw-back"),
        Binding("H", "toggle_hashline", "Line ids", id="raw-hashline"),
    ]

    def __init__(self, lines: Sequence[str], turn: Turn, findings: Sequence[Finding]) -> None:
        super().__init__()
        self.lines = lines
        self.turn = turn
        self.findings = findings

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(render_raw(self.lines, self.turn, self.findings), id="raw-text")
        yield KeyFooter(adaptive=True)

    hashed = False

    def action_toggle_hashline(self) -> None:
        self.hashed = not self.hashed
        self._redraw()

    def on_findings_arrived(self, message: FindingsArrived) -> None:
        self.findings = [f for f in message.findings if f.turn == self.turn.index]
        self._redraw()

    def _redraw(self) -> None:
        if not self.showing:
            return  # findings arriving once it is closed, or a key before it is drawn
        self.query_one("#raw-text", Static).update(
            render_raw(self.lines, self.turn, self.findings, hashed=self.hashed))

    def on_mount(self) -> None:
        self.sub_title = f"raw reply of turn {self.turn.index}"
