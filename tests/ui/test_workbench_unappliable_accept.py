"""Issue 15: `y` on an operation that cannot apply gives a message and records no
decision (nothing in the log, nothing on disk, the cursor stays)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.message import Message
from textual.notifications import Notify
from uikit import open_app, screen_of, state_at

from reviewtui.core.engine.opstate import OpState

pytestmark = pytest.mark.anyio
SIZE = (120, 40)


class Notes:
    def __init__(self) -> None:
        self.messages: list[str] = []

    def __call__(self, message: Message) -> None:
        if isinstance(message, Notify):
            self.messages.append(str(message.notification.message))


@pytest.mark.parametrize(("turn_pos", "op_pos", "state", "hint"), [
    (2, 0, OpState.REFUSED, "a safety rule refuses it: reject it"),  # a path out of the root
    (2, 1, OpState.REFUSED, "a safety rule refuses it: reject it"),  # a binary file
    (2, 3, OpState.REFUSED, "force it (F) after a look, or reject it"),  # duplicate-line guard
    (1, 2, OpState.NEEDS_REVIEW, "force it (F) after a look, or edit it"),  # a near match
])
async def test_accepting_what_cannot_apply_says_why_and_records_nothing(
        gallery: tuple[Path, Path], turn_pos: int, op_pos: int, state: OpState,
        hint: str) -> None:
    session, root = gallery
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    notes = Notes()
    app = open_app(session, root)
    async with app.run_test(size=SIZE, message_hook=notes) as pilot:
        screen = screen_of(app)
        screen.select(turn_pos, op_pos)
        await pilot.pause()
        log = len(screen.review._log)
        await pilot.press("y")
        await pilot.pause()
        assert state_at(app, turn_pos, op_pos) is state
        assert len(screen.review._log) == log
        assert (screen.turn_pos, screen.op_pos) == (turn_pos, op_pos)
        (said,) = [m for m in notes.messages if "cannot accept" in m]
        assert "nothing was recorded" in said
        assert hint in said
    assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before
