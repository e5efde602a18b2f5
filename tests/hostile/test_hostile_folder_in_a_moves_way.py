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


def test_a_folder_where_the_move_wrote_its_file_lets_the_move_back_write(
        tmp_path: Path) -> None:
    """The accepted move written, the user puts a folder where it wrote ``b`` (the file is
    gone): the move no longer lands and is taken back, and the original comes back at
    ``a``, as when ``b`` is deleted; held as a whole, it was never written back (fuzz
    seed 8538, against the check above before it spared a move the draft takes back)."""
    review, root = opened_review(tmp_path, {"a": b"A\n", "k": b"k\n"}, [[Cmd(":mv a b")]])
    try:
        review.decide((1, 0), Decision.accept())
        (root / "b").unlink()
        (root / "b").mkdir()
        (root / "b" / "u.txt").write_bytes(b"in\n")
        review.outside_changed(["b", "b/u.txt"])
        assert tree_bytes(root) == {"a": b"A\n", "b/u.txt": b"in\n", "k": b"k\n"}
    finally:
        review.close()


def test_every_move_undone_past_a_users_folder_writes_the_original_back(
        tmp_path: Path) -> None:
    """``:mv a b`` and ``:mv b c`` accepted, the user makes a folder ``b`` (where the moves
    left nothing: theirs); both undone, the original comes back at ``a``, ``c`` goes. The
    folder's conflict from the first undo (the draft then wanted the file ``b``) held both
    ends of the moves after the second, the original never written back (seed 8831)."""
    review, root = opened_review(tmp_path, {"a": b"A\n", "k": b"k\n"},
                                 [[Cmd(":mv a b")], [Cmd(":mv b c")]])
    try:
        review.decide((1, 0), Decision.accept())
        review.decide((2, 0), Decision.accept())
        (root / "b").mkdir()
        (root / "b" / "u.txt").write_bytes(b"in\n")
        review.outside_changed(["b", "b/u.txt"])
        assert tree_bytes(root) == {"b/u.txt": b"in\n", "c": b"A\n", "k": b"k\n"}
        review.undo()
        assert "folder is in the way" in review.conflicts["b"].message
        review.undo()
        assert tree_bytes(root) == {"a": b"A\n", "b/u.txt": b"in\n", "k": b"k\n"}
        assert review.conflicts == {}
    finally:
        review.close()
