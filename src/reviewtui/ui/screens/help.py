"""Help: every binding of the review screen, as currently mapped (keymap included)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

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


def bindings_table(bindings: Sequence[BindingType], app: App[Any]) -> Table:
    table = Table(box=None, show_header=True, header_style="bold", pad_edge=False)
    table.add_column("keys", style="bold cyan", no_wrap=True)
    table.add_column("action")
    table.add_column("id", style="dim")
    for binding in bindings:
        if not isinstance(binding, Binding):
            continue
        keys = keys_for(app, binding)
        # Keys come from the user's keymap file: plain text, never markup.
        table.add_row(Text(pretty_keys(keys)),
                      Text(binding.tooltip or binding.description or binding.action),
                      Text(binding.id or ""))
    for keys, what in MORE:
        table.add_row(keys, what, "")
    return table


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
                                       "table [keys], by the id in the last column)"))
            yield Static(bindings_table(self.bindings, self.app))

    def action_dismiss_help(self) -> None:
        self.dismiss(None)
