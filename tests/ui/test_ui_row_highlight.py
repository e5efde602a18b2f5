"""The turn and operation lists redraw only the rows a moving highlight leaves and
reaches (``RowHighlightOptionList``): what they show must be what a whole redraw shows,
with no row left drawn highlighted after the cursor moved on."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.geometry import Region
from textual.strip import Strip
from uikit import TOUR, copy_session, open_app, screen_of

from reviewtui.core.engine import Verdict
from reviewtui.ui.widgets.lists import OpList, RowHighlightOptionList, TurnList

SIZE = (120, 40)


def _drawn(widget: RowHighlightOptionList) -> list[Strip]:
    """The rows as the screen has them (lines drawn before are reused)."""
    return widget.render_lines(Region(0, 0, *widget.outer_size))


def _fresh(widget: RowHighlightOptionList) -> list[Strip]:
    """Every row drawn from scratch."""
    widget._styles_cache.clear()  # noqa: SLF001
    return widget.render_lines(Region(0, 0, *widget.outer_size))


def _texts(strips: list[Strip]) -> list[tuple[str, tuple[object, ...]]]:
    return [(strip.text, tuple(seg.style for seg in strip)) for strip in strips]


@pytest.mark.anyio
async def test_moving_highlights_leave_no_row_drawn_highlighted(tmp_path: Path) -> None:
    session, root = copy_session(TOUR, tmp_path)
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        turn_pos = next(tp for tp, turn in enumerate(screen.review.display.turns)
                        if len(turn.results) >= 3)
        screen.select(turn_pos, 0)
        await pilot.pause()
        ops = screen.query_one("#ops", OpList)
        turns = screen.query_one("#turns", TurnList)
        for widget in (ops, turns):
            _fresh(widget)
            assert _texts(_drawn(widget)) == _texts(_fresh(widget))
        first = screen.current()
        assert first is not None
        await pilot.press("y")  # accepts op 0; the cursor moves to op 1
        await app.jobs.wait_idle()
        await pilot.pause()
        assert screen.review.result(first.key).decision.verdict is Verdict.ACCEPTED
        assert (screen.turn_pos, screen.op_pos) == (turn_pos, 1)
        assert ops.highlighted == 1
        for _ in range(2):
            for widget in (ops, turns):
                assert _texts(_drawn(widget)) == _texts(_fresh(widget))
            await pilot.press("j", "j", "k")  # the list's own keys move it too
            await pilot.pause()
        assert ops.highlighted == 2
        await pilot.press("shift+tab")  # the turn list: move its highlight by keys
        await pilot.press("j")
        await pilot.pause()
        assert turns.highlighted == min(turn_pos + 1, turns.option_count - 1)
        for widget in (ops, turns):
            assert _texts(_drawn(widget)) == _texts(_fresh(widget))
