"""A symbolic link the user makes where an accepted removal took the file away is kept in
conflict while the review is open, and kept after a reopen too (QA round 129w, fuzz seed
126: on reopening the saved record was ignored, the link taken as the path's original,
and the accepted ``:rm`` removed it)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from diskkit import Cmd, make_project, write_session
from reviewtui.core.engine import Decision, Verdict
from reviewtui.shell.review import Review


@pytest.mark.parametrize("command", [":rm d/x", ":rm d"])
def test_a_users_link_where_a_removal_was_written_survives_a_reopen(
        tmp_path: Path, command: str) -> None:
    session = write_session(tmp_path / "session", [[Cmd(command)]])
    root = make_project(tmp_path / "proj", {"k": b"k\n", "d/x": b"X\n"})
    review = Review.open(session, root, persist=True)
    try:
        review.decide((1, 0), Decision.accept())
        assert not (root / "d" / "x").exists()
        (root / "d").mkdir(exist_ok=True)
        os.symlink("../k", root / "d" / "x")
        review.outside_changed(["d/x"])
        assert "d/x" in review.conflicts  # (while open: the link is never replaced)
    finally:
        review.close()
    review = Review.open(session, root, persist=True)
    try:
        assert os.readlink(root / "d" / "x") == "../k"
        assert (root / "k").read_bytes() == b"k\n"
        # The removal would take the user's link: pending again, said, until decided.
        assert review.decisions.get((1, 0), Decision()).verdict is Verdict.PENDING
        assert [key for key, _ in review.last_report.reverted] == [(1, 0)]
    finally:
        review.close()
    assert os.readlink(root / "d" / "x") == "../k"
