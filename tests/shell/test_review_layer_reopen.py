"""Reopening a review whose file holds an outside change kept as a conflict.

QA s42 (helper-130 M1): the review wrote a file, another program edited it while the
review was open (kept on top as a layer), then an accept clashed with that change (a
conflict: the file kept as it was) and an accept wrote another file. Reopened, the saved
record of the first file was ignored: every accept on it was taken back, also the one on
disk, and the export left it out. What the review wrote under the layer is the draft at
its last write there, not the last entry's; the session bears that out as well.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from diskkit import Cmd, Ed, assert_conflicts_shown, make_project, tree_bytes, write_session
from reviewtui.core.engine import Decision, Verdict
from reviewtui.shell.review import Review

LINES = "".join(f"line {n}\n" for n in range(1, 11))
THEIRS = LINES.replace("line 2\n", "C1\n").replace("line 5\n", "OUTSIDE 5\n")
CLASHES = {
    "rm": [Cmd(":rm a.txt")],
    "edit": [Ed("a.txt", "line 4\nline 5\nline 6", "line 4\nC2 5\nline 6")],
}


@pytest.mark.parametrize("clash", sorted(CLASHES))
def test_a_later_clashing_accept_keeps_the_first_on_reopening(tmp_path: Path,
                                                              clash: str) -> None:
    session = write_session(tmp_path / "session", [
        [Ed("a.txt", "line 2", "C1")], CLASHES[clash], [Ed("b.txt", "b", "B")]])
    root = make_project(tmp_path / "proj", {"a.txt": LINES, "b.txt": "b\n"})
    review = Review.open(session, root)
    try:
        review.decide((1, 0), Decision.accept())
        (root / "a.txt").write_text(THEIRS)
        review.outside_changed(["a.txt"])
        review.decide((2, 0), Decision.accept())
        assert sorted(review.conflicts) == ["a.txt"]
        review.decide((3, 0), Decision.accept())
        before = tree_bytes(root)
        assert before["a.txt"] == THEIRS.encode()
        assert before["b.txt"] == b"B\n"
    finally:
        review.close()
    review = Review.open(session, root)
    try:
        assert review.state_problems == []
        assert review.orphaned == []
        assert tree_bytes(root) == before
        assert {key: d.verdict for key, d in review.decisions.items()} == {
            (1, 0): Verdict.ACCEPTED, (2, 0): Verdict.ACCEPTED, (3, 0): Verdict.ACCEPTED}
        assert sorted(review.conflicts) == ["a.txt"]
        assert_conflicts_shown(review)
        assert review.base.get("a.txt") is not None
        assert review.base.get("a.txt").data == LINES.encode()  # type: ignore[union-attr]
        # The clashing accept rejected: the outside change is laid over C1 again.
        review.decide((2, 0), Decision.reject())
        assert review.conflicts == {}
        assert (root / "a.txt").read_text() == THEIRS
        review.decide((1, 0), Decision.reject())  # and under it, the original again
        assert (root / "a.txt").read_text() == LINES.replace("line 5\n", "OUTSIDE 5\n")
    finally:
        review.close()


def test_an_accept_that_stopped_landing_before_the_save_is_reopened_as_left(
        tmp_path: Path) -> None:
    """QA s43 helper-132 M1 (older): turn 3's accept written over an outside change kept
    on top; turn 1's accept, on the same line, then took its lines (turn 3 no longer
    lands: a conflict, the file kept). Reopened, turn 3's accept was taken back, which
    let turn 1's be written over the kept file with no keypress, while the notice said
    the files stay as they are. The file is as the review left it: so is the review."""
    session = write_session(tmp_path / "session", [
        [Ed("b.txt", "line 2", "T1-2")], [Ed("b.txt", "line 5", "T2-5")],
        [Ed("b.txt", "line 2", "T3-2")]])
    root = make_project(tmp_path / "proj", {"b.txt": LINES})
    review = Review.open(session, root)
    try:
        review.decide((2, 0), Decision.accept())
        review.decide((1, 0), Decision.reject())
        (root / "b.txt").write_text((root / "b.txt").read_text().replace("T2-5", "OUT 5"))
        review.outside_changed(["b.txt"])
        review.decide((3, 0), Decision.accept())
        review.decide((1, 0), Decision.accept())
        assert not review.result((3, 0)).landed
        assert sorted(review.conflicts) == ["b.txt"]
        left = tree_bytes(root)
        assert b"T3-2" in left["b.txt"]
        assert b"OUT 5" in left["b.txt"]
        decided = {key: d.verdict for key, d in review.decisions.items()}
    finally:
        review.close()
    review = Review.open(session, root)
    try:
        assert tree_bytes(root) == left  # nothing written on opening
        assert review.state_problems == []
        assert {key: d.verdict for key, d in review.decisions.items()} == decided
        assert sorted(review.conflicts) == ["b.txt"]
        review.decide((3, 0), Decision.reject())  # a keypress: turn 1's line is written
        assert (root / "b.txt").read_text() == LINES.replace("line 2", "T1-2").replace(
            "line 5", "OUT 5")
    finally:
        review.close()


def _kept_conflict(tmp_path: Path) -> tuple[Path, Path, Review]:
    """b.txt changed outside first (taken as its original), turn 2's accept written,
    then turn 1's accept on the same line: turn 2 no longer lands, a conflict keeps the
    file (QA s43 helper-133's setting)."""
    session = write_session(tmp_path / "session", [
        [Ed("b.txt", "line 2", "T1-2")], [Ed("b.txt", "line 2", "T2-2")],
        [Ed("a.txt", "line 5", "T3-5")], [Ed("b.txt", "line 5", "T4-5")]])
    root = make_project(tmp_path / "proj", {"a.txt": LINES, "b.txt": LINES})
    review = Review.open(session, root)
    (root / "b.txt").write_text(LINES.replace("line 10\n", "OUT 10\n"))
    review.outside_changed(["b.txt"])
    review.decide((1, 0), Decision.reject())
    review.decide((2, 0), Decision.accept())
    review.decide((1, 0), Decision.accept())
    assert sorted(review.conflicts) == ["b.txt"]
    return session, root, review


@pytest.mark.parametrize("later", [(4, 0), (3, 0)], ids=["same-file", "other-file"])
def test_a_decision_after_the_conflict_keeps_the_record_on_reopening(
        tmp_path: Path, later: tuple[int, int]) -> None:
    """QA s43 helper-133 H1, M1 (older): one more accept after the kept conflict, and the
    saved record no longer matched the last two entries' drafts: reopened, it was ignored
    ("not what this review left there"), both accepts on b.txt taken back and the
    conflict dropped, and turn 4's line written into the kept file with no keypress. The
    file is the draft at the review's last write there."""
    session, root, review = _kept_conflict(tmp_path)
    try:
        review.decide(later, Decision.accept())
        left = tree_bytes(root)
        decided = {key: d.verdict for key, d in review.decisions.items()}
    finally:
        review.close()
    review = Review.open(session, root)
    try:
        assert tree_bytes(root) == left
        assert review.state_problems == []
        assert review.orphaned == []
        assert {key: d.verdict for key, d in review.decisions.items()} == decided
        assert sorted(review.conflicts) == ["b.txt"]
    finally:
        review.close()


def test_an_outside_revert_after_reopening_takes_back_what_was_on_disk_alone(
        tmp_path: Path) -> None:
    """QA s43 helper-133 M2: reopened, the file's last write (turn 2's) was unknown, so
    a revert of its line outside took back both accepts on it, also turn 1's, never
    written; the review that never closed takes back turn 2's and writes turn 1's."""
    outcomes = []
    for reopen in (False, True):
        session, root, review = _kept_conflict(tmp_path / str(reopen))
        try:
            if reopen:
                review.close()
                review = Review.open(session, root)
            (root / "b.txt").write_text((root / "b.txt").read_text().replace("T2-2", "line 2"))
            review.outside_changed(["b.txt"])
            outcomes.append(({key: d.verdict for key, d in review.decisions.items()},
                             (root / "b.txt").read_text()))
        finally:
            review.close()
    assert outcomes[0] == outcomes[1]
    assert outcomes[1][0] == {(1, 0): Verdict.ACCEPTED}
