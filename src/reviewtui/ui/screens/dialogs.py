"""Small modal dialogs: confirm, prompt for a value, pick a checkpoint."""

from __future__ import annotations

from bisect import bisect_left
from operator import itemgetter

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
from reviewtui.ui.evaluating import turn_row
from reviewtui.ui.screens.ready import ReadyModal, settled
from reviewtui.ui.widgets.lists import turn_prompt

# The most checkpoints the picker lists at a time (see CheckpointPicker).
WINDOW = 200

_DIALOG_CSS = """
{name} {{ align: center middle; background: $background 60%; }}
{name} > Vertical {{ width: auto; max-width: 90%; height: auto; max-height: 90%;
    border: thick $primary; background: $surface; padding: 1 2; }}
{name} > Vertical > Static {{ width: auto; max-width: 100; }}
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


class PromptScreen(ReadyModal[str | None]):
    # A fixed width: with `auto` the dialog shrank to its label and the input to 4 cells.
    DEFAULT_CSS = _DIALOG_CSS.format(name="PromptScreen") + """
    PromptScreen > Vertical { width: 72; max-width: 95%; }
    PromptScreen Input { width: 1fr; margin-top: 1; }
    """
    BINDINGS = [Binding("escape", "cancel", "Cancel"),
                # (keys read after Enter in one burst go to the screen below, not into
                # the closing field: ready.settled)
                Binding("enter", "answer", "Answer", show=False, priority=True)]

    def __init__(self, label: str | Text) -> None:
        super().__init__()
        self.label = label

    def compose(self) -> ComposeResult:
        with Vertical():
            # Labels can quote outside text too: literal content, never markup.
            yield Static(Content(self.label) if isinstance(self.label, str) else self.label)
            yield Input(id="answer")

    def on_mount(self) -> None:
        if not self.dismissed:
            self.query_one(Input).focus()

    async def action_answer(self) -> None:
        if not self.showing:
            return
        field = self.query_one(Input)
        await settled(field)
        if self.showing:
            self.dismiss(field.value)

    def action_cancel(self) -> None:
        self.dismiss(None)


class CheckpointPicker(ReadyModal[int | None]):
    """Every checkpoint with its turn's request and counts; typing filters them by
    request text or turn number, ctrl+o hides turns without operations.

    At most :data:`WINDOW` checkpoints are in the list at a time, around the highlighted
    one (an option list measures every option at each layout: 5,000 turns took seconds to
    open and a second per keystroke); a dim line says how many more lie before or after,
    and moving past the first or last shown brings the next ones in. Its keys are live
    once it is mounted (ready.py).
    """

    DEFAULT_CSS = _DIALOG_CSS.format(name="CheckpointPicker") + """
    CheckpointPicker OptionList { width: 90; height: auto; max-height: 30;
        text-wrap: nowrap; text-overflow: ellipsis; }
    CheckpointPicker Input { width: 90; margin-bottom: 1; }
    """
    BINDINGS = [
        Binding("escape", "cancel", "Cancel"),
        Binding("down", "move(1)", "Down", show=False, priority=True),
        Binding("up", "move(-1)", "Up", show=False, priority=True),
        Binding("pagedown", "move(20)", "Page down", show=False, priority=True),
        Binding("pageup", "move(-20)", "Page up", show=False, priority=True),
        Binding("ctrl+o", "toggle_empty", "Hide empty turns", show=False, priority=True),
        Binding("home", "move(-1_000_000)", "First", show=False, priority=True),
        Binding("end", "move(1_000_000)", "Last", show=False, priority=True),
        # (a binding, not the filter's Submitted message: ready.settled)
        Binding("enter", "choose", "Go", show=False, priority=True),
    ]

    def __init__(self, rows: list[tuple[int, str, list[OpState] | None]],
                 current: int, unread: dict[int, int] | None = None) -> None:
        """``rows``: each turn's index, request and operation states (None while the turn
        is not evaluated yet); ``current``: the checkpoint to highlight; ``unread``: the
        turns with parts not read as operations, and how many (never hidden as empty)."""
        super().__init__()
        self.rows = rows
        self.unread = unread or {}
        self.current = current
        self.hide_empty = False
        self._prompts: dict[int, Text] = {}  # made for the rows shown, when first shown
        self._entries: list[int] = []  # the checkpoints the filter lets through (0: none)
        self._first = 0  # the entry the list's first checkpoint option is
        self._shown = 0  # how many entries the list holds

    def compose(self) -> ComposeResult:
        with Vertical():
            yield Static(Text("Go to checkpoint (Enter) · type to filter by request or turn "
                              "number · ctrl+o hides turns without operations", style="bold"))
            yield Input(placeholder="filter", id="cp-filter")
            yield OptionList()

    def on_mount(self) -> None:
        if self.dismissed:
            return  # closed before it was drawn: its widgets are going
        self._fill(at=self.current)
        self.query_one(Input).focus()

    def _fill(self, at: int | None = None) -> None:
        """Filter the checkpoints again; highlight checkpoint ``at`` if it is let through,
        else the first."""
        term = self.query_one(Input).value.strip().lower()
        number = term.removeprefix("t")
        entries = [] if term else [0]
        for index, request, states in self.rows:
            if (self.hide_empty and states is not None and not states
                    and index not in self.unread):
                continue
            if term and term not in request.lower() and number != str(index):
                continue
            entries.append(index)
        self._entries = entries
        position = entries.index(at) if at is not None and at in entries else 0
        self._show(position)

    def _show(self, position: int) -> None:
        """List the window of entries around entry ``position`` and highlight it."""
        count = len(self._entries)
        first = max(0, min(position - WINDOW // 2, count - WINDOW))
        shown = self._entries[first:first + WINDOW]
        options: list[Option] = []
        if first:
            options.append(Option(Text(f"… {first:,} earlier: up or home to see them",
                                       style="dim"), disabled=True))
        options.extend(self._option(index) for index in shown)
        later = count - first - len(shown)
        if later:
            options.append(Option(Text(f"… {later:,} later: down or end to see them",
                                       style="dim"), disabled=True))
        self._first, self._shown = first, len(shown)
        picker = self.query_one(OptionList)
        picker.clear_options()
        picker.add_options(options)
        if shown:
            picker.highlighted = position - first + self._lead

    def _option(self, index: int) -> Option:
        if index == 0:
            return Option(Text("0  before turn 1", style="dim"), id="cp-0")
        prompt = self._prompts.get(index)
        if prompt is None:
            # rows are in turn order
            _, request, states = self.rows[bisect_left(self.rows, index, key=itemgetter(0))]
            prompt = self._prompts[index] = (
                turn_row(index, request, [], 0) if states is None  # "evaluating"
                else turn_prompt(index, request, states, width=80,
                                 unread=self.unread.get(index, 0)))
        return Option(prompt, id=f"cp-{index}")

    @property
    def _lead(self) -> int:
        """Options before the first checkpoint shown: the line saying how many are earlier."""
        return 1 if self._first else 0

    @property
    def highlighted_entry(self) -> int | None:
        """The position among the filtered checkpoints of the highlighted one."""
        highlighted = self.query_one(OptionList).highlighted
        if highlighted is None or not self._shown:
            return None
        return self._first + highlighted - self._lead

    @on(Input.Changed)
    def _filter(self) -> None:
        if self.showing:
            self._fill()

    def action_toggle_empty(self) -> None:
        self.hide_empty = not self.hide_empty
        self._fill()

    def action_move(self, delta: int) -> None:
        if not self._entries:
            return
        here = self.highlighted_entry
        if here is None:
            target = 0 if delta > 0 else len(self._entries) - 1
        else:
            target = max(0, min(len(self._entries) - 1, here + delta))
        if self._first <= target < self._first + self._shown:
            picker = self.query_one(OptionList)
            picker.highlighted = target - self._first + self._lead
        else:
            self._show(target)

    async def action_choose(self) -> None:
        """Enter (the filter's and the list's: a priority binding, so the filter posts no
        Submitted): the highlighted checkpoint, once what was typed before is applied."""
        if not self.showing:
            return
        # (the field, then each widget its Changed bubbles through, up to this screen)
        chain = []
        for node in self.query_one(Input).ancestors_with_self:
            chain.append(node)
            if node is self:
                break
        await settled(*chain)
        if not self.showing:
            return
        picker = self.query_one(OptionList)
        if picker.highlighted is not None and self._shown:
            self._choose(picker.get_option_at_index(picker.highlighted))

    @on(OptionList.OptionSelected)
    def _selected(self, event: OptionList.OptionSelected) -> None:
        if self.showing:
            self._choose(event.option)

    def _choose(self, option: Option) -> None:
        if option.id is None:  # a line saying how many more there are
            return
        self.dismiss(int(option.id.removeprefix("cp-")))

    def action_cancel(self) -> None:
        self.dismiss(None)
