"""A key read together with one that moves the focus acts where the focus went, as when
typed slowly (QA s53 helper-225: ``f j y`` in one burst accepted turn 1's second operation
and wrote it, where typed slowly it accepted the operation ``j`` chose in the findings:
``Widget.focus`` waits for the app's queue, so the ``j`` went to the operations list)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from uikit import copy_session, open_app, screen_of

from reviewtui.ui.app import ReviewApp

SESSION = Path(__file__).resolve().parents[2] / "sample_sessions" / "refactor-multi-turn"
pytestmark = pytest.mark.anyio


async def _keys(app: ReviewApp, pilot: Pilot[Any], keys: tuple[str, ...], burst: bool) -> None:
    for key in keys:
        if burst:
            app.post_message(events.Key(key, None))
        else:
            await pilot.press(key)
    for _ in range(4):
        await pilot.pause()


def _decided(app: ReviewApp) -> tuple[tuple[str, str], ...]:
    decisions = screen_of(app).review.decisions
    return tuple(sorted((str(key), str(d.verdict)) for key, d in decisions.items()))


@pytest.mark.parametrize("keys", [("f", "j", "y"), ("b", "j", "y"), ("f", "j", "j", "n"),
                                  # (helper-226: the turns list focused, j then y)
                                  ("shift+tab", "j", "y"), ("shift+tab", "j", "j", "n")])
async def test_keys_with_a_focus_move_act_alike_fast_and_slow(
        tmp_path: Path, keys: tuple[str, ...]) -> None:
    seen = []
    for burst in (False, True):
        session, root = copy_session(SESSION, tmp_path / ("fast" if burst else "slow"))
        app = open_app(session, root)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            await _keys(app, pilot, keys, burst)
            seen.append((_decided(app), sorted(p.name for p in root.rglob("*") if p.is_file())))
    assert seen[0] == seen[1]
