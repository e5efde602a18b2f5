"""The raw reply view marks lint's findings even when it was opened before lint was done.

Lint runs in a worker after the background evaluation, so a reviewer who presses `r` at
once used to see the raw reply without its marks until they opened it again.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from uikit import GALLERY, copy_session, open_app, screen_of

from reviewtui.ui.screens import main_panes
from reviewtui.ui.screens.raw import RawReplyScreen

pytestmark = pytest.mark.anyio


def _text_of(screen: RawReplyScreen) -> str:
    return str(screen.query_one("#raw-text").render())


async def test_findings_that_arrive_later_are_marked_in_an_open_raw_view(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    real: Callable[..., Any] = main_panes.lint_session

    def held_lint(*args: Any, **kwargs: Any) -> Any:
        assert release.wait(30), "the test never let lint finish"
        return real(*args, **kwargs)

    monkeypatch.setattr(main_panes, "lint_session", held_lint)
    app = open_app(*copy_session(GALLERY, tmp_path), dry_run=True)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = screen_of(app)
        await pilot.pause()
        screen.select(1, 0)
        await pilot.press("r")
        await pilot.pause()
        raw = app.screen
        assert isinstance(raw, RawReplyScreen)
        assert "search-replace-too-costly" not in _text_of(raw)  # lint still held
        assert not screen.findings
        release.set()
        for _ in range(400):
            if "search-replace-too-costly" in _text_of(raw):
                break
            await pilot.pause(0.025)
        assert screen.findings
        assert "search-replace-too-costly" in _text_of(raw)
        assert app.screen is raw  # still the raw view, now with its mark
