"""Issue 13: a decision in the workbench re-evaluates only the turns around the one on
screen before it is shown; the later turns are evaluated after the screen has drawn it
(``BackgroundEvaluation.catch_up``), and then every row, count and mark is what a review
evaluated whole shows, on screen and on disk."""

from __future__ import annotations

from pathlib import Path

import pytest
from uikit import screen_of

from reviewtui.core.engine import Verdict
from reviewtui.shell import evaluation
from reviewtui.shell.review import Review
from reviewtui.ui import collector
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.screens.review_states import review_states

pytestmark = pytest.mark.anyio


@pytest.fixture(autouse=True)
def _collector_reset() -> object:
    yield None
    collector.reset()


async def test_a_reject_is_shown_first_and_the_later_turns_catch_up(
        line_turns: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch,
        tmp_path: Path) -> None:
    monkeypatch.setattr(evaluation, "AHEAD", 2)
    session, root = line_turns  # 60 turns, each changing one line of a.txt
    review = Review.open(session, root, first_frame=True)
    evaluated_when_shown: list[int] = []
    app = ReviewApp(review, watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = screen_of(app)
        for _ in range(200):  # the first frame's own background evaluation
            if review.evaluation_complete:
                break
            await pilot.pause(0.01)
        assert review.evaluation_complete
        shown = screen.refresh_after_decision

        def noted(*args: object, **kwargs: object) -> None:
            evaluated_when_shown.append(review.evaluated_turns)
            shown(*args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(screen, "refresh_after_decision", noted)
        screen.select(0, 0)
        await pilot.press("y")  # turn 1 accepted: written
        await app.jobs.wait_idle()
        screen.select(1, 0)
        await pilot.press("n")  # turn 2 rejected: every later edit of a.txt again
        await app.jobs.wait_idle()
        for _ in range(300):
            if review.evaluation_complete and screen.states.stale_from is None:
                break
            await pilot.pause(0.01)
        # Shown while the later turns still waited, then caught up.
        assert evaluated_when_shown
        assert min(evaluated_when_shown) < 60
        assert review.evaluation_complete
        assert screen.states.stale_from is None
        assert screen.states == review_states(review)
        assert review.result((2, 0)).decision.verdict is Verdict.REJECTED
        assert screen.states.counts == {"pending": 58, "accepted": 1, "rejected": 1,
                                        "failed": 0}
    review.close()
    assert (root / "a.txt").read_text().startswith("LINE 0\nline 1\nline 2\n")
