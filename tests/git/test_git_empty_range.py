"""A range of no commits (``A..A``, or ``A..`` with HEAD still at A) is a mistake: it used
to pass as "0 turns" with exit 0, and ``apply`` copied A's whole tree for it. Promise:
every command refuses it with one line (rule ``git-range``), exit 2, nothing copied."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitkit import commit_all, new_repo
from reviewtui.cli import main


@pytest.mark.parametrize("spec", ["HEAD..HEAD", "main..HEAD", "HEAD.."])
@pytest.mark.parametrize("command", [["check"], ["stats"], ["export", "--format", "patch"],
                                     ["apply", "--yes"], ["open", "--dry-run"]])
def test_an_empty_range_is_refused_and_nothing_is_copied(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], spec: str,
        command: list[str]) -> None:
    repo = new_repo(tmp_path / "repo")
    for name in ("a", "b", "c"):
        (repo / f"{name}.txt").write_text(f"{name}\n")
    base = commit_all(repo, "Base")
    code = main([*command, "--git", spec, "--root", str(repo)])
    captured = capsys.readouterr()
    assert code == 2, captured
    lines = captured.err.strip().splitlines()
    assert len(lines) == 1, captured.err
    assert "holds no commit" in lines[0]
    assert base[:12] in lines[0]
    assert lines[0].endswith("[git-range]")
    assert not (repo / ".git" / "reviewtui").exists()


def test_a_range_of_three_ends_is_refused_as_a_range(tmp_path: Path,
                                                     capsys: pytest.CaptureFixture[str]) -> None:
    """``A..B..C`` got git's own "Not a valid object name" (QA pass 84b)."""
    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("a\n")
    first = commit_all(repo, "One")
    (repo / "a.txt").write_text("b\n")
    second = commit_all(repo, "Two")
    assert main(["check", "--git", f"{first}..{second}..{second}", "--root", str(repo)]) == 2
    assert "--git takes a range A..B" in capsys.readouterr().err


@pytest.mark.parametrize(("options", "rule"), [([], "confirm"),
                                               (["--yes", "--branch", "reviewed"], "branch")],
                         ids=["no-yes", "branch-without-commit"])
def test_an_apply_usage_error_copies_nothing(tmp_path: Path, options: list[str], rule: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    """A's tree was copied into ``<git dir>/reviewtui/`` before the usage error (QA pass
    84b)."""
    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("a\n")
    first = commit_all(repo, "One")
    (repo / "a.txt").write_text("b\n")
    second = commit_all(repo, "Two")
    assert main(["apply", "--git", f"{first}..{second}", "--root", str(repo), *options]) == 2
    assert capsys.readouterr().err.rstrip().endswith(f"[{rule}]")
    assert not (repo / ".git" / "reviewtui").exists()
