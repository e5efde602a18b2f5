"""Quitting while the turns are still being evaluated in the background: Textual takes the
screen's widgets down before the app's last callbacks have run, and a slice's redraw
then found no turn list (NoMatches, failing the exit; seen once in the suite)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.widgets.lists import TurnList

pytestmark = pytest.mark.anyio


async def test_a_redraw_due_while_the_app_quits_draws_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("".join(f"line {n}\n" for n in range(40)))
    session = tmp_path / "s.md"
    session.write_text("".join(
        f"## Turn {n + 1}\n> change line {n}\n\n--- File: a.txt ---\n<<<<<<< SEARCH\n"
        f"line {n}\n=======\nLINE {n}\n>>>>>>> REPLACE\n\n" for n in range(40)))
    review = Review.open(session, root, dry_run=True, first_frame=True)
    app = ReviewApp(review, watch=False)
    shown: list[bool] = []

    def unmounting(line: Any) -> None:  # the teardown: the screen's widgets going
        background = app.jobs.on_drawn.__self__  # type: ignore[attr-defined]
        background._show(True)  # a redraw (and another slice) due right then
        shown.append(True)

    monkeypatch.setattr(TurnList, "on_unmount", unmounting, raising=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
    assert shown == [True]
    review.close()
