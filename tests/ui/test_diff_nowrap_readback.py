"""Issue 15, wrapping off (`w`): every character of a cut line can be read by scrolling
sideways, `←` `→` move on from what is on screen, and `‹` / `›` stand only where
characters of that line are really hidden (never on an empty line, never `‹` at the far
left). The first display still brings the changed word into view."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.pilot import Pilot
from uikit import open_app, screen_of

from reviewtui.core.text.diff import build_diff
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.widgets.diff_view import CUT_END, CUT_START, DiffView
from reviewtui.ui.widgets.op_detail import OpDetail

pytestmark = pytest.mark.anyio

LONG = " ".join(f"w{n:03d}" for n in range(60)) + "!"  # 300 characters
CHANGED = LONG.replace("w059", "NEW9")  # the change is at the very end
assert len(LONG) == len(CHANGED) == 300
PREFIX = 2 * (1 + 1) + 2  # unified gutter: two one-digit numbers, the marker


MIDDLE = LONG.replace("w030", "MID0")  # a change in the middle of the line


def _session(tmp_path: Path, changed: str = CHANGED) -> tuple[Path, Path]:
    session = tmp_path / "session"
    session.mkdir()
    (session / "session.md").write_text(
        "# Session: read it all\n\n## Turn 1\n> Change one word.\n\n--- File: long.py ---\n"
        f"<<<<<<< SEARCH\n{LONG}\n=======\n{changed}\n>>>>>>> REPLACE\n")
    root = tmp_path / "root"
    root.mkdir()
    (root / "long.py").write_text(f"a = 1\n\n{LONG}\n\nb = 2\n")
    return session, root


def _view(app: ReviewApp) -> DiffView:
    return screen_of(app).query_one(OpDetail).diff_view


def _row_of(view: DiffView, text: str, *, added: bool) -> int:
    for index, row in enumerate(view.rows):
        side = row.right if added else row.left
        if side is not None and side.text == text and (row.left is None) == added:
            return index
    raise AssertionError(f"no row shows {text[:20]!r}")


def _seen(view: DiffView, index: int) -> tuple[int, str]:
    """(the column of the line's first character on screen, the characters on screen)
    of row ``index``, its cut marks taken off (each checked against what is hidden)."""
    x = view.scroll_offset.x
    room = view.scrollable_content_region.width - PREFIX
    cells = view.render_line(index - view.scroll_offset.y).text[PREFIX:PREFIX + room]
    text = view.rows[index].right or view.rows[index].left
    assert text is not None
    length = len(text.text)
    start = x
    if cells.startswith(CUT_START):
        assert x > 0, "‹ at the far left"
        assert length > 0, "‹ on an empty line"
        cells, start = cells[1:], x + 1
    else:
        assert x == 0 or length == 0, f"characters before {x} hidden without ‹"
    if cells.endswith(CUT_END):
        assert length > x + room, f"› at offset {x} hides nothing"
        cells = cells[:-1]
    else:
        assert length <= x + room, f"characters after {x + room} hidden without ›"
    return start, cells.rstrip(" ") if start + len(cells) > length else cells


async def _to_the_left(view: DiffView, pilot: Pilot[None]) -> None:
    for _ in range(100):
        if view.scroll_offset.x == 0:
            return
        await pilot.press("left")
        await pilot.pause()
    raise AssertionError("← never reached the first column")


async def _read_by_scrolling(view: DiffView, pilot: Pilot[None],
                             indexes: list[int]) -> list[str]:
    """The lines of rows ``indexes`` read from the screen while `→` scrolls from the
    first column to the last: each step's new characters appended to what was read."""
    read = ["" for _ in indexes]
    for _ in range(200):
        for n, index in enumerate(indexes):
            start, piece = _seen(view, index)
            done = read[n]
            assert start <= len(done), f"columns {len(done)}..{start} were never on screen"
            assert done[start:] == piece[:len(done) - start], "the screen disagrees"
            read[n] = done + piece[len(done) - start:]
        if view.scroll_offset.x >= view.max_scroll_x:
            return read
        before = view.scroll_offset.x
        await pilot.press("right")
        await pilot.pause()
        assert view.scroll_offset.x > before
    raise AssertionError("→ never reached the last column")


@pytest.mark.slow
async def test_every_character_of_a_300_character_line_is_read_by_scrolling(
        tmp_path: Path) -> None:
    session, root = _session(tmp_path)
    app = open_app(session, root)
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.press("w")
        await pilot.pause()
        view = _view(app)
        assert not view.wrap
        assert view.mode == "unified"
        added = _row_of(view, CHANGED, added=True)
        removed = _row_of(view, LONG, added=False)
        # First display: the change at the end of the line is in view.
        first, shown = _seen(view, added)
        assert "NEW9" in shown
        assert first > 0
        await _to_the_left(view, pilot)
        start, piece = _seen(view, added)
        assert start == 0
        assert CHANGED.startswith(piece)
        assert await _read_by_scrolling(view, pilot, [removed, added]) == [LONG, CHANGED]


async def test_right_and_left_move_on_from_the_change_in_view(tmp_path: Path) -> None:
    session, root = _session(tmp_path, MIDDLE)
    app = open_app(session, root)
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.press("w")
        await pilot.pause()
        view = _view(app)
        added = _row_of(view, MIDDLE, added=True)
        start, piece = _seen(view, added)
        assert "MID0" in piece
        assert start > 1
        for key, step in (("right", 8), ("left", -8), ("left", -8)):
            x = view.scroll_offset.x
            await pilot.press(key)  # moves on from what is on screen, no jump
            await pilot.pause()
            assert view.scroll_offset.x == x + step
            start, piece = _seen(view, added)
            assert start == x + step + 1
            assert MIDDLE[start:start + len(piece)] == piece


@pytest.mark.slow
async def test_an_empty_line_never_shows_a_cut_mark(tmp_path: Path) -> None:
    session, root = _session(tmp_path)
    app = open_app(session, root)
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.press("w")
        await pilot.pause()
        view = _view(app)
        empty = [index for index, row in enumerate(view.rows)
                 if (row.right or row.left) is not None and (row.right or row.left).text == ""]
        assert len(empty) == 2
        await _to_the_left(view, pilot)
        for _ in range(100):
            for index in empty:
                line = view.render_line(index - view.scroll_offset.y).text
                assert CUT_START not in line, (view.scroll_offset.x, line)
                assert CUT_END not in line, (view.scroll_offset.x, line)
            if view.scroll_offset.x >= view.max_scroll_x:
                break
            await pilot.press("right")
            await pilot.pause()
        assert view.scroll_offset.x == view.max_scroll_x > 0


def test_split_sides_read_back_column_by_column() -> None:
    """The widget alone, split, at 80 columns, scrolled a few columns at a time: both
    sides read back whole, and the far left shows no `‹`."""
    import asyncio

    from textual.app import App, ComposeResult

    class _App(App[None]):
        def compose(self) -> ComposeResult:
            yield DiffView()

    async def main() -> None:
        app = _App()
        async with app.run_test(size=(80, 24)) as pilot:
            view = app.query_one(DiffView)
            view.set_wrap(False)
            view.set_diff(build_diff(["", LONG], ["", CHANGED]), path="t.txt",
                          before_text=f"\n{LONG}", after_text=f"\n{CHANGED}", mode="split")
            await pilot.pause()
            assert "NEW9" in view.render_line(1).text.partition("│")[2]
            seen: tuple[dict[int, str], dict[int, str]] = ({}, {})
            view.scroll_to(x=0, animate=False, immediate=True)
            while True:
                await pilot.pause()
                x = view.scroll_offset.x
                empty = view.render_line(0).text
                assert CUT_START not in empty
                assert CUT_END not in empty
                left, right = view.render_line(1).text.split("│")
                # (both sides equally wide: a spare cell may follow the right one)
                for side, part in enumerate((left, right[: len(left)])):
                    cells = part[4:]  # after "2 - " / "2 + "
                    first, last = 0, len(cells)
                    if x > 0:
                        assert cells[0] == CUT_START
                        first = 1
                    else:
                        assert CUT_START not in cells
                    if cells.endswith(CUT_END):
                        last -= 1
                    for at in range(first, min(last, 300 - x)):
                        assert seen[side].setdefault(x + at, cells[at]) == cells[at]
                if x >= view.max_scroll_x:
                    break
                view.scroll_to(x=x + 5, animate=False, immediate=True)
            assert "".join(seen[0].get(n, "?") for n in range(300)) == LONG
            assert "".join(seen[1].get(n, "?") for n in range(300)) == CHANGED

    asyncio.run(main())
