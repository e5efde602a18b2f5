"""A commit or a mail that leaves out some of its turn's operations says so.

A replayed commit carries the source commit's message: when one of its changes cannot
land (here a link to an absolute path, refused by design), the commit must not pass for
the whole of the one it came from. Its message names what it leaves out and counts it
as failed; ``apply --commit`` and ``export --format series`` name it on stderr and exit
1, as ``apply --yes`` does; a range where nothing lands exports no empty series (found by
helper-103: ``git am`` then says only "Patch format detection failed").
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gitkit import commit_all, git, new_repo
from reviewtui.cli import main
from reviewtui.core.git.commits import LEFT_OUT_SHOWN, Counts, commit_message


def refused_link_range(tmp_path: Path) -> tuple[Path, str, str, str]:
    """A repository: base; "Edit and link" (a text edit and a link out of the root);
    "Only a link" (a link out of the root alone). Returns (repo, base, middle, head)."""
    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("one\ntwo\n")
    base = commit_all(repo, "Base")
    (repo / "a.txt").write_text("one\nTWO\n")
    os.symlink("/etc/passwd", repo / "link")
    middle = commit_all(repo, "Edit and link")
    os.symlink("/etc/hosts", repo / "link2")
    return repo, base, middle, commit_all(repo, "Only a link")


def test_a_series_names_what_its_mails_leave_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, base, _middle, head = refused_link_range(tmp_path)
    code = main(["export", "--git", f"{base}..{head}", "--root", str(repo),
                 "--format", "series"])
    out, err = capsys.readouterr()
    assert code == 1
    assert out.count("\nSubject: [PATCH") == 1  # the link-only commit has no mail
    mail = out.split("\nSubject: [PATCH] Edit and link\n", 1)[1]
    assert ("Not in this commit (1 operation of the session that did not land):\n"
            "- turn 1 link · link -> /etc/passwd (refused)\n") in mail
    assert "Reviewed-by: reviewtui; accepted 1, edited 0, rejected 0, failed 1\n" in mail
    assert "+TWO" in mail
    lines = err.splitlines()
    assert [line.split(": refused")[0] for line in lines if ": refused" in line] == [
        f"commit {git(repo, 'rev-parse', '--short=12', f'{head}~1').strip()}: turn 1 "
        "link · link -> /etc/passwd",
        f"commit {head[:12]}: turn 2 link2 · link -> /etc/hosts"]
    assert lines[-1] == "reviewtui: 2 changes left out of the export (named above)"


def test_a_range_where_nothing_lands_writes_no_empty_series(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, _base, middle, head = refused_link_range(tmp_path)
    target = tmp_path / "series.mbox"
    code = main(["export", "--git", f"{middle}..{head}", "--root", str(repo),
                 "--format", "series", "-o", str(target)])
    err = capsys.readouterr().err
    assert code == 2
    assert "nothing to export: no accepted turn changes a file (the operations that fail " \
           "are named above)" in err
    assert "turn 1 link2 · link -> /etc/hosts: refused" in err
    assert not target.exists()


def test_apply_commit_says_which_commit_is_not_whole(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo, base, _middle, head = refused_link_range(tmp_path)
    code = main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes",
                 "--commit", "--branch", "replayed"])
    out = capsys.readouterr().out
    assert code == 1
    assert "1 commit on replayed (turn 1)" in out
    assert ("; turn 1 not whole: each commit's message names the operations it leaves "
            "out") in out
    body = git(repo, "log", "-1", "--format=%B", "replayed")
    assert body.startswith("Edit and link\n\nNot in this commit (1 operation")
    assert "- turn 1 link · link -> /etc/passwd (refused)" in body
    assert "accepted 1, edited 0, rejected 0, failed 1" in body
    assert git(repo, "show", "replayed:a.txt") == "one\nTWO\n"
    assert "link" not in git(repo, "ls-tree", "--name-only", "replayed").split()


def test_a_message_names_at_most_ten_and_counts_the_rest() -> None:
    missing = tuple(f"turn 3 f{n}.py · Edit 1 (not_found)" for n in range(LEFT_OUT_SHOWN + 3))
    message = commit_message("Fix it", 3, "s.patch", Counts(2, 0, 1, 0, 13), missing)
    paragraphs = message.split("\n\n")
    assert paragraphs[0] == "Fix it"
    listed = paragraphs[1].splitlines()
    assert listed[0] == "Not in this commit (13 operations of the session that did not land):"
    assert listed[1:] == [f"- {line}" for line in missing[:LEFT_OUT_SHOWN]] + ["- and 3 more"]
    assert paragraphs[2].startswith("Reviewed-by: reviewtui; accepted 2, edited 0, "
                                    "rejected 1, failed 13\n")  # trailers stay last
    whole = commit_message("Fix it", 3, "s.patch", Counts(2, 0, 1))
    assert "Not in this commit" not in whole
    assert "failed" not in whole


def test_the_later_part_of_a_split_commit_is_named_by_its_commit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A commit that makes a link a file is read as two turns; its second part's refusal
    was named "working tree:" in a range (QA s36 helper-104)."""
    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("a\n")
    os.symlink("a.txt", repo / "L")
    base = commit_all(repo, "Base")
    (repo / "L").unlink()
    (repo / "L").write_text("now a file\n")
    os.symlink("/etc/passwd", repo / "evil")
    head = commit_all(repo, "Link becomes a file")
    assert main(["export", "--git", f"{base}..{head}", "--root", str(repo),
                 "--format", "patch"]) == 1
    err = capsys.readouterr().err
    assert f"commit {head[:12]}: turn 2 evil · link -> /etc/passwd: refused" in err
    assert "working tree" not in err


def test_a_turn_with_nothing_landed_is_named_in_the_commit_summary(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Its commit is not made (nothing of it landed); the summary said nothing of it."""
    repo, base, _middle, head = refused_link_range(tmp_path)
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes",
                 "--commit", "--branch", "replayed"]) == 1
    out = capsys.readouterr().out
    assert out.rstrip().endswith("; no commit for turn 2: none of its operations landed "
                                 "(named above)")


def test_a_link_target_with_control_characters_is_spelt_out_in_the_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A commit message is printed by git log as it is: the list of what a commit leaves
    out must not carry a terminal sequence, nor a newline that forges a trailer."""
    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("a\n")
    base = commit_all(repo, "Base")
    (repo / "a.txt").write_text("a\nb\n")
    os.symlink("/t\x1b]0;OWNED\x07x\nSigned-off-by: Mallory <m@example.org>", repo / "odd")
    head = commit_all(repo, "Odd link")
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes",
                 "--commit", "--branch", "replayed"]) == 1
    capsys.readouterr()
    body = git(repo, "log", "-1", "--format=%B", "replayed")
    assert "\x1b" not in body
    assert "\x07" not in body
    assert ("- turn 1 odd · link -> /t\\u001b]0;OWNED\\u0007x\\u000aSigned-off-by: Mallory "
            "<m@example.org> (refused)") in body
    assert "Mallory" not in git(repo, "log", "-1", "--format=%(trailers)", "replayed")


def test_a_worktree_change_left_out_of_the_review_is_named_by_the_export(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A symbolic link in the working tree is left out of its review (named in a note,
    left on disk): a series of it left the link out with exit 0 and nothing said."""
    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("a\n")
    commit_all(repo, "Base")
    (repo / "a.txt").write_text("a\nb\n")
    os.symlink("a.txt", repo / "wt-link")
    code = main(["export", "--worktree", "--root", str(repo), "--format", "series"])
    out, err = capsys.readouterr()
    assert code == 1
    assert "working tree: git-skipped info wt-link: a symbolic link" in err
    assert err.splitlines()[-1] == "reviewtui: 1 change left out of the export (named above)"
    assert "wt-link" not in out
    assert "+b" in out
