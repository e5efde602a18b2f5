"""Exporting a range's review, and a series that ``git am`` reads whole (QA s36 helper-104).

``export --git A..B`` read the range on a lazy stand-in for A (an empty folder on disk):
with a review state, every file the review wrote read as deleted outside, each accepted
edit of it was called "not found - does not exist" and left out. It now reads the review
on the project it was made on, and the review ``open``/``apply`` keep for the range when
no ``--state`` is given. A commit message holding a line ``git am`` takes for the start of
the patch (``---``: every Dependabot commit) lost the rest of the message in the series,
the operations left out and the trailers with it.
"""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path

import pytest

from gitkit import ENV, commit_all, git, new_repo
from reviewtui.cli import main
from reviewtui.core.engine import Decision
from reviewtui.core.git.series import _breaks
from reviewtui.shell.git_sources import open_range
from reviewtui.shell.review import Review


def _reviewed(tmp_path: Path) -> tuple[Path, str]:
    """A range of one commit editing m.py and other.txt and adding n.txt, reviewed as the
    workbench keeps it: m.py's edit accepted, other.txt's rejected, n.txt accepted."""
    repo = new_repo(tmp_path / "repo")
    (repo / "m.py").write_text("def f():\n    return 1\n")
    (repo / "other.txt").write_text("x\n")
    base = commit_all(repo, "Base")
    (repo / "m.py").write_text("def f():\n    return 10\n")
    (repo / "other.txt").write_text("y\n")
    (repo / "n.txt").write_text("new\n")
    head = commit_all(repo, "Three changes")
    spec = f"{base}..{head}"
    source = open_range(spec, str(repo), keep=True)
    try:
        with Review.open(source.session, source.root) as review:
            keys = {review.result((1, pos)).op.path: (1, pos) for pos in range(3)}
            review.decide(keys["m.py"], Decision.accept())
            review.decide(keys["other.txt"], Decision.reject())
            review.decide(keys["n.txt"], Decision.accept())
    finally:
        source.close()
    return repo, spec


def test_export_reads_the_review_kept_for_the_range(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, spec = _reviewed(tmp_path)
    assert main(["export", "--git", spec, "--root", str(repo), "--format", "patch"]) == 0
    out, err = capsys.readouterr()
    assert "does not exist" not in err
    assert "left out" not in err
    assert "+    return 10" in out
    assert "+new" in out
    assert "other.txt" not in out  # the reject
    assert "(the decisions in the review state " in out


def test_export_with_a_state_named_reads_it_on_its_own_project(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, spec = _reviewed(tmp_path)
    kept = next((repo / ".git" / "reviewtui").glob("*.review.json"))
    named = tmp_path / "review.json"
    os.rename(kept, named)  # (not where export looks by itself), with its blobs
    os.rename(kept.with_name(kept.name.removesuffix(".json") + ".blobs"),
              tmp_path / "review.blobs")
    code = main(["export", "--git", spec, "--root", str(repo), "--state", str(named),
                 "--format", "series"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "does not exist" not in err
    assert "accepted 2, edited 0, rejected 1" in out
    assert "Not in this commit" not in out


def test_a_message_line_git_am_would_end_the_message_at_is_indented(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("a\n")
    base = commit_all(repo, "Base")
    (repo / "a.txt").write_text("a\nb\n")
    os.symlink("/etc/passwd", repo / "evil")  # refused: the commit is not whole
    head = commit_all(repo, "Bump foo from 1 to 2\n\nBumps foo.\n---\nupdated-dependencies:\n"
                      "- dependency-name: foo\n...\n\nSigned-off-by: bot <bot@example.org>")
    assert main(["export", "--git", f"{base}..{head}", "--root", str(repo),
                 "--format", "series"]) == 1
    _mailed(repo, base, capsys.readouterr().out)
    message = git(repo, "log", "-1", "--format=%B", "mailed")
    assert "Bumps foo.\n ---\nupdated-dependencies:\n- dependency-name: foo\n" in message
    assert "Not in this commit (1 operation" in message
    assert git(repo, "log", "-1", "--format=%(trailers:key=Reviewed-by,valueonly)",
               "mailed").strip() == "reviewtui; accepted 1, edited 0, rejected 0, failed 1"


def test_only_what_git_am_misreads_is_indented() -> None:
    """A ">From " line inside the message and a first "[patch notes]" line are kept as
    they are: git am keeps them (helper-107: they were indented)."""
    from reviewtui.core.git.series import _no_break

    assert _no_break("[patch notes] below\n>From a mail\nFrom here on") == (
        "[patch notes] below\n>From a mail\n From here on")
    assert _no_break(">From 0000 Mon\nrest") == " >From 0000 Mon\nrest"
    assert _no_break("[PATCH] a list's subject") == " [PATCH] a list's subject"


@pytest.mark.parametrize(("line", "breaks"), [
    ("---", True), ("---  ", True), ("--- a/x.py", True), ("diff --git a/x b/x", True),
    ("Index: x", True), ("----", False), ("---x", False), ("--- ", True), ("---  x", False),
    (" ---", False), ("- dependency", False), ("diff", False), ("Index:x", False),
    ("--- \u00a0updated", True), ("---\u00a0", False), ("--- \tx", False), ("---\t", True)])
def test_the_lines_git_mailinfo_takes_as_a_patch(line: str, breaks: bool) -> None:
    assert _breaks(line) is breaks


def _mailed(repo: Path, base: str, series: str) -> None:
    """``git am`` of ``series`` on a new branch ``mailed`` from ``base``."""
    git(repo, "checkout", "-q", "-b", "mailed", base)
    done = subprocess.run(["git", "-c", "core.hooksPath=/dev/null", "am", "-q", "--keep-cr"],
                          cwd=repo, input=series.encode(), env=ENV, capture_output=True,
                          check=False)
    assert done.returncode == 0, done.stderr


def _forge_root(state: Path, root: str) -> None:
    doc = json.loads(state.read_text())
    doc["root"] = root
    state.write_text(json.dumps(doc))


def test_a_kept_review_naming_another_folder_is_not_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The state file is untrusted: the folder it names was read as the project (and
    ``/`` walked whole, to a traceback: QA s36 helper-105). Only the checkout or
    reviewtui's copy of A are read; another is refused, and so the review is not passed
    over either (exporting every operation that applies would put in the changes its
    reviewer rejected: helper-106)."""
    repo, spec = _reviewed(tmp_path)
    secret = tmp_path / "secret"
    secret.mkdir()
    (secret / "m.py").write_text("SECRET = 1\n")
    kept = next((repo / ".git" / "reviewtui").glob("*.review.json"))
    for named in (str(secret), "/"):
        _forge_root(kept, named)
        for state in ([], ["--state", str(kept)]):
            code = main(["export", "--git", spec, "--root", str(repo), *state,
                         "--format", "patch"])
            out, err = capsys.readouterr()
            assert code == 2, err
            assert f"names the project {named}, which is neither this checkout nor " \
                   "reviewtui's copy of the range's start: not read" in err
            assert ("to export every operation that applies" in err) is not bool(state)
            assert not out
            assert "SECRET" not in err


def test_a_kept_review_that_cannot_be_read_is_refused_with_the_way_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, spec = _reviewed(tmp_path)
    kept = next((repo / ".git" / "reviewtui").glob("*.review.json"))
    kept.write_text("{not json")
    code = main(["export", "--git", spec, "--root", str(repo), "--format", "patch"])
    out, err = capsys.readouterr()
    assert code == 2
    assert "the review kept for this range cannot be read" in err
    assert f"remove {kept} and" in err
    assert not out


def test_a_review_kept_in_a_moved_repository_is_still_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The state names the copy of A where the repository was: the same copy, found by
    its name where the repository is now (helper-106: the reject was exported)."""
    repo, spec = _reviewed(tmp_path)
    moved = tmp_path / "moved"
    repo.rename(moved)
    code = main(["export", "--git", spec, "--root", str(moved), "--format", "patch"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "+    return 10" in out
    assert "other.txt" not in out  # the reject holds


def test_a_message_that_looks_like_mail_headers_keeps_its_author(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A body starting "From: ..." gave the commit ``git am`` made that author; a
    "From ... 2001" line could split the mail (helper-105; git format-patch does the
    same)."""
    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("a\n")
    base = commit_all(repo, "Base")
    (repo / "a.txt").write_text("a\nb\n")
    head = commit_all(repo, "Forward a fix\n\nFrom: Mallory <m@example.org>\n"
                      "From 0000000000000000000000000000000000000000 Mon Sep 17 00:00:00 2001\n"
                      "the rest")
    assert main(["export", "--git", f"{base}..{head}", "--root", str(repo),
                 "--format", "series"]) == 0
    _mailed(repo, base, capsys.readouterr().out)
    assert git(repo, "log", "-1", "--format=%an", "mailed").strip() == "Rita Reviewer"
    message = git(repo, "log", "-1", "--format=%B", "mailed")
    assert " From: Mallory <m@example.org>\n From 0000" in message
    assert "the rest" in message
    assert git(repo, "rev-list", "--count", f"{base}..mailed").strip() == "1"


def test_a_kept_review_no_path_can_be_made_of_is_refused_without_a_traceback(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A root naming a loop of links or holding a NUL ended in a traceback; a kept review
    that is a folder was passed over, the rejects exported (QA s36 helper-107)."""
    repo, spec = _reviewed(tmp_path)
    kept = next((repo / ".git" / "reviewtui").glob("*.review.json"))
    os.symlink(tmp_path / "loop", tmp_path / "loop")
    for named in (str(tmp_path / "loop" / "x"), "a\u0000b"):
        _forge_root(kept, named)
        code = main(["export", "--git", spec, "--root", str(repo), "--format", "patch"])
        out, err = capsys.readouterr()
        assert code == 2, err
        assert "Traceback" not in err
        assert "'reviewtui open --git" in err
        assert not out
    kept.unlink()
    kept.mkdir()
    code = main(["export", "--git", spec, "--root", str(repo), "--format", "patch"])
    out, err = capsys.readouterr()
    assert code == 2, err
    assert not out
