"""The key bar's keys are given the bar's ``compact`` before they are mounted.

``KeyFooter.compose`` sets each bound key's ``compact`` (and its class) to the bar's, so
the key's watcher finds nothing to toggle when it mounts (the stock ``Footer`` leaves
every key compact until its data binding turns it off: two style updates a key). This
checks that the keys come out as the stock bar's do -- keys, classes, ``compact``, grouped
keys and the command palette's key included, compact or not, and after the bar's
``compact`` changes -- and that building the bar no longer updates each key's styles.
"""

from __future__ import annotations

from typing import Any

import pytest
from textual.app import App, ComposeResult
from textual.binding import Binding
from textual.widget import Widget
from textual.widgets import Footer, Label
from textual.widgets._footer import FooterKey

from reviewtui.ui.widgets.footer import KeyFooter

pytestmark = pytest.mark.anyio

ARROWS = Binding.Group("Move", compact=False)
PAGES = Binding.Group("Page", compact=True)


class Keys(App[None]):
    BINDINGS = [
        Binding("y", "accept", "Accept"),
        Binding("n", "reject", "Reject"),
        Binding("h", "hidden", "Hidden", show=False),
        Binding("j", "down", "Down", group=ARROWS),
        Binding("k", "up", "Up", group=ARROWS),
        Binding("pageup", "page_up", "Page up", group=PAGES),
        Binding("pagedown", "page_down", "Page down", group=PAGES),
        Binding("x", "lone", "Lone", group=PAGES),  # a group of one reads as a plain key
    ]

    def __init__(self, bar: type[Footer], *, compact: bool) -> None:
        super().__init__()
        self.bar = bar
        self.compact = compact
        self.key_style_updates = 0

    def compose(self) -> ComposeResult:
        yield Label("body")
        yield self.bar(compact=self.compact)

    def update_styles(self, node: Any, animate: bool = True) -> None:
        if isinstance(node, FooterKey):
            self.key_style_updates += 1
        super().update_styles(node, animate)

    def action_accept(self) -> None: ...
    def action_reject(self) -> None: ...
    def action_hidden(self) -> None: ...
    def action_down(self) -> None: ...
    def action_up(self) -> None: ...
    def action_page_up(self) -> None: ...
    def action_page_down(self) -> None: ...
    def action_lone(self) -> None: ...


def drawn(bar: Footer) -> list[tuple[Any, ...]]:
    """Every node under the bar, in order: its kind, parent kind, classes, and for a key
    its key, description, whether it is compact and disabled."""
    out: list[tuple[Any, ...]] = []

    def walk(node: Widget) -> None:
        for child in node.children:
            parent = "bar" if node is bar else type(node).__name__
            row: tuple[Any, ...] = (type(child).__name__, parent, tuple(sorted(child.classes)))
            if isinstance(child, FooterKey):
                row += (child.key, child.description, child.compact, child.disabled)
            out.append(row)
            walk(child)

    walk(bar)
    return out


async def build(bar: type[Footer], *, compact: bool, flip: bool = False,
                ) -> tuple[list[tuple[Any, ...]], int]:
    app = Keys(bar, compact=compact)
    async with app.run_test(size=(160, 10)) as pilot:
        footer = app.query_one(Footer)
        assert type(footer) is bar
        for _ in range(100):  # the bar is built once the screen's bindings are ready
            await pilot.pause()
            if footer.query(FooterKey):
                break
        if flip:
            footer.compact = not compact
            await pilot.pause()
        return drawn(footer), app.key_style_updates


@pytest.mark.parametrize("compact", [False, True])
@pytest.mark.parametrize("flip", [False, True])
async def test_the_keys_are_the_stock_bars(compact: bool, flip: bool) -> None:
    stock, _ = await build(Footer, compact=compact, flip=flip)
    ours, _ = await build(KeyFooter, compact=compact, flip=flip)
    assert ours == stock
    kinds = {row[0] for row in ours}
    assert {"FooterKey", "KeyGroup", "FooterLabel"} <= kinds  # grouped keys were built
    palette = [row for row in ours if "-command-palette" in row[2]]
    assert len(palette) == 1
    assert palette[0][5] is True
    plain = [row for row in ours if row[0] == "FooterKey" and row not in palette]
    assert plain
    assert all(row[5] is (compact != flip) for row in plain)
    assert all(("-compact" in row[2]) is row[5] for row in ours if row[0] == "FooterKey")


@pytest.mark.parametrize("compact", [False, True])
async def test_building_the_bar_updates_no_bound_keys_styles(compact: bool) -> None:
    _, stock = await build(Footer, compact=compact)
    _, ours = await build(KeyFooter, compact=compact)
    keys = 7  # shown: y, n, j, k, pageup, pagedown, x (h is hidden), then the palette's
    # The stock bar: each bound key made compact as it mounts, then (not compact) not.
    assert stock >= (keys if compact else 2 * keys)
    assert ours <= 1  # at most the palette's own key (compact by default)
