"""``check --git``/``--worktree`` name each line by its commit, not by a line of the
session file git wrote for the command: that file is temporary and gone when ``check``
ends (its lines read ``/tmp/reviewtui-git-…/range-….patch:31:``, a place no one could
open)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from gitkit import commit_all, five_commits, git, new_repo
from reviewtui.cli import main


def test_range_lines_name_their_commits(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    repo = new_repo(tmp_path / "repo")
    base, head = five_commits(repo)
    commits = git(repo, "rev-list", "--reverse", f"{base}..{head}").split()
    assert main(["check", "--git", f"{base}..{head}", "--root", str(repo)]) == 0
    lines = [line for line in capsys.readouterr().out.splitlines()
             if re.search(r": turn \d+ ", line)]
    assert lines, "no operation lines"
    for line in lines:
        assert ".patch" not in line, line
        assert "reviewtui-git-" not in line, line
        turn = int(re.search(r": turn (\d+) ", line).group(1))  # type: ignore[union-attr]
        assert line.startswith(f"commit {commits[turn - 1][:12]}: turn {turn} "), line
    # Every commit with an operation is named (the first edits notes.txt).
    assert any(line.startswith(f"commit {commits[0][:12]}: turn 1 notes.txt") for line in lines)
    # --json: the session's title and the repository, not the temporary file and copy.
    assert main(["check", "--git", f"{base}..{head}", "--root", str(repo), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["session"] == f"git {base[:12]}..{head[:12]}"
    assert Path(doc["root"]) == repo.resolve()


def test_worktree_lines_name_the_working_tree(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("one\ntwo\nthree\n")
    commit_all(repo, "Base")
    (repo / "a.txt").write_text("one\n2\nthree\n")
    assert main(["check", "--worktree", "--root", str(repo)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith("working tree: turn 1 a.txt · Edit 1: applied"), out


def test_a_session_file_keeps_file_and_line(tmp_path: Path,
                                            capsys: pytest.CaptureFixture[str]) -> None:
    """Only a temporary git session is named by commit: a kept one (a file the user can
    open) reads ``file:line`` as before."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("one\ntwo\n")
    session = tmp_path / "s.diff"
    session.write_text("--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,2 @@\n one\n-two\n+2\n")
    assert main(["check", str(session), "--root", str(root)]) == 0
    first = capsys.readouterr().out.splitlines()[0]
    assert first.startswith(f"{session}:"), first
