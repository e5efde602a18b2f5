"""A move taken back while a user's file holds it (a file where its folder was) is the
same move back after a reopen: the folder comes back once the user's file is gone (QA
round 129w: on reopening the folder's record was ignored, as no folder could stand
under the user's file, and the move's destination was taken as an original, so the
folder never came back)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from diskkit import Cmd, Full, make_project, tree_bytes, write_session
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


@pytest.mark.parametrize("reopen", [False, True])
def test_a_users_link_where_a_moved_file_was_holds_the_move_after_a_reopen(
        tmp_path: Path, reopen: bool) -> None:
    """Turn 1 makes n, turn 2 moves it to m, each accepted and written; the user makes a
    link at n. Open, the link takes both accepts back and holds m (the move back waits
    for n). Closed and reopened before the link, m's record was ignored (the drafts that
    wrote it were evaluated under the link, which refuses the move) and m taken as an
    original: rejected and the link gone, the review's m stayed (QA round 129w)."""
    session = write_session(tmp_path / "session", [[Full("n", "new\n")], [Cmd(":mv n m")]])
    root = make_project(tmp_path / "proj", {"k": b"k\n"})
    review = Review.open(session, root, persist=True)
    try:
        review.decide((1, 0), Decision.accept())
        review.decide((2, 0), Decision.accept())
        if reopen:
            review.close()
        os.symlink("k", root / "n")
        if reopen:
            review = Review.open(session, root, persist=True)
            assert not any("ignored the saved record" in p for p in review.state_problems)
        else:
            review.outside_changed(["n"])
        assert os.readlink(root / "n") == "k"
        assert (root / "m").read_bytes() == b"new\n"
        assert sorted(review.conflicts) == ["m", "n"]
        review.decide_many([((1, 0), Decision.reject()), ((2, 0), Decision.reject())])
        (root / "n").unlink()
        review.outside_changed(["n"])
        assert tree_bytes(root) == {"k": b"k\n"}
        assert review.conflicts == {}
    finally:
        review.close()
