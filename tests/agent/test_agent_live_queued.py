"""The workbench's live follower changes the review only through the queue it is given.

Reading the grown session file and the gate's accepts change the review: in the
workbench they must wait behind a decision being made and never run while the screen
reads the review, so :func:`follow_session` hands them to ``run`` (the app's queue of
review jobs) as one piece of work.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from reviewtui.shell.live import Gate, LiveSession, follow_session
from reviewtui.shell.live_paths import prepare_live_session
from reviewtui.shell.review import Review

BODY = "".join(f"value_{n} = {n}\n" for n in range(20))


def test_reload_and_gate_accepts_run_inside_the_queue(tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "m0.py").write_text(BODY)
    session = tmp_path / "auto.jsonl"
    state = prepare_live_session(session, root)
    live = LiveSession(root, session, gate=Gate.REVIEW, wait=0)
    inside: list[bool] = [False]
    calls: list[str] = []

    def queued(work: Callable[[], Any]) -> Any:
        inside[0] = True
        try:
            return work()
        finally:
            inside[0] = False

    with Review.open(session, root, state_path=state, format="toolcalls") as review:
        for name in ("reload_session", "decide_many"):
            real = getattr(review, name)

            def watched(*args: Any, _real: Any = real, _name: str = name, **kw: Any) -> Any:
                calls.append(f"{_name} {'queued' if inside[0] else 'NOT QUEUED'}")
                return _real(*args, **kw)

            monkeypatch.setattr(review, name, watched)
        follower = follow_session(review, "auto", cancelled=lambda: False, interval=0.01,
                                  run=queued)
        live.record({"tool": "edit", "path": "m0.py", "search": "value_1 = 1",
                     "replace": "value_1 = -1"})
        new, accepted, problem = next(follower)
        assert (new, accepted, problem) == (((1, 0),), ((1, 0),), "")
        assert "decide_many queued" in calls
        assert all(call.endswith(" queued") for call in calls), calls
    assert (root / "m0.py").read_text() == BODY.replace("value_1 = 1", "value_1 = -1")
