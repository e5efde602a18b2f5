"""Threat: a replay that removes first and writes second loses the file when the write fails.

Writes now run before removals, a removal waits for the write that replaces it (a move's
destination, followed through later moves) and is skipped when that write fails. A write
waits for a removal only when one path is a folder of the other.
"""

from __future__ import annotations

from disk_threat_kit import Arena

from diskkit import Cmd, Full, make_project, tree_bytes, write_session
from reviewtui.core.engine import Decision
from reviewtui.shell.review import Review


def _accept_all(arena: Arena, turns: list[list[Cmd | Full]]) -> tuple[Review, list[str]]:
    session = write_session(arena.work, turns)
    review = Review.open(session, arena.root, state_path=arena.work / "s.review.json")
    keys = [(t, p) for t in range(1, len(turns) + 1) for p in range(len(turns[t - 1]))]
    return review, keys


def test_a_file_becomes_a_folder_in_one_replay(arena: Arena) -> None:
    make_project(arena.root, {"a": "file\n"})
    review, keys = _accept_all(arena, [[Cmd(":rm a")], [Full("a/b.txt", "inside\n")]])
    with review:
        report = review.decide_many([(k, Decision.accept()) for k in keys])
        assert report.conflicts == []
    assert tree_bytes(arena.root) == {"a/b.txt": b"inside\n"}


def test_a_folder_becomes_a_file_in_one_replay(arena: Arena) -> None:
    make_project(arena.root, {"d/c.txt": "c\n"})
    review, keys = _accept_all(arena, [[Cmd(":rm d/c.txt")], [Full("d", "now a file\n")]])
    with review:
        report = review.decide_many([(k, Decision.accept()) for k in keys])
        assert report.conflicts == []
    assert tree_bytes(arena.root) == {"d": b"now a file\n"}


def test_a_chain_of_moves_keeps_the_source_until_the_end_is_written(arena: Arena) -> None:
    make_project(arena.root, {"a.txt": "the only copy\n", "c/keep.txt": "k\n"})
    review, keys = _accept_all(arena, [[Cmd(":mv a.txt b.txt")],
                                       [Cmd(":mv b.txt c/x.txt")]])
    with review:
        (arena.root / "c/keep.txt").unlink()
        (arena.root / "c").rmdir()
        (arena.root / "c").symlink_to(arena.canary_dir)  # unknown to the engine
        report = review.decide_many([(k, Decision.accept()) for k in keys])
        assert "c/x.txt" in report.conflicts
        assert report.removed == []
        assert (arena.root / "a.txt").read_bytes() == b"the only copy\n"
        assert not (arena.root / "b.txt").exists()


def test_a_move_whose_destination_is_a_directory_now_keeps_the_source(arena: Arena) -> None:
    make_project(arena.root, {"a.txt": "the only copy\n"})
    review, keys = _accept_all(arena, [[Cmd(":mv a.txt b.txt")]])
    with review:
        (arena.root / "b.txt").mkdir()  # made after the review read the project
        (arena.root / "b.txt/inner").write_bytes(b"someone's\n")
        review.decide_many([(k, Decision.accept()) for k in keys])
        assert (arena.root / "a.txt").read_bytes() == b"the only copy\n"
        assert (arena.root / "b.txt/inner").read_bytes() == b"someone's\n"
