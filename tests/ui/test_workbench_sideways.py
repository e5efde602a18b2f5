"""Issue 15: with wrapping off (`w`), `→` and `←` scroll both sides of a long line
sideways in the workbench, with `‹` where a line is cut at its start; the whole line can
be read by scrolling (wrapping, the default, shows every character at once)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual import events
from textual.pilot import Pilot
from uikit import open_app, screen_of

from reviewtui.ui.widgets.diff_view import CUT_END, CUT_START, DiffView
from reviewtui.ui.widgets.op_detail import OpDetail

pytestmark = pytest.mark.anyio
VALUES = ",".join(f"v{n:03d}" for n in range(39))
LONG = f"x=[{VALUES}]"  # 200 characters, no spaces
CHANGED = LONG.replace("v030", "NEW")


def _session(tmp_path: Path) -> tuple[Path, Path]:
    session = tmp_path / "session"
    session.mkdir()
    (session / "session.md").write_text(
        "# Session: sideways\n\n## Turn 1\n> Change one value.\n\n--- File: long.py ---\n"
        f"<<<<<<< SEARCH\n{LONG}\n=======\n{CHANGED}\n>>>>>>> REPLACE\n")
    root = tmp_path / "root"
    root.mkdir()
    (root / "long.py").write_text(f"a = 1\n{LONG}\nb = 2\n")
    return session, root


async def _five(pilot: Pilot[None], key: str) -> None:
    """Five presses of ``key`` in one burst, as a fast typist sends them, then wait until
    the app has handled them all: Pilot's own ``press`` waits for idle twice per key."""
    driver = pilot.app._driver
    assert driver is not None
    for _ in range(5):
        event = events.Key(key, None)
        event.set_sender(pilot.app)
        driver.send_message(event)
    await pilot.pause()


def _row(view: DiffView, text: str) -> str:
    rows = [view.render_line(y).text for y in range(view.scrollable_content_region.height)]
    (row,) = [r for r in rows if text in r]
    return row


@pytest.mark.slow
async def test_right_and_left_scroll_a_cut_line(tmp_path: Path) -> None:
    session, root = _session(tmp_path)
    app = open_app(session, root)
    # With the panel hidden the diff view has the focus, and → ← are its own one-cell
    # scrolls, each animated by default: some 60 ms of frames per key for ~300 keys. Where
    # each key lands is what is checked, and that is the same without the frames between.
    app.animation_level = "none"
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press("b", "V", "w")  # full width, unified, cut
        await pilot.pause()
        view = screen_of(app).query_one(OpDetail).diff_view
        assert not view.wrap
        assert view.max_scroll_x > 0
        # First shown, the view is scrolled to just before the change.
        assert CUT_START in _row(view, "NEW")
        assert view.scroll_offset.x > 0
        for _ in range(60):
            await _five(pilot, "left")
            if view.scroll_offset.x == 0:
                break
        pieces = [_row(view, " + ").split(" + ", 1)[1].rstrip().rstrip(CUT_END)]
        assert CHANGED.startswith(pieces[0])  # from its first character, no `‹`
        for _ in range(60):
            await _five(pilot, "right")
            row = _row(view, " + ")
            pieces.append(row.split(" + ", 1)[1].lstrip(CUT_START).rstrip().rstrip(CUT_END))
            if view.scroll_offset.x >= view.max_scroll_x:
                break
        assert view.scroll_offset.x == view.max_scroll_x
        assert pieces[-1].endswith("v038]")
        # Every character of the changed line was on screen at some offset.
        seen: set[int] = set()
        for piece in pieces:
            at = CHANGED.find(piece)
            assert at >= 0, piece
            seen.update(range(at, at + len(piece)))
        assert seen == set(range(len(CHANGED)))
        for _ in range(60):
            await _five(pilot, "left")
            if view.scroll_offset.x == 0:
                break
        assert view.scroll_offset.x == 0
        row = _row(view, " + ")
        assert CUT_START not in row
        assert row.split(" + ", 1)[1].startswith("x=[v000")  # back at the line's start
