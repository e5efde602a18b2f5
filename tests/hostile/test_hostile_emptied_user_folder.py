"""Threat: taking back a file the review wrote takes the user's folder with it.

"Nothing is ever lost" holds for folders too. An undo or a reject that removes a file the
review (re)created removed every folder the removal left empty, the user's own among them:
one that was there empty when the review opened, one the file's deletion outside left
empty, one the user made while the review was open (found by hypothesis in
tests/shell/test_review_incremental.py). Taking a file back now removes only the folders
the review made for it; a folder that was on disk before the review created a file in it
stays, empty or not, and a reopened review still tells the two apart. (A folder the draft's
deletion of the user's last file in it empties still goes, as with git.)
"""

from __future__ import annotations

from collections.abc import Callable

import pytest
from disk_threat_kit import Arena

from diskkit import Cmd, Full, make_project, tree_bytes, write_session
from reviewtui.core.engine import Decision
from reviewtui.shell.review import Review

NEW = (1, 0)


def _undo(review: Review) -> None:
    review.undo()


def _reject(review: Review) -> None:
    review.decide(NEW, Decision.reject())


TAKE_BACK = pytest.mark.parametrize("take_back", [_undo, _reject], ids=["undo", "reject"])


def _review(arena: Arena, files: dict[str, str | bytes], path: str) -> Review:
    """A review of one turn making ``path`` ("new\\n") over a project of ``files``."""
    make_project(arena.root, files)
    session = write_session(arena.work, [[Full(path, "new\n")]])
    return Review.open(session, arena.root, state_path=arena.work / "s.review.json")


@TAKE_BACK
def test_the_folder_a_deletion_outside_left_empty_stays(
        arena: Arena, take_back: Callable[[Review], None]) -> None:
    with _review(arena, {"d/c.txt": "six\n"}, "d/c.txt") as review:
        (arena.root / "d/c.txt").unlink()  # the user's d/ is left empty
        review.outside_changed(["d/c.txt"])
        review.decide(NEW, Decision.accept())  # the review makes d/c.txt again
        assert (arena.root / "d/c.txt").read_bytes() == b"new\n"
        take_back(review)
        assert not (arena.root / "d/c.txt").exists()
        assert (arena.root / "d").is_dir()


@TAKE_BACK
def test_an_empty_folder_there_before_the_review_stays(
        arena: Arena, take_back: Callable[[Review], None]) -> None:
    (arena.root / "d").mkdir()
    with _review(arena, {}, "d/new.txt") as review:
        review.decide(NEW, Decision.accept())
        take_back(review)
        assert (arena.root / "d").is_dir()
        assert tree_bytes(arena.root) == {}


@TAKE_BACK
def test_a_folder_made_while_the_review_was_open_stays(
        arena: Arena, take_back: Callable[[Review], None]) -> None:
    with _review(arena, {}, "d/new.txt") as review:
        (arena.root / "d").mkdir()
        review.decide(NEW, Decision.accept())
        take_back(review)
        assert (arena.root / "d").is_dir()


def test_a_folder_that_held_the_users_file_stays(arena: Arena) -> None:
    with _review(arena, {"d/mine.txt": "mine\n"}, "d/new.txt") as review:
        review.decide(NEW, Decision.accept())
        (arena.root / "d/mine.txt").unlink()
        review.outside_changed(["d/mine.txt"])
        review.undo()
        assert (arena.root / "d").is_dir()
        assert tree_bytes(arena.root) == {}


@TAKE_BACK
def test_only_the_folders_the_review_made_go(
        arena: Arena, take_back: Callable[[Review], None]) -> None:
    (arena.root / "a").mkdir()
    with _review(arena, {}, "a/b/c/new.txt") as review:
        review.decide(NEW, Decision.accept())
        assert (arena.root / "a/b/c/new.txt").read_bytes() == b"new\n"
        take_back(review)
        assert (arena.root / "a").is_dir()
        assert not (arena.root / "a/b").exists()


def test_the_folders_a_new_file_needed_go_with_it_again_and_again(arena: Arena) -> None:
    with _review(arena, {"keep.txt": "k\n"}, "x/y/new.txt") as review:
        for _ in range(2):
            review.decide(NEW, Decision.accept())
            assert (arena.root / "x/y/new.txt").read_bytes() == b"new\n"
            review.undo()
            assert not (arena.root / "x").exists()
            review.redo()
            assert (arena.root / "x/y/new.txt").exists()
            review.decide(NEW, Decision.reject())
            assert not (arena.root / "x").exists()
    assert sorted(p.name for p in arena.root.iterdir()) == ["keep.txt"]


def test_a_reopened_review_tells_its_folders_from_the_users(arena: Arena) -> None:
    (arena.root / "a").mkdir()
    with _review(arena, {}, "a/b/new.txt") as review:
        review.decide(NEW, Decision.accept())
    with Review.open(arena.work / "s.md", arena.root,
                     state_path=arena.work / "s.review.json") as review:
        review.undo()
        assert not (arena.root / "a/b").exists()
        assert (arena.root / "a").is_dir()


def test_a_file_the_draft_deletes_still_takes_its_emptied_folder(arena: Arena) -> None:
    """As git does: the folder was there only for the file the reviewer let go."""
    make_project(arena.root, {"d/c.txt": "c\n", "keep.txt": "k\n"})
    session = write_session(arena.work, [[Cmd(":rm d/c.txt")]])
    with Review.open(session, arena.root, state_path=arena.work / "s.review.json") as review:
        review.decide(NEW, Decision.accept())
        assert not (arena.root / "d").exists()
        review.undo()
        assert (arena.root / "d/c.txt").read_bytes() == b"c\n"
        assert sorted(p.name for p in arena.root.iterdir()) == ["d", "keep.txt"]
