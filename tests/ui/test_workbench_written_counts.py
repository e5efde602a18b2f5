"""An accept the disk holds but the screen's run would not find (issue 15, one definition
of each count): turn 1 changes ``x = 1`` to ``x = 2``; turn 2, written against the base,
changes ``x = 1`` to ``x = 5``. Reject turn 1, accept turn 2 (it is written: the disk holds
``x = 5``), then turn 1 is pending again. The display run applies pending turn 1 first, so
turn 2's SEARCH is not found there; but turn 2 is accepted and written, and the status
line, its row, ``stats`` and every export say accepted.

``u`` cannot bring turn 1 back alone today (undo is linear: it takes turn 2's accept back
first), so turn 1 goes back to pending through the screen's own decision path with a
pending decision (what the outside-change revert records): a review job whose states are
computed incrementally, as after any key.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Static
from uikit import grouped_counts, open_app, screen_of, status_counts, two_edit_session

from reviewtui.cli import main
from reviewtui.core.engine.decisions import PENDING
from reviewtui.core.engine.opstate import OpState
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.screens.review_states import review_states
from reviewtui.ui.widgets.op_detail import OpDetail

pytestmark = pytest.mark.anyio
SIZE = (160, 40)


@pytest.fixture
def diverged(tmp_path: Path) -> tuple[Path, Path]:
    return two_edit_session(tmp_path, second_search="x = 1")


async def _settle(app: ReviewApp, pilot: object) -> None:
    await app.workers.wait_for_complete()
    await pilot.pause()  # type: ignore[attr-defined]


async def test_written_accept_counts_accepted_on_screen_in_stats_and_exports(
        diverged: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    session, root = diverged
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        screen.select(0, 0)
        await pilot.pause()
        await pilot.press("n")
        await _settle(app, pilot)
        screen.select(1, 0)
        await pilot.pause()
        await pilot.press("y")
        await _settle(app, pilot)
        assert (root / "a.py").read_text() == "x = 5\n"
        assert status_counts(app) == {"accepted": 1, "rejected": 1}
        # Turn 1 pending again, through the screen's decision job (incremental states).
        screen.select(0, 0)
        await pilot.pause()
        screen.decide(PENDING)
        await _settle(app, pilot)
        assert screen.review.result((1, 0)).decision.verdict.value == "pending"
        shown = status_counts(app)
        # The states the job computed from the ones before equal a full computation.
        assert screen.states == review_states(screen.review)
        screen.select(1, 0)
        await pilot.pause()
        row = screen.result(1, 0)
        assert row is not None
        assert screen.state_of(row) is OpState.ACCEPTED
        assert screen.states.turns[1] == [OpState.ACCEPTED]
        subtitle = str(screen.query_one("#op-subtitle", Static).render())
        assert subtitle.startswith("✓ accepted"), subtitle
        detail = screen.query_one(OpDetail)
        explanation = str(detail.view.explanation.plain) if detail.view else ""
        assert "Written as shown" in explanation
        assert "pending turn 1 Edit 1 · a.py" in explanation
    assert shown == {"pending": 1, "accepted": 1}
    assert (root / "a.py").read_text() == "x = 5\n"

    capsys.readouterr()
    assert main(["stats", str(session), "--root", str(root), "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)
    assert grouped_counts(stats["total"]["decisions"]) == shown
    assert stats["total"]["failed"] == 0
    assert main(["export", str(session), "--root", str(root), "--format", "json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert grouped_counts(doc["totals"]["by_decision"]) == shown
    assert doc["totals"]["failed"] == 0
    rows = [op for turn in doc["turns"] for op in turn["ops"]]
    assert [r["decision"] for r in rows] == ["pending", "accepted"]
    assert main(["export", str(session), "--root", str(root), "--format", "patch"]) == 0
    assert "+x = 5" in capsys.readouterr().out
    assert (root / "a.py").read_text() == "x = 5\n"

    # Reopened, the saved accept stands (it lands where it was written): same counts,
    # nothing taken back, the disk untouched.
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        await _settle(app, pilot)
        assert status_counts(app) == shown
        assert not screen_of(app).review.state_problems
    assert (root / "a.py").read_text() == "x = 5\n"
