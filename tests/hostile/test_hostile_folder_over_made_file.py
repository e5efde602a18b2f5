"""A folder the user makes where accepts made a file and then removed or moved it away:
the folder is the user's, over the review's absence there, as a file of theirs is (QA
round 129w: the folder's file was taken into the originals, the accepted file turned into
a path conflict, both accepts were taken back on their own and the move's destination
removed; an undo then brought the accepts back with nothing on disk and no conflict)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from diskkit import Cmd, Full, make_project, opened_review, tree_bytes, write_session
from reviewtui.core.engine import Decision, Verdict
from reviewtui.shell.review import Review

IN = b"in\n"


@pytest.mark.parametrize("command", [":rm n", ":mv n m"])
def test_a_users_folder_over_a_made_and_removed_file_takes_nothing_back(
        tmp_path: Path, command: str) -> None:
    review, root = opened_review(tmp_path, {"k": b"k\n"},
                                 [[Full("n", "new\n")], [Cmd(command)]])
    try:
        review.decide((1, 0), Decision.accept())
        review.decide((2, 0), Decision.accept())
        moved = {"m": b"new\n"} if ":mv" in command else {}
        (root / "n").mkdir()
        (root / "n" / "u.txt").write_bytes(IN)
        report = review.outside_changed(["n", "n/u.txt"])
        assert report.reverted == []
        assert {key: d.verdict for key, d in review.decisions.items()} == {
            (1, 0): Verdict.ACCEPTED, (2, 0): Verdict.ACCEPTED}
        assert tree_bytes(root) == {"k": b"k\n", **moved, "n/u.txt": IN}
        assert review.conflicts == {}
        # Turn 2 undone: the draft wants the file n, where the folder is: in conflict, the
        # folder untouched (and a move's destination held with it), nothing written.
        review.undo()
        assert tree_bytes(root) == {"k": b"k\n", **moved, "n/u.txt": IN}
        assert "folder is in the way" in review.conflicts["n"].message
        assert ("m" in review.conflicts) == bool(moved)
        # The folder gone, the draft is written as decided.
        shutil.rmtree(root / "n")
        review.outside_changed(["n", "n/u.txt"])
        assert tree_bytes(root) == {"k": b"k\n", "n": b"new\n"}
        assert review.conflicts == {}
    finally:
        review.close()


@pytest.mark.parametrize("step", ["one step", "one by one"])
@pytest.mark.parametrize("command", [":rm n", ":mv n m"])
def test_the_same_when_the_folder_is_made_while_the_review_is_closed(
        tmp_path: Path, command: str, step: str) -> None:
    """Reopened, the folder's file was read as an original: the accepts were taken back
    as no longer landing, and the move's destination was taken as an original too."""
    session = write_session(tmp_path / "session", [[Full("n", "new\n")], [Cmd(command)]])
    root = make_project(tmp_path / "proj", {"k": b"k\n"})
    review = Review.open(session, root, persist=True)
    accepts = [((1, 0), Decision.accept()), ((2, 0), Decision.accept())]
    if step == "one step":
        review.decide_many(accepts)
    else:
        for key, decision in accepts:
            review.decide(key, decision)
    review.close()
    moved = {"m": b"new\n"} if ":mv" in command else {}
    (root / "n").mkdir()
    (root / "n" / "u.txt").write_bytes(IN)
    review = Review.open(session, root, persist=True)
    try:
        assert review.state_problems == []
        assert {key: d.verdict for key, d in review.decisions.items()} == {
            (1, 0): Verdict.ACCEPTED, (2, 0): Verdict.ACCEPTED}
        assert tree_bytes(root) == {"k": b"k\n", **moved, "n/u.txt": IN}
        assert review.conflicts == {}
        review.decide_many([((1, 0), Decision.reject()), ((2, 0), Decision.reject())])
        assert tree_bytes(root) == {"k": b"k\n", "n/u.txt": IN}  # the review's m went
    finally:
        review.close()
