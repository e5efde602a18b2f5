"""The moves a write is one end of (``move_ends``), kept on the path's record, and the
planner holding the other end of such a move when one end is in conflict (QA s47
helper-147 H1: a move taken back removed its destination, the file's only copy)."""

from __future__ import annotations

from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.review.plan import PathRecord, compute_conflicts, move_ends
from reviewtui.core.review.rebase import ConflictKind, OutsideLayer

PRECIOUS, MINE = FileState.from_bytes(b"precious\n"), FileState.from_bytes(b"mine\n")


def test_a_move_has_two_ends_followed_through_later_moves() -> None:
    """a -> b -> c: the file at c.py was at a.py (b.py, on its way, is no end of it)."""
    tree = Tree.from_files({"c.py": PRECIOUS})
    moves = [("a.py", "b.py"), ("b.py", "c.py")]
    assert move_ends(moves, tree, ["a.py", "b.py", "c.py", "x.py"]) == {
        "a.py": ("c.py",), "c.py": ("a.py",)}


def test_a_move_back_where_it_was_has_no_ends() -> None:
    tree = Tree.from_files({"a.py": PRECIOUS})
    assert move_ends([("a.py", "b.py"), ("b.py", "a.py")], tree, ["a.py", "b.py"]) == {}


def test_a_swap_through_a_temp_name_pairs_the_two_paths() -> None:
    """Each of a.py and b.py holds the other's file (QA s47 helper-154 H4: a.py, made
    again by the second move, was taken as no end, and b.py's file was lost taken back)."""
    tree = Tree.from_files({"a.py": MINE, "b.py": PRECIOUS})
    moves = [("a.py", "tmp.py"), ("b.py", "a.py"), ("tmp.py", "b.py")]
    assert move_ends(moves, tree, ["a.py", "b.py", "tmp.py"]) == {
        "a.py": ("b.py",), "b.py": ("a.py",)}


def test_a_path_moved_out_of_twice_pairs_with_both_destinations() -> None:
    """``:mv a b``, a new a.py, ``:mv a c``: b.py holds the original a.py (QA s47
    helper-154 H5: the run's old -> new map kept only the second move, and b.py, the
    only copy of the original, was removed by a restore); a file made anew at a moved
    path is that path's too."""
    tree = Tree.from_files({"b.py": PRECIOUS, "c.py": MINE})
    moves = [("a.py", "b.py"), ("a.py", "c.py")]
    assert move_ends(moves, tree, ["a.py", "b.py", "c.py"]) == {
        "a.py": ("b.py", "c.py"), "b.py": ("a.py",), "c.py": ("a.py",)}
    made_anew = Tree.from_files({"a.py": MINE, "b.py": PRECIOUS})
    assert move_ends([("a.py", "b.py")], made_anew, ["a.py", "b.py"]) == {
        "a.py": ("b.py",), "b.py": ("a.py",)}


def test_a_moved_file_removed_since_is_no_end() -> None:
    assert move_ends([("a.py", "b.py")], Tree.from_files({}), ["a.py", "b.py"]) == {}


def test_a_move_the_disk_holds_is_held_whole_when_taken_back() -> None:
    """The draft (nothing moved) wants a.py back and b.py gone; the disk holds the move
    and a new a.py of the user's: a.py is in conflict, b.py waits for it."""
    tree = Tree.from_files({"a.py": PRECIOUS})
    records = {
        "a.py": PathRecord(base=PRECIOUS, seen=MINE, ref=None, outside=True,
                           layer=OutsideLayer(None, MINE.data), moved_with=("b.py",)),
        "b.py": PathRecord(base=None, seen=PRECIOUS, ref=PRECIOUS, moved_with=("a.py",)),
    }
    conflicts = compute_conflicts([], tree, records, {}, lambda path: path)
    assert conflicts["a.py"].kind is ConflictKind.OUTSIDE_EDIT
    assert conflicts["b.py"].kind is ConflictKind.HELD
    assert conflicts["b.py"].message.startswith("waits for a.py")
    # Without the record's ends (before the fix), b.py was free to go.
    records["b.py"].moved_with = records["a.py"].moved_with = ()
    assert set(compute_conflicts([], tree, records, {}, lambda path: path)) == {"a.py"}
