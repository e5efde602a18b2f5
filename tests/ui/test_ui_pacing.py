"""The lint thread's pacing (ui/pacing.py): a pause after every turn, and a shorter switch
interval while any paced thread runs, put back as it was once the last one ends."""

from __future__ import annotations

import sys
import threading

from uikit import REPO

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
