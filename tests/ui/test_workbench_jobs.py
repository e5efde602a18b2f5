"""Decisions, undo/redo and outside changes run off the event loop, one at a time.

A gate holds the review's work in its thread, so each test can look at the workbench
while a job runs: the loop answers, keys wait and then act in the order pressed, and an
outside change waits behind the decision being made.
"""

from __future__ import annotations

import asyncio
import threading
import time
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from uikit import open_app, screen_of, state_at

from reviewtui.core.engine import OpKey
from reviewtui.core.engine.opstate import OpState
from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.messages import FilesChanged
from reviewtui.ui.widgets.status_line import StatusLine

SIZE = (120, 40)
GREETING = "greeter/core.py"

pytestmark = pytest.mark.anyio

# Pilot.press as Textual ships it: returns without waiting for the review's jobs (the
# test conftest makes the ordinary press wait for them).
raw_press = Pilot.press.__wrapped__  # type: ignore[attr-defined]


class Gate:
    """Holds ``review.<name>`` in its worker thread until opened; records the calls."""

    def __init__(self, app: ReviewApp, monkeypatch: pytest.MonkeyPatch, *names: str) -> None:
        self.opened = threading.Event()
        self.calls: list[str] = []
        for name in names:
            real = getattr(app.review, name)
            monkeypatch.setattr(app.review, name, self._held(name, real))

    def _held(self, name: str, real: Any) -> Any:
        def held(*args: Any, **kwargs: Any) -> Any:
            assert threading.current_thread() is not threading.main_thread(), \
                f"review.{name} ran on the event loop's thread"
            self.opened.wait(10)
            self.calls.append(name)
            return real(*args, **kwargs)

        return held


def next_undecided_after(app: ReviewApp, first: OpKey) -> OpKey:
    screen = screen_of(app)
    flat = [r for _, _, r in screen.iter_results()]
    here = next(i for i, r in enumerate(flat) if r.key == first)
    return next(r.key for r in flat[here + 1:]
                if not screen.state_of(r).decided and not screen.state_of(r).failed)


async def test_keys_wait_for_the_running_decision_and_act_in_order(
        tour: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    app = open_app(*tour)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        current = screen.current()
        assert current is not None
        first = current.key
        second = next_undecided_after(app, first)
        gate = Gate(app, monkeypatch, "decide_many")
        await raw_press(pilot, "y")
        assert app.jobs.busy
        await raw_press(pilot, "n")  # pressed while y is being made: waits for it
        # The loop keeps running meanwhile: after ~100 ms the status line says why.
        await asyncio.sleep(0.3)
        assert screen.query_one(StatusLine).progress == "deciding…"
        assert app.review.decisions == {}
        assert gate.calls == []
        gate.opened.set()
        await pilot.pause()
        assert not app.jobs.busy
        assert gate.calls == ["decide_many", "decide_many"]
        # y took the first operation; n the one y moved the cursor to, as typed.
        assert str(app.review.decisions[first].verdict) == "accepted"
        assert str(app.review.decisions[second].verdict) == "rejected"
        assert screen.query_one(StatusLine).progress == ""


def _read_at_once(app: ReviewApp, *keys: str) -> None:
    """Keys as the terminal driver delivers those of one read (a paste, ``tmux send-keys
    y n``): posted together, none waiting for another."""
    from textual import events

    for key in keys:
        event = events.Key(key, key if len(key) == 1 else None)
        event.set_sender(app)
        assert app._driver is not None  # noqa: SLF001
        app._driver.send_message(event)  # noqa: SLF001


async def test_keys_read_at_once_act_in_order_as_typed(tour: tuple[Path, Path]) -> None:
    """y and n in one read: y takes the operation shown, n the one y moved the cursor to
    (QA pass s31: both acted on the first, accepted and then rejected)."""
    app = open_app(*tour)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        current = screen_of(app).current()
        assert current is not None
        first = current.key
        second = next_undecided_after(app, first)
        _read_at_once(app, "y", "n")
        for _ in range(200):
            await pilot.pause(0.01)
            if len(app.review.decisions) == 2 and not app.jobs.backlog:
                break
        assert str(app.review.decisions[first].verdict) == "accepted"
        assert str(app.review.decisions[second].verdict) == "rejected"


async def test_a_quit_read_with_an_accept_quits_after_it(tour: tuple[Path, Path]) -> None:
    """y and q in one read: the accept is written and saved, then the app quits (it quit
    first, the state's log empty and nothing written: QA pass s31)."""
    session, root = tour
    original = (root / GREETING).read_bytes()
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        _read_at_once(app, "y", "q")
        for _ in range(300):
            await pilot.pause(0.01)
            if not app.is_running:
                break
    assert not app.is_running
    assert (root / GREETING).read_bytes() != original
    with Review.open(session, root) as again:  # (resumed from the state saved)
        assert [str(d.verdict) for d in again.decisions.values()] == ["accepted"]


async def test_undo_and_redo_run_in_the_worker_and_keep_their_order(
        tour: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    session, root = tour
    original = (root / GREETING).read_bytes()
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("y")
        accepted = (root / GREETING).read_bytes()
        assert accepted != original
        gate = Gate(app, monkeypatch, "undo", "redo")
        await raw_press(pilot, "u")
        await raw_press(pilot, "U")
        await raw_press(pilot, "u")
        assert (root / GREETING).read_bytes() == accepted  # nothing done yet
        gate.opened.set()
        await pilot.pause()
        assert gate.calls == ["undo", "redo", "undo"]
        assert (root / GREETING).read_bytes() == original
        assert state_at(app, 0, 0) is OpState.PENDING


async def test_an_outside_change_waits_behind_the_decision_being_made(
        tour: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    session, root = tour
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        gate = Gate(app, monkeypatch, "decide_many", "outside_changed")
        await raw_press(pilot, "y")
        target = root / "notes.txt"
        target.write_text("an outside file\n")
        app.post_message(FilesChanged(frozenset({"notes.txt"})))
        await asyncio.sleep(0.2)
        assert gate.calls == []  # both wait at the gate, the outside change queued second
        gate.opened.set()
        await pilot.pause()
        for _ in range(100):  # the outside change's report arrives by message
            if len(gate.calls) == 2:
                break
            await pilot.pause(0.02)
        assert gate.calls == ["decide_many", "outside_changed"]
        assert state_at(app, 0, 0) is OpState.ACCEPTED


async def test_a_job_ending_while_the_app_quits_ends_quietly(
        tour: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """Quitting takes the screen's widgets down before it stops the job worker: a job
    whose thread returns meanwhile (the suite once saw the watcher's job for a file
    written just before the end) found no status line to clear, and its failure failed
    the app's exit with a traceback. Its work is done (the decision saved); what would
    show it is gone, and nothing more is shown."""
    app = open_app(*tour)
    gate: Gate | None = None

    def unmounting(line: StatusLine) -> None:  # the teardown, with the job still running
        assert gate is not None
        gate.opened.set()
        deadline = time.monotonic() + 10
        while not gate.calls and time.monotonic() < deadline:
            time.sleep(0.01)  # until the job's thread has returned
        time.sleep(0.05)

    monkeypatch.setattr(StatusLine, "on_unmount", unmounting, raising=False)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        gate = Gate(app, monkeypatch, "decide_many")
        await raw_press(pilot, "y")
        await asyncio.sleep(0.3)  # the job waits at the gate, "deciding…" shown
        assert screen_of(app).query_one(StatusLine).progress == "deciding…"
    assert gate.calls == ["decide_many"]
    assert app.return_code in (0, None)


async def test_the_app_watcher_feeds_the_review_through_its_jobs(
        tour: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """One watcher path: the app runs follow_review, whose work is a review job."""
    session, root = tour
    app = ReviewApp(Review.open(session, root), watch=True)
    seen: list[tuple[frozenset[str], bool, bool]] = []
    real = app.review.outside_changed

    def recording(paths: Any) -> Any:
        seen.append((frozenset(paths), threading.current_thread() is threading.main_thread(),
                     app.jobs.busy))
        return real(paths)

    monkeypatch.setattr(app.review, "outside_changed", recording)
    async with app.run_test(size=SIZE) as pilot:
        probe = root / "zz-probe.txt"
        # Until the watcher is up and reports the probe: 10 s was once too short with the
        # machine at load 5 (the watcher's thread starts and debounces behind the suite).
        deadline, n = time.monotonic() + 45, 0
        while time.monotonic() < deadline:
            if any("zz-probe.txt" in paths for paths, _, _ in seen):
                break
            n += 1
            probe.write_text(str(n))
            await pilot.pause(0.05)
        paths, on_loop_thread, as_a_job = next(s for s in seen if "zz-probe.txt" in s[0])
        assert not on_loop_thread
        assert as_a_job
        assert app.watcher_state == "on"
