"""``apply --commit`` stores what ``git add`` would store, line endings included.

On a checkout (the review made on the repository's work tree) the files are as git
checked them out, and the commits hold what ``git add`` makes of them: LF where git
converts a CRLF work tree, and CRLF kept where the index already holds it under
``text=auto`` (git's own rule; ``hash-object --path`` reads no index and converted those:
QA pass 84b found a CRLF file of jq rewritten whole, exit 0). On a copy written from git's
objects the files are in git's stored form already and are committed byte for byte (the
conversions made again turned jq's CRLF file into LF and a ``working-tree-encoding`` file
into mojibake). Still no filter program runs.
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


def _stored_form_range(tmp_path: Path, attributes: str, before: bytes, after: bytes,
                       name: str) -> tuple[Path, str, str]:
    """A repository whose ``name`` is stored as ``before`` then ``after`` (as given, no
    conversion) under ``attributes``; checked out at B. Returns it, A..B and B."""
    repo = new_repo(tmp_path / "repo")
    (repo / ".gitattributes").write_text(attributes)
    commit_all(repo, "Attributes")
    ids = [git(repo, "hash-object", "-w", "--no-filters", "--stdin", input=data).strip()
           for data in (before, after)]
    tips = []
    for sha, message in zip(ids, ("A", "B"), strict=True):
        git(repo, "update-index", "--add", "--cacheinfo", f"100644,{sha},{name}")
        git(repo, "commit", "-q", "-m", message)
        tips.append(git(repo, "rev-parse", "HEAD").strip())
    git(repo, "checkout", "-q", "-f", tips[1])
    return repo, f"{tips[0]}..{tips[1]}", tips[1]


CRLF_AUTO = ("* text=auto eol=lf\n", b"l1\r\nl2\r\nl3\r\n", b"l1\r\nL2\r\nl3\r\n", "old.txt")
ENCODED = ("*.ps1 text working-tree-encoding=UTF-16LE-BOM\n", b"Write-Host one\nWrite-Host two\n",
           b"Write-Host one\nWrite-Host TWO\n", "s.ps1")


@pytest.mark.parametrize("case", [CRLF_AUTO, ENCODED], ids=["crlf-text-auto", "encoding"])
def test_a_copy_is_committed_in_the_form_git_stores(tmp_path: Path,
                                                    case: tuple[str, bytes, bytes, str]) -> None:
    repo, spec, head = _stored_form_range(tmp_path, *case)
    assert main(["apply", "--git", spec, "--root", str(repo), "--yes", "--commit",
                 "--branch", "reviewed"]) == 0
    assert git_bytes(repo, "cat-file", "blob", f"reviewed:{case[3]}") == case[2]
    assert _tree(repo, "reviewed") == _tree(repo, head)


@pytest.mark.parametrize("branch", [["--branch", "reviewed"], []])
def test_on_the_checkout_a_crlf_blob_under_text_auto_stays_crlf(
        tmp_path: Path, branch: list[str]) -> None:
    repo, spec, head = _stored_form_range(tmp_path, *CRLF_AUTO)
    base = spec.split("..")[0]
    git(repo, "checkout", "-q", "-f", "-B", "review", base)
    assert (repo / "old.txt").read_bytes() == b"l1\r\nl2\r\nl3\r\n"  # (as git checks it out)
    assert main(["apply", "--git", spec, "--root", str(repo), "--yes", "--commit",
                 *branch]) == 0
    made = "reviewed" if branch else "review"
    assert git_bytes(repo, "cat-file", "blob", f"{made}:old.txt") == CRLF_AUTO[2]
    assert _tree(repo, made) == _tree(repo, head)
    if not branch:
        assert git(repo, "status", "--porcelain") == ""
