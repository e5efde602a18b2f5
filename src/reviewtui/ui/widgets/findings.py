"""The findings panel: the turn's lint findings with their reasons; Enter jumps to the op."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.message import Message
from textual.widgets import OptionList
from textual.widgets.option_list import Option

from reviewtui.core.lint.findings import Finding
from reviewtui.ui.widgets.lists import KeyedOptionList

_STYLE = {"error": "bold red", "warning": "yellow", "info": "cyan"}


class FindingsPanel(KeyedOptionList):
    DEFAULT_CSS = """
    FindingsPanel { height: 12; border-top: solid $primary; }
    """

    class Jump(Message):
        def __init__(self, turn: int | None, line: int) -> None:
            self.turn = turn
            self.line = line
            super().__init__()

    def __init__(self, *, id: str | None = None) -> None:
        super().__init__(id=id)
        self._shown: list[Finding] = []

    def show_turn(self, findings: list[Finding], turn: int | None) -> None:
        self._shown = [f for f in findings if f.turn == turn or f.turn is None]
        self.border_title = f"Findings · turn {turn}" if turn is not None else "Findings"
        self.clear_options()
        if not self._shown:
            self.add_option(Option(Text("no findings: this reply follows the protocol",
                                        style="green"), disabled=True))
            return
        for finding in self._shown:
            text = Text()
            text.append(f"{finding.severity:<7} ", style=_STYLE.get(str(finding.severity), ""))
            text.append(f"line {finding.span.start:<5} ", style="dim")
            text.append(f"{finding.rule}: ", style="bold")
            text.append(finding.message)
            self.add_option(Option(text))

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        event.stop()
        if 0 <= event.option_index < len(self._shown):
            finding = self._shown[event.option_index]
            self.post_message(self.Jump(finding.turn, finding.span.start))
