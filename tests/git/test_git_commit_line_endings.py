"""``apply --commit`` stores what ``git add`` would store, line endings included.

The commits' blobs were the work tree's bytes (``hash-object --no-filters``): on a checkout
that git converts to CRLF (``.gitattributes`` ``eol=crlf``, or ``core.autocrlf=true``) the
review's commits held CRLF where git keeps LF, and their trees differed from the agent's.
Promise: git's built-in conversions for each path apply (``hash-object --path``), and still
no filter program runs.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from gitkit import commit_all, git, git_bytes, new_repo

from reviewtui.cli import main


def _crlf_checkout(tmp_path: Path, variant: str) -> tuple[Path, str, str]:
    """A fresh checkout at A of a repository whose text files git writes with CRLF; B
    edits f.txt. Returns the checkout, A..B and B."""
    repo = new_repo(tmp_path / "repo")
    if variant == "attributes":
        (repo / ".gitattributes").write_text("*.txt text eol=crlf\n")
    (repo / "f.txt").write_text("a\nb\nc\n")
    base = commit_all(repo, "Base")
    (repo / "f.txt").write_text("a\nB\nc\n")
    head = commit_all(repo, "Edit")
    if variant == "autocrlf":
        git(repo, "config", "core.autocrlf", "true")
    git(repo, "checkout", "-q", "-b", "review", base)
    (repo / "f.txt").unlink()
    git(repo, "checkout", "-q", "--", "f.txt")  # written again, now with CRLF
    assert (repo / "f.txt").read_bytes() == b"a\r\nb\r\nc\r\n"
    return repo, f"{base}..{head}", head


def _tree(repo: Path, rev: str) -> str:
    return git(repo, "rev-parse", f"{rev}^{{tree}}").strip()


@pytest.mark.parametrize("variant", ["attributes", "autocrlf"])
@pytest.mark.parametrize("branch", [["--branch", "reviewed"], []])
def test_the_commits_hold_what_git_add_would_store(
        tmp_path: Path, variant: str, branch: list[str]) -> None:
    repo, spec, head = _crlf_checkout(tmp_path, variant)
    assert main(["apply", "--git", spec, "--root", str(repo), "--yes", "--commit",
                 *branch]) == 0
    made = "reviewed" if branch else "review"
    assert git_bytes(repo, "cat-file", "blob", f"{made}:f.txt") == b"a\nB\nc\n"
    assert _tree(repo, made) == _tree(repo, head)
    assert (repo / "f.txt").read_bytes() == b"a\r\nB\r\nc\r\n"  # the work tree keeps CRLF
    if not branch:
        assert git(repo, "status", "--porcelain") == ""


def test_a_filter_program_still_never_runs(tmp_path: Path) -> None:
    """``--path`` reads the ``filter`` attribute too: the configured driver stays off."""
    repo, spec, _ = _crlf_checkout(tmp_path, "attributes")
    marker = tmp_path / "marker"
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "attributes").write_text("* filter=evil\n")
    for part in ("clean", "smudge", "process"):
        git(repo, "config", f"filter.evil.{part}", f"sh -c 'echo ran >> {marker}; cat'")
    assert main(["apply", "--git", spec, "--root", str(repo), "--yes", "--commit",
                 "--branch", "reviewed"]) == 0
    assert not marker.exists()
    assert git_bytes(repo, "cat-file", "blob", "reviewed:f.txt") == b"a\nB\nc\n"
