"""Threat: ``y`` on an edit whose text is not in the file, then an outside change.

Before: the accept was recorded though nothing could be written; when someone later put
the searched text in the file, the edit landed there, a place and a moment the reviewer
never chose. Now the accept is refused with a message and nothing is recorded, in the
review and in the workbench.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hostile_statekit import write_markdown_session
from textual.notifications import Notify

from reviewtui.core.engine import Decision
from reviewtui.core.errors import DecisionRefused
from reviewtui.core.model.outcome import Status
from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp

OP = (1, 0)


def _setup(arena: Any) -> Path:
    (arena.root / "a.txt").write_bytes(b"y = 1\n")
    return write_markdown_session(arena.work / "s.md", [[("a.txt", "x = 1", "x = 2")]])


def test_an_accept_of_a_not_found_edit_is_refused_and_never_lands_later(arena: Any) -> None:
    session = _setup(arena)
    with Review.open(session, arena.root) as review:
        assert review.outcome(OP).status is Status.NOT_FOUND
        with pytest.raises(DecisionRefused, match="cannot accept an operation that is"):
            review.decide(OP, Decision.accept())
        assert review.decisions == {}
        (arena.root / "a.txt").write_bytes(b"x = 1\n")  # the text shows up later
        review.outside_changed(["a.txt"])
        assert review.outcome(OP).status is Status.APPLIED
    assert (arena.root / "a.txt").read_bytes() == b"x = 1\n"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_y_on_a_not_found_edit_says_so_and_records_nothing(arena: Any) -> None:
    session = _setup(arena)
    review = Review.open(session, arena.root)
    notes: list[str] = []

    def hook(message: object) -> None:
        if isinstance(message, Notify):
            notes.append(message.notification.message)

    app = ReviewApp(review, watch=False)
    try:
        async with app.run_test(size=(120, 40), message_hook=hook) as pilot:
            await pilot.pause()
            await pilot.press("y")
            await pilot.pause()
            assert review.decisions == {}
            assert any("cannot accept" in note for note in notes), notes
            (arena.root / "a.txt").write_bytes(b"x = 1\n")
            review.outside_changed(["a.txt"])
    finally:
        review.close()
    assert (arena.root / "a.txt").read_bytes() == b"x = 1\n"
