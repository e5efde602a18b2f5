"""Taking back a ``:rm`` while the user's own file stands at its path, then the user
removing that file: the original comes back (QA s53 helper-221). The accepted ``:rm
old.txt`` was written; the user made their own ``old.txt``; ``u``, ``n`` or a restore left
it in conflict (right); once the user deleted their file, the original was taken as
deleted outside: the operation read "not found", nothing was written and the original
stood only in the review's blobs, ``restore`` saying there was nothing to restore. The same
steps with ``:mv`` put the original back (``test_move_taken_back_held.py``)."""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest

from diskkit import Cmd, Full, assert_conflicts_shown, opened_review, tree_bytes
from reviewtui.core.engine import Decision
from reviewtui.core.model.outcome import Status
from reviewtui.shell.review import Review

REMOVE = (1, 0)
ORIGINAL, MINE = b"original content\n", b"the user's own file\n"

TAKE_BACK: dict[str, Callable[[Review], object]] = {
    "u": lambda review: review.undo(),
    "n": lambda review: review.decide(REMOVE, Decision.reject()),
    "restore": lambda review: review.restore(0),
}


@pytest.mark.parametrize("mine", ["file", "link", "file then link"])
@pytest.mark.parametrize("how", sorted(TAKE_BACK))
def test_a_remove_taken_back_comes_back_once_the_users_file_goes(
        tmp_path: Path, how: str, mine: str) -> None:
    """(QA s53 helper-225: the user's own thing a link, the original was lost the same way.)"""
    review, root = opened_review(tmp_path, {"old.txt": ORIGINAL, "keep.txt": b"k\n"},
                                 [[Cmd(":rm old.txt")]])
    try:
        review.decide(REMOVE, Decision.accept())
        assert tree_bytes(root) == {"keep.txt": b"k\n"}
        if mine.startswith("file"):
            (root / "old.txt").write_bytes(MINE)
            review.outside_changed(["old.txt"])
        if mine.endswith("link"):
            (root / "old.txt").unlink(missing_ok=True)
            os.symlink("keep.txt", root / "old.txt")
            review.outside_changed(["old.txt"])
        TAKE_BACK[how](review)
        assert os.path.lexists(root / "old.txt")  # (theirs stays)
        assert (root / "old.txt").is_symlink() == mine.endswith("link")
        assert "old.txt" in review.conflicts
        assert_conflicts_shown(review)
        (root / "old.txt").unlink()
        review.outside_changed(["old.txt"])
        assert tree_bytes(root) == {"keep.txt": b"k\n", "old.txt": ORIGINAL}
        assert review.conflicts == {}
        assert review.result(REMOVE).outcome.status is not Status.NOT_FOUND
    finally:
        review.close()


def test_a_file_the_user_deletes_over_an_accepted_remove_stays_deleted(tmp_path: Path) -> None:
    """The other way round: the remove in force, the user's file made and deleted again:
    nothing comes back (the draft wants no file there)."""
    review, root = opened_review(tmp_path, {"old.txt": ORIGINAL}, [[Cmd(":rm old.txt")]])
    try:
        review.decide(REMOVE, Decision.accept())
        (root / "old.txt").write_bytes(MINE)
        review.outside_changed(["old.txt"])
        (root / "old.txt").unlink()
        review.outside_changed(["old.txt"])
        assert tree_bytes(root) == {}
        review.undo()  # (and taken back then, the original comes back)
        assert tree_bytes(root) == {"old.txt": ORIGINAL}
    finally:
        review.close()


@pytest.mark.parametrize("command", [":rm n.txt", ":mv n.txt m.txt"])
def test_a_users_file_where_accepts_made_and_removed_one_is_kept(
        tmp_path: Path, command: str) -> None:
    """QA s53 helper-226 (older): turn 1 makes n.txt, turn 2 removes (or moves) it, both
    accepted; the user's own n.txt was taken as a new original, the removal refused on it
    and taken back, and turn 1's n.txt written over the user's ("mine" lost; with the move,
    m.txt removed too). The user's file is kept as theirs, over what the review wrote."""
    review, root = opened_review(tmp_path, {"k": b"k\n"}, [[Full("n.txt", "new\n")],
                                                             [Cmd(command)]])
    try:
        review.decide((1, 0), Decision.accept())
        review.decide((2, 0), Decision.accept())
        moved = {"m.txt": b"new\n"} if ":mv" in command else {}
        assert tree_bytes(root) == {"k": b"k\n", **moved}
        (root / "n.txt").write_bytes(MINE)
        review.outside_changed(["n.txt"])
        assert tree_bytes(root) == {"k": b"k\n", **moved, "n.txt": MINE}
        review.undo()
        assert tree_bytes(root)["n.txt"] == MINE
    finally:
        review.close()


@pytest.mark.parametrize("order", ["backwards", "one step"])
@pytest.mark.parametrize("command", [":rm n.txt", ":mv n.txt m.txt"])
def test_accepts_written_in_one_step_keep_the_users_file_too(
        tmp_path: Path, command: str, order: str) -> None:
    """QA s53 helper-227: accepted backwards or in one step ("accept all"), n.txt never
    reached the disk, so nothing told the review's absence there from no content: the
    user's n.txt was taken as a new original and turn 1's written over it."""
    review, root = opened_review(tmp_path, {"k": b"k\n"}, [[Full("n.txt", "new\n")],
                                                             [Cmd(command)]])
    try:
        if order == "backwards":
            review.decide((2, 0), Decision.accept())
            review.decide((1, 0), Decision.accept())
        else:
            review.decide_many([((1, 0), Decision.accept()), ((2, 0), Decision.accept())])
        moved = {"m.txt": b"new\n"} if ":mv" in command else {}
        (root / "n.txt").write_bytes(MINE)
        review.outside_changed(["n.txt"])
        assert tree_bytes(root) == {"k": b"k\n", **moved, "n.txt": MINE}
    finally:
        review.close()
