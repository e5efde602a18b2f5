"""Small modal dialogs: confirm, prompt for a value, pick a checkpoint."""

from __future__ import annotations

from rich.text import Text
from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal, Vertical
from textual.content import Content
from textual.screen import ModalScreen
from textual.widgets import Button, Input, OptionList, Static
from textual.widgets.option_list import Option

from reviewtui.core.engine.opstate import OpState
from reviewtui.ui.widgets.lists import turn_prompt

_DIALOG_CSS = """
{name} {{ align: center middle; background: $background 60%; }}
{name} > Vertical {{ width: auto; max-width: 90%; height: auto; max-height: 90%;
    border: thick $primary; background: $surface; padding: 1 2; }}
{name} Horizontal {{ height: auto; width: auto; margin-top: 1; }}
{name} Button {{ margin: 0 1; }}
"""


class ConfirmScreen(ModalScreen[bool]):
    DEFAULT_CSS = _DIALOG_CSS.format(name="ConfirmScreen")
    BINDINGS = [Binding("y,enter", "answer(True)", "Yes"), Binding("n,escape",
                                                                   "answer(False)", "No")]

    def __init__(self, question: str | Text) -> None:
        super().__init__()
        self.question = question

    def compose(self) -> ComposeResult:
        with Vertical():
            # Questions quote commands and paths from the session or the project: plain text.
            yield Static(Content(self.question) if isinstance(self.question, str)
                         else self.question)
            with Horizontal():
                yield Button("Yes (y)", variant="primary", id="yes")
                yield Button("No (n)", id="no")

    def action_answer(self, value: bool) -> None:
        self.dismiss(value)

    @on(Button.Pressed)
    def _pressed(self, event: Button.Pressed) -> None:
        self.dismiss(event.button.id == "yes")


class PromptScreen(ModalScreen[str | None]):
    DEFAULT_CSS = _DIALOG_CSS.format(name="PromptScreen")
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, label: str | Text) -> None:
        super().__init__()
        self.label = label

    def compose(self) -> ComposeResult:
        with Vertical():
            # Labels can quote outside text too: literal content, never markup.
            yield Static(Content(self.label) if isinstance(self.label, str) else self.label)
            yield Input(id="answer")

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        self.dismiss(event.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class CheckpointPicker(ModalScreen[int | None]):
    """Every checkpoint with its turn's request and counts."""

    DEFAULT_CSS = _DIALOG_CSS.format(name="CheckpointPicker") + """
    CheckpointPicker OptionList { width: 90; height: auto; max-height: 30; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel")]

    def __init__(self, rows: list[tuple[int, str, list[OpState]]], current: int) -> None:
        super().__init__()
        self.rows = rows
        self.current = current

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("Go to checkpoint (Enter)", style="bold"))
            options = [Option(Text("0  before turn 1", style="dim"), id="cp-0")]
            options += [Option(turn_prompt(index, request, states, width=80), id=f"cp-{index}")
                        for index, request, states in self.rows]
            yield OptionList(*options)

    def on_mount(self) -> None:
        picker = self.query_one(OptionList)
        picker.highlighted = next((n for n, (index, _, _) in enumerate(self.rows, start=1)
                                   if index == self.current), 0)
        picker.focus()

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        option_id = event.option.id or "cp-0"
        self.dismiss(int(option_id.removeprefix("cp-")))

    def action_cancel(self) -> None:
        self.dismiss(None)
