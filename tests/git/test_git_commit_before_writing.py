"""``apply --git A..B --root CHECKOUT --commit``: what refuses the commit whatever the
review writes is checked before it writes anything.

It was checked only after the write: with an untracked file in the checkout the command
refused (``git-dirty``) with the range's changes already in the working tree, and a
change of the user's to a file the range also edits passed (the review's base is the
disk) and went into the review's commit. Promise: the same refusal, the same message, and
the working tree, the index and the branch as they were.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gitkit import commit_all, git, new_repo
from reviewtui.cli import main

LINES = "".join(f"line {n}\n" for n in range(1, 13))


def _checkout_at_a(tmp_path: Path) -> tuple[Path, str]:
    """A checkout at A on branch ``review``; B (``main``) edits f.txt's first line."""
    repo = new_repo(tmp_path / "repo")
    (repo / "f.txt").write_text(LINES)
    base = commit_all(repo, "Base")
    (repo / "f.txt").write_text(LINES.replace("line 1\n", "LINE 1\n"))
    head = commit_all(repo, "Shout the first line")
    git(repo, "checkout", "-q", "-b", "review", base)
    return repo, f"{base}..{head}"


def _snapshot(repo: Path) -> tuple[str, str, bytes]:
    return (git(repo, "status", "--porcelain", "--untracked-files=all"),
            git(repo, "rev-parse", "review"), (repo / "f.txt").read_bytes())


def _apply(repo: Path, spec: str, *extra: str) -> int:
    return main(["apply", "--git", spec, "--root", str(repo), "--yes", "--commit", *extra])


def test_an_untracked_file_refuses_before_the_write(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, spec = _checkout_at_a(tmp_path)
    (repo / "notes.txt").write_text("mine\n")
    before = _snapshot(repo)
    assert _apply(repo, spec) == 2
    err = capsys.readouterr().err
    assert "the working tree has changes the review did not make (notes.txt)" in err
    assert err.strip().endswith("[git-dirty]")
    assert _snapshot(repo) == before  # f.txt not written


def test_a_change_of_the_users_in_a_file_the_range_edits_is_not_committed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, spec = _checkout_at_a(tmp_path)
    (repo / "f.txt").write_text(LINES.replace("line 12\n", "my own line 12\n"))
    before = _snapshot(repo)
    assert _apply(repo, spec) == 2
    err = capsys.readouterr().err
    assert "did not make (f.txt)" in err
    assert "[git-dirty]" in err
    assert _snapshot(repo) == before


def test_a_staged_change_refuses_before_the_write(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, spec = _checkout_at_a(tmp_path)
    (repo / "g.txt").write_text("staged\n")
    git(repo, "add", "g.txt")
    before = _snapshot(repo)
    assert _apply(repo, spec) == 2
    assert "[git-staged]" in capsys.readouterr().err  # (the index named first: s46 F6)
    assert _snapshot(repo) == before


def test_an_existing_branch_refuses_before_the_write(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, spec = _checkout_at_a(tmp_path)
    before = _snapshot(repo)
    assert _apply(repo, spec, "--branch", "main") == 2
    assert "[branch-exists]" in capsys.readouterr().err
    assert _snapshot(repo) == before


def test_a_clean_checkout_still_commits(tmp_path: Path) -> None:
    repo, spec = _checkout_at_a(tmp_path)
    assert _apply(repo, spec) == 0
    assert git(repo, "status", "--porcelain") == ""
    assert git(repo, "show", "review:f.txt").startswith("LINE 1\n")
