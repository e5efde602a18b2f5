"""Presenter mode: narration, clicker keys, autoplay, and the dry-run banner."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static
from uikit import TOUR, copy_session, open_app, until

from reviewtui.ui.app import ReviewApp
from reviewtui.ui.screens.presenter import PresenterScreen

pytestmark = pytest.mark.anyio


def presenter_app(tmp_path: Path, *, dry_run: bool = True) -> ReviewApp:
    return open_app(*copy_session(TOUR, tmp_path), dry_run=dry_run, present=True)


def narration(app: ReviewApp) -> str:
    return str(app.screen.query_one("#narration", Static).render())


async def test_narration_follows_the_clicker(tmp_path: Path) -> None:
    app = presenter_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        # Written with the screen's first detail: on a loaded machine after the first pause.
        await until(pilot, lambda: bool(narration(app)))
        screen = app.screen
        assert isinstance(screen, PresenterScreen)
        assert "Turn 1 of 5" in narration(app)
        assert "Fix the typo" in narration(app)
        await pilot.press("pagedown")
        await pilot.pause()
        assert (screen.turn_pos, screen.op_pos) == (1, 0)
        assert "Turn 2 of 5" in narration(app)
        assert "matched by mv" in narration(app)
        await pilot.press("pageup")
        await pilot.pause()
        assert (screen.turn_pos, screen.op_pos) == (0, 0)
        banner = app.screen.query_one("#dry-run-banner", Static)
        assert "nothing you decide here touches the disk" in str(banner.render())


async def test_autoplay_steps_and_stops_at_the_end(tmp_path: Path) -> None:
    app = presenter_app(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = app.screen
        assert isinstance(screen, PresenterScreen)
        for _ in range(4):
            await pilot.press("plus")  # fastest: one second per operation
        assert screen.interval == 1.0
        await pilot.press("p")
        assert screen.playing
        assert "playing" in narration(app)
        screen.select(4, 1)  # near the end
        screen._tick()
        await pilot.pause()
        assert (screen.turn_pos, screen.op_pos) == (4, 2)
        screen._tick()  # at the last operation: autoplay stops, no wrap-around
        await pilot.pause()
        assert not screen.playing
        assert (screen.turn_pos, screen.op_pos) == (4, 2)
        await pilot.press("minus")
        assert screen.interval == 2.0


async def test_live_presenter_has_no_banner_and_still_decides(tmp_path: Path) -> None:
    app = presenter_app(tmp_path, dry_run=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        assert not app.screen.query("#dry-run-banner")
        await pilot.press("y")
        await pilot.pause()
        assert "Hello, {name}" in (tmp_path / "root" / "greeter/core.py").read_text()
