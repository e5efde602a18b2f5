"""A diff view that comes back after a console command's detail hid it draws its first
frame wrapped at the width it gets, not unwrapped and then wrapped a frame later.

Textual gives a hidden widget no size, and the new size arrives with the layout after the
frame is drawn. The refactor session's first operation is ``:mv`` (no diff: the view is
hidden); ``y`` moves to a new file whose first line (62 characters) is longer than a
90-column terminal's diff, so it wraps (a new file's diff is unified: one side only).
Before the fix, every row of that first frame was drawn with a wrap
computed for width 0 (no continuation line), and the view jumped a row when the next
frame wrapped it (seen in tmux: two screens per key, the final one ~35 ms later).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.strip import Strip
from uikit import REPO, copy_session, open_app, screen_of

from reviewtui.ui.widgets.diff_view import CONTINUED, DiffView

pytestmark = pytest.mark.anyio
REFACTOR = REPO / "sample_sessions" / "refactor-multi-turn"


async def test_the_first_frame_after_the_view_comes_back_is_wrapped_at_its_width(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session, root = copy_session(REFACTOR, tmp_path)
    drawn: list[tuple[int, int]] = []  # (width drawn at, width the wrap was computed for)
    render_line = DiffView.render_line

    def spy(self: DiffView, y: int) -> Strip:
        drawn.append((self.scrollable_content_region.width, self._layout_width))
        return render_line(self, y)

    monkeypatch.setattr(DiffView, "render_line", spy)
    app = open_app(session, root)
    async with app.run_test(size=(90, 45)) as pilot:
        await pilot.pause()
        diff = screen_of(app).query_one(DiffView)
        assert not diff.display  # the :mv operation: no diff shown
        for key, undo in (("y", "u"), ("y", None)):  # shown twice: first time and again
            drawn.clear()
            await pilot.press(key)
            await pilot.pause()
            assert diff.display
            assert diff.size.width > 0
            assert drawn, "the diff view drew nothing"
            assert all(width == wrapped for width, wrapped in drawn), drawn[:5]
            assert any(CONTINUED in strip.text for strip in map(diff.render_line,
                                                                 range(diff.size.height)))
            if undo:
                await pilot.press(undo)
                await pilot.pause()
                assert not diff.display
