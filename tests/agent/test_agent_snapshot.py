"""Snapshot of an operation arriving live in the workbench (SVG under snapshots/).

The agent's call is recorded through the same `LiveSession` the MCP server uses; the
workbench's follower picks it up and shows it with a notice. Looked at as PNG.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from rich.text import Text
from textual.pilot import Pilot

from reviewtui.shell.live import Gate, LiveSession
from reviewtui.shell.live_paths import prepare_live_session
from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp

SnapCompare = Callable[..., bool]
CALC = ("def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n\n\n"
        "def mul(a, b):\n    return a * b\n")


def test_operation_arriving_live(snap_compare: SnapCompare, tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "calc.py").write_text(CALC)
    session = tmp_path / "live.jsonl"
    state = prepare_live_session(session, root)
    live = LiveSession(root, session, gate=Gate.REVIEW, wait=0)
    live.record({"tool": "edit", "path": "calc.py", "search": "    return a + b",
                 "replace": "    return a + b  # no overflow in Python"},
                "document add and make sub explicit")
    review = Review.open(session, root, dry_run=True, state_path=state, format="toolcalls")
    app = ReviewApp(review, watch=False, live="review")

    async def arrive(pilot: Pilot[Any]) -> None:
        live.record({"tool": "edit", "path": "calc.py",
                     "search": "def sub(a, b):\n    return a - b",
                     "replace": "def sub(a, b):\n    \"\"\"a minus b.\"\"\"\n    return a - b"},
                    "document add and make sub explicit")
        for _ in range(200):
            if sum(len(t.results) for t in app.review.display.turns) == 2:
                break
            await pilot.pause(0.02)
        await pilot.pause(0.2)

    assert snap_compare(app, terminal_size=(120, 32), run_before=arrive)


@pytest.mark.anyio
async def test_rows_retitled_after_an_arrival_are_rebuilt(tmp_path: Path) -> None:
    """A resize re-titles the operation rows; an operation that arrived in between adds a row.

    The re-title ran over the grown turn with the old list and raised (seen once in CI).
    """
    from reviewtui.ui.screens.main import MainScreen
    from reviewtui.ui.widgets.lists import OpList

    root = tmp_path / "root"
    root.mkdir()
    (root / "calc.py").write_text(CALC)
    session = tmp_path / "live.jsonl"
    state = prepare_live_session(session, root)
    live = LiveSession(root, session, gate=Gate.REVIEW, wait=0)
    live.record({"tool": "edit", "path": "calc.py", "search": "    return a + b",
                 "replace": "    return a + b  # exact"}, "two edits")
    review = Review.open(session, root, dry_run=True, state_path=state, format="toolcalls")
    app = ReviewApp(review, watch=False, live="review")
    async with app.run_test(size=(120, 32)) as pilot:
        await pilot.pause()
        live.record({"tool": "edit", "path": "calc.py", "search": "    return a - b",
                     "replace": "    return a - b  # exact"}, "two edits")
        for _ in range(200):
            if sum(len(t.results) for t in review.display.turns) == 2:
                break
            await pilot.pause(0.02)
        assert sum(len(t.results) for t in review.display.turns) == 2
        screen = next(s for s in app.screen_stack if isinstance(s, MainScreen))
        ops = screen.query_one("#ops", OpList)
        first = ops.get_option_at_index(0).prompt
        assert isinstance(first, Text)
        ops.set_ops([first])  # the list as it stood before the arrival
        screen._refresh_op_rows()
        await pilot.pause()
        assert ops.option_count == 2
