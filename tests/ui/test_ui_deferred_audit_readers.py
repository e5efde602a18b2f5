"""Audit of the deferred display (issue 13): readers of the display that a decision left
walking (``Review.focus_on``, ``shell/evaluation.py`` ``AHEAD``) must see every turn.

Small generated sessions with ``AHEAD`` at 0, so a decision on turn 1 leaves the display
evaluated through the turn in focus only, as a 5,000-turn session leaves it after 40.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from diskkit import line_turns_session
from reviewtui.core.engine import Decision
from reviewtui.shell import evaluation
from reviewtui.shell.review import Review
from reviewtui.ui.screens.review_states import review_states


def test_an_export_while_the_display_walks_on_reports_every_turn(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The workbench's palette exports (`Export: patch` ...) read both runs turn by turn:
    a decision's walk still waiting must not make them fail (zip strict) or drop turns."""
    from reviewtui.core.export import render
    from reviewtui.shell.export import accepted_from_review

    monkeypatch.setattr(evaluation, "AHEAD", 0)
    session, root = line_turns_session(tmp_path, 12)
    with Review.open(session, root, dry_run=True) as whole:
        whole.decide((1, 0), Decision.reject())
        expected = render(accepted_from_review(whole), "json")
    session, root = line_turns_session(tmp_path / "deferred", 12)
    with Review.open(session, root, dry_run=True) as review:
        review.focus_on(1)
        review.decide((1, 0), Decision.reject())
        assert not review.evaluation_complete  # the later turns wait
        text = render(accepted_from_review(review), "json")
    assert text.replace(str(tmp_path / "deferred"), str(tmp_path)) == expected


class _Growing:
    """A review whose display walks on (as the workbench's catch-up slice does on the
    event loop) while ``review_states`` runs in a job's thread without the review's lock:
    here, deterministically, each time the states read the display's session."""

    def __init__(self, review: Review) -> None:
        self._review = review
        self.steps = 0

    def __getattr__(self, name: str) -> Any:
        return getattr(self._review, name)

    @property
    def display(self) -> Any:
        review = self._review

        class _Display:
            def __getattr__(self, name: str) -> Any:
                return getattr(review.display, name)

            @property
            def session(self) -> Any:
                outer.steps += 1
                review.evaluation.step(0.0)  # a few more turns of the walk
                return review.display.session

        outer = self
        return _Display()


def test_states_computed_while_the_walk_goes_on_mark_every_unread_turn_stale(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A job's thread computes the screen's states while the loop's catch-up slice may
    extend the display's list of turns: every turn the states did not read must stay
    marked stale (else its state from before the change is shown as current, and the
    next catch-up starts past it: a wrong row and wrong counts until the next change)."""
    monkeypatch.setattr(evaluation, "AHEAD", 0)
    session, root = line_turns_session(tmp_path, 12)
    with Review.open(session, root, dry_run=True) as review:
        review.focus_on(1)
        before = review_states(review)
        review.decide((1, 0), Decision.reject())
        walking = _Growing(review)
        after = review_states(walking, before=before)  # type: ignore[arg-type]
        assert walking.steps
        # One state per turn of the session (a row for each), counts over all of them,
        # and what was not read this time marked stale, as shown before.
        assert len(after.turns) == len(after.basis) == 12
        assert sum(after.counts.values()) == 12
        assert after.stale_from is not None
        assert after.turns[after.stale_from:] == before.turns[after.stale_from:]
        review.finish_evaluation()
        caught = review_states(review, after)
        assert caught == review_states(review)
        assert caught.counts == {"pending": 11, "accepted": 0, "rejected": 1, "failed": 0}


def test_lint_file_texts_do_not_follow_a_walk_left_waiting(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The workbench's lint (``load_findings``, a thread started once the opening is
    evaluated) reads each turn's files from the display's checkpoints; a decision taken
    meanwhile leaves the display's list of checkpoints short while its walk waits, and a
    later turn must not be linted against the file as an early turn left it."""
    from reviewtui.core.engine import file_text_for

    monkeypatch.setattr(evaluation, "AHEAD", 0)
    session, root = line_turns_session(tmp_path, 12)
    with Review.open(session, root, dry_run=True) as review:
        review.focus_on(1)
        texts = file_text_for(review.display)  # lint starts on the whole display
        before = texts(10)("a.txt")
        assert before is not None
        assert before.startswith("LINE 0\n")
        assert "LINE 8\nline 9\n" in before
        review.decide((1, 0), Decision.reject())  # meanwhile, in a job
        assert not review.evaluation_complete
        assert texts(10)("a.txt") == before  # not the file before turn 2
