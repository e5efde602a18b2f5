"""The raw reply view reads the session file again: a file changed on disk since it was
opened is refused with a message, instead of its new lines shown at the line numbers of
the session being reviewed (they would be some other text, presented as the model's)."""

from __future__ import annotations

from pathlib import Path

import pytest
from uikit import GALLERY, copy_session, open_app, screen_of

from reviewtui.ui.screens.raw import RawReplyScreen

pytestmark = pytest.mark.anyio


async def wait_for(pilot: object, done: object, tries: int = 200) -> None:
    for _ in range(tries):
        if done():  # type: ignore[operator]
            return
        await pilot.pause(0.02)  # type: ignore[attr-defined]


async def test_raw_view_of_a_session_changed_on_disk_is_refused(tmp_path: Path) -> None:
    folder, root = copy_session(GALLERY, tmp_path)
    app = open_app(folder, root, dry_run=True)
    session = app.review.loaded.file
    async with app.run_test(size=(120, 40)) as pilot:
        screen = screen_of(app)
        await pilot.pause()
        original = session.read_text()
        session.write_text(original.replace("> ", "> INJECTED ", 1))
        await pilot.press("r")
        await wait_for(pilot, lambda: app._notifications)
        assert app.screen is screen  # no raw view
        said = [n.message for n in app._notifications]
        assert any("changed on disk since it was opened" in m for m in said), said
        # Put back as it was loaded, the same key shows the raw reply.
        session.write_text(original)
        await pilot.press("r")
        await wait_for(pilot, lambda: isinstance(app.screen, RawReplyScreen))
        assert isinstance(app.screen, RawReplyScreen)
        shown = str(app.screen.query_one("#raw-text").render())
        assert "INJECTED" not in shown
        turn = screen.session_turns[screen.turn_pos]
        first = original.splitlines()[turn.span.start - 1]
        assert first.strip()
        assert first.strip() in shown
