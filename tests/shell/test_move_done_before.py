"""A move done before the checkpoint the disk is at holds nothing (QA s34 F4): with its
destination in conflict, its source, gone on disk as the draft wants it, was reported
"waits for ..., so CHANGES is left as it is on disk" (no such file) and counted as a
second conflict (exit 1 with the tree as intended otherwise)."""

from __future__ import annotations

from pathlib import Path

from diskkit import Cmd, Ed, make_project, write_session
from reviewtui.core.engine import Decision
from reviewtui.shell.review import Review


def test_a_move_already_on_disk_does_not_hold_its_source(tmp_path: Path) -> None:
    root = make_project(tmp_path / "root", {"CHANGES": "one\ntwo\nthree\n"})
    session = write_session(tmp_path, [[Cmd(":mv CHANGES CHANGES.rst")],
                                       [Ed("CHANGES.rst", "two", "TWO")]])
    with Review.open(session, root) as review:
        review.decide((1, 0), Decision.accept())
        review.decide((2, 0), Decision.accept())
        review.restore(1)  # the move is on disk, turn 2's edit not
        assert not (root / "CHANGES").exists()
        (root / "CHANGES.rst").write_text("one\ntwo!\nthree\n")  # outside, where 2 writes
        review.outside_changed(["CHANGES.rst"])
        report = review.restore(review.checkpoint_count - 1)
        assert sorted(report.conflicts) == ["CHANGES.rst"], report.messages
        assert not any(path == "CHANGES" for path, _ in report.events), report.messages
    assert not (root / "CHANGES").exists()
    assert (root / "CHANGES.rst").read_text() == "one\ntwo!\nthree\n"
