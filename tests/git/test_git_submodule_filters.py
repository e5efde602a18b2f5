"""Threat: a submodule's own configuration names a filter program.

reviewtui switches off the filter drivers the repository's configuration names; a
submodule has its own (``.git/modules/sub/config``), which those overrides never read.
``git status`` (the dirty check of ``apply --commit``) and ``git add -A`` (``--worktree``)
ran ``git status`` inside the submodule, and with it that program. Promise: nothing runs
inside a submodule; a submodule still counts when its commit moves, and the
superproject's own files are checked as before.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gitkit import commit_all, git, new_repo
from reviewtui.cli import main


def _superproject(tmp_path: Path) -> tuple[Path, Path, str]:
    """A checkout at A of a repository with a submodule ``sub`` whose own configuration
    arms a filter that leaves a marker, and a changed file in it; B edits ``a.txt``.
    Returns the checkout, the marker and ``A..B``."""
    inner = new_repo(tmp_path / "inner")
    (inner / ".gitattributes").write_text("* filter=evil\n")
    (inner / "d.txt").write_text("data\n")
    commit_all(inner, "Inner")
    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("a\n")
    commit_all(repo, "Base")
    git(repo, "-c", "protocol.file.allow=always", "submodule", "add", "-q", str(inner), "sub")
    base = commit_all(repo, "Add the submodule")
    (repo / "a.txt").write_text("b\n")
    head = commit_all(repo, "Edit a.txt")
    git(repo, "checkout", "-q", base)
    marker = tmp_path / "marker"
    for part in ("process", "clean", "smudge"):
        git(repo / "sub", "config", f"filter.evil.{part}", f"sh -c 'echo ran >> {marker}'")
    (repo / "sub" / "d.txt").write_text("data\nmore\n")
    return repo, marker, f"{base}..{head}"


def test_apply_commit_runs_nothing_inside_a_submodule(tmp_path: Path) -> None:
    repo, marker, spec = _superproject(tmp_path)
    assert main(["apply", "--git", spec, "--root", str(repo), "--yes", "--commit"]) == 0
    assert not marker.exists()
    assert git(repo, "show", "HEAD:a.txt") == "b\n"


@pytest.mark.parametrize(("command", "says"), [
    (["check"], "1 operation: 1 apply"), (["stats"], "operations               1"),
    (["export", "--format", "patch"], "+mine")])
def test_a_worktree_review_runs_nothing_inside_a_submodule(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str],
        says: str) -> None:
    repo, marker, _ = _superproject(tmp_path)
    (repo / "a.txt").write_text("mine\n")
    assert main([*command, "--worktree", "--root", str(repo)]) == 0, capsys.readouterr()
    assert not marker.exists()
    assert says in capsys.readouterr().out


def test_the_dirty_check_still_sees_the_superprojects_files(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, marker, spec = _superproject(tmp_path)
    (repo / "notes.txt").write_text("mine\n")
    assert main(["apply", "--git", spec, "--root", str(repo), "--yes", "--commit"]) == 2
    assert "(notes.txt)" in capsys.readouterr().err
    assert not marker.exists()


def test_a_submodule_moved_to_another_commit_still_counts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, marker, spec = _superproject(tmp_path)
    git(repo / "sub", "-c", "filter.evil.process=", "-c", "filter.evil.clean=",
        "commit", "-q", "-am", "Move the submodule")
    assert main(["apply", "--git", spec, "--root", str(repo), "--yes", "--commit"]) == 2
    assert "(sub)" in capsys.readouterr().err
    assert main(["check", "--worktree", "--root", str(repo)]) == 0
    assert "sub: a submodule (its commit is not reviewed)" in capsys.readouterr().out
    assert not marker.exists()
