"""The notice of a move that waits whole: its source changed outside is a conflict, and its
destination, held with it, is not said to have changed on disk (tmux check, s29: the toast
read "conflict: invoicer/pricing.py, invoicer/totals.py changed on disk")."""

from __future__ import annotations

from pathlib import Path

import pytest

from diskkit import Cmd, Ed, make_project, write_session
from reviewtui.core.engine import Decision
from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.widgets.op_detail import OpDetail

SIZE = (120, 36)
pytestmark = pytest.mark.anyio


async def test_the_held_end_of_a_move_is_said_to_wait(tmp_path: Path) -> None:
    session = write_session(tmp_path / "session", [
        [Ed("calc.py", "    return sum(xs)", "    return sum(xs) or 0")],
        [Cmd(":mv calc.py pricing.py")],
    ])
    root = make_project(tmp_path / "proj", {"calc.py": "def total(xs):\n    return sum(xs)\n"})
    review = Review.open(session, root, first_frame=True)
    app = ReviewApp(review, watch=False)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            review.decide((1, 0), Decision.accept())
            (root / "calc.py").write_text("def total(xs):\n    return 0\n")
            review.outside_changed(["calc.py"])
            report = review.decide((2, 0), Decision.accept())
            assert sorted(report.conflicts) == ["calc.py", "pricing.py"]
            app.screen._report(report)  # what the screen does after the key
            await pilot.pause()
            said = [n.message for n in app._notifications]
            assert ("conflict: calc.py changed on disk; nothing written there; pricing.py "
                    "not written either: a move is written whole") in said, said
            assert not (root / "pricing.py").exists()
            # The move's row says why each end waits, not "moved".
            app.screen.refresh_after_decision()
            assert app.screen.select_key((2, 0))
            await pilot.pause()
            view = app.screen.query_one(OpDetail).view
            assert view is not None
            lines = view.explanation.plain.split("\n")
            assert lines[0].startswith("calc.py: the draft removes a file that was changed "
                                       "outside the workbench")
            assert any(line.startswith("pricing.py: waits for calc.py") for line in lines)
            assert not view.explanation.plain.startswith("moved")
    finally:
        review.close()
