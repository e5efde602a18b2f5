"""``reviewtui open --git/--worktree`` wiring (the app's run replaced by a probe)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from gitkit import commit_all, five_commits, git, new_repo
from reviewtui.cli import main
from reviewtui.ui.app import ReviewApp


@pytest.fixture
def probe(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    seen: list[dict[str, Any]] = []

    def run(self: ReviewApp, *args: object, **kwargs: object) -> None:
        review = self.review
        seen.append({"root": review.root, "turns": len(review.session.turns),
                     "decisions": dict(review.decisions), "dry_run": review.dry_run,
                     "session": review.loaded.file})

    monkeypatch.setattr(ReviewApp, "run", run)
    return seen


def test_open_git_without_root_reviews_a_kept_copy_of_a(
        tmp_path: Path, probe: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    repo = new_repo(tmp_path / "repo")
    base, head = five_commits(repo)
    monkeypatch.chdir(repo)
    assert main(["open", "--git", f"{base}..{head}"]) == 0
    assert main(["open", "--git", f"{base}..{head}"]) == 0  # reopened: the same copy
    first, second = probe
    assert first["turns"] == 5
    assert first["root"] == second["root"] == repo / ".git" / "reviewtui" / (
        f"range-{base[:12]}-{head[:12]}.root")
    assert (first["root"] / "notes.txt").read_text() == "one\ntwo\nthree\nfour\n"
    assert "reviewing on a copy" in capsys.readouterr().err
    assert git(repo, "status", "--porcelain") == ""


def test_open_worktree_starts_accepted_and_a_dry_run_keeps_nothing(
        tmp_path: Path, probe: list[dict[str, Any]]) -> None:
    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("a\n")
    commit_all(repo, "Base")
    (repo / "a.txt").write_text("b\n")
    assert main(["open", "--worktree", "--root", str(repo), "--dry-run"]) == 0
    assert not (repo / ".git" / "reviewtui").exists()
    assert main(["open", "--worktree", "--root", str(repo)]) == 0
    dry, live = probe
    assert dry["dry_run"]
    assert [d.verdict for d in live["decisions"].values()] == ["accepted"]
    assert live["root"] == repo
    assert live["session"].parent == repo / ".git" / "reviewtui"
    assert (repo / "a.txt").read_text() == "b\n"


def test_branch_without_commit_is_a_usage_error(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str]) -> None:
    repo = new_repo(tmp_path / "repo")
    base, head = five_commits(repo)
    git(repo, "checkout", "-q", "-b", "review", base)  # the review would write here
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes",
                 "--branch", "x"]) == 2
    assert "add --commit" in capsys.readouterr().err
    assert git(repo, "status", "--porcelain") == ""  # refused before writing anything


def test_a_file_not_in_utf8_is_named_with_its_commit(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """The range's session is a temporary file: its line and byte named nothing the user
    could open (QA pass 84b); the file's diff and the commit are said. (Refused where no
    attributes file can name the file, a name git quotes: otherwise it comes as a binary
    file, ``test_git_not_utf8.py``.)"""
    repo = new_repo(tmp_path / "repo")
    (repo / 'latin"1.txt').write_bytes(b"caf\xe9\n")
    base = commit_all(repo, "Base")
    (repo / 'latin"1.txt').write_bytes(b"caf\xe9 cr\xe8me\n")
    head = commit_all(repo, "Touch the Latin-1 file")
    assert main(["check", "--git", f"{base}..{head}", "--root", str(repo)]) == 2
    err = capsys.readouterr().err
    assert "in the diff of '\"a/latin" in err
    assert f"1.txt\"' of commit {head[:12]}" in err
