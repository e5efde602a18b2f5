"""Every change to the review runs off the event loop, one at a time, in the order asked.

A decision, an undo or redo, a restore and an outside change each re-evaluate the session
and write to disk: on a long session that takes longer than a frame. Here each such job's
work runs in a thread; its ``done`` step (refreshing the screen from the review) runs on the
event loop, before the next job starts. The jobs are drained by one exclusive async worker
(group ``review``), started when the first job arrives and ending when none is left.

While a job runs the review is changing under the screen, so the screen reads nothing from
it: keys pressed meanwhile wait in :meth:`ReviewJobs.when_idle` and are replayed in order
once the queue is empty. A job that takes longer than :data:`PROGRESS_AFTER` is announced
through ``on_progress`` (the status line).

From the first job until the screen has drawn what the last one did, the cyclic garbage
collector is off (:mod:`reviewtui.ui.collector`): its walks run between keys, not in them.
"""

from __future__ import annotations

import asyncio
import inspect
from collections import deque
from collections.abc import Callable
from typing import Any, TypeVar

from textual.app import App

from reviewtui.core.errors import ReviewtuiError
from reviewtui.core.record import record
from reviewtui.ui import collector

PROGRESS_AFTER = 0.1  # seconds: a job shorter than this shows no progress at all
IDLE_CHECK = 0.25  # seconds between wait_idle's looks at whether the app still runs

T = TypeVar("T")


@record(eq=False)
class ReviewJob:
    """``work`` runs in a thread; ``done`` gets its result (or its ReviewtuiError) on the
    event loop."""

    label: str
    work: Callable[[], Any]
    done: Callable[[Any], None]


class ReviewJobs:
    def __init__(self, app: App[Any]) -> None:
        self.app = app
        self.on_progress: Callable[[str], None] = lambda _text: None
        # Called once the screen has drawn what the last job did (the app: evaluate what
        # the jobs left for later, ui/evaluating.py).
        self.on_drawn: Callable[[], None] = lambda: None
        self._queue: deque[ReviewJob] = deque()
        self._waiting: deque[Callable[[], object]] = deque()
        self._running: ReviewJob | None = None
        self._draining = False
        self.activity = 0  # jobs and waiting calls so far (tests: did a key start any?)
        self._idle = asyncio.Event()
        self._idle.set()

    @property
    def busy(self) -> bool:
        """A job runs or waits: the review may be mid-change, do not read it."""
        return self._running is not None or bool(self._queue)

    @property
    def backlog(self) -> bool:
        """Busy, or calls (keys) still waiting their turn: a new key goes behind them."""
        return self.busy or bool(self._waiting)

    def submit(self, label: str, work: Callable[[], T], done: Callable[[T | ReviewtuiError],
                                                                        None]) -> None:
        """Queue ``work`` (run in a thread) and ``done`` (run on the loop with its result)."""
        self._queue.append(ReviewJob(label, work, done))
        self.activity += 1
        self._kick()

    async def run(self, work: Callable[[], T], label: str = "working") -> T:
        """Queue ``work`` and return its result when its turn came and it ran."""
        result: asyncio.Future[T] = asyncio.get_running_loop().create_future()

        def done(outcome: T | ReviewtuiError) -> None:
            if isinstance(outcome, ReviewtuiError):
                result.set_exception(outcome)
            else:
                result.set_result(outcome)

        self.submit(label, work, done)
        return await result

    def when_idle(self, callback: Callable[[], object]) -> None:
        """Call ``callback`` now if nothing runs or waits, else after what does, in order.

        ``callback`` may return an awaitable (a replayed key's action): it is awaited before
        anything after it, so a key that starts a job holds back the keys behind it.
        """
        if self.backlog:
            self._waiting.append(callback)
            self.activity += 1
            self._kick()
        else:
            callback()

    async def wait_idle(self) -> None:
        """Until nothing runs or waits (tests and benches: a key has been taken in).

        Raises RuntimeError if the app stops first: its jobs will never drain, and a test
        or bench waiting on them would otherwise wait for ever."""
        while not self._idle.is_set():
            if not self.app.is_running:
                raise RuntimeError("the app stopped with review jobs still queued")
            try:
                await asyncio.wait_for(self._idle.wait(), IDLE_CHECK)
            except TimeoutError:
                continue

    def _kick(self) -> None:
        self._idle.clear()
        if not self._draining:
            self._draining = True
            collector.hold()  # until the screen has drawn what the jobs did (_drawn)
            self.app.run_worker(self._drain(), name="run_review_jobs", group="review",
                                exclusive=True)

    async def _drain(self) -> None:
        try:
            while self._queue or self._waiting:
                if self._queue:
                    await self._run_one(self._queue[0])
                    continue
                if not self.app.is_running:  # keys pressed before the app quit: no screen
                    self._waiting.clear()  # is left to act on (see _run_one)
                    break
                self.activity += 1
                answer = self._waiting.popleft()()
                if inspect.isawaitable(answer):
                    await answer
        finally:
            self._draining = False
            self._running = None
            self._idle.set()
            if not self.app.call_after_refresh(self._drawn):
                collector.release()  # the app is closing: nothing more is drawn

    def _drawn(self) -> None:
        """The screen has drawn what the jobs did. Once no job has come for
        :data:`~reviewtui.ui.collector.QUIET` seconds the collector may walk again, and what
        has piled up for it is frozen if it is a lot: a key pressed right after this one
        does not wait for that walk (a job coming meanwhile holds the collector again, so
        only the last of the holds' releases finds it free)."""
        self.app.set_timer(collector.QUIET, self._after_draw)
        self.on_drawn()

    @staticmethod
    def _after_draw() -> None:
        collector.release()
        collector.idle()

    async def _run_one(self, job: ReviewJob) -> None:
        self._running = job
        timer = self.app.set_timer(PROGRESS_AFTER, lambda: self.on_progress(f"{job.label}…"))
        try:
            outcome: Any = await asyncio.to_thread(job.work)
        except ReviewtuiError as err:
            outcome = err
        finally:
            timer.stop()
            self._queue.popleft()
            self._running = None
        if not self.app.is_running:
            # The app is quitting, its screens' widgets already going (Textual takes them
            # down before it stops the workers): the work is done, saved and written, and
            # nothing is left to show it.
            return
        self.on_progress("")
        job.done(outcome)
