"""The copy of A's tree kept in ``<git dir>/reviewtui/range-A-B.root`` holds what a review
wrote there, not A's tree.

``check``, ``stats`` and ``export`` used it as A's tree once ``apply`` or ``open`` had made
it: a clean range then failed ("already applied") and export described the wrong base.
Promise: a command that keeps nothing reads A's tree from git, always; ``apply`` on the
kept copy saves its review beside it as ``open`` does, so a second ``apply`` (or ``open``)
resumes it instead of reading the written copy as A.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from gitkit import commit_all, git, new_repo
from reviewtui.cli import main
from reviewtui.shell.git_sources import open_range
from reviewtui.shell.review import Review


def _range(tmp_path: Path) -> tuple[Path, str]:
    """A repository whose range adds a line to f.txt; HEAD at B, so a review is kept."""
    repo = new_repo(tmp_path / "repo")
    (repo / "f.txt").write_text("a\n")
    base = commit_all(repo, "Base")
    (repo / "f.txt").write_text("a\nb\n")
    head = commit_all(repo, "Add b")
    return repo, f"{base}..{head}"


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str]:
    """The exit code and output, the session's temporary folder left out."""
    code = main(list(args))
    return code, re.sub(r"\S*reviewtui-git-[^/]*/", "", capsys.readouterr().out)


@pytest.mark.parametrize("command", [["check"], ["stats"], ["export", "--format", "patch"]])
def test_a_command_that_keeps_nothing_reads_a_from_git_after_apply(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    """After apply, check and stats still read A from git (the kept copy holds B); export
    reads the review apply kept, on the copy it was made on: the same patch, from the
    review's decisions (QA s36 helper-104: a review of the range could not be exported)."""
    repo, spec = _range(tmp_path)
    before = _run(capsys, *command, "--git", spec, "--root", str(repo))
    assert main(["apply", "--git", spec, "--root", str(repo), "--yes"]) == 0
    kept = next((repo / ".git" / "reviewtui").glob("*.root"))
    assert (kept / "f.txt").read_text() == "a\nb\n"
    capsys.readouterr()
    after = _run(capsys, *command, "--git", spec, "--root", str(repo))
    assert before[0] == 0
    if command[0] != "export":
        assert after == before
        return
    head, _, patch = after[1].partition("\n\n")
    assert (after[0], patch) == (before[0], before[1].partition("\n\n")[2])
    assert "+b" in patch
    assert "(the decisions in the review state " in head
    assert ".patch.review.json)" in head


def test_a_second_apply_resumes_the_kept_review(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, spec = _range(tmp_path)
    for written in (1, 0):
        assert main(["apply", "--git", spec, "--root", str(repo), "--yes"]) == 0
        out = capsys.readouterr().out
        assert f"1 of 1 operation applied; {written} file" in out
    kept = next((repo / ".git" / "reviewtui").glob("*.root"))
    assert (kept / "f.txt").read_text() == "a\nb\n"
    assert main(["apply", "--git", spec, "--root", str(repo), "--yes", "--commit",
                 "--branch", "reviewed"]) == 0
    assert git(repo, "show", "reviewed:f.txt") == "a\nb\n"


def test_open_after_apply_resumes_its_decisions(tmp_path: Path) -> None:
    repo, spec = _range(tmp_path)
    assert main(["apply", "--git", spec, "--root", str(repo), "--yes"]) == 0
    source = open_range(spec, str(repo), keep=True)
    try:
        assert source.state is not None
        with Review.open(source.session, source.root, state_path=source.state) as review:
            assert [d.verdict for d in review.decisions.values()] == ["accepted"]
            assert review.draft.checkpoint(0).get("f.txt").data == b"a\n"
    finally:
        source.close()
