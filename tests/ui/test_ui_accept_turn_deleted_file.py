"""``A`` on a turn with an operation on a file deleted outside: the notice names the file
(QA s35 helper-101: "1 operation left pending: an accept cannot apply to them (ambiguous,
not found or refused)" said nothing of the deletion that stopped it)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static
from uikit import open_app, until

from diskkit import Ed, make_project, write_session
from reviewtui.core.engine import Verdict
from reviewtui.ui.screens.dialogs import ConfirmScreen

pytestmark = pytest.mark.anyio


async def test_accept_turn_names_the_file_deleted_outside(tmp_path: Path) -> None:
    session = write_session(tmp_path / "s", [[Ed("a.txt", "one", "ONE"),
                                              Ed("b.txt", "two", "TWO")]])
    root = make_project(tmp_path / "proj", {"a.txt": "one\n", "b.txt": "two\n"})
    app = open_app(session, root)
    async with app.run_test(size=(120, 36)) as pilot:
        await pilot.pause()
        (root / "b.txt").unlink()
        app.review.outside_changed(["b.txt"])
        await pilot.press("A")
        await until(pilot, lambda: isinstance(app.screen, ConfirmScreen))
        asked = str(app.screen.query(Static).first().render())
        assert "Accept 1 pending operation of turn 1 that applies cleanly?" in asked
        assert ("Deleted outside the workbench, so left pending: b.txt (put it back, or "
                "reject its operations).") in " ".join(asked.split())
        await pilot.press("y")  # the confirmation
        await until(pilot, lambda: (1, 0) in app.review.decisions)
        assert app.review.decisions[(1, 0)].verdict is Verdict.ACCEPTED
        assert (root / "a.txt").read_text() == "ONE\n"
        assert not (root / "b.txt").exists()  # never recreated silently
    app.review.close()
