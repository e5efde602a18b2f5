"""A file the review wrote, made a symbolic link outside: a conflict, shown as a link."""

from __future__ import annotations

from pathlib import Path

import pytest
from uikit import open_app, screen_of, state_at

from reviewtui.core.engine.opstate import OpState
from reviewtui.ui.messages import FilesChanged
from reviewtui.ui.widgets.op_detail import OpDetail

pytestmark = pytest.mark.anyio

GREETING = "greeter/core.py"


async def test_a_file_made_a_link_shows_the_link_and_is_never_written_over(
        tour: tuple[Path, Path]) -> None:
    session, root = tour
    app = open_app(session, root)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("y")
        await pilot.pause()
        target = root / GREETING
        (root / "greeter/other.py").write_text("other = 1\n")
        target.unlink()
        target.symlink_to("other.py")
        app.post_message(FilesChanged(frozenset({GREETING})))
        await pilot.pause()
        screen_of(app).select(0, 0)
        await pilot.pause()
        assert state_at(app, 0, 0) is OpState.CONFLICT
        view = app.screen.query_one(OpDetail).view
        assert view is not None
        assert "symbolic link" in view.explanation.plain
        assert view.panes[0].after == ("link -> other.py",)  # not "other.py", a file's line
        await pilot.press("n")
        await pilot.pause()
        assert target.is_symlink()
        assert (root / "greeter/other.py").read_text() == "other = 1\n"
