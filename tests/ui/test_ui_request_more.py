"""A request longer than its lines says so under it and takes the focus, so the keyboard
reads the rest (its scrollbar, colour only, was the one sign, and only a mouse reached it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from uikit import REPO, copy_session, open_app, screen_of, until

from reviewtui.ui.widgets.request_block import RequestBlock

pytestmark = pytest.mark.anyio


async def test_a_long_request_is_said_reached_by_tab_and_scrolled(tmp_path: Path) -> None:
    session, root = copy_session(REPO / "sample_sessions" / "refactor-multi-turn", tmp_path)
    app = open_app(session / "session.md", root, dry_run=True)
    async with app.run_test(size=(160, 40)) as pilot:
        block = screen_of(app).query_one(RequestBlock)
        await until(pilot, lambda: block.can_focus)
        assert block.max_scroll_y > 0  # turn 1's request: 5 lines and its heading, in 6
        assert block.border_subtitle == "more below: tab to it, ↓ scrolls"
        await pilot.press("tab")  # from the operation list
        assert app.focused is block
        await pilot.press("down")
        await until(pilot, lambda: block.border_subtitle == "more above: ↑ scrolls")
        assert block.scroll_y == block.max_scroll_y
        await pilot.press("shift+tab", "R")  # back to the list; fold the request
        await until(pilot, lambda: not block.can_focus)
        assert block.border_subtitle == ""


async def test_a_request_that_fits_takes_no_focus(tour: tuple[Path, Path]) -> None:
    session, root = tour
    app = open_app(session, root)
    async with app.run_test(size=(160, 50)) as pilot:
        block = screen_of(app).query_one(RequestBlock)
        await until(pilot, lambda: block.size.height > 0)
        await pilot.pause()
        assert block.max_scroll_y == 0
        assert not block.can_focus
        assert block.border_subtitle == ""
