"""Threat: a saved accept of a path no file system can hold makes every reopen crash.

Before: the workbench recorded an accept of a 300-byte file name (``check`` called it
applied), the replay failed with ENAMETOOLONG, and opening the review again replayed the
saved accept and crashed, every time. The path rule now refuses the operation, and a state
that still holds such an accept (an older review, or one shipped with the session) is
reopened with that accept taken back and said, not replayed.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hostile_statekit import accept_entry, forge_state
from textual.notifications import Notify

from reviewtui.shell.loader import load_session
from reviewtui.shell.review import Review
from reviewtui.shell.state import op_fingerprint
from reviewtui.ui.app import ReviewApp

LONG_NAME = "n" * 300 + ".txt"


def _saved_accept(arena: Any) -> Path:
    (arena.root / "keep.txt").write_text("kept\n")
    session: Path = arena.work / "s.md"
    session.write_text(f"## Turn 1\n> r\n\n--- File: {LONG_NAME} ---\nhello\n\n"
                       f"### Changed files:\n- {LONG_NAME}\n")
    op = load_session(session).session.turns[0].reply.ops[0]
    forge_state(session.with_name(session.name + ".review.json"),
                log=[accept_entry(1, 0, LONG_NAME, op_fingerprint(op))])
    return session


def test_reopening_a_saved_accept_of_a_name_too_long_takes_it_back(arena: Any) -> None:
    session = _saved_accept(arena)
    with Review.open(session, arena.root) as review:
        assert review.decisions == {}
        assert review.outcome((1, 0)).rule == "name-too-long"
        assert any("pending again" in p for p in review.state_problems), review.state_problems
    with Review.open(session, arena.root) as again:  # the state it saved opens too
        assert again.decisions == {}
        assert again.state_problems == []
    assert sorted(p.name for p in arena.root.iterdir()) == ["keep.txt"]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_the_workbench_reopens_it(arena: Any) -> None:
    session = _saved_accept(arena)
    review = Review.open(session, arena.root)
    app = ReviewApp(review, watch=False)
    notes: list[str] = []

    def hook(message: object) -> None:
        if isinstance(message, Notify):
            notes.append(message.notification.message)

    try:
        async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
            await pilot.pause()
            assert app.is_running
            await pilot.press("y")  # accepting it again is refused, with a message
            await pilot.pause()
            assert review.decisions == {}
            assert any("cannot accept" in note for note in notes), notes
    finally:
        review.close()
    assert app.return_code in (None, 0)
    assert sorted(p.name for p in arena.root.iterdir()) == ["keep.txt"]
