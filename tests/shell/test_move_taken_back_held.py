"""Taking back a move the disk holds moves the file back whole or not at all (QA s47
helper-147 H1). An accepted ``:mv a.py b.py`` was written; the user then made a new
``a.py``; ``u``, ``n`` or a restore left that ``a.py`` in conflict (right) but removed
``b.py``, the only copy of the moved file (its content only in the review's blobs). The
``:undo`` command was already held so. Now the other end waits with the end in conflict:
"waits for a.py", in the restore's preview too, until ``a.py`` is settled."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from diskkit import (
    Cmd,
    Ed,
    assert_conflicts_shown,
    make_project,
    opened_review,
    tree_bytes,
    write_session,
)
from reviewtui.core.engine import Decision
from reviewtui.core.review.rebase import ConflictKind
from reviewtui.shell.review import Review

MOVE = (1, 0)
MINE, PRECIOUS = b"my new file\n", b"precious content\n"

TAKE_BACK: dict[str, Callable[[Review], object]] = {
    "u": lambda review: review.undo(),
    "n": lambda review: review.decide(MOVE, Decision.reject()),
    "restore": lambda review: review.restore(0),
}


def _moved(tmp_path: Path, command: str, files: dict[str, str | bytes],
           ) -> tuple[Review, Path]:
    review, root = opened_review(tmp_path, files, [[Cmd(command)]])
    review.decide(MOVE, Decision.accept())
    return review, root


def _outside(review: Review, root: Path, path: str, data: bytes) -> None:
    (root / path).parent.mkdir(parents=True, exist_ok=True)
    (root / path).write_bytes(data)
    review.outside_changed([path])


def _waits(review: Review, held: str, by: str) -> None:
    conflict = review.conflicts[held]
    assert conflict.kind is ConflictKind.HELD
    assert conflict.message.startswith(f"waits for {by}, which is in conflict"), conflict.message


@pytest.mark.parametrize("how", sorted(TAKE_BACK))
@pytest.mark.parametrize("command", [":mv a.py b.py", ":rn a.py b.py"])
def test_a_move_taken_back_keeps_its_destination_while_its_source_is_the_users(
        tmp_path: Path, how: str, command: str) -> None:
    review, root = _moved(tmp_path, command, {"a.py": PRECIOUS})
    try:
        assert tree_bytes(root) == {"b.py": PRECIOUS}
        _outside(review, root, "a.py", MINE)
        report = TAKE_BACK[how](review)
        assert tree_bytes(root) == {"a.py": MINE, "b.py": PRECIOUS}
        assert getattr(report, "removed", None) == []
        assert review.conflicts["a.py"].kind is not ConflictKind.HELD
        _waits(review, "b.py", "a.py")
        assert_conflicts_shown(review)
        # The user takes their file away: the move back is written, whole.
        (root / "a.py").unlink()
        review.outside_changed(["a.py"])
        assert tree_bytes(root) == {"a.py": PRECIOUS}
        assert review.conflicts == {}
    finally:
        review.close()


def test_the_restore_preview_names_the_destination_as_waiting(tmp_path: Path) -> None:
    review, root = _moved(tmp_path, ":mv a.py b.py", {"a.py": PRECIOUS})
    try:
        _outside(review, root, "a.py", MINE)
        preview = review.restore_preview(0)
        assert [path for path, _now, _then in preview.changes] == []  # no "would remove"
        said = dict(preview.conflicts)
        assert said["b.py"].startswith("waits for a.py"), said
        assert "a.py" in said
    finally:
        review.close()


def test_accepting_the_move_again_settles_it(tmp_path: Path) -> None:
    review, root = _moved(tmp_path, ":mv a.py b.py", {"a.py": PRECIOUS})
    try:
        _outside(review, root, "a.py", MINE)
        review.undo()
        review.redo()
        assert tree_bytes(root) == {"a.py": MINE, "b.py": PRECIOUS}
        assert review.conflicts == {}
    finally:
        review.close()


@pytest.mark.parametrize("how", sorted(TAKE_BACK))
def test_a_folder_moved_back_keeps_the_file_whose_old_path_is_taken(
        tmp_path: Path, how: str) -> None:
    review, root = _moved(tmp_path, ":mv src lib", {"src/x.py": PRECIOUS, "src/y.py": b"y\n"})
    try:
        assert tree_bytes(root) == {"lib/x.py": PRECIOUS, "lib/y.py": b"y\n"}
        _outside(review, root, "src/x.py", MINE)
        TAKE_BACK[how](review)
        # Each file moves whole: y.py goes back, x.py waits for the user's src/x.py.
        assert tree_bytes(root) == {"src/x.py": MINE, "lib/x.py": PRECIOUS, "src/y.py": b"y\n"}
        _waits(review, "lib/x.py", "src/x.py")
    finally:
        review.close()


def test_a_glob_move_taken_back_keeps_the_file_whose_old_path_is_taken(tmp_path: Path) -> None:
    review, root = _moved(tmp_path, ":mv *.py lib/", {"a.py": PRECIOUS, "c.py": b"c\n"})
    try:
        _outside(review, root, "a.py", MINE)
        review.decide(MOVE, Decision.reject())
        assert tree_bytes(root) == {"a.py": MINE, "lib/a.py": PRECIOUS, "c.py": b"c\n"}
        _waits(review, "lib/a.py", "a.py")
    finally:
        review.close()


@pytest.mark.parametrize("how", sorted(TAKE_BACK))
def test_a_destination_changed_outside_keeps_the_source_unwritten(
        tmp_path: Path, how: str) -> None:
    """The reverse: the moved file changed outside is kept (a conflict), and its old path
    is not written beside it with the session's content (a move written half)."""
    review, root = _moved(tmp_path, ":mv a.py b.py", {"a.py": PRECIOUS})
    try:
        _outside(review, root, "b.py", PRECIOUS + b"# mine\n")
        TAKE_BACK[how](review)
        assert tree_bytes(root) == {"b.py": PRECIOUS + b"# mine\n"}
        _waits(review, "a.py", "b.py")
        assert_conflicts_shown(review)
    finally:
        review.close()


def test_a_chain_of_moves_restored_keeps_its_last_end(tmp_path: Path) -> None:
    review, root = opened_review(tmp_path, {"a.py": PRECIOUS},
                                 [[Cmd(":mv a.py b.py")], [Cmd(":mv b.py c.py")],
                                  [Ed("c.py", "precious content", "precious content!")]])
    try:
        review.decide_many([(key, Decision.accept()) for key in ((1, 0), (2, 0), (3, 0))])
        assert tree_bytes(root) == {"c.py": b"precious content!\n"}
        _outside(review, root, "a.py", MINE)
        review.restore(0)
        assert tree_bytes(root) == {"a.py": MINE, "c.py": b"precious content!\n"}
        _waits(review, "c.py", "a.py")
        assert "b.py" not in review.conflicts  # (never on disk: nothing of it waits)
    finally:
        review.close()


def test_the_hold_survives_a_reopen(tmp_path: Path) -> None:
    """Which moves the disk holds is saved: the headless restore of another run holds the
    move back too (``apply``, then ``restore --checkpoint 0``)."""
    session = write_session(tmp_path / "session", [[Cmd(":mv a.py b.py")]])
    root = make_project(tmp_path / "proj", {"a.py": PRECIOUS})
    state = tmp_path / "st.json"
    with Review.open(session, root, state_path=state) as review:
        review.decide(MOVE, Decision.accept())
    (root / "a.py").write_bytes(MINE)
    with Review.open(session, root, state_path=state) as review:
        assert [path for path, _now, _then in review.restore_preview(0).changes] == []
        review.restore(0)
        assert tree_bytes(root) == {"a.py": MINE, "b.py": PRECIOUS}
        _waits(review, "b.py", "a.py")
    with Review.open(session, root, state_path=state) as review:
        assert tree_bytes(root) == {"a.py": MINE, "b.py": PRECIOUS}
        _waits(review, "b.py", "a.py")
