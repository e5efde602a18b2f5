"""A reject made while a file was deleted outside, the file then made again over what
the review wrote: the workbench says which decision it wrote into the file that came
back (helper-101, s35: only "rebased over an outside change" said so)."""

from __future__ import annotations

from pathlib import Path

import pytest
from uikit import open_app, screen_of

from reviewtui.ui.messages import FilesChanged

pytestmark = pytest.mark.anyio

GREETING = "greeter/core.py"


async def test_the_reject_made_while_away_is_told(tour: tuple[Path, Path]) -> None:
    session, root = tour
    target = root / GREETING
    original = target.read_text()
    app = open_app(session, root)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("y")
        await pilot.pause()
        written = target.read_text()
        assert written != original
        target.unlink()
        app.post_message(FilesChanged(frozenset({GREETING})))
        await app.workers.wait_for_complete()
        await pilot.pause()
        screen_of(app).select(0, 0)
        await pilot.pause()
        await pilot.press("n")  # rejected while the file is away: nothing to write
        await pilot.pause()
        assert not target.exists()
        target.write_text(written + "# saved by an editor\n")
        app.post_message(FilesChanged(frozenset({GREETING})))
        await app.workers.wait_for_complete()
        await pilot.pause()
        said = [str(n.message) for n in app._notifications]
        assert (f"{GREETING}: deleted, then made again outside the workbench; decided "
                "while it was away: turn 1, operation 1 (greeter/core.py, Edit 1) "
                "rejected") in said, said
        assert target.read_text() == original + "# saved by an editor\n"
