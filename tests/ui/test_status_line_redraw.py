"""The status line is drawn again only when what it says changes.

After ``n`` or its undo the counts are worked out again in the background and the
screen asks for the same line a second time; drawing it again sent the whole line to
the terminal once more (seen with strace) for nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from uikit import open_app, screen_of

from reviewtui.ui.widgets.status_line import StatusLine

pytestmark = pytest.mark.anyio


async def test_the_same_line_is_not_drawn_twice(tour: tuple[Path, Path],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    session, root = tour
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        status = app.screen.query_one(StatusLine)
        drawn: list[str] = []
        real = StatusLine.update
        monkeypatch.setattr(StatusLine, "update", lambda self, content="", **kw: (
            drawn.append(str(content)), real(self, content, **kw))[1])
        screen = screen_of(app)
        screen.refresh_status()
        screen.refresh_status()
        assert drawn == []  # nothing changed since the first frame
        screen.refresh_status(note="saved")
        screen.refresh_status(note="saved")
        assert len(drawn) == 1
        assert "saved" in drawn[0]
        status.progress = "replaying"
        assert len(drawn) == 2
        assert "replaying" in str(status.render())
