"""A diff with one side only (a new file) takes the view's whole width.

Side by side, a new file's lines sat in the right half beside an empty left half and
wrapped there (a 120-column terminal gave them 40 cells). It is shown unified whatever the
split/unified setting, which still decides for the operations that have both sides.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from uikit import open_app, screen_of

from reviewtui.ui.widgets.diff_view import DiffView
from reviewtui.ui.widgets.op_detail import OpDetail

pytestmark = pytest.mark.anyio

LONG = "x" * 70  # longer than a side's room at 120 columns, shorter than the whole view


def _project(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "root"
    root.mkdir()
    (root / "old.txt").write_text("keep\nchange me\n")
    (root / "gone.txt").write_text(f"{LONG}\n")
    session = tmp_path / "s.patch"
    session.write_text(
        "--- a/old.txt\n+++ b/old.txt\n@@ -1,2 +1,2 @@\n keep\n-change me\n+changed\n"
        "--- /dev/null\n+++ b/new.txt\n@@ -0,0 +1,2 @@\n+" + LONG + "\n+second\n"
        "--- a/gone.txt\n+++ /dev/null\n@@ -1 +0,0 @@\n-" + LONG + "\n")
    return session, root


def _rows(view: DiffView) -> list[str]:
    return [view.render_line(y).text for y in range(view.scrollable_content_region.height)]


async def test_a_new_file_is_unified_and_an_edit_stays_split(tmp_path: Path) -> None:
    session, root = _project(tmp_path)
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        detail = screen.query_one(OpDetail)
        view = screen.query_one(DiffView)
        titles = [str(result.op.path) for result in screen.review.display.turns[0].results]
        seen = {}
        for pos, path in enumerate(titles):
            screen.select(0, pos)
            await pilot.pause()
            seen[path] = (view.mode, _rows(view))
        assert detail.mode == "split"  # the setting is not changed
        assert seen["old.txt"][0] == "split"
        assert seen["new.txt"][0] == "unified"
        assert any(LONG in row for row in seen["new.txt"][1])  # whole, on one row
        assert seen["gone.txt"][1] == []  # a removal is said in words, with no diff
        assert not any(LONG in row for row in seen["old.txt"][1])  # (not in this diff)
