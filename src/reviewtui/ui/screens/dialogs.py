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
    # A fixed width: with `auto` the dialog shrank to its label and the input to 4 cells.
    DEFAULT_CSS = _DIALOG_CSS.format(name="PromptScreen") + """
    PromptScreen > Vertical { width: 72; max-width: 95%; }
    PromptScreen Input { width: 1fr; margin-top: 1; }
    """
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
    """Every checkpoint with its turn's request and counts; typing filters them by
    request text or turn number, ctrl+o hides turns without operations."""

    DEFAULT_CSS = _DIALOG_CSS.format(name="CheckpointPicker") + """
    CheckpointPicker OptionList { width: 90; height: auto; max-height: 30; }
    CheckpointPicker Input { width: 90; margin-bottom: 1; }
    """
    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("down", "move(1)", "Down", show=False, priority=True),
        Binding("up", "move(-1)", "Up", show=False, priority=True),
        Binding("ctrl+o", "toggle_empty", "Hide empty turns", show=False, priority=True),
        Binding("home", "move(-1_000_000)", "First", show=False, priority=True),
        Binding("end", "move(1_000_000)", "Last", show=False, priority=True),
    ]

    def __init__(self, rows: list[tuple[int, str, list[OpState]]], current: int) -> None:
        super().__init__()
        self.rows = rows
        self.current = current
        self.hide_empty = False
        self._prompts = {index: turn_prompt(index, request, states, width=80)
                         for index, request, states in rows}

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("Go to checkpoint (Enter) · type to filter by request or turn "
                              "number · ctrl+o hides turns without operations", style="bold"))
            yield Input(placeholder="filter", id="cp-filter")
            yield OptionList()

    def on_mount(self) -> None:
        self._fill()
        picker = self.query_one(OptionList)
        picker.highlighted = next((n for n, (index, _, _) in enumerate(self.rows, start=1)
                                   if index == self.current), 0)
        self.query_one(Input).focus()

    def _fill(self) -> None:
        term = self.query_one(Input).value.strip().lower()
        number = term.removeprefix("t")
        options = [] if term else [Option(Text("0  before turn 1", style="dim"), id="cp-0")]
        for index, request, states in self.rows:
            if self.hide_empty and not states:
                continue
            if term and term not in request.lower() and number != str(index):
                continue
            options.append(Option(self._prompts[index], id=f"cp-{index}"))
        picker = self.query_one(OptionList)
        picker.clear_options()
        picker.add_options(options)
        if options:
            picker.highlighted = 0

    @on(Input.Changed)
    def _filter(self) -> None:
        self._fill()

    def action_toggle_empty(self) -> None:
        self.hide_empty = not self.hide_empty
        self._fill()

    def action_move(self, delta: int) -> None:
        picker = self.query_one(OptionList)
        if picker.option_count:
            now = picker.highlighted if picker.highlighted is not None else -delta
            picker.highlighted = max(0, min(picker.option_count - 1, now + delta))

    @on(Input.Submitted)
    def _submitted(self) -> None:
        picker = self.query_one(OptionList)
        if picker.highlighted is not None and picker.option_count:
            self._choose(picker.get_option_at_index(picker.highlighted))

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        self._choose(event.option)

    def _choose(self, option: Option) -> None:
        option_id = option.id or "cp-0"
        self.dismiss(int(option_id.removeprefix("cp-")))

    def action_cancel(self) -> None:
        self.dismiss(None)
