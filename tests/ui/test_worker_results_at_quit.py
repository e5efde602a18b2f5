"""A thread worker whose result arrives while the app quits shows nothing and lets the app
exit cleanly (ui/worker_results.py).

Quitting, Textual takes the screens' widgets down before it stops the workers. A result
handed back with ``call_from_thread`` then ran against widgets that were gone: the syntax
check's redraw found no ``#ops`` list, the big diff no pane label; depending on the moment
the app's exit failed with ``WorkerFailed`` and a traceback (seen in the suite), or the
error went nowhere. Each test here holds a real worker's thread until a widget of the
closing screen unmounts, lets it hand its result back then, and checks that the code
showing the result never runs once the app has begun to quit.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

import pytest
from uikit import screen_of

from reviewtui.core.text import diff as diff_module
from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.screens import main_panes, stats
from reviewtui.ui.widgets import op_detail
from reviewtui.ui.widgets.op_detail import OpDetail

pytestmark = pytest.mark.anyio


def _opened(tmp_path: Path) -> Review:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("".join(f"x{n} = {n}\n" for n in range(5)))
    session = tmp_path / "s.md"
    session.write_text("".join(
        f"## Turn {n + 1}\n> change line {n}\n\n--- File: a.py ---\n<<<<<<< SEARCH\n"
        f"x{n} = {n}\n=======\nx{n} = {n + 1}\n>>>>>>> REPLACE\n\n" for n in range(5)))
    return Review.open(session, root, dry_run=True)


class _Gate:
    """Holds a worker's thread until the widget class it watches unmounts, and that
    unmount (the teardown) until the thread is about to hand its result back."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch, widget: type) -> None:
        self.gone = threading.Event()
        self.entered = threading.Event()
        self.left = threading.Event()
        self.waited: list[bool] = []
        self.shown_running: list[bool] = []
        monkeypatch.setattr(widget, "on_unmount", lambda _widget: self._unmounting(),
                            raising=False)

    def _unmounting(self) -> None:
        self.gone.set()
        self.left.wait(5)
        time.sleep(0.05)  # the thread hands its result back while the teardown goes on

    def spy(self, app: Any, show: Any) -> Any:
        """``show`` (a worker's way to show its result), recording for each call whether
        the app was still running."""
        def shown(*args: Any, **kwargs: Any) -> Any:
            self.shown_running.append(app.is_running)
            return show(*args, **kwargs)
        return shown

    def hold(self, answer: Any) -> Any:
        def held(*args: Any, **kwargs: Any) -> Any:
            self.entered.set()
            self.waited.append(self.gone.wait(10))
            try:
                return answer(*args, **kwargs)
            finally:
                self.left.set()
        return held

    def settled(self) -> None:
        """After the app's exit: the worker ran into the teardown, and what it handed back
        did not run against the quitting app."""
        assert self.left.wait(10)
        assert self.waited == [True]
        time.sleep(0.2)  # (a result still queued would run now, on the loop's last turns)
        assert False not in self.shown_running

    async def entered_by_worker(self, pilot: Any) -> None:
        """Wait (on the loop) until the worker's thread holds in the gate."""
        for _ in range(500):
            if self.entered.is_set():
                return
            await pilot.pause(0.01)
        raise AssertionError("the worker never reached the gate")


async def test_a_syntax_check_ending_as_the_app_quits(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    review = _opened(tmp_path)
    gate = _Gate(monkeypatch, OpDetail)
    monkeypatch.setattr(main_panes, "diagnose_result", gate.hold(lambda _result: ()))
    monkeypatch.setattr(main_panes, "warm_symbols", lambda _result: None)
    app = ReviewApp(review, watch=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        monkeypatch.setattr(screen, "_syntax_checked", gate.spy(app, screen._syntax_checked))
        screen.run_syntax_checks([screen.current()])
        await gate.entered_by_worker(pilot)
    review.close()
    gate.settled()


async def test_a_big_diff_computed_as_the_app_quits(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    review = _opened(tmp_path)
    gate = _Gate(monkeypatch, OpDetail)
    app = ReviewApp(review, watch=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        detail = app.screen.query_one(OpDetail)
        view = detail.view
        assert view is not None
        assert view.panes
        monkeypatch.setattr(op_detail, "build_diff", gate.hold(diff_module.build_diff))
        monkeypatch.setattr(detail, "_diff_loaded", gate.spy(app, detail._diff_loaded))
        detail.load_diff(view.panes[0], {})
        await gate.entered_by_worker(pilot)
    review.close()
    gate.settled()


async def test_the_statistics_read_as_the_app_quits(tmp_path: Path,
                                                    monkeypatch: pytest.MonkeyPatch) -> None:
    review = _opened(tmp_path)
    gate = _Gate(monkeypatch, stats.StatsScreen)
    monkeypatch.setattr(stats, "session_stats", gate.hold(stats.session_stats))
    app = ReviewApp(review, watch=False)
    loaded = stats.StatsScreen._stats_loaded
    monkeypatch.setattr(stats.StatsScreen, "_stats_loaded", lambda screen, parts: gate.spy(
        app, loaded)(screen, parts))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen_of(app).action_stats()
        await gate.entered_by_worker(pilot)
        assert isinstance(app.screen, stats.StatsScreen)
    review.close()
    gate.settled()


async def test_results_before_the_quit_are_still_shown(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """The same path while the app runs: the syntax check's redraw happens."""
    review = _opened(tmp_path)
    redrawn: list[bool] = []
    app = ReviewApp(review, watch=False)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        checked = screen._syntax_checked
        monkeypatch.setattr(screen, "_syntax_checked", lambda: (redrawn.append(True), checked()))
        screen.run_syntax_checks([screen.current()])
        for _ in range(100):
            if redrawn:
                break
            await pilot.pause(0.01)
    review.close()
    assert redrawn == [True]
