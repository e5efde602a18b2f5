"""A file the user makes, while the review is closed, where the saved accepts made a file
and took it away again in one step: on reopening it is the user's, kept as it is, as it
is when made with the review open (QA round 129w: turn 1's content was written over
it on reopening, the removal or move taken back as no longer landing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from diskkit import Cmd, Full, make_project, tree_bytes, write_session
from reviewtui.core.engine import Decision, Verdict
from reviewtui.shell.review import Review

MINE = b"mine\n"


@pytest.mark.parametrize("command", [":rm n.txt", ":mv n.txt m.txt"])
def test_a_users_file_made_while_closed_over_the_reviews_absence_is_kept(
        tmp_path: Path, command: str) -> None:
    session = write_session(tmp_path / "session", [[Full("n.txt", "new\n")], [Cmd(command)]])
    root = make_project(tmp_path / "proj", {"k": b"k\n"})
    review = Review.open(session, root, persist=True)
    review.decide_many([((1, 0), Decision.accept()), ((2, 0), Decision.accept())])
    review.close()
    moved = {"m.txt": b"new\n"} if ":mv" in command else {}
    assert tree_bytes(root) == {"k": b"k\n", **moved}  # n.txt never reached the disk
    (root / "n.txt").write_bytes(MINE)
    review = Review.open(session, root, persist=True)
    try:
        assert tree_bytes(root) == {"k": b"k\n", **moved, "n.txt": MINE}
        # Nothing taken back, nothing ignored: the state is as the open review has it.
        assert review.state_problems == []
        assert {key: d.verdict for key, d in review.decisions.items()} == {
            (1, 0): Verdict.ACCEPTED, (2, 0): Verdict.ACCEPTED}
        assert review.conflicts == {}
        # The user's file is an outside change over the review's absence: rejecting the
        # operations takes away what the review wrote and leaves the user's file.
        review.decide_many([((1, 0), Decision.reject()), ((2, 0), Decision.reject())])
        assert tree_bytes(root) == {"k": b"k\n", "n.txt": MINE}
        review.undo()
        assert tree_bytes(root) == {"k": b"k\n", **moved, "n.txt": MINE}
    finally:
        review.close()
    review = Review.open(session, root, persist=True)  # and once more, from its record
    try:
        assert tree_bytes(root) == {"k": b"k\n", **moved, "n.txt": MINE}
        assert review.state_problems == []
    finally:
        review.close()


def test_a_file_the_draft_left_as_it_was_is_no_users_file(tmp_path: Path) -> None:
    """The other way round: a file that was there when the review was saved, which the
    draft left unchanged (so no record was saved for it), stays the original: an accept
    naming it made since still writes it."""
    session = write_session(tmp_path / "session", [[Full("n.txt", "orig\n")],
                                                    [Full("n.txt", "new\n")]])
    root = make_project(tmp_path / "proj", {"n.txt": b"orig\n"})
    review = Review.open(session, root, persist=True)
    review.decide((1, 0), Decision.accept())  # identical to the file: nothing written
    review.close()
    review = Review.open(session, root, persist=True)
    try:
        assert review.state_problems == []
        review.decide((2, 0), Decision.accept())
        assert tree_bytes(root) == {"n.txt": b"new\n"}
        assert review.conflicts == {}
    finally:
        review.close()
