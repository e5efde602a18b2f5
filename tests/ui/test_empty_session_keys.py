"""A session with no turns (an empty file, a reply with nothing in it): every key of the
review screen leaves the app running. ``A`` indexed the turn list and crashed it with a
traceback, and the process still exited 0 (found in a real terminal, 2026-12-04)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.binding import Binding
from uikit import screen_of

from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.screens.main import MainScreen
from reviewtui.ui.screens.main_keys import MAIN_BINDINGS

pytestmark = pytest.mark.anyio

_QUITS = {"quit_review"}


def _keys() -> list[str]:
    keys = []
    for binding in MAIN_BINDINGS:
        assert isinstance(binding, Binding)
        if binding.action not in _QUITS:
            keys.append(binding.key.split(",")[0])
    return keys


async def test_every_key_on_a_session_of_no_turns(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    session = tmp_path / "session.md"
    session.write_text("")
    review = Review.open(session, root, dry_run=True)
    assert review.display.turns == []
    app = ReviewApp(review, watch=False)
    pressed = _keys()
    assert "A" in pressed
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        for key in pressed:
            await pilot.press(key)
            await pilot.pause()
            while not isinstance(app.screen, MainScreen):  # a dialog, help, the palette
                await pilot.press("escape")
                await pilot.pause()
            assert app.is_running, key
        # An outside change (the watcher) redraws the review as a decision does.
        screen_of(app).refresh_after_decision()
        await pilot.pause()
        assert app.is_running
    review.close()
    assert app.return_code in (0, None)
