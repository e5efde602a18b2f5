"""``/``: find operations whose title, path, SEARCH/REPLACE or full-file text holds a query.

A one-line bar over the bottom of the review screen, which stays visible and follows
the matches. Enter (or down, F3) selects the next match after the cursor, shift+Enter
(or up, shift+F3) the previous one; both wrap. The bar and the status line say
"match i of N"; escape closes the bar and keeps the selection. The last query is
offered again the next time the bar opens.
"""

from __future__ import annotations

from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from reviewtui.core.search import find_matches, operation_text, step
from reviewtui.ui.opview import op_title

if TYPE_CHECKING:
    from reviewtui.ui.screens.main import MainScreen

HINT = "enter next · shift+enter previous · esc close"
_last_query: WeakKeyDictionary[MainScreen, str] = WeakKeyDictionary()


class SearchScreen(ModalScreen[None]):
    DEFAULT_CSS = """
    SearchScreen { align: left bottom; background: $background 0%; }
    SearchScreen #search-bar { height: 1; width: 100%; background: $panel; }
    SearchScreen #search-slash { width: 2; padding: 0 0 0 1; color: $accent;
        text-style: bold; }
    SearchScreen Input { width: 1fr; height: 1; border: none; padding: 0;
        background: $panel; }
    SearchScreen Input:focus { border: none; background-tint: $foreground 0%; }
    SearchScreen #search-count { width: auto; padding: 0 1; text-style: bold; }
    SearchScreen #search-hint { width: auto; padding: 0 1; color: $text-muted; }
    """
    BINDINGS = [
        Binding("shift+enter,up,shift+f3", "step(-1)", "Previous", id="search.previous"),
        Binding("down,f3", "step(1)", "Next", id="search.next"),
        Binding("escape", "close", "Close", id="search.close"),
    ]

    def __init__(self, target: MainScreen) -> None:
        super().__init__()
        self.target = target
        self._texts: list[str] | None = None
        self._places: list[tuple[int, int]] = []

    def compose(self) -> ComposeResult:
        with Horizontal(id="search-bar"):
            yield Label("/", id="search-slash")
            yield Input(_last_query.get(self.target, ""), placeholder="search operations",
                        id="search-input")
            yield Label("", id="search-count")
            yield Label(HINT, id="search-hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self._count(self.query_one(Input).value)

    def _haystacks(self) -> list[str]:
        if self._texts is None:
            results = list(self.target.iter_results())
            self._places = [(tp, opp) for tp, opp, _ in results]
            self._texts = [op_title(r.op) + "\n" + operation_text(r.op, r.decision.replacement)
                           for _, _, r in results]
        return self._texts

    def matches(self, query: str) -> list[int]:
        return find_matches(self._haystacks(), query)

    def _count(self, query: str) -> None:
        found = len(self.matches(query)) if query else 0
        text = "" if not query else f"{found} match{'es' if found != 1 else ''}"
        self.query_one("#search-count", Label).update(text)

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        self._count(event.value)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        self.action_step(1)

    def action_step(self, delta: int) -> None:
        """Select the next (``delta`` > 0) or previous match from the review's cursor."""
        query = self.query_one(Input).value
        if not query:
            return
        _last_query[self.target] = query
        found = self.matches(query)
        count = self.query_one("#search-count", Label)
        if not found:
            count.update("no match")
            self.notify(f"no operation contains {query!r}", severity="warning", markup=False)
            return
        here = (self.target.turn_pos, self.target.op_pos)
        position = self._places.index(here) if here in self._places else -1
        target = step(found, position, delta)
        assert target is not None
        self.target.select(*self._places[target])
        text = f"match {found.index(target) + 1} of {len(found)}"
        count.update(text)
        self.target.refresh_status(note=f"/{query}: {text}")

    def action_close(self) -> None:
        self.dismiss(None)
