"""The turn list's rows show each turn's counts at every width the list takes.

The list is about a quarter of the terminal (32 columns at 120, 54 at 200). Its rows used
to be cut for a 38-column list with the counts last: at 120 columns the list's ellipsis
cut every row before its "decided/total", and at 200 columns the request was cut at 23
characters beside empty room. These read the rows as drawn, not the prompts' text.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from uikit import open_app, screen_of

from reviewtui.ui.widgets.lists import TurnList

pytestmark = pytest.mark.anyio

LONG = "Rewrite the greeting so that it names the user and the time of day politely"


def _session(tmp_path: Path, turns: int) -> tuple[Path, Path]:
    root = tmp_path / "root"
    root.mkdir()
    (root / "notes.txt").write_text("".join(f"line {n}\n" for n in range(turns)))
    body = "".join(
        f"## Turn {n + 1}\n> {LONG} ({n + 1})\n\n--- File: notes.txt ---\n"
        f"<<<<<<< SEARCH\nline {n}\n=======\nLINE {n}\n>>>>>>> REPLACE\n\n"
        for n in range(turns))
    session = tmp_path / "s.md"
    session.write_text(body)
    return session, root


def _rows(turn_list: TurnList) -> list[str]:
    return [turn_list.render_line(y).text
            for y in range(turn_list.scrollable_content_region.height)]


@pytest.mark.parametrize("columns", [120, 200])
async def test_every_row_shows_its_counts_and_as_much_request_as_fits(
        tmp_path: Path, columns: int) -> None:
    session, root = _session(tmp_path, 3)
    app = open_app(session, root)
    async with app.run_test(size=(columns, 40)) as pilot:
        await pilot.pause()
        turn_list = screen_of(app).query_one("#turns", TurnList)
        rows = [row for row in _rows(turn_list) if "T" in row]
        assert len(rows) == 3, rows
        for n, row in enumerate(rows, 1):
            assert f"T{n} 0/1 " in row, row
            assert "Rewrite the gre" in row, row  # the request follows, cut at the edge
        width = turn_list.scrollable_content_region.width
        shown = rows[0].rstrip()
        assert shown.endswith("…"), shown  # the list's own ellipsis, at its own width
        assert len(shown) >= width - 2, (shown, width)  # no room left empty
        await pilot.press("y")
        await pilot.pause()
        assert "T1 1/1 " in _rows(turn_list)[0]
