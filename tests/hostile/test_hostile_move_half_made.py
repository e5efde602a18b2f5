"""A move is written whole or not at all: when one end of an accepted ``:mv`` is in
conflict (its source changed outside the workbench), the other end is not written either
(QA pass s28: the destination was written with the session's stale content beside the
source the disk kept)."""

from __future__ import annotations

from pathlib import Path

from diskkit import Cmd, Ed, opened_review, tree_bytes
from reviewtui.core.engine import Decision
from reviewtui.core.model.outcome import Status
from reviewtui.core.review.rebase import ConflictKind
from reviewtui.shell.review import Review

FILES = {"calc.py": "def total(xs):\n    return sum(xs)\n", "other.py": "x = 1\n"}
TURNS = [
    [Ed("calc.py", "    return sum(xs)", "    return sum(xs) or 0")],
    [Cmd(":mv calc.py pricing.py")],
    [Ed("pricing.py", "def total(xs):", "def total(xs: list) -> int:")],
    [Cmd(":mv pricing.py money.py")],
]
EDIT, MOVE = (1, 0), (2, 0)


def _opened(tmp_path: Path) -> tuple[Review, Path]:
    return opened_review(tmp_path, FILES, TURNS)


def test_a_move_whose_source_changed_outside_writes_neither_end(tmp_path: Path) -> None:
    review, root = _opened(tmp_path)
    try:
        review.decide(EDIT, Decision.accept())
        (root / "calc.py").write_text("def total(xs):\n    return 0\n")  # changed outside
        review.outside_changed(["calc.py"])
        before = tree_bytes(root)
        report = review.decide(MOVE, Decision.accept())
        assert (report.written, report.removed) == ([], [])
        assert tree_bytes(root) == before  # no pricing.py next to the kept calc.py
        held = review.conflicts["pricing.py"]
        assert held.kind is ConflictKind.HELD
        assert "waits for calc.py" in held.message
        assert review.conflicts["calc.py"].kind is not ConflictKind.HELD
        # A removal has no text to edit: the advice names what can settle it (QA s29).
        assert review.conflicts["calc.py"].message.endswith(
            "undo or reject the decision that removes it")
        assert review.outcome(MOVE).status is Status.CONFLICT
        # The conflict is on the move that clashed, which reads its source's conflict; the
        # edit written before the outside change stays written (QA pass s29, F1).
        assert review.conflicts["calc.py"].ops == (MOVE,)
        assert review.outcome(MOVE).message.startswith(
            "the draft removes a file that was changed outside")
        assert review.outcome(EDIT).status is Status.APPLIED
        # Undoing the move settles it: both conflicts go, and still nothing is written.
        undone = review.undo()
        assert undone is not None
        assert set(review.conflicts) == set()
        assert tree_bytes(root) == before
    finally:
        review.close()


def test_the_whole_chain_of_moves_waits(tmp_path: Path) -> None:
    """calc.py -> pricing.py -> money.py, with an edit between: the source in conflict
    holds every later end, and the edit to the middle one."""
    review, root = _opened(tmp_path)
    try:
        review.decide(EDIT, Decision.accept())
        (root / "calc.py").write_text("def total(xs):\n    return 0\n")
        review.outside_changed(["calc.py"])
        before = tree_bytes(root)
        review.decide_many([(key, Decision.accept()) for key in (MOVE, (3, 0), (4, 0))])
        assert {path: c.kind for path, c in review.conflicts.items()
                if c.kind is ConflictKind.HELD} == {"pricing.py": ConflictKind.HELD,
                                                     "money.py": ConflictKind.HELD}
        assert review.outcome((3, 0)).status is Status.CONFLICT  # the edit to pricing.py
        assert tree_bytes(root) == before
    finally:
        review.close()


def test_a_move_clear_of_conflicts_is_written_whole(tmp_path: Path) -> None:
    """The rule holds a move only beside a conflict: another file changed outside does
    not stop it."""
    review, root = _opened(tmp_path)
    try:
        (root / "other.py").write_text("x = 2\n")
        review.outside_changed(["other.py"])
        review.decide_many([(EDIT, Decision.accept()), (MOVE, Decision.accept())])
        assert review.conflicts == {}
        assert not (root / "calc.py").exists()
        assert (root / "pricing.py").read_text() == "def total(xs):\n    return sum(xs) or 0\n"
        assert (root / "other.py").read_text() == "x = 2\n"
    finally:
        review.close()
