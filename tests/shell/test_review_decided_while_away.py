"""A decision made while a file was deleted outside, then the file made again.

helper-101 (s35): a reject made while the file was away, the file then made again as the
review had left it with one line added (an editor saving by delete and create): the
rejected change came off and the line stayed, as designed, with only "rebased over an
outside change" to say so. The reviewer is now told which decision was written into the
file that came back.
"""

from __future__ import annotations

from pathlib import Path

from test_review_outside_again import _two_accepts_written

from reviewtui.core.engine import Decision, Verdict
from reviewtui.shell.review import Review


def test_a_reject_made_while_the_file_was_away_is_named_when_it_comes_back(
        tmp_path: Path, opened: list[Review]) -> None:
    _, root, review = _two_accepts_written(tmp_path, opened)
    outside = (root / "a.py").read_text() + "# outside\n"
    (root / "a.py").unlink()
    review.outside_changed(["a.py"])
    review.decide((2, 0), Decision.reject())  # while it is away: nothing to write
    assert not (root / "a.py").exists()
    (root / "a.py").write_text(outside)
    report = review.outside_changed(["a.py"])
    notes = [text for path, text in report.events if path == "a.py"]
    assert ("deleted, then made again outside the workbench; decided while it was away: "
            "turn 2, operation 1 (a.py, Edit 1) rejected") in notes, notes
    assert report.told == [f"a.py: {text}" for text in notes if "decided while" in text]
    assert (root / "a.py").read_text() == outside.replace("line 15 T2", "line 15")
    assert review.decisions[(1, 0)].verdict is Verdict.ACCEPTED
    assert review.decisions[(2, 0)].verdict is Verdict.REJECTED


def test_nothing_decided_while_away_names_nothing(tmp_path: Path,
                                                  opened: list[Review]) -> None:
    _, root, review = _two_accepts_written(tmp_path, opened)
    outside = (root / "a.py").read_text() + "# outside\n"
    (root / "a.py").unlink()
    review.outside_changed(["a.py"])
    (root / "a.py").write_text(outside)
    report = review.outside_changed(["a.py"])
    assert not [text for _, text in report.events if "decided while it was away" in text]
    assert (root / "a.py").read_text() == outside


def test_a_reject_made_while_away_is_named_when_the_file_is_back_as_left(
        tmp_path: Path, opened: list[Review]) -> None:
    """Back byte for byte as the review left it, the reject is written into it: that was
    unsaid (QA s36 helper-105)."""
    _, root, review = _two_accepts_written(tmp_path, opened)
    left = (root / "a.py").read_text()
    (root / "a.py").unlink()
    review.outside_changed(["a.py"])
    review.decide((2, 0), Decision.reject())
    review.undo()
    review.redo()  # (the decision in force counts, not the steps)
    (root / "a.py").write_text(left)
    report = review.outside_changed(["a.py"])
    assert report.told == ["a.py: deleted, then made again outside the workbench; decided "
                           "while it was away: turn 2, operation 1 (a.py, Edit 1) rejected"]
    assert (root / "a.py").read_text() == left.replace("line 15 T2", "line 15")


def test_an_undone_accept_is_named_pending(tmp_path: Path, opened: list[Review]) -> None:
    _, root, review = _two_accepts_written(tmp_path, opened)
    left = (root / "a.py").read_text()
    (root / "a.py").unlink()
    review.outside_changed(["a.py"])
    review.undo()  # the accept of turn 2, taken back while the file is away
    (root / "a.py").write_text(left + "# outside\n")
    report = review.outside_changed(["a.py"])
    assert report.told == ["a.py: deleted, then made again outside the workbench; decided "
                           "while it was away: turn 2, operation 1 (a.py, Edit 1) pending"]
    assert (root / "a.py").read_text() == left.replace("line 15 T2", "line 15") + "# outside\n"
