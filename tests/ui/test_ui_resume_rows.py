"""Resumed on a later turn, the operation rows are titled for the list's width, with their
status word, as on a fresh start (QA pass s29, helper-90 F6: on a relaunch onto turn 5 the
rows were made for a list of unknown width and cut at their tail, the status out of sight)."""

from __future__ import annotations

from pathlib import Path

import pytest
from uikit import REPO, copy_session, open_app, screen_of

from reviewtui.ui.widgets.lists import OpList, op_row_titles

pytestmark = pytest.mark.anyio

SIZE = (120, 36)


def rows(app: object) -> list[str]:
    ops = screen_of(app).query_one("#ops", OpList)  # type: ignore[arg-type]
    return [str(ops.get_option_at_index(n).prompt) for n in range(ops.option_count)]


async def test_rows_on_a_resumed_later_turn_fit_the_list(tmp_path: Path) -> None:
    session, root = copy_session(REPO / "sample_sessions" / "refactor-multi-turn", tmp_path)
    app = open_app(session / "session.md", root)
    async with app.run_test(size=SIZE) as pilot:
        for _ in range(4):
            await pilot.press(".")  # to checkpoint 5: turn 5 on screen
            await pilot.pause()
        screen = screen_of(app)
        assert screen.session_turns[screen.turn_pos].index == 5
        fresh = rows(app)
        screen.review.save_ui_state()
    app = open_app(session / "session.md", root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.pause()
        screen = screen_of(app)
        assert screen.session_turns[screen.turn_pos].index == 5
        results = screen.review.display.turns[screen.turn_pos].results
        room = screen._op_room()
        titles = op_row_titles([r.op for r in results], room)
        resumed = rows(app)
        assert resumed == fresh
        for title, row in zip(titles, resumed, strict=True):
            assert title in row
