"""``ReviewJobs.wait_idle`` does not wait for ever on an app that has stopped.

Tests and benches await it after each key; if the app died with a job queued, its queue
never drains and the wait hung the whole run (a CI run has a time limit, not a timeout
per test). It now raises once the app no longer runs, and still returns as soon as the
jobs drain while it does.
"""

from __future__ import annotations

import asyncio
from collections.abc import Coroutine
from typing import Any

import pytest

from reviewtui.ui import collector
from reviewtui.ui.review_jobs import ReviewJobs

pytestmark = pytest.mark.anyio


class StoppedApp:
    """What ReviewJobs asks of an app, from one whose loop has stopped: the worker it
    is asked to start never runs."""

    is_running = False

    def run_worker(self, work: Coroutine[Any, Any, None], **_: object) -> None:
        work.close()  # never started

    def call_after_refresh(self, *_: object) -> bool:
        return False


async def test_waiting_on_a_stopped_app_raises_instead_of_hanging() -> None:
    jobs = ReviewJobs(StoppedApp())  # type: ignore[arg-type]
    jobs.submit("decide", lambda: None, lambda _outcome: None)
    try:
        assert jobs.busy
        with pytest.raises(RuntimeError, match="stopped"):
            await asyncio.wait_for(jobs.wait_idle(), 5)  # (the bound only if it regresses)
    finally:
        collector.release()  # submit held the collector for a draw that never comes


async def test_waiting_returns_once_the_jobs_drain() -> None:
    class Running(StoppedApp):
        is_running = True

    jobs = ReviewJobs(Running())  # type: ignore[arg-type]
    jobs.submit("decide", lambda: None, lambda _outcome: None)
    try:
        waiter = asyncio.ensure_future(jobs.wait_idle())
        await asyncio.sleep(0.3)  # longer than one look at the app (IDLE_CHECK)
        assert not waiter.done()  # the app runs and the job is queued: still waiting
        jobs._queue.clear()
        jobs._idle.set()  # what the drain's end does
        await asyncio.wait_for(waiter, 5)
        assert waiter.result() is None
    finally:
        collector.release()
