"""A conflict on a file deleted outside, with no version the review keeps, says so instead
of an empty diff (QA pass s31, helper-93 F5: "review draft vs disk" over blank lines)."""

from __future__ import annotations

from diskkit import Ed, opened_review
from reviewtui.core.engine import Decision
from reviewtui.core.model.outcome import Status
from reviewtui.shell.replay import outcome_of
from reviewtui.ui.opview import build_view, conflict_sides


def test_a_file_deleted_outside_shows_no_empty_diff(tmp_path) -> None:  # type: ignore[no-untyped-def]
    review, root = opened_review(tmp_path, {"a.py": "x = 1\n"}, [[Ed("a.py", "x = 1", "x = 2")]])
    try:
        review.decide((1, 0), Decision.accept())
        (root / "a.py").unlink()
        review.outside_changed(["a.py"])
        conflict = review.conflicts["a.py"]
        result = review.result((1, 0))
        outcome = outcome_of(review, result)
        assert outcome.status is Status.CONFLICT
        sides = conflict_sides(conflict.wanted, conflict.disk)
        view = build_view(result, Status.CONFLICT, sides, conflict.message)
        assert sides == (None, None)
        assert view.panes == ()
        assert view.message == "deleted on disk: no version of the file to show"
        assert "was deleted outside the workbench" in view.explanation.plain
    finally:
        review.close()
