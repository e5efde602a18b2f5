"""``/``: find operations whose title, path, SEARCH/REPLACE or full-file text holds a query.

A one-line bar over the bottom of the review screen, which stays visible and follows
the matches. Enter (or down, F3) selects the next match after the cursor, shift+Enter
(or up, shift+F3) the previous one; both wrap. The bar and the status line say
"match i of N"; escape closes the bar and keeps the selection. The last query is
offered again the next time the bar opens.

The bar is handed the session's turns, the reviewer's decisions (an edited operation is
found by its new text too) and the review screen's cursor; it tells the screen which
operation to select by posting :class:`SearchScreen.Found` to it. It reads the operations
themselves, not their evaluation: opening it never evaluates the turns the workbench has
not reached yet. A large session's texts are gathered and folded in slices, the event
loop free between two (about a third of a second in all at 50,000 operations): until
they are read, the count says so, and a query typed or a step asked for meanwhile is
answered when they are. Its keys are live once it is mounted (ready.py).
"""

from __future__ import annotations

import asyncio
from bisect import bisect_left
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from weakref import WeakKeyDictionary

from textual import on
from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Horizontal
from textual.message import Message
from textual.message_pump import MessagePump
from textual.widgets import Input, Label

from reviewtui.core.engine.decisions import Decision, OpKey
from reviewtui.core.model.records import Turn
from reviewtui.core.review.search import SearchIndex, operation_text, step
from reviewtui.ui.opview import op_title
from reviewtui.ui.screens.ready import ReadyModal

HINT = "enter next · ↑ previous · esc close"
# The last query, per review screen (offered again when its bar opens).
_last_query: WeakKeyDictionary[MessagePump, str] = WeakKeyDictionary()
# A session of more turns than this is read in slices of this many turns, the event loop
# free between two (a slice of ten-operation turns takes ~6 ms).
SLICE_TURNS = 100


def search_texts(turns: Sequence[Turn], decisions: Mapping[OpKey, Decision], *,
                 first: int = 0) -> tuple[list[tuple[int, int]], list[str]]:
    """Each operation's place (turn position, operation position) and searched text, in
    reading order: its title, its text and the reviewer's own replacement, if any.
    ``turns`` are the session's from position ``first`` on."""
    places: list[tuple[int, int]] = []
    texts: list[str] = []
    for tp, turn in enumerate(turns, first):
        for opp, op in enumerate(turn.reply.ops):
            decision = decisions.get((turn.index, opp))
            places.append((tp, opp))
            texts.append(op_title(op) + "\n" + operation_text(
                op, decision.replacement if decision is not None else None))
    return places, texts


class SearchScreen(ReadyModal[None]):
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

    def __init__(self, turns: Sequence[Turn], decisions: Mapping[OpKey, Decision],
                 here: tuple[int, int], *, reply_to: MessagePump) -> None:
        """``turns``: the session's turns in reading order; ``decisions``: the reviewer's,
        by operation; ``here``: the review screen's cursor; ``reply_to``: the screen to
        post Found to."""
        super().__init__()
        self.reply_to = reply_to
        self.here = here
        self._turns = turns
        self._decisions = decisions
        self._places: list[tuple[int, int]] = []
        self._index: SearchIndex | None = None
        self._waiting_step: int | None = None  # a step asked for before the index was ready

    def compose(self) -> ComposeResult:
        with Horizontal(id="search-bar"):
            yield Label("/", id="search-slash")
            yield Input(_last_query.get(self.reply_to, ""), placeholder="search operations",
                        id="search-input")
            yield Label("", id="search-count")
            yield Label(HINT, id="search-hint")

    def on_mount(self) -> None:
        if self.dismissed:
            return  # closed before it was drawn: its widgets are going
        self.query_one(Input).focus()
        if len(self._turns) <= SLICE_TURNS:
            places, texts = search_texts(self._turns, self._decisions)
            self._ready(places, SearchIndex(texts))
        else:
            self.run_worker(self._read_in_slices(), exclusive=True, group="search-index")
            self._count(self.query_one(Input).value)

    async def _read_in_slices(self) -> None:
        places: list[tuple[int, int]] = []
        index = SearchIndex()
        for first in range(0, len(self._turns), SLICE_TURNS):
            more, texts = search_texts(self._turns[first:first + SLICE_TURNS],
                                       self._decisions, first=first)
            places += more
            index.add(texts)
            await self._between_slices()
        self._ready(places, index)

    async def _between_slices(self) -> None:
        """Let the event loop draw and read keys (and the tests hold the reading here)."""
        await asyncio.sleep(0)

    def _ready(self, places: list[tuple[int, int]], index: SearchIndex) -> None:
        self._places, self._index = places, index
        if self.dismissed:
            return  # closed while the texts were read: nothing left to show them
        self._count(self.query_one(Input).value)
        if self._waiting_step is not None:
            delta, self._waiting_step = self._waiting_step, None
            self.action_step(delta)

    @property
    def ready(self) -> bool:
        """Whether the operations' texts are gathered (queries are answered)."""
        return self._index is not None

    def matches(self, query: str) -> list[int]:
        return self._index.matches(query) if self._index is not None else []

    def _count(self, query: str) -> None:
        if not query:
            text = ""
        elif self._index is None:
            text = "reading the operations…"
        else:
            found = len(self.matches(query))
            text = f"{found} match{'es' if found != 1 else ''}"
        self.query_one("#search-count", Label).update(text)

    @on(Input.Changed)
    def _changed(self, event: Input.Changed) -> None:
        if not self.dismissed:
            self._count(event.value)

    @on(Input.Submitted)
    def _submitted(self, event: Input.Submitted) -> None:
        event.stop()
        if not self.dismissed:
            self.action_step(1)

    def action_step(self, delta: int) -> None:
        """Select the next (``delta`` > 0) or previous match from the review's cursor."""
        query = self.query_one(Input).value
        if not query:
            return
        _last_query[self.reply_to] = query
        if self._index is None:
            self._waiting_step = delta  # answered by _ready
            return
        found = self.matches(query)
        count = self.query_one("#search-count", Label)
        if not found:
            count.update("no match")
            self.notify(f"no operation contains {query!r}", severity="warning", markup=False)
            return
        # The places are in reading order: the cursor's is found by bisection.
        position = bisect_left(self._places, self.here)
        if position == len(self._places) or self._places[position] != self.here:
            position = -1  # a turn without operations: from the start
        target = step(found, position, delta)
        assert target is not None
        self.here = self._places[target]
        text = f"match {bisect_left(found, target) + 1} of {len(found)}"
        count.update(text)
        self.reply_to.post_message(self.Found(*self.here, note=f"/{query}: {text}"))

    def action_close(self) -> None:
        self.dismiss(None)
