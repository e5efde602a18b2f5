"""The lint thread's pacing (ui/pacing.py): a pause after every turn, and a shorter switch
interval while any paced thread runs, put back as it was once the last one ends."""

from __future__ import annotations

import sys
import threading
from pathlib import Path

import pytest
from uikit import REPO, copy_session, open_app, screen_of

from reviewtui.core.lint.rules import lint_session
from reviewtui.core.protocol.session import parse_markdown_session
from reviewtui.ui import pacing

SESSION = REPO / "sample_sessions" / "refactor-multi-turn" / "session.md"


def test_lint_paces_after_each_turn_and_finds_the_same() -> None:
    session = parse_markdown_session(SESSION.read_text(encoding="utf-8"))
    paused: list[int] = []
    found = lint_session(session, pace=lambda: paused.append(1))
    assert len(paused) == len(session.turns) == 7
    assert found == lint_session(session)


def test_overlapping_threads_put_the_interval_back_once_the_last_ends() -> None:
    before = sys.getswitchinterval()
    assert before > pacing.SWITCH  # (the default; the test would prove nothing otherwise)
    first_in, second_in, first_out = threading.Event(), threading.Event(), threading.Event()
    seen: dict[str, float] = {}

    def first() -> None:
        with pacing.quick_switches():
            seen["first"] = sys.getswitchinterval()
            first_in.set()
            second_in.wait(5)
        first_out.set()

    def second() -> None:
        first_in.wait(5)
        with pacing.quick_switches():
            second_in.set()
            first_out.wait(5)
            seen["after the first left"] = sys.getswitchinterval()

    threads = [threading.Thread(target=first), threading.Thread(target=second)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(10)
    assert seen == {"first": pacing.SWITCH, "after the first left": pacing.SWITCH}
    assert sys.getswitchinterval() == before


class FakeClock:
    """time.monotonic and time.sleep for pacing, on a clock that only sleeping moves."""

    def __init__(self) -> None:
        self.now = 1000.0
        self.slept: list[float] = []

    def monotonic(self) -> float:
        return self.now

    def sleep(self, seconds: float) -> None:
        self.slept.append(seconds)
        self.now += seconds


def test_a_pause_waits_out_the_hold_of_the_last_input(monkeypatch: pytest.MonkeyPatch) -> None:
    clock = FakeClock()
    monkeypatch.setattr(pacing.time, "monotonic", clock.monotonic)
    monkeypatch.setattr(pacing.time, "sleep", clock.sleep)
    monkeypatch.setattr(pacing, "_held_until", 0.0)
    pacing.pause()
    assert clock.slept == [pacing.PAUSE]  # no input: the short pause alone
    clock.slept.clear()
    pacing.hold_for_input()
    held_from = clock.now
    pacing.pause()
    assert clock.now >= held_from + pacing.INPUT_HOLD  # it waited the hold out
    assert clock.now < held_from + pacing.INPUT_HOLD + pacing.PAUSE + 1e-9
    clock.slept.clear()
    pacing.pause()
    assert clock.slept == [pacing.PAUSE]  # and then runs on


@pytest.mark.anyio
async def test_a_key_in_the_workbench_holds_the_background_back(tmp_path: Path) -> None:
    app = open_app(*copy_session(REPO / "sample_sessions" / "refactor-multi-turn", tmp_path))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        before = pacing._held_until
        await pilot.press("j")
        assert pacing._held_until > before


@pytest.mark.anyio
async def test_findings_arriving_as_the_screen_closes_are_dropped(tmp_path: Path) -> None:
    """The paced lint may end while the app closes, after the screen's widgets went: its
    findings are dropped, not an error in the worker (it failed whole test runs)."""
    from reviewtui.ui.widgets.findings import FindingsPanel

    app = open_app(*copy_session(REPO / "sample_sessions" / "refactor-multi-turn", tmp_path))
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        kept = screen.findings
        await screen.query_one(FindingsPanel).remove()
        screen._findings_loaded([])  # what the lint worker calls back with
        assert screen.findings is kept
