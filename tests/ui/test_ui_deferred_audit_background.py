"""Audit of the deferred display (issue 13): the background evaluation
(``ui/evaluating.py``) when a review job is busy at the moment a walk ends."""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path
from typing import Any

import pytest
from uikit import screen_of

from reviewtui.core.engine import Verdict
from reviewtui.shell import evaluation
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
        line_turns: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """The opening's last slice finds a job busy (a decision taken meanwhile): the
    findings (lint, loaded only once every turn is evaluated) must still come once the
    job is done, not be dropped for good."""
    session, root = line_turns
    review = Review.open(session, root, first_frame=True, dry_run=True)
    app = ReviewApp(review, watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = screen_of(app)
        loaded: list[int] = []
        monkeypatch.setattr(screen, "load_findings", lambda: loaded.append(1))
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


async def test_a_timeline_click_during_a_decision_lands_on_an_evaluated_turn(
        line_turns: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """A click on the timeline is not held back for a running job (keys are): it moves
    the cursor to a far turn while the decision is being made. The decision, focused on
    the turn on screen when it was asked for, leaves the display walking short of that far
    turn; its redraw must not read a turn the display has not walked again."""
    from reviewtui.ui.widgets.timeline import Timeline

    monkeypatch.setattr(evaluation, "AHEAD", 0)
    session, root = line_turns  # 60 turns, each changing one line of a.txt
    review = Review.open(session, root, dry_run=True)
    app = ReviewApp(review, watch=False)
    go = threading.Event()
    decide_many = review.decide_many

    def held(*args: Any, **kwargs: Any) -> Any:
        go.wait(5)  # the click comes while the job runs
        return decide_many(*args, **kwargs)

    monkeypatch.setattr(review, "decide_many", held)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = screen_of(app)
        app.jobs.on_drawn = lambda: None  # no catch-up: as when the click comes first
        screen.select(0, 0)
        screen.action_reject()  # `n` (the pilot's press would wait for the job)
        assert app.jobs.busy
        screen.post_message(Timeline.Picked(50))
        for _ in range(100):
            if screen.turn_pos == 49:
                break
            await asyncio.sleep(0.01)
        go.set()
        await asyncio.wait_for(app.jobs.wait_idle(), 5)  # (not for ever if the app died)
        await pilot.pause(0.05)
        assert screen.turn_pos == 49
        assert review.result((1, 0)).decision.verdict is Verdict.REJECTED
        current = screen.current()
        assert current is not None
        assert current.key == (50, 0)
    review.close()
