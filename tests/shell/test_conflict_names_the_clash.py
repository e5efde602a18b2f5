"""A conflict is put on the operations that clash with the outside change, not on every
decided operation of the path (QA pass s29, helper-90 F1): an edit written before the
change stays written; the accept that came after it reads CONFLICT, even a command that
names no path of its own (``:undo``). Where that cannot be told, every decided operation
stays in conflict: a conflict is never hidden. (The move after a written edit:
tests/hostile/test_hostile_move_half_made.py.)"""

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
    [Cmd(":undo")],
]
EDIT, MOVE, UNDO = (1, 0), (2, 0), (3, 0)


def _opened(tmp_path: Path) -> tuple[Review, Path]:
    return opened_review(tmp_path, FILES, TURNS)


def test_an_undo_moving_back_over_a_changed_file_is_the_clash(tmp_path: Path) -> None:
    review, root = _opened(tmp_path)
    try:
        review.decide_many([(EDIT, Decision.accept()), (MOVE, Decision.accept())])
        (root / "pricing.py").write_text("y = 2\n")  # changed outside after the move
        review.outside_changed(["pricing.py"])
        before = tree_bytes(root)
        review.decide(UNDO, Decision.accept())
        assert tree_bytes(root) == before  # no calc.py back, pricing.py kept
        assert review.conflicts["pricing.py"].ops == (UNDO,)
        assert review.conflicts["calc.py"].kind is ConflictKind.HELD
        assert review.conflicts["calc.py"].ops == (UNDO,)
        assert review.outcome(UNDO).status is Status.CONFLICT  # it was read accepted
        assert review.outcome(EDIT).status is Status.APPLIED
        assert review.outcome(MOVE).status is Status.APPLIED
        review.undo()
        assert review.conflicts == {}
        assert review.outcome(UNDO).status is not Status.CONFLICT
    finally:
        review.close()


def test_a_reject_of_a_written_edit_keeps_every_decided_operation_in_conflict(
        tmp_path: Path) -> None:
    """The draft no longer holds what was written (the edit is rejected after its write):
    which decision clashed cannot be read from the draft, so all of them show it."""
    review, root = _opened(tmp_path)
    try:
        review.decide(EDIT, Decision.accept())
        (root / "calc.py").write_text("def total(xs):\n    return sum(xs) or 0  # kept\n")
        review.outside_changed(["calc.py"])
        review.decide(EDIT, Decision.reject())
        conflict = review.conflicts["calc.py"]
        assert conflict.kind is ConflictKind.OUTSIDE_EDIT
        assert conflict.ops == (EDIT,)
        assert review.outcome(EDIT).status is Status.CONFLICT
    finally:
        review.close()


def test_a_reject_after_an_outside_change_names_it_not_the_edit_written_before(
        tmp_path: Path) -> None:
    """Two written edits of one file, an outside change on the second's line, then that
    edit rejected: the reject clashes; the first edit, written before the change and
    decided alike since, stays accepted (QA pass s31, helper-93 F4: both read conflict,
    "accepted 0")."""
    lines = "".join(f"{name} = {n}\n" for n, name in enumerate("abcdefg", 1))
    review, root = opened_review(tmp_path, {"m.py": lines}, [
        [Ed("m.py", "a = 1", "a = 10")], [Ed("m.py", "f = 6", "f = 60")]])
    first, second = (1, 0), (2, 0)
    try:
        review.decide(first, Decision.accept())
        review.decide(second, Decision.accept())
        (root / "m.py").write_text((root / "m.py").read_text().replace("f = 60", "f = 99"))
        review.outside_changed(["m.py"])
        before = tree_bytes(root)
        review.decide(second, Decision.reject())
        assert tree_bytes(root) == before  # a = 10 and f = 99 kept
        assert review.conflicts["m.py"].ops == (second,)
        assert review.outcome(first).status is Status.APPLIED
        assert review.outcome(second).status is Status.CONFLICT
    finally:
        review.close()
