"""``/``: find operations whose title, path, SEARCH/REPLACE or full-file text holds a query.

A one-line bar over the bottom of the review screen, which stays visible and follows
the matches. Enter (or down, F3) selects the next match after the cursor, shift+Enter
(or up, shift+F3) the previous one; both wrap. The bar and the status line say
"match i of N"; escape closes the bar and keeps the selection. The last query is
offered again the next time the bar opens.

The bar is handed the operations to search and the review screen's cursor; it tells the
screen which operation to select by posting :class:`SearchScreen.Found` to it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.message_pump import MessagePump
from textual.screen import ModalScreen
from textual.widgets import Input, Label

from reviewtui.core.engine import OpResult
from reviewtui.core.review.search import find_matches, operation_text, step
from reviewtui.ui.opview import op_title

HINT = "enter next · shift+enter previous · esc close"
# The last query, per review screen (offered again when its bar opens).
_last_query: WeakKeyDictionary[MessagePump, str] = WeakKeyDictionary()


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

    @dataclass
    class Found(Message):
        """Select the operation at (turn position, operation position); say ``note``."""

        turn_pos: int
        op_pos: int
        note: str

    def __init__(self, results: Sequence[tuple[int, int, OpResult]], here: tuple[int, int],
                 *, reply_to: MessagePump) -> None:
        """``results``: (turn position, operation position, result) in reading order;
        ``here``: the review screen's cursor; ``reply_to``: the screen to post Found to."""
        super().__init__()
        self.reply_to = reply_to
        self.here = here
        self._results = results
        self._texts: list[str] | None = None
        self._places = [(tp, opp) for tp, opp, _ in results]

    def compose(self) -> ComposeResult:
        with Horizontal(id="search-bar"):
            yield Label("/", id="search-slash")
            yield Input(_last_query.get(self.reply_to, ""), placeholder="search operations",
                        id="search-input")
            yield Label("", id="search-count")
            yield Label(HINT, id="search-hint")

    def on_mount(self) -> None:
        self.query_one(Input).focus()
        self._count(self.query_one(Input).value)

    def _haystacks(self) -> list[str]:
        if self._texts is None:
            self._texts = [op_title(r.op) + "\n" + operation_text(r.op, r.decision.replacement)
                           for _, _, r in self._results]
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
        _last_query[self.reply_to] = query
        found = self.matches(query)
        count = self.query_one("#search-count", Label)
        if not found:
            count.update("no match")
            self.notify(f"no operation contains {query!r}", severity="warning", markup=False)
            return
        position = self._places.index(self.here) if self.here in self._places else -1
        target = step(found, position, delta)
        assert target is not None
        self.here = self._places[target]
        text = f"match {found.index(target) + 1} of {len(found)}"
        count.update(text)
        self.reply_to.post_message(self.Found(*self.here, note=f"/{query}: {text}"))

    def action_close(self) -> None:
        self.dismiss(None)
