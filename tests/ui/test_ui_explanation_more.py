"""An explanation longer than its box says so under it, in words (QA pass s28, helper-89
F6: below 100 columns the box holds 6 lines, and its scrollbar alone, colour only, told
of the rest: the syntax details were out of sight in a monochrome terminal)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from textual.containers import VerticalScroll
from uikit import REPO, copy_session, open_app, screen_of

pytestmark = pytest.mark.anyio


def _gallery(tmp_path: Path) -> Any:
    """A dry-run workbench on the failure gallery, copied under ``tmp_path`` once."""
    if not (tmp_path / "session").exists():
        copy_session(REPO / "sample_sessions" / "failure-gallery", tmp_path)
    return open_app(tmp_path / "session" / "session.md", tmp_path / "root", dry_run=True)


async def _each_operation(screen: Any, pilot: Any) -> AsyncIterator[tuple[int, int]]:
    """Each operation of the session selected in turn, once the screen has shown it."""
    for tp, turn in enumerate(screen.review.display.turns):
        for opp in range(len(turn.results)):
            screen.select(tp, opp)
            await pilot.pause()
            await pilot.pause()
            yield tp, opp


async def test_the_cue_follows_the_box_and_its_scrolling(tmp_path: Path) -> None:
    app = _gallery(tmp_path)
    async with app.run_test(size=(80, 40)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        box = screen.query_one("#op-explain-scroll", VerticalScroll)
        seen = {}
        async for where in _each_operation(screen, pilot):
            seen[box.max_scroll_y > 0] = where
            assert box.has_class("-more") is (box.max_scroll_y > 0)
            assert bool(box.border_subtitle) is (box.max_scroll_y > 0)
        assert set(seen) == {True, False}  # the gallery has both at 80 columns
        screen.select(*seen[True])
        await pilot.pause()
        await pilot.pause()
        assert box.border_subtitle == "more below: tab to it, ↓ scrolls"
        box.scroll_end(animate=False)
        await pilot.pause()
        assert box.border_subtitle == "more above: ↑ scrolls"
        screen.select(*seen[False])
        await pilot.pause()
        await pilot.pause()
        assert not box.has_class("-more")
        assert box.border_subtitle == ""


async def test_tab_from_the_operation_list_reaches_the_explanation(tmp_path: Path) -> None:
    """"tab to it" holds: from the operation list the next stop is the explanation (the
    request above it when that overflows too), not the Accept / Reject / Edit buttons,
    which are for the mouse (their keys do the same). A click on one still decides."""
    from textual.widgets import Button

    from reviewtui.core.engine import Verdict

    app = _gallery(tmp_path)
    async with app.run_test(size=(80, 40)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        box = screen.query_one("#op-explain-scroll", VerticalScroll)
        target = None
        async for where in _each_operation(screen, pilot):
            if box.max_scroll_y > 0:
                target = where
                break
        assert target is not None  # an explanation longer than its box at 80 columns
        screen.select(*target)
        await pilot.pause()
        assert box.max_scroll_y > 0
        assert not [w for w in screen.focus_chain if isinstance(w, Button)]
        screen.query_one("#ops").focus()
        await pilot.pause()
        await pilot.press("tab")
        if app.focused is not box:  # the request, when it overflows too, comes first
            assert app.focused is not None
            assert app.focused.id == "request"
            await pilot.press("tab")
        assert app.focused is box
    app = _gallery(tmp_path)  # (the same copy again)
    async with app.run_test(size=(120, 40)) as pilot:  # (at 80 the buttons are cut)
        await pilot.pause()
        screen = screen_of(app)
        screen.select(*target)
        await pilot.pause()
        assert not [w for w in screen.focus_chain if isinstance(w, Button)]
        screen.query_one("#ops").focus()
        await pilot.pause()
        await pilot.press("tab")
        assert not isinstance(app.focused, Button)
        assert await pilot.click("#btn-reject")
        for _ in range(20):
            await pilot.pause(0.05)
            await app.workers.wait_for_complete()
        result = screen.result(*target)
        assert result is not None
        assert result.decision.verdict is Verdict.REJECTED
