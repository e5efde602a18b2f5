"""A reply cut off mid-edit (or holding another part no operation carries) is never shown
as a turn with nothing in it: its row and its timeline mark say it failed and how many
parts were not read, the pane says what and where, and the checkpoint picker does not
hide it as empty. (Found in a real terminal, 2026-12-04: the turn read "· T2 edit b 0/0",
grey, with "no operation selected" beside it; only `check` and the findings panel said.)"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList, Static
from uikit import screen_of

from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.screens.dialogs import CheckpointPicker
from reviewtui.ui.widgets.lists import TurnList
from reviewtui.ui.widgets.op_detail import OpDetail
from reviewtui.ui.widgets.timeline import Timeline

pytestmark = pytest.mark.anyio

SESSION = """# Session: cut off

## Turn 1
> edit a

--- File: m.py ---
Edit 1
<<<<<<< SEARCH
    return 1
=======
    return 10
>>>>>>> REPLACE

## Turn 2
> edit b

--- File: m.py ---
Edit 1
<<<<<<< SEARCH
    return 2
=======
    return 20
    retur
"""


def _row(app: ReviewApp, pos: int) -> str:
    turns = app.screen.query_one("#turns", TurnList)
    return str(turns.get_option_at_index(pos).prompt)


async def test_a_reply_cut_off_mid_edit_is_shown_as_not_read(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "m.py").write_text("def a():\n    return 1\n\n\ndef b():\n    return 2\n")
    session = tmp_path / "session.md"
    session.write_text(SESSION)
    review = Review.open(session, root, dry_run=True)
    app = ReviewApp(review, watch=False)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        assert "not read" not in _row(app, 0)
        row = _row(app, 1)
        assert row.startswith("✗ T2")
        assert row == "✗ T2 1 not read edit b", row
        marks = {mark.index: mark.state for mark in app.screen.query_one(Timeline).marks}
        assert marks == {1: "pending", 2: "failed"}
        screen_of(app).go_checkpoint(2)
        await pilot.pause()
        detail = app.screen.query_one(OpDetail)
        title = str(detail.query_one("#op-title", Static).render())
        explained = str(detail.query_one("#op-explain", Static).render())
        assert title == "not read as an operation"
        assert f"{session}:19: edit is never closed" in explained  # its SEARCH line
        assert "(unterminated-edit)" in explained
        assert not detail.query_one("#op-buttons").display  # nothing to accept or reject
        screen_of(app).go_checkpoint(1)
        await pilot.pause()
        assert detail.query_one("#op-buttons").display
        await pilot.press("T")  # the checkpoint picker, empty turns hidden: T2 stays
        await pilot.pause()
        assert isinstance(app.screen, CheckpointPicker)
        await pilot.press("ctrl+o")
        await pilot.pause()
        listed = [str(app.screen.query_one(OptionList).get_option_at_index(n).prompt)
                  for n in range(app.screen.query_one(OptionList).option_count)]
        assert any(text.startswith("✗ T2") and "1 not read" in text for text in listed)
        await pilot.press("escape")
    review.close()
