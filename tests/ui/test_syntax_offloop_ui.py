"""The syntax check of a big file stays off the event loop: a key that re-titles the
operation rows (the side panel's `b`, a resize) shows the badge only once the worker has
the answer, and never runs the check itself."""

from __future__ import annotations

from pathlib import Path

import pytest
from uikit import copy_session, open_app, screen_of

from reviewtui.core.review.diagnostics import diagnose_cached
from reviewtui.ui.screens.main_panes import ReviewPanes

SIZE = (120, 40)


def _big_session(tmp_path: Path) -> Path:
    session = tmp_path / "session"
    (session / "base").mkdir(parents=True)
    body = "".join(f"function g{n}(x) {{\n  return x * {n};\n}}\n" for n in range(3000))
    (session / "base" / "big.js").write_text(body)
    (session / "session.md").write_text(
        "# Session: big\n\n## Turn 1\n> edit\n\n--- File: big.js ---\nEdit 1\n"
        "<<<<<<< SEARCH\n  return x * 1500;\n}\n=======\n  return x * 1500;\n"
        ">>>>>>> REPLACE\n")
    return session


@pytest.mark.anyio
async def test_toggling_the_panel_and_resizing_do_not_run_a_big_check(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # No worker: whatever computes the check now would be the event loop itself.
    monkeypatch.setattr(ReviewPanes, "run_syntax_checks", lambda self, results: None)
    session, root = copy_session(_big_session(tmp_path), tmp_path / "copy")
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        result = screen_of(app).result(0, 0)
        assert result is not None
        await pilot.pause()
        assert diagnose_cached(result) is None  # first paint did not check it
        await pilot.press("b")
        await pilot.pause()
        await pilot.press("b")
        await pilot.pause()
        await pilot.resize_terminal(100, 36)
        await pilot.pause()
        assert diagnose_cached(result) is None
