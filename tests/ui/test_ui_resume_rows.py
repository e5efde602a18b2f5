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


@pytest.mark.parametrize("saved", [99, -1, "2", True])
async def test_a_saved_checkpoint_the_session_has_not_is_not_taken(tmp_path: Path,
                                                                   saved: object) -> None:
    """QA s45 helper-137 #3: a state's ``ui.checkpoint`` of 99 in a session of 5 turns
    was taken as it was (the status line read ``checkpoint 99/5``)."""
    import json

    session, root = copy_session(REPO / "sample_sessions" / "refactor-multi-turn", tmp_path)
    app = open_app(session / "session.md", root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen_of(app).review.save_ui_state()
    state = session / "session.md.review.json"
    doc = json.loads(state.read_text())
    doc["ui"]["checkpoint"] = saved
    state.write_text(json.dumps(doc))
    app = open_app(session / "session.md", root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        assert 0 <= screen.checkpoint <= len(screen.session_turns)
