"""A folder the user puts where a move's source file was: the move is written whole or not
at all, and what the user puts there after the folder is moved by no decision of theirs
(QA round 129w: the accepted ``:mv a b`` wrote ``b`` and left the folder, half a move;
then the user's own file ``a`` was moved to ``b`` without a decision)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from diskkit import Cmd, opened_review, tree_bytes
from reviewtui.core.engine import Decision, Verdict
from reviewtui.core.review.rebase import ConflictKind

MINE = b"mine\n"


@pytest.mark.parametrize("after", ["a file", "nothing, then a file"])
def test_a_move_whose_source_is_a_folder_now_writes_nothing(tmp_path: Path,
                                                            after: str) -> None:
    review, root = opened_review(tmp_path, {"a": b"A\n", "k": b"k\n"}, [[Cmd(":mv a b")]])
    try:
        (root / "a").unlink()
        (root / "a").mkdir()
        (root / "a" / "u.txt").write_bytes(b"in\n")
        review.outside_changed(["a", "a/u.txt"])
        report = review.decide((1, 0), Decision.accept())
        assert (report.written, report.removed) == ([], [])
        assert tree_bytes(root) == {"a/u.txt": b"in\n", "k": b"k\n"}  # no b beside it
        assert "folder is in the way" in review.conflicts["a"].message
        assert review.conflicts["b"].kind is ConflictKind.HELD
        shutil.rmtree(root / "a")
        if after != "a file":
            review.outside_changed(["a", "a/u.txt"])
            assert tree_bytes(root) == {"k": b"k\n"}
        (root / "a").write_bytes(MINE)
        review.outside_changed(["a", "a/u.txt"])
        # The user's a stays where they put it; the move, accepted for a file that was
        # not there, waits for a decision of its own.
        assert tree_bytes(root) == {"a": MINE, "k": b"k\n"}
        assert review.decisions.get((1, 0), Decision()).verdict is Verdict.PENDING
        assert "a" not in review.conflicts
        assert "b" not in review.conflicts
        review.decide((1, 0), Decision.accept())  # now the reviewer's own decision on it
        assert tree_bytes(root) == {"b": MINE, "k": b"k\n"}
    finally:
        review.close()
