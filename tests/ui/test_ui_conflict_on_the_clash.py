"""On screen, a conflict sits on the operation that clashed (QA pass s29, helper-90 F1): an
edit written before the outside change stays accepted; and `A` on a turn whose `:mv` is
held says so before it writes the turn's other edits (F2)."""

from __future__ import annotations

from pathlib import Path

import pytest
from uikit import screen_of, state_at

from diskkit import Cmd, Ed, make_project, tree_bytes, write_session
from reviewtui.core.engine.opstate import OpState
from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.screens.dialogs import ConfirmScreen

SIZE = (120, 36)
pytestmark = pytest.mark.anyio


async def test_the_move_not_the_written_edit_is_in_conflict(tmp_path: Path) -> None:
    session = write_session(tmp_path / "session", [
        [Ed("calc.py", "    return sum(xs)", "    return sum(xs) or 0")],
        [Cmd(":mv calc.py pricing.py"),
         Ed("app.py", "from calc import total", "from pricing import total")],
    ])
    root = make_project(tmp_path / "proj", {"calc.py": "def total(xs):\n    return sum(xs)\n",
                                            "app.py": "from calc import total\n"})
    review = Review.open(session, root, first_frame=True)
    app = ReviewApp(review, watch=False)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.press("y")  # turn 1's edit, written
            await pilot.pause()
            assert "or 0" in (root / "calc.py").read_text()
            (root / "calc.py").write_text("def total(xs):\n    return 0\n")  # outside
            review.outside_changed(["calc.py"])
            screen = screen_of(app)
            screen.refresh_after_decision()
            assert screen.select_key((2, 0))
            await pilot.press("y")  # the :mv: its source changed outside
            await pilot.pause()
            assert not (root / "pricing.py").exists()
            assert state_at(app, 0, 0) is OpState.ACCEPTED  # written before: not flagged
            assert state_at(app, 1, 0) is OpState.CONFLICT
            before = tree_bytes(root)
            assert screen.select_key((2, 1))
            await pilot.press("A")
            await pilot.pause()
            dialog = app.screen
            assert isinstance(dialog, ConfirmScreen)
            assert isinstance(dialog.question, str)
            assert ("In conflict, not written until settled: :mv calc.py pricing.py."
                    in dialog.question)
            await pilot.press("n")
            await pilot.pause()
            assert tree_bytes(root) == before
            assert state_at(app, 1, 1) is OpState.PENDING
    finally:
        review.close()
