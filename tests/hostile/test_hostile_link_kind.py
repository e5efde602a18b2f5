"""A link made outside where the review left a file holding the link's target as bytes,
or a file made outside where it left a link to those bytes, is neither taken for what the
review left: the review saves what it saw last as a hash of the bytes alone, and reopened,
took the one for the other and replaced it with the next write (the README's promise: a
file the review wrote that becomes a link outside, or the reverse, is a conflict until it
is put back, never rewritten). Each case closes the review (``apply --state``), changes the
disk, and goes on with a longer range."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gitkit import commit_all, git, new_repo
from reviewtui.cli import main


def _apply(repo: Path, spec: str, state: Path) -> int:
    return main(["apply", "--git", spec, "--root", str(repo), "--yes", "--state", str(state)])


@pytest.mark.parametrize("at_base", [True, False], ids=["a-file-at-a", "new-path"])
def test_a_link_made_outside_to_the_bytes_the_review_wrote_is_never_replaced(
        tmp_path: Path, at_base: bool) -> None:
    """The review writes a.txt holding the bytes ``k``; while it is closed another program
    makes a.txt a link to ``k``; the review goes on (a later commit edits a.txt). What the
    review saw last is kept as a hash of the bytes alone, so the link was taken as the file
    it had left, and replaced with the edited file (QA s42 helper-128 H1: older where a.txt
    is a file at A, and new in d952ff3, which took such a link for the review's own). It
    is a conflict, and the link stays."""
    repo = new_repo(tmp_path / "repo")
    (repo / "k").write_text("kkk\n")
    if at_base:
        (repo / "a.txt").write_text("orig\n")
    base = commit_all(repo, "A")
    (repo / "a.txt").write_bytes(b"k")
    first = commit_all(repo, "a.txt holds k")
    (repo / "a.txt").write_bytes(b"k\nline 2\n")
    second = commit_all(repo, "edit a.txt")
    git(repo, "checkout", "-q", "--detach", base)
    state = tmp_path / "review.json"
    assert _apply(repo, f"{base}..{first}", state) == 0
    assert (repo / "a.txt").read_bytes() == b"k"
    (repo / "a.txt").unlink()
    (repo / "a.txt").symlink_to("k")
    assert _apply(repo, f"{base}..{second}", state) == 1
    assert os.readlink(repo / "a.txt") == "k"
    assert (repo / "k").read_text() == "kkk\n"


def test_a_link_made_outside_over_a_file_is_not_written_through(tmp_path: Path) -> None:
    """As above with a folder: the review wrote d holding the bytes ``sub``; outside, d
    becomes a link to the folder sub; a later commit makes d a folder holding x. The link
    was removed and the folder made in its place; nothing is written now, and sub/x stays."""
    repo = new_repo(tmp_path / "repo")
    (repo / "sub").mkdir()
    (repo / "sub" / "x").write_text("sub x\n")
    base = commit_all(repo, "A")
    (repo / "d").write_bytes(b"sub")
    first = commit_all(repo, "d holds sub")
    (repo / "d").unlink()
    (repo / "d").mkdir()
    (repo / "d" / "x").write_text("new x\n")
    second = commit_all(repo, "d a folder")
    git(repo, "checkout", "-q", "--detach", base)
    state = tmp_path / "review.json"
    assert _apply(repo, f"{base}..{first}", state) == 0
    (repo / "d").unlink()
    (repo / "d").symlink_to("sub")
    assert _apply(repo, f"{base}..{second}", state) == 1
    assert os.readlink(repo / "d") == "sub"
    assert (repo / "sub" / "x").read_text() == "sub x\n"


def test_a_file_made_outside_over_the_reviews_link_is_never_replaced(tmp_path: Path) -> None:
    """The reverse: the review made a.txt a link to ``k``; while it is closed another
    program puts a file holding the bytes ``k`` there; a later commit retargets the link.
    The file was taken as the link the review had left and replaced with the new link
    (older, QA s42). It is a conflict, and the file stays."""
    repo = new_repo(tmp_path / "repo")
    (repo / "k").write_text("kkk\n")
    (repo / "m").write_text("mmm\n")
    base = commit_all(repo, "A")
    (repo / "a.txt").symlink_to("k")
    first = commit_all(repo, "a link")
    (repo / "a.txt").unlink()
    (repo / "a.txt").symlink_to("m")
    second = commit_all(repo, "retargeted")
    git(repo, "checkout", "-q", "--detach", base)
    state = tmp_path / "review.json"
    assert _apply(repo, f"{base}..{first}", state) == 0
    (repo / "a.txt").unlink()
    (repo / "a.txt").write_bytes(b"k")
    assert _apply(repo, f"{base}..{second}", state) == 1
    assert not (repo / "a.txt").is_symlink()
    assert (repo / "a.txt").read_bytes() == b"k"


@pytest.mark.parametrize("data", [b"k", b"other"], ids=["the-links-target", "other-bytes"])
def test_a_file_made_outside_where_the_range_makes_a_link_is_never_replaced(
        tmp_path: Path, data: bytes) -> None:
    """The range removes a.txt, then makes it a link to ``k``. The review writes the
    removal; another program then puts a file at a.txt; the review goes on. The file was
    taken as an outside change kept over what the review had written (nothing), that
    change laid over the link's target, and where the file held exactly ``k`` the link
    replaced it, exit 0 (QA s42 helper-129 H1, older). No text layer goes over a link:
    a conflict, the file kept, whatever it holds."""
    repo = new_repo(tmp_path / "repo")
    (repo / "k").write_text("kkk\n")
    (repo / "a.txt").write_text("orig\n")
    base = commit_all(repo, "A")
    (repo / "a.txt").unlink()
    first = commit_all(repo, "a.txt removed")
    (repo / "a.txt").symlink_to("k")
    second = commit_all(repo, "a.txt a link")
    git(repo, "checkout", "-q", "--detach", base)
    state = tmp_path / "review.json"
    assert _apply(repo, f"{base}..{first}", state) == 0
    assert not (repo / "a.txt").exists()
    (repo / "a.txt").write_bytes(data)
    assert _apply(repo, f"{base}..{second}", state) == 1
    assert not (repo / "a.txt").is_symlink()
    assert (repo / "a.txt").read_bytes() == data
