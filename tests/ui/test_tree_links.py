"""The tree screen shows a symbolic link as its target, with what the turn did to it, not
as "binary file: not shown" (found in a real terminal on ripgrep's HomebrewFormula link,
2026-12-04)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from textual.widgets import Static
from uikit import opened_tree

from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.widgets.diff_view import DiffView

pytestmark = pytest.mark.anyio


async def test_a_link_is_shown_as_its_target(tmp_path: Path) -> None:
    root = tmp_path / "root"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "brew").write_text("formula\n")
    os.symlink("pkg/brew", root / "Formula")
    (root / "a.txt").write_text("one\n")
    session = tmp_path / "s.md"
    session.write_text("## Turn 1\n> change a\n\n--- File: a.txt ---\n<<<<<<< SEARCH\n"
                       "one\n=======\nONE\n>>>>>>> REPLACE\n")
    review = Review.open(session, root, dry_run=True)
    app = ReviewApp(review, watch=False)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        tree = await opened_tree(app, pilot, "Formula")
        assert tree.query_one(DiffView)._message == ("link -> pkg/brew",)
        label = str(tree.query_one("#tree-label", Static).render())
        assert label == "Formula — unchanged by turn 1"
        tree.show_file([path for path, _what in tree.rows].index("a.txt"))  # as before
        await pilot.pause()
        assert str(tree.query_one("#tree-label", Static).render()) == (
            "a.txt — changed by turn 1")
    review.close()
