"""``update_static`` on a Static whose height follows its content (the operation's
subtitle and explanation): no screen layout when the new content has as many lines, a
layout (and what is below it moved) when it has not; the new text shown either way."""

from __future__ import annotations

import pytest
from rich.text import Text
from textual.app import App, ComposeResult
from textual.widgets import Static

from reviewtui.ui.widgets.static_update import update_static

pytestmark = pytest.mark.anyio


class Column(App[None]):
    CSS = """
    #auto { height: auto; }
    #below { height: 1; }
    #bounded { height: auto; max-height: 2; }
    """

    def compose(self) -> ComposeResult:
        yield Static(Text("one\ntwo"), id="auto")
        yield Static("below", id="below")
        yield Static("x", id="bounded")


def shown(widget: Static) -> str:
    return "\n".join(strip.text for strip in widget.render_lines(widget.region.reset_offset))


async def test_same_line_count_updates_without_a_layout() -> None:
    app = Column()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        auto = app.query_one("#auto", Static)
        below = app.query_one("#below", Static)
        assert below.region.y == 2
        update_static(auto, Text("three\nfour"))
        assert not auto._layout_required  # noqa: SLF001
        await pilot.pause()
        assert below.region.y == 2
        assert shown(auto).split() == ["three", "four"]


async def test_more_lines_lay_the_screen_out_again() -> None:
    app = Column()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        auto = app.query_one("#auto", Static)
        below = app.query_one("#below", Static)
        update_static(auto, Text("a\nb\nc"))
        assert auto._layout_required  # noqa: SLF001
        await pilot.pause()
        assert auto.region.height == 3
        assert below.region.y == 3
        update_static(auto, Text("a long line that wraps at forty cells of width, surely"))
        await pilot.pause()
        assert auto.region.height == 2  # wrapped: its height at its width, not its lines
        assert below.region.y == 2


async def test_a_bounded_height_takes_the_usual_way() -> None:
    app = Column()
    async with app.run_test(size=(40, 10)) as pilot:
        await pilot.pause()
        bounded = app.query_one("#bounded", Static)
        update_static(bounded, Text("y"))
        assert bounded._layout_required  # noqa: SLF001
        await pilot.pause()
        assert shown(bounded).strip() == "y"
