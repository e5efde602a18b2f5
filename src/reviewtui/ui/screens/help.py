"""Help: every binding of the review screen, as currently mapped (keymap included)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rich.console import Console, ConsoleOptions, RenderResult
from rich.table import Table
from rich.text import Text
from textual.app import App, ComposeResult
from textual.binding import Binding, BindingType
from textual.containers import VerticalScroll
from textual.screen import ModalScreen
from textual.widgets import Static

from reviewtui.ui.commands import keys_for, pretty_keys

MORE = [
    ("ctrl+p", "command palette: every action by name"),
    ("mouse", "click rows, the timeline, buttons and collapsed regions"),
]


def bindings_table(bindings: Sequence[BindingType], app: App[Any]) -> BindingsTable:
    rows: list[tuple[Text, Text, Text]] = []
    for binding in bindings:
        if not isinstance(binding, Binding):
            continue
        keys = keys_for(app, binding)
        # Keys come from the user's keymap file: plain text, never markup.
        rows.append((Text(pretty_keys(keys)),
                     Text(binding.tooltip or binding.description or binding.action),
                     Text(binding.id or "")))
    rows.extend((Text(keys), Text(what), Text("")) for keys, what in MORE)
    return BindingsTable(rows)


class BindingsTable:
    """Keys, action and id as three columns; where that would leave the action fewer than
    ``ACTION_ROOM`` columns (a terminal of about 60 or less), each id goes on its own line
    under its action instead, so that ids (what a remap names) are never cut."""

    ACTION_ROOM = 24

    def __init__(self, rows: Sequence[tuple[Text, Text, Text]]) -> None:
        self.rows = rows

    def __rich_console__(self, console: Console, options: ConsoleOptions) -> RenderResult:
        keys_width = max((k.cell_len for k, _, _ in self.rows), default=0)
        id_width = max((i.cell_len for _, _, i in self.rows), default=0)
        # Two columns between each pair of columns (Rich's padding, pad_edge off).
        stacked = options.max_width < keys_width + id_width + 4 + self.ACTION_ROOM
        table = Table(box=None, show_header=True, header_style="bold", pad_edge=False)
        table.add_column("keys", style="bold cyan", no_wrap=True)
        table.add_column("action, id below" if stacked else "action")
        if not stacked:
            table.add_column("id", style="dim")
        for keys, action, binding_id in self.rows:
            if not stacked:
                table.add_row(keys, action, binding_id)
            elif binding_id:
                table.add_row(keys, Text.assemble(action, "\n", (binding_id.plain, "dim")))
            else:
                table.add_row(keys, action)
        yield table


class HelpScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    HelpScreen { align: center middle; background: $background 60%; }
    HelpScreen > VerticalScroll { width: 80; max-width: 100%; height: 90%;
        border: thick $primary;
        background: $surface; padding: 0 1; }
    """
    BINDINGS = [Binding("escape,question_mark,q", "dismiss_help", "Close", id="help-close")]

    def __init__(self, bindings: Sequence[BindingType]) -> None:
        """``bindings``: the review screen's, listed with the keys they have now."""
        super().__init__()
        self.bindings = bindings

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text.assemble(("reviewtui keys", "bold"), "  (escape closes; remap "
                                       "them in $XDG_CONFIG_HOME/reviewtui/config.toml, "
                                       "table [keys], by each action's id, shown dim)"))
            yield Static(bindings_table(self.bindings, self.app))

    def action_dismiss_help(self) -> None:
        self.dismiss(None)
