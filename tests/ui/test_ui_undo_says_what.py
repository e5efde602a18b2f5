"""`u` and `U` say what they took back or made again (QA pass s29, helper-90 F7: an undo
changed the disk and the counts and said nothing), and the disk follows."""

from __future__ import annotations

from pathlib import Path

import pytest
from uikit import open_app, screen_of, state_at

from reviewtui.core.engine.opstate import OpState

pytestmark = pytest.mark.anyio

GREETING = "greeter/core.py"


def said(app: object) -> list[str]:
    return [n.message for n in app._notifications]  # type: ignore[attr-defined]


async def test_undo_and_redo_name_the_decision_or_say_there_is_none(
        tour: tuple[Path, Path]) -> None:
    session, root = tour
    original = (root / GREETING).read_bytes()
    app = open_app(session, root)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.press("u")  # nothing yet: said, nothing changed
        await pilot.pause()
        assert said(app) == ["nothing to undo"]
        assert (root / GREETING).read_bytes() == original
        await pilot.press("y")
        await pilot.pause()
        changed = (root / GREETING).read_bytes()
        assert changed != original
        await pilot.press("u")
        await pilot.pause()
        assert (root / GREETING).read_bytes() == original
        assert state_at(app, 0, 0) is OpState.PENDING
        assert f"undone: the accept of turn 1 · Edit 1 · {GREETING}" in said(app)
        await pilot.press("U")
        await pilot.pause()
        assert (root / GREETING).read_bytes() == changed
        assert f"redone: the accept of turn 1 · Edit 1 · {GREETING}" in said(app)


async def test_undo_of_a_bulk_key_counts_it(tour: tuple[Path, Path]) -> None:
    session, root = tour
    app = open_app(session, root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen_of(app).select(2, 0)  # turn 3: two edits of greeter/cli.py
        await pilot.press("d")
        await pilot.pause()
        assert [state_at(app, 2, n) for n in range(2)] == [OpState.REJECTED] * 2
        await pilot.press("u")
        await pilot.pause()
        assert [state_at(app, 2, n) for n in range(2)] == [OpState.PENDING] * 2
        assert "undone: 2 rejects in turn 3" in said(app)
