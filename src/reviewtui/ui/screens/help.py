"""Help: every binding of the review screen, as currently mapped (keymap included)."""

from __future__ import annotations

from typing import Any

from rich.table import Table
from rich.text import Text
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import VerticalScroll
from textual.screen import ModalScreen, Screen
from textual.widgets import Static

from reviewtui.ui.commands import pretty_keys

MORE = [
    ("ctrl+p", "command palette: every action by name"),
    ("mouse", "click rows, the timeline, buttons and collapsed regions"),
]


def bindings_table(screen: Screen[Any]) -> Table:
    table = Table(box=None, show_header=True, header_style="bold", pad_edge=False)
    table.add_column("keys", style="bold cyan", no_wrap=True)
    table.add_column("action")
    table.add_column("id", style="dim")
    keymap = getattr(screen.app, "_keymap", {}) or {}
    for binding in screen.BINDINGS:
        if not isinstance(binding, Binding):
            continue
        keys = keymap.get(binding.id, binding.key) if binding.id else binding.key
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
    HelpScreen > VerticalScroll { width: 80; height: 90%; border: thick $primary;
        background: $surface; padding: 0 1; }
    """
    BINDINGS = [Binding("escape,question_mark,q", "dismiss_help", "Close", id="help-close")]

    def __init__(self, screen: Screen[Any]) -> None:
        super().__init__()
        self.target = screen

    def compose(self) -> ComposeResult:
        with VerticalScroll():
            yield Static(Text.assemble(("reviewtui keys", "bold"), "  (escape closes; remap "
                                       "them in $XDG_CONFIG_HOME/reviewtui/config.toml, "
                                       "table [keys], by the id in the last column)"))
            yield Static(bindings_table(self.target))

    def action_dismiss_help(self) -> None:
        self.dismiss(None)
