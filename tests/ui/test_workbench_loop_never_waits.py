"""The event loop never waits for the review's lock while a job holds it.

A review job (a decision, undo, an outside change) holds the review in its worker thread
for its whole duration. Anything the screen draws meanwhile (a syntax check finishing, a
project check's answer, a row re-titled) reads outcomes: if that waited for the job, the
whole workbench would freeze for as long, and a job that never ends would hang it.

Here a job takes the review's lock and keeps it until the screen, on the event loop, has
read every outcome of the turn and redrawn the selected operation. The job gives up after
a while: if the loop had waited for it, the job saw the loop's work not done.
"""

from __future__ import annotations

import asyncio
import threading
from pathlib import Path

import pytest
from uikit import open_app, screen_of

from reviewtui.core.model.outcome import Outcome

SIZE = (120, 40)
pytestmark = pytest.mark.anyio


async def test_screen_reads_outcomes_while_a_job_holds_the_review(
        gallery: tuple[Path, Path]) -> None:
    app = open_app(*gallery)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        review = app.review
        results = review.display.turns[screen.turn_pos].results
        before = {r.key: review.outcome(r.key) for r in results}
        holding = threading.Event()
        loop_done = threading.Event()
        seen: list[bool] = []

        def job() -> None:
            with review._mutex:  # what a decision does for its whole duration
                holding.set()
                # Generous: only a loop that waits on the lock makes this run out.
                seen.append(loop_done.wait(30))

        app.jobs.submit("holding the review", job, lambda _answer: None)
        assert await asyncio.to_thread(holding.wait, 30)
        # On the event loop, while the job holds the review:
        during: dict[object, Outcome] = {r.key: review.outcome(r.key) for r in results}
        states = [screen.state_of(r) for r in results]
        screen.refresh_detail(keep_pane=True)
        loop_done.set()
        await app.jobs.wait_idle()
        assert seen == [True], "the event loop waited for the job's lock"
        assert during == before  # nothing changed: the same outcomes as before the job
        assert states == [screen.state_of(r) for r in results]
