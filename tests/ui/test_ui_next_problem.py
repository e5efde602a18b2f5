"""`!` goes to the next operation in conflict or that did not apply, across turns and round
again, and says so when there is none (QA pass s29, helper-90 F4: no key reached a
conflict; the palette's "conflict" found only Quit)."""

from __future__ import annotations

from pathlib import Path

import pytest
from uikit import open_app, screen_of

from reviewtui.core.engine.opstate import OpState
from reviewtui.ui.commands import pretty_keys

pytestmark = pytest.mark.anyio
PROBLEMS = {OpState.CONFLICT, OpState.NOT_FOUND, OpState.AMBIGUOUS, OpState.NEEDS_REVIEW,
            OpState.REFUSED}


async def test_it_visits_every_failed_operation_in_reading_order(
        gallery: tuple[Path, Path]) -> None:
    session, root = gallery
    app = open_app(session, root)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        expected = [(tp, opp) for tp, turn in enumerate(screen._turn_states)
                    for opp, state in enumerate(turn) if state in PROBLEMS]
        assert len(expected) >= 3  # the gallery has one operation per outcome
        screen.select(0, 0)
        visited = []
        for _ in range(len(expected) + 1):
            await pilot.press("exclamation_mark")
            await pilot.pause()
            visited.append((screen.turn_pos, screen.op_pos))
        start = 0 if (0, 0) not in expected else 1
        assert visited[:len(expected)] == expected[start:] + expected[:start]
        assert visited[-1] == visited[0]  # round again from the top


async def test_none_is_said(tour: tuple[Path, Path]) -> None:
    session, root = tour
    app = open_app(session, root)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        assert not any(s in PROBLEMS for turn in screen._turn_states for s in turn)
        here = (screen.turn_pos, screen.op_pos)
        await pilot.press("exclamation_mark")
        await pilot.pause()
        assert (screen.turn_pos, screen.op_pos) == here
        assert [n.message for n in app._notifications] == [
            "no operation is in conflict or failed to apply"]


def test_its_key_reads_as_typed() -> None:
    assert pretty_keys("exclamation_mark") == "!"
