"""Threat: decisions that do not apply.

An accept recorded on an ambiguous, not-found or refused operation writes nothing, and
lands wherever a later change of the file lets it: the reviewer never chose that place.
Such a decision is not recorded; a saved accept that stops landing goes back to pending
with a notice, both live (after an outside change) and on reopen.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from hostile_statekit import write_markdown_session
from textual.message import Message
from textual.notifications import Notify

from reviewtui.core.engine import Decision
from reviewtui.core.engine.decisions import accept_lands
from reviewtui.core.errors import DecisionRefused, ReviewtuiError
from reviewtui.core.model.outcome import Status
from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp

AMBIGUOUS = b"x = 1\nx = 1\n"
UNIQUE = b"x = 1\n"
OP = (1, 0)


def _setup(arena: Any, content: bytes) -> Path:
    (arena.root / "a.txt").write_bytes(content)
    (arena.root / "b.txt").write_bytes(b"b = 1\n")
    return write_markdown_session(arena.work / "s.md", [[("a.txt", "x = 1", "x = 2"),
                                                         ("b.txt", "b = 1", "b = 2")]])


def test_accept_lands_only_for_outcomes_it_can_apply() -> None:
    accept, forced = Decision.accept(), Decision.accept(force=True)
    assert accept_lands(accept, Status.APPLIED, False)
    for status in (Status.AMBIGUOUS, Status.NOT_FOUND, Status.REFUSED, Status.NEEDS_REVIEW):
        assert not accept_lands(accept, status, True)
        assert not accept_lands(forced, status, False)
    assert accept_lands(forced, Status.NEEDS_REVIEW, True)
    assert accept_lands(Decision.reject(), Status.AMBIGUOUS, False)  # a reject always applies


def test_accepting_an_ambiguous_operation_records_nothing(arena: Any) -> None:
    session = _setup(arena, AMBIGUOUS)
    with Review.open(session, arena.root) as review:
        assert review.outcome(OP).status is Status.AMBIGUOUS
        with pytest.raises(DecisionRefused) as info:
            review.decide(OP, Decision.accept())
        assert isinstance(info.value, ReviewtuiError)
        assert info.value.key == OP
        assert "cannot accept an operation that is ambiguous" in str(info.value)
        assert review.decisions == {}
        assert not review.can_undo
        # The other copy goes away outside: the operation becomes unique, and nothing of
        # it is written, because nobody accepted it.
        (arena.root / "a.txt").write_bytes(UNIQUE)
        review.outside_changed(["a.txt"])
        assert review.outcome(OP).status is Status.APPLIED
    assert (arena.root / "a.txt").read_bytes() == UNIQUE


def test_bulk_accept_skips_what_cannot_apply(arena: Any) -> None:
    session = _setup(arena, AMBIGUOUS)
    with Review.open(session, arena.root) as review:
        report = review.decide_many([(OP, Decision.accept()), ((1, 1), Decision.accept())],
                                    skip_unappliable=True)
        assert report.skipped == [OP]
        assert review.decisions == {(1, 1): Decision.accept()}
    assert (arena.root / "b.txt").read_bytes() == b"b = 2\n"
    assert (arena.root / "a.txt").read_bytes() == AMBIGUOUS


def test_an_accept_that_turns_ambiguous_outside_reverts_to_pending(arena: Any) -> None:
    session = _setup(arena, UNIQUE)
    with Review.open(session, arena.root) as review:
        review.decide(OP, Decision.accept())
        review.restore(0)  # the accept stays; the disk holds checkpoint 0 (the original)
        assert (arena.root / "a.txt").read_bytes() == UNIQUE
        (arena.root / "a.txt").write_bytes(AMBIGUOUS)
        report = review.outside_changed(["a.txt"])
        assert [key for key, _ in report.reverted] == [OP]
        assert any("ambiguous after an outside change; its accept was taken back" in m
                   for m in report.messages)
        assert OP not in review.decisions
        # Unique again, and the whole draft back on disk: the old accept does not return.
        (arena.root / "a.txt").write_bytes(UNIQUE)
        review.outside_changed(["a.txt"])
        review.restore(review.checkpoint_count - 1)
        assert review.outcome(OP).status is Status.APPLIED
        assert OP not in review.decisions
    assert (arena.root / "a.txt").read_bytes() == UNIQUE


def test_a_saved_accept_that_no_longer_lands_reverts_on_reopen(arena: Any) -> None:
    session = _setup(arena, UNIQUE)
    with Review.open(session, arena.root) as review:
        review.decide(OP, Decision.accept())
        review.restore(0)
    (arena.root / "a.txt").write_bytes(AMBIGUOUS)  # while the review was closed
    with Review.open(session, arena.root) as again:
        assert OP not in again.decisions
        assert any("turn 1, operation 1 (a.txt, Edit 1)" in p and "ambiguous" in p
                   and "pending again" in p for p in again.state_problems)
    (arena.root / "a.txt").write_bytes(UNIQUE)
    with Review.open(session, arena.root) as third:
        assert OP not in third.decisions
        third.restore(third.checkpoint_count - 1)
    assert (arena.root / "a.txt").read_bytes() == UNIQUE


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


class _Notes:
    def __init__(self) -> None:
        self.messages: list[str] = []

    def __call__(self, message: Message) -> None:
        if isinstance(message, Notify):
            self.messages.append(message.notification.message)


@pytest.mark.anyio
async def test_y_on_an_ambiguous_operation_places_it_where_shown_and_nowhere_else(
        arena: Any) -> None:
    """`y` on an ambiguous edit applies it at the location the diff shows (issue 15), bound
    to that location's text: an outside change there takes the accept back instead of
    letting the edit land at the other place, now unique."""
    session = _setup(arena, AMBIGUOUS)
    review = Review.open(session, arena.root)
    notes = _Notes()
    app = ReviewApp(review, watch=False)
    async with app.run_test(size=(120, 40), message_hook=notes) as pilot:
        await pilot.pause()
        screen = app.screen
        assert screen.current().key == OP  # type: ignore[attr-defined]
        await pilot.press("y")
        await pilot.pause()
        decision = review.decisions[OP]
        assert (decision.placement, decision.anchor) == ((1, 1), ("x = 1",))
        assert any("placed by reviewer at lines 1-1" in m for m in notes.messages)
        placed = (arena.root / "a.txt").read_bytes()
        assert placed.splitlines()[1:] == [b"x = 1"]  # only the shown location changed
        assert placed != AMBIGUOUS
        # Someone rewrites the placed line: their change is kept on top, and the edit is
        # not carried to line 2, where its SEARCH is now the only match.
        (arena.root / "a.txt").write_bytes(b"y = 0\nx = 1\n")
        review.outside_changed(["a.txt"])
        drafted = review.draft.states[-1].tree.get("a.txt")
        assert drafted is not None
        assert drafted.data == b"x = 2\nx = 1\n"  # the accepted draft: line 1 only
    assert (arena.root / "a.txt").read_bytes() == b"y = 0\nx = 1\n"
