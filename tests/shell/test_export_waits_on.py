"""What an accept waiting on earlier pending operations is labelled and counted as in the
exports (``shell/export.py`` ``_with_failures``, ``core/export/accepted.py``)."""

from __future__ import annotations

from pathlib import Path

from reviewtui.core.engine import Decision
from reviewtui.core.export.accepted import count_label, decision_label
from reviewtui.shell.export import accepted_from_review, waits_on
from reviewtui.shell.review import Review

SESSION = """\
# Session: two pending under one accept

## Turn 1
> Set both.

--- File: a.py ---
<<<<<<< SEARCH
x = 1
=======
x = 2
>>>>>>> REPLACE
<<<<<<< SEARCH
y = 1
=======
y = 2
>>>>>>> REPLACE

--- File: b.py ---
<<<<<<< SEARCH
z = 1
=======
z = 2
>>>>>>> REPLACE

## Turn 2
> On top of both.

--- File: a.py ---
<<<<<<< SEARCH
x = 2
y = 2
=======
x = 3
y = 3
>>>>>>> REPLACE
"""


def _open(tmp_path: Path) -> Review:
    session = tmp_path / "session"
    session.mkdir()
    (session / "session.md").write_text(SESSION)
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("x = 1\ny = 1\n")
    (root / "b.py").write_text("z = 1\n")
    return Review.open(session, root)


def test_the_latest_pending_operation_of_the_file_is_named(tmp_path: Path) -> None:
    with _open(tmp_path) as review:
        review.decide((2, 0), Decision.accept())
        accepted = accepted_from_review(review)
        result = accepted.run.turns[1].results[0]
        named = "pending turn 1 Edit 2 · a.py (and 1 earlier)"  # b.py's is not counted
        assert result.waits_on == named
        assert waits_on(review.draft, review.display, (2, 0)) == named
        assert decision_label(result, True) == f"accepted, waits on {named}"
        assert count_label(result, True) == "accepted"
        assert not result.landed
        assert accepted.result.get("a.py") == accepted.base.get("a.py")
        # Accepting one of the two is not enough: it still waits, on the other one.
        review.decide((1, 1), Decision.accept())
        still = accepted_from_review(review).run.turns[1].results[0]
        assert still.waits_on == "pending turn 1 Edit 1 · a.py"
        assert count_label(still, True) == "accepted"
        review.decide((1, 0), Decision.accept())
        done = accepted_from_review(review).run.turns[1].results[0]
        assert (done.waits_on, done.landed) == ("", True)
        assert waits_on(review.draft, review.display, (2, 0)) == ""
        assert (review.root / "a.py").read_text() == "x = 3\ny = 3\n"


def test_an_accept_that_lands_alone_waits_on_nothing(tmp_path: Path) -> None:
    with _open(tmp_path) as review:
        review.decide((1, 2), Decision.accept())
        result = accepted_from_review(review).run.turns[0].results[2]
        assert (result.waits_on, result.landed) == ("", True)
        assert decision_label(result, True) == "accepted"
        assert waits_on(review.draft, review.display, (1, 2)) == ""
