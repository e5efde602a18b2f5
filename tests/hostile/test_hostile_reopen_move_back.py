"""A move taken back while a user's file holds it (a file where its folder was) is the
same move back after a reopen: the folder comes back once the user's file is gone (QA
round 129w: on reopening the folder's record was ignored, as no folder could stand
under the user's file, and the move's destination was taken as an original, so the
folder never came back)."""

from __future__ import annotations

from pathlib import Path

import pytest

from diskkit import Cmd, make_project, tree_bytes, write_session
from reviewtui.core.engine import Decision
from reviewtui.shell.review import Review


@pytest.mark.parametrize("reopen", [False, True])
def test_a_move_back_held_by_a_users_file_comes_back_after_a_reopen(
        tmp_path: Path, reopen: bool) -> None:
    session = write_session(tmp_path / "session", [[Cmd(":mv d e")]])
    root = make_project(tmp_path / "proj", {"k": b"k\n", "d/x": b"X\n"})
    review = Review.open(session, root, persist=True)
    try:
        review.decide((1, 0), Decision.accept())
        (root / "d").write_bytes(b"mine\n")  # the user's file where the folder was
        review.outside_changed(["d"])
        review.decide((1, 0), Decision.reject())  # the move back waits for the file
        held = {"d": b"mine\n", "e/x": b"X\n", "k": b"k\n"}
        assert tree_bytes(root) == held
        assert sorted(review.conflicts) == ["d/x", "e/x"]
        if reopen:
            review.close()
            review = Review.open(session, root, persist=True)
            assert review.state_problems == []
            assert tree_bytes(root) == held
            assert sorted(review.conflicts) == ["d/x", "e/x"]
        (root / "d").unlink()
        review.outside_changed(["d"])
        assert tree_bytes(root) == {"d/x": b"X\n", "k": b"k\n"}
        assert review.conflicts == {}
    finally:
        review.close()
