"""Reject with a reason (N): the prompt, the state file, the explanation after reopening."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Input, Static
from uikit import open_app, screen_of, state_at

from reviewtui.core.engine.opstate import OpState

pytestmark = pytest.mark.anyio

SIZE = (140, 40)


def _explanation(app: object) -> str:
    screen = screen_of(app)  # type: ignore[arg-type]
    return str(screen.query_one("#op-explain", Static).render())


async def test_reject_with_reason_is_saved_and_shown_again(tour: tuple[Path, Path]) -> None:
    session, root = tour
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("N")
        await pilot.pause()
        assert isinstance(app.screen.query_one("#answer", Input), Input)
        await pilot.press(*"wrong greeting", "enter")
        await pilot.pause()
        assert state_at(app, 0, 0) is OpState.REJECTED
        result = screen_of(app).result(0, 0)
        assert result is not None
        assert result.decision.reason == "wrong greeting"
    states = list(session.glob("*.review.json"))
    assert len(states) == 1
    data = json.loads(states[0].read_text())
    assert '"reason": "wrong greeting"' in json.dumps(data)

    again = open_app(session, root)
    async with again.run_test(size=SIZE) as pilot:
        screen_of(again).select(0, 0)
        await pilot.pause()
        assert state_at(again, 0, 0) is OpState.REJECTED
        # Said once, in full, where the explanation says who rejected it (it was in the
        # status line, before "rejected by the reviewer", and that line again: QA s30).
        explained = _explanation(again)
        assert explained.startswith("rejected by the reviewer: wrong greeting")
        assert explained.count("rejected") == 1
        subtitle = str(screen_of(again).query_one("#op-subtitle", Static).render())
        assert "wrong greeting" not in subtitle
        assert "rejected" in subtitle


async def test_escape_cancels_the_reason_prompt(tour: tuple[Path, Path]) -> None:
    session, root = tour
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("N")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert state_at(app, 0, 0) is OpState.PENDING
