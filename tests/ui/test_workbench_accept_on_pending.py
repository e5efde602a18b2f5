"""An accept that lands on screen only on top of an earlier pending operation (the display
counts pending operations that apply as accepted) is not written to disk until that one
is accepted. Issue 15 audit: the workbench says so instead of showing it as if written.

Such an operation counts as accepted on the status line, in `stats` and in the exports
alike (test_workbench_waiting_counts.py has the labels and the headless commands)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.message import Message
from textual.notifications import Notify
from uikit import open_app, screen_of, two_edit_session

from reviewtui.core.engine import Decision
from reviewtui.core.export.accepted import count_label
from reviewtui.shell.export import accepted_from_review
from reviewtui.shell.review import Review
from reviewtui.ui.screens.review_states import review_states

pytestmark = pytest.mark.anyio
SIZE = (120, 40)


class Notes:
    def __init__(self) -> None:
        self.messages: list[str] = []

    def __call__(self, message: Message) -> None:
        if isinstance(message, Notify):
            self.messages.append(str(message.notification.message))


@pytest.fixture
def chained(tmp_path: Path) -> tuple[Path, Path]:
    return two_edit_session(tmp_path, second_search="x = 2")


async def test_an_accept_waiting_on_a_pending_one_says_it_is_not_written(
        chained: tuple[Path, Path]) -> None:
    session, root = chained
    notes = Notes()
    app = open_app(session, root)
    async with app.run_test(size=SIZE, message_hook=notes) as pilot:
        screen = screen_of(app)
        screen.select(1, 0)
        await pilot.press("y")
        await pilot.pause()
        assert (root / "a.py").read_text() == "x = 1\n"  # turn 1 is still pending
        (said,) = [m for m in notes.messages if m.startswith("recorded, not written yet")]
        assert "turn 2 Edit 1 · a.py" in said
        screen.select(0, 0)
        await pilot.press("y")
        await pilot.pause()
        assert (root / "a.py").read_text() == "x = 3\n"  # both written now
        assert len([m for m in notes.messages if m.startswith("recorded, not written")]) == 1


def test_an_accept_waiting_on_a_pending_one_counts_alike(chained: tuple[Path, Path]) -> None:
    session, root = chained
    with Review.open(session, root) as review:
        review.decide((2, 0), Decision.accept())
        shown = review_states(review).counts
        accepted = accepted_from_review(review)
        exported = [count_label(r, True) for turn in accepted.run.turns for r in turn.results]
    assert exported.count("accepted") == shown["accepted"]
    assert exported.count("failed") == shown["failed"]
