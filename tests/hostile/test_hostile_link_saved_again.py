"""A symbolic link the user makes where the review wrote a file is in conflict until it is
gone; saved again (removed and made anew, as a tool regenerating it does), it is still the
user's link: the conflict stays and nothing removes it (QA round 129w, fuzz seed 3695:
taken as the path readable again, its conflict went and the replay removed the link, the
draft wanting no file there once the accept was taken back)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from diskkit import Full, opened_review
from reviewtui.core.engine import Decision


@pytest.mark.parametrize("target", ["k", "other"])
def test_a_users_link_made_again_stays(tmp_path: Path, target: str) -> None:
    review, root = opened_review(tmp_path, {"k": b"k\n", "other": b"o\n"},
                                 [[Full("n", "new\n")]])
    try:
        review.decide((1, 0), Decision.accept())
        assert (root / "n").read_bytes() == b"new\n"
        (root / "n").unlink()
        os.symlink("k", root / "n")
        review.outside_changed(["n"])
        assert "symbolic link" in review.conflicts["n"].message
        (root / "n").unlink()
        os.symlink(target, root / "n")
        review.outside_changed(["n"])
        assert os.readlink(root / "n") == target
        assert "symbolic link" in review.conflicts["n"].message
        # Gone, the path is the review's again: nothing is written (the accept was taken
        # back when the link came), and nothing stays in conflict.
        (root / "n").unlink()
        review.outside_changed(["n"])
        assert not os.path.lexists(root / "n")
        assert review.conflicts == {}
    finally:
        review.close()
    assert (root / "k").read_bytes() == b"k\n"
    assert (root / "other").read_bytes() == b"o\n"
