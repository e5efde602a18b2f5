"""The tree screen shows every file of a checkpoint, also those the session never names,
which the workbench reads from disk only when first needed (``shell/resume.py``). One gone
meanwhile is said in the view, not a crash; one still there is shown as it is."""

from __future__ import annotations

from pathlib import Path

import pytest
from uikit import opened_tree

from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.screens.tree import TreeScreen
from reviewtui.ui.widgets.diff_view import DiffView

SIZE = (120, 36)

pytestmark = pytest.mark.anyio


async def test_a_file_gone_before_it_was_read_is_said(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "lib").mkdir(parents=True)
    (root / "a.py").write_text("x = 1\n")
    (root / "lib" / "gone.py").write_text("g = 1\n")
    (root / "lib" / "kept.py").write_text("k = 1\n")
    session = tmp_path / "s.md"
    session.write_text("## Turn 1\n> go\n\n--- File: a.py ---\n<<<<<<< SEARCH\nx = 1\n"
                       "=======\nx = 2\n>>>>>>> REPLACE\n")
    review = Review.open(session, root, dry_run=True, first_frame=True, lazy=True)
    assert getattr(review.base.get("lib/gone.py"), "unread", False)
    (root / "lib" / "gone.py").unlink()
    app = ReviewApp(review, watch=False)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            tree = await opened_tree(app, pilot, "lib/gone.py")
            view = tree.query_one(DiffView)
            assert view._message is not None
            assert "cannot read lib/gone.py" in "\n".join(view._message)
            tree.show_file([path for path, _ in tree.rows].index("lib/kept.py"))
            assert view._message is None or "cannot read" not in "\n".join(view._message)
            assert view._after_text == "k = 1"
            await pilot.press("escape")
            await pilot.pause()
            assert not isinstance(app.screen, TreeScreen)
    finally:
        review.close()
