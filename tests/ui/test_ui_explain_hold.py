"""The operation a decision, undo or redo moves to is shown with the explanation's height
held: a shorter explanation leaves blank lines instead of moving the diff below it (a
layout of the whole screen on the event loop for each such key). A longer one grows the
area; moving by the reviewer's own keys gives the explanation its own height again."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.geometry import Region
from textual.screen import Screen
from textual.widgets import Static

from reviewtui.core.engine import Verdict
from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.screens.main import MainScreen
from reviewtui.ui.widgets.diff_view import DiffView

SESSION = """# Session: explanations

## Turn 1
> three edits

--- File: a.py ---
Edit 1
<<<<<<< SEARCH
def two():
    return 2
=======
def two(:
    return 2
>>>>>>> REPLACE

--- File: b.py ---
Edit 1
<<<<<<< SEARCH
y = 1
=======
y = 2
>>>>>>> REPLACE

--- File: c.py ---
Edit 1
<<<<<<< SEARCH
z = 1
=======
z = (3
>>>>>>> REPLACE
"""


def _open(tmp_path: Path) -> tuple[ReviewApp, Path]:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("def one():\n    return 1\n\n\ndef two():\n    return 2\n")
    (root / "b.py").write_text("y = 1\n")
    (root / "c.py").write_text("z = 1\n")
    session = tmp_path / "session.md"
    session.write_text(SESSION)
    return ReviewApp(Review.open(session, root), watch=False), root


def _lines(static: Static) -> list[str]:
    strips = static.render_lines(Region(0, 0, *static.outer_size))
    return [strip.text.rstrip() for strip in strips]


@pytest.mark.anyio
async def test_decisions_hold_the_explanation_and_navigation_lets_go(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    layouts: list[int] = []
    original = Screen._refresh_layout

    def counted(self: Screen[object], *args: object, **kwargs: object) -> None:
        layouts.append(1)
        original(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Screen, "_refresh_layout", counted)
    app, root = _open(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, MainScreen)
        explain = screen.query_one("#op-explain", Static)
        diff = screen.query_one(DiffView)
        tall = explain.size.height
        assert tall >= 4  # op 1: matched, then the syntax check's lines
        assert "introduced by this operation" in "\n".join(_lines(explain))
        top = diff.region.y
        await app.workers.wait_for_complete()  # the first frame's checks (lint) are done
        await pilot.pause()

        layouts.clear()
        await pilot.press("y")  # a.py written; the cursor moves to b.py (one line)
        await app.jobs.wait_idle()
        await pilot.pause()
        assert "def two(:" in (root / "a.py").read_text()
        assert screen.op_pos == 1
        assert explain.size.height == tall  # held: blank lines below the text
        shown = _lines(explain)
        assert "b.py" in shown[0]
        assert not any("syntax check" in line for line in shown)  # nothing left of op 1
        assert all(not line for line in shown[1:])
        assert diff.region.y == top
        assert not layouts  # nothing moved: no layout of the screen
        # The watcher's echo of that write (an outside-change report), or a late check,
        # shows the same operation again: the height stays held.
        screen.refresh_after_decision()
        await pilot.pause()
        assert (explain.size.height, diff.region.y) == (tall, top)
        assert not layouts

        await pilot.press("u")  # back to op 1: as tall as the area already is
        await app.jobs.wait_idle()
        await pilot.pause()
        assert "def two():" in (root / "a.py").read_text()
        assert screen.review.result(screen.review.display.turns[0].results[0].key
                                    ).decision.verdict is Verdict.PENDING
        assert (screen.op_pos, explain.size.height, diff.region.y) == (0, tall, top)
        assert "introduced by this operation" in "\n".join(_lines(explain))
        assert not layouts

        await pilot.press("J")  # the reviewer's own move: the explanation's own height
        await pilot.pause()
        assert screen.op_pos == 1
        assert explain.size.height == 1
        assert diff.region.y == top - (tall - 1)


@pytest.mark.anyio
async def test_a_longer_explanation_grows_the_held_area(tmp_path: Path) -> None:
    app, root = _open(tmp_path)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = app.screen
        assert isinstance(screen, MainScreen)
        explain = screen.query_one("#op-explain", Static)
        await pilot.press("J")
        await pilot.pause()
        assert (screen.op_pos, explain.size.height) == (1, 1)
        # b.py written; the cursor moves to the first undecided one, op 1 (syntax lines)
        await pilot.press("y")
        await app.jobs.wait_idle()
        await pilot.pause()
        assert (root / "b.py").read_text() == "y = 2\n"
        assert screen.op_pos == 0
        shown = _lines(explain)
        assert explain.size.height == len(shown) >= 4
        assert "a.py" in shown[0]
        assert "introduced by this operation" in "\n".join(shown)
