"""The search bar reads the operations, not their evaluation, and a large session's texts
are read in slices: a query or a step asked for meanwhile is answered when they are."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest
from textual.widgets import Input, Label, TextArea
from uikit import open_app, screen_of

from reviewtui.ui.screens import search
from reviewtui.ui.screens.search import SearchScreen

SIZE = (120, 40)
pytestmark = pytest.mark.anyio


def hold_the_slices(monkeypatch: pytest.MonkeyPatch) -> asyncio.Event:
    """Read the tour (four turns) a turn per slice, and hold the reading after its first
    slice until the returned event is set."""
    release = asyncio.Event()

    async def held(self: SearchScreen) -> None:
        await asyncio.wait_for(release.wait(), 10)

    monkeypatch.setattr(search, "SLICE_TURNS", 1)
    monkeypatch.setattr(SearchScreen, "_between_slices", held)
    return release


async def test_a_step_asked_before_the_texts_are_read_is_taken_when_they_are(
        tour: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    session, root = tour
    release = hold_the_slices(monkeypatch)
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await pilot.press("slash")
        await pilot.pause()
        bar = app.screen
        assert isinstance(bar, SearchScreen)
        await pilot.press(*"GREETING")
        await pilot.pause()
        count = bar.query_one("#search-count", Label)
        assert not bar.ready
        assert str(count.render()) == "reading the operations…"
        await pilot.press("enter")
        await pilot.pause()
        assert (screen.turn_pos, screen.op_pos) == (0, 0)  # not yet
        release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert bar.ready
        # "greeting" (any case) is in the :mv, the three import edits and the changelog.
        assert (screen.turn_pos, screen.op_pos) == (1, 0)
        assert str(count.render()) == "match 1 of 5"


async def test_a_bar_closed_before_its_texts_are_read_is_left_alone(
        tour: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    session, root = tour
    release = hold_the_slices(monkeypatch)
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await pilot.press("slash", *"GREETING", "enter", "escape")
        await pilot.pause()
        assert app.screen is screen
        release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert app.screen is screen
        assert (screen.turn_pos, screen.op_pos) == (0, 0)  # the closed bar moved nothing


async def test_an_edited_operation_is_found_by_the_reviewers_text(
        tour: tuple[Path, Path]) -> None:
    session, root = tour
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await pilot.press("e")
        await pilot.pause()
        app.screen.query_one(TextArea).text = '    return f"Salutations, {name}!"'
        await pilot.press("ctrl+s")
        await pilot.pause()
        screen.select(2, 0)
        await pilot.press("slash", *"salutations")
        await pilot.pause()
        bar = app.screen
        assert isinstance(bar, SearchScreen)
        assert str(bar.query_one("#search-count", Label).render()) == "1 match"
        await pilot.press("enter")
        await pilot.pause()
        assert (screen.turn_pos, screen.op_pos) == (0, 0)
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("slash")
        await pilot.pause()
        assert app.screen.query_one(Input).value == "salutations"
