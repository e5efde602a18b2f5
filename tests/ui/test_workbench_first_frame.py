"""Issue 13: the workbench paints first and evaluates the rest of the session afterwards,
a slice at a time on the event loop; decisions made meanwhile land on disk as they
would have after a full evaluation."""

from __future__ import annotations

from pathlib import Path

import pytest
from uikit import screen_of

from reviewtui.core.engine.opstate import OpState
from reviewtui.shell.review import Review
from reviewtui.ui import evaluating
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.widgets.lists import TurnList
from reviewtui.ui.widgets.status_line import StatusLine

pytestmark = pytest.mark.anyio
TURNS = 30
SIZE = (120, 40)


def _session(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("".join(f"line {n}\n" for n in range(TURNS)))
    text = "".join(f"## Turn {n + 1}\n> change line {n}\n\n--- File: a.txt ---\n"
                   f"<<<<<<< SEARCH\nline {n}\n=======\nLINE {n}\n>>>>>>> REPLACE\n\n"
                   for n in range(TURNS))
    session = tmp_path / "s.md"
    session.write_text(text)
    return session, root


def _row(app: ReviewApp, pos: int) -> str:
    return str(screen_of(app).query_one("#turns", TurnList).get_option_at_index(pos).prompt)


def _status(app: ReviewApp) -> str:
    return str(screen_of(app).query_one(StatusLine).render())


async def test_paints_before_evaluation_and_decisions_meanwhile_land(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(evaluating, "SLICE", 0.0)  # one turn per slice
    monkeypatch.setattr(evaluating, "PAUSE", 0.05)
    session, root = _session(tmp_path)
    review = Review.open(session, root, first_frame=True)
    assert review.evaluated_turns == 1
    app = ReviewApp(review, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        assert screen.first_frame_at is not None  # painted ...
        assert not review.evaluation_complete  # ... before evaluation finished
        assert "evaluating" in _row(app, TURNS - 1)
        await pilot.pause(0.12)
        assert f"/{TURNS} turns" in _status(app)
        await pilot.press("y")  # turn 1's edit
        await pilot.pause()
        assert (root / "a.txt").read_text().splitlines()[0] == "LINE 0"
        screen.select(24, 0)  # a turn not evaluated yet: evaluated when shown
        await pilot.pause()
        assert review.evaluated_turns >= 25
        await pilot.press("y")
        await pilot.pause()
        assert not review.evaluation_complete or review.evaluated_turns == TURNS
        for _ in range(400):
            if review.evaluation_complete:
                break
            await pilot.pause(0.02)
        assert review.evaluation_complete
        for _ in range(400):  # the rows are redrawn on the loop after the last slice
            if "evaluating" not in _row(app, TURNS - 1):
                break
            await pilot.pause(0.025)
        assert "evaluating" not in _row(app, TURNS - 1)
        assert "evaluating" not in _status(app)
        states = [screen.state_of(r) for t in review.display.turns for r in t.results]
        assert states.count(OpState.ACCEPTED) == 2
    lines = (root / "a.txt").read_text().splitlines()
    assert [n for n, line in enumerate(lines) if line.startswith("LINE")] == [0, 24]
    assert lines[1] == "line 1"
    assert lines[29] == "line 29"


async def test_a_decision_that_finishes_the_evaluation_redraws_the_rows(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``y`` on the last evaluated turn's operation looks for the next undecided one in
    the turns not evaluated yet, and evaluates them all there and then. Their rows kept
    "… evaluating" for good: the states were updated without the rows, and the next
    background slice found nothing changed to draw (a fresh-clone CI run under load,
    2026-12-04). Here the background slices never come in time."""
    monkeypatch.setattr(evaluating, "PAUSE", 30.0)
    session, root = _session(tmp_path)
    review = Review.open(session, root, first_frame=True)
    app = ReviewApp(review, watch=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        assert "evaluating" in _row(app, TURNS - 1)
        await pilot.press("y")  # turn 1's edit: the next undecided is in turn 2, unevaluated
        await screen.jobs.wait_idle()
        await pilot.pause()
        assert review.evaluation_complete
        assert not any("evaluating" in _row(app, pos) for pos in range(TURNS))
        assert "evaluating" not in _status(app)
