"""Taking back moves never removes a file whose content is on disk nowhere else (README,
"Nothing is lost"), in the shapes 7f22455 (QA s47 helper-147 H1) did not reach (QA s47
helper-154):

* H4: a swap through a temp name (``:mv a.py tmp.py``, ``:mv b.py a.py``, ``:mv tmp.py
  b.py``), the user's line added to ``a.py``: ``restore 0`` wrote B's file over ``b.py``,
  and ``u u u`` removed ``tmp.py``: A's file was on disk nowhere. Neither path had been
  paired (each was the source of a move and held a file again).
* H5: a path moved out of twice (``:mv a b``, a new ``a.py``, ``:mv a c``): ``restore 0``
  removed ``b.py``, the original ``a.py``'s only copy (the run's old -> new map kept the
  second move out of ``a.py`` only).
* M1: a review saved before the records kept the moves' ends (``moved_with``): the moved
  file was removed on ``restore 0`` after the upgrade.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from pathlib import Path

import pytest

from diskkit import (
    Cmd,
    Full,
    assert_conflicts_shown,
    make_project,
    opened_review,
    tree_bytes,
    write_session,
)
from reviewtui.core.engine import Decision
from reviewtui.core.review.rebase import ConflictKind
from reviewtui.shell.review import Review
from reviewtui.shell.stateseal import sealed

A, B, MINE = b"A content\n", b"B content\n", b"user edit\n"
SWAP = [[Cmd(":mv a.py tmp.py"), Cmd(":mv b.py a.py"), Cmd(":mv tmp.py b.py")]]
SWAP_KEYS = [(1, 0), (1, 1), (1, 2)]
PRECIOUS, SECOND, OWN = b"precious = 1\n", "second = 2\n", b"mine = 3\n"
TWICE = [[Cmd(":mv a.py b.py")], [Full("a.py", SECOND)], [Cmd(":mv a.py c.py")]]
TWICE_KEYS = [(1, 0), (2, 0), (3, 0)]

TAKE_BACK: dict[str, Callable[[Review, list[tuple[int, int]]], object]] = {
    "u": lambda review, keys: [review.undo() for _key in keys],
    "n": lambda review, keys: [review.decide(key, Decision.reject()) for key in keys[::-1]],
    "restore": lambda review, keys: review.restore(0),
}


def _waits(review: Review, held: str, by: str) -> None:
    conflict = review.conflicts[held]
    assert conflict.kind is ConflictKind.HELD
    assert conflict.message.startswith(f"waits for {by}, which is in conflict"), conflict.message


def _outside(review: Review, root: Path, path: str, data: bytes) -> None:
    (root / path).write_bytes(data)
    review.outside_changed([path])


@pytest.mark.parametrize("how", sorted(TAKE_BACK))
def test_a_swap_taken_back_keeps_the_file_whose_path_the_user_holds(
        tmp_path: Path, how: str) -> None:
    review, root = opened_review(tmp_path, {"a.py": A, "b.py": B}, SWAP)
    try:
        for key in SWAP_KEYS:  # y y y: each written in turn
            review.decide(key, Decision.accept())
        assert tree_bytes(root) == {"a.py": B, "b.py": A}
        _outside(review, root, "a.py", B + MINE)
        TAKE_BACK[how](review, SWAP_KEYS)
        disk = tree_bytes(root)
        assert disk["a.py"] == B + MINE
        assert A in disk.values(), disk  # (at b.py or tmp.py, where the take-back left it)
        held = next(path for path, data in disk.items() if data == A)
        _waits(review, held, "a.py")
        assert_conflicts_shown(review)
        # The user deletes their a.py (B's file with their line): the moves back are
        # written whole, each file where it was, not A's file taken as deleted with it.
        (root / "a.py").unlink()
        review.outside_changed(["a.py"])
        assert tree_bytes(root) == {"a.py": A, "b.py": B}
        assert review.conflicts == {}
    finally:
        review.close()


def test_a_swap_applied_at_once_then_restored_keeps_both_files(tmp_path: Path) -> None:
    review, root = opened_review(tmp_path, {"a.py": A, "b.py": B}, SWAP)
    try:
        review.decide_many([(key, Decision.accept()) for key in SWAP_KEYS])
        _outside(review, root, "a.py", B + MINE)
        assert [path for path, _now, _then in review.restore_preview(0).changes] == []
        review.restore(0)
        assert tree_bytes(root) == {"a.py": B + MINE, "b.py": A}
        _waits(review, "b.py", "a.py")
        assert_conflicts_shown(review)
    finally:
        review.close()


@pytest.mark.parametrize("at_once", [True, False])
@pytest.mark.parametrize("how", sorted(TAKE_BACK))
def test_a_path_moved_out_of_twice_keeps_the_first_moves_file(
        tmp_path: Path, how: str, at_once: bool) -> None:
    """Accepted at once (``apply``), b.py kept no end: only the last move out of a.py
    was followed. (One by one, the end the first write kept was still there.)"""
    review, root = opened_review(tmp_path, {"a.py": PRECIOUS}, TWICE)
    try:
        if at_once:
            review.decide_many([(key, Decision.accept()) for key in TWICE_KEYS])
        else:
            for key in TWICE_KEYS:
                review.decide(key, Decision.accept())
        assert tree_bytes(root) == {"b.py": PRECIOUS, "c.py": SECOND.encode()}
        _outside(review, root, "a.py", OWN)
        TAKE_BACK[how](review, TWICE_KEYS[:1] if at_once and how == "u" else TWICE_KEYS)
        disk = tree_bytes(root)
        assert disk["a.py"] == OWN, disk
        assert disk["b.py"] == PRECIOUS, disk
        _waits(review, "b.py", "a.py")
        assert_conflicts_shown(review)
        (root / "a.py").unlink()
        review.outside_changed(["a.py"])
        assert tree_bytes(root) == {"a.py": PRECIOUS}
        assert review.conflicts == {}
    finally:
        review.close()


def _without_move_ends(state: Path) -> None:
    """The state as a reviewtui before 7f22455 saved it: no record names a move's end."""
    doc = json.loads(state.read_bytes())
    doc.pop("seal", None)
    for record in doc["paths"].values():
        assert record.pop("moved_with", None) is not None or record.get("ref") is None
    state.write_bytes(sealed((json.dumps(doc, indent=1) + "\n").encode()))


@pytest.mark.parametrize(("files", "turns", "keys", "user", "kept"), [
    ({"a.py": PRECIOUS}, [[Cmd(":mv a.py b.py")]], [(1, 0)], ("a.py", OWN),
     {"a.py": OWN, "b.py": PRECIOUS}),
    ({"a.py": A, "b.py": B}, SWAP, SWAP_KEYS, ("a.py", B + MINE),
     {"a.py": B + MINE, "b.py": A}),
    ({"a.py": PRECIOUS}, TWICE, TWICE_KEYS, ("a.py", OWN),
     {"a.py": OWN, "b.py": PRECIOUS, "c.py": SECOND.encode()}),
], ids=["mv", "swap", "twice"])
def test_a_review_saved_before_move_ends_were_kept_restores_without_loss(
        tmp_path: Path, files: dict[str, bytes], turns: list[list[Cmd | Full]],
        keys: list[tuple[int, int]], user: tuple[str, bytes], kept: dict[str, bytes]) -> None:
    session = write_session(tmp_path / "session", turns)
    root = make_project(tmp_path / "proj", dict(files))
    state = tmp_path / "st.json"
    with Review.open(session, root, state_path=state) as review:
        review.decide_many([(key, Decision.accept()) for key in keys])
    _without_move_ends(state)
    (root / user[0]).write_bytes(user[1])
    with Review.open(session, root, state_path=state) as review:
        assert review.state_problems == []
        assert [path for path, _now, _then in review.restore_preview(0).changes] == []
        review.restore(0)
        assert tree_bytes(root) == kept
        _waits(review, "b.py", "a.py")
