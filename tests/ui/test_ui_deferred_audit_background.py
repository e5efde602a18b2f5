"""Audit of the deferred display (issue 13): the background evaluation
(``ui/evaluating.py``) when a review job is busy at the moment a walk ends."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from uikit import screen_of

from reviewtui.shell.review import Review
from reviewtui.ui import collector
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.review_jobs import ReviewJobs

pytestmark = pytest.mark.anyio


@pytest.fixture(autouse=True)
def _collector_reset() -> object:
    yield None
    collector.reset()


class _Held:
    """The app's review jobs, seen busy (a decision's job running in its thread)."""

    busy = True

    def __init__(self, jobs: ReviewJobs) -> None:
        self._jobs = jobs

    def __getattr__(self, name: str) -> Any:
        return getattr(self._jobs, name)


async def test_findings_load_when_the_opening_ends_while_a_job_runs(
        line_turns: tuple[Path, Path]) -> None:
    """The opening's last slice finds a job busy (a decision taken meanwhile): the
    findings (lint, loaded only once every turn is evaluated) must still come once the
    job is done, not be dropped for good."""
    session, root = line_turns
    review = Review.open(session, root, first_frame=True, dry_run=True)
    app = ReviewApp(review, watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = screen_of(app)
        loaded: list[int] = []
        screen.load_findings = lambda: loaded.append(1)  # type: ignore[method-assign]
        assert not review.evaluation_complete
        jobs = screen.jobs
        screen._jobs = _Held(jobs)  # type: ignore[assignment]
        for _ in range(300):
            if review.evaluation_complete:
                break
            await pilot.pause(0.01)
        assert review.evaluation_complete
        await pilot.pause(0.1)  # the last slice's redraw came while the job was busy
        screen._jobs = jobs  # the job is done: its end, drawn, calls on_drawn
        jobs.on_drawn()
        for _ in range(50):
            if loaded:
                break
            await pilot.pause(0.01)
        assert loaded == [1]
    review.close()
