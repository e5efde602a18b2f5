"""The statistics screen shows its counts before the syntax check ends, then adds it."""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import pytest
from textual.widgets import Static
from uikit import DIAGNOSTICS, copy_session, open_app

import reviewtui.ui.screens.stats as stats_screen
from reviewtui.core.review.stats import SessionStats
from reviewtui.ui.screens.stats import StatsScreen

pytestmark = pytest.mark.anyio


async def test_counts_first_then_the_syntax_errors(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    release = threading.Event()
    real = stats_screen.with_syntax

    def held(stats: SessionStats, accepted: Any) -> SessionStats:
        assert release.wait(30), "the test never released the syntax check"
        return real(stats, accepted)

    monkeypatch.setattr(stats_screen, "with_syntax", held)
    app = open_app(*copy_session(DIAGNOSTICS, tmp_path))
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("S")
        for _ in range(200):
            await pilot.pause(0.02)
            if app.screen.query("#stats-head"):
                break
        assert isinstance(app.screen, StatsScreen)
        head = str(app.screen.query_one("#stats-head", Static).content)
        assert "checking which operations introduce syntax errors" in head
        assert "syntax errors," not in head
        texts = [str(s.content) for s in app.screen.query(Static)]
        assert any(t.startswith("per turn") for t in texts)
        release.set()
        await app.workers.wait_for_complete()
        await pilot.pause()
        head = str(app.screen.query_one("#stats-head", Static).content)
        assert "1 introduce syntax errors" in head
        assert "checking" not in head
        # Closed and opened again at the same revision: everything at once, from the cache.
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("S")
        head = str(app.screen.query_one("#stats-head", Static).content)
        assert "1 introduce syntax errors" in head
