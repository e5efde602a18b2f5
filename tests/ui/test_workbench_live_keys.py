"""Keys that cannot act are not live: check_action follows the review screen's state."""

from __future__ import annotations

from pathlib import Path

import pytest
from uikit import open_app, screen_of

from reviewtui.ui.screens.main import MainScreen

SIZE = (120, 40)

pytestmark = pytest.mark.anyio


def live(screen: MainScreen, key: str) -> bool:
    bound = screen.active_bindings.get(key)
    return bound is not None and bound.enabled


async def test_redo_is_live_only_after_an_undo(tour: tuple[Path, Path]) -> None:
    app = open_app(*tour)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        assert not live(screen, "U")
        assert not screen.check_action("unpin", ())  # nothing restored: nothing pinned
        await pilot.press("y", "u")
        assert live(screen, "U")
        await pilot.press("U")
        assert not live(screen, "U")
        assert app.review.decisions  # the redo took the accept back in


async def test_force_is_live_only_on_an_operation_that_can_be_forced(
        gallery: tuple[Path, Path]) -> None:
    app = open_app(*gallery, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        places = {r.outcome.forceable: (tp, opp) for tp, opp, r in screen.iter_results()}
        assert set(places) == {True, False}, "the gallery has both kinds"
        screen.select(*places[False])
        await pilot.pause()
        assert not live(screen, "F")
        await pilot.press("F")  # not live: nothing is decided
        assert app.review.decisions == {}
        screen.select(*places[True])
        await pilot.pause()
        assert live(screen, "F")


async def test_edit_is_live_and_shown_only_on_an_operation_with_text(
        tour: tuple[Path, Path]) -> None:
    """QA pass 84c: a console command showed an "Edit e" button and `e Edit` in the footer,
    and `e` answered that it has no text to edit. Both are gone there now; the key, not
    offered, still says why it does nothing (QA s28/s29: it was silent)."""
    from textual.widgets import Button

    from reviewtui.core.model.records import ConsoleCommand
    from reviewtui.ui.screens.edit import EditScreen

    app = open_app(*tour, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        places = {isinstance(r.op, ConsoleCommand): (tp, opp)
                  for tp, opp, r in screen.iter_results()}
        assert set(places) == {True, False}, "the tour has both kinds"
        button = screen.query_one("#btn-edit", Button)
        screen.select(*places[True])
        await pilot.pause()
        assert not screen.check_action("edit", ())
        bound = screen.active_bindings.get("e")
        assert bound is not None
        assert bound.binding.action == "no_edit"
        assert not bound.binding.show  # not offered in the key bar
        assert not button.display
        await pilot.press("e")
        await pilot.pause()
        assert not isinstance(app.screen, EditScreen)
        assert [n.message for n in app._notifications] == [
            "a console command has no text to edit: y accepts it, n rejects it"]
        screen.select(*places[False])
        await pilot.pause()
        assert live(screen, "e")
        assert button.display
        await pilot.press("e")
        await pilot.pause()
        assert isinstance(app.screen, EditScreen)
