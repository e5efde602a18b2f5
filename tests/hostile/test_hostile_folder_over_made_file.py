"""A folder the user makes where accepts made a file and then removed or moved it away:
the folder is the user's, over the review's absence there, as a file of theirs is (QA
round 129w: the folder's file was taken into the originals, the accepted file turned into
a path conflict, both accepts were taken back on their own and the move's destination
removed; an undo then brought the accepts back with nothing on disk and no conflict)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from diskkit import Cmd, Full, opened_review, tree_bytes
from reviewtui.core.engine import Decision, Verdict

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
