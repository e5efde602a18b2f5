"""``export --format series``: a format-patch series that ``git am`` applies on the base."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from gitkit import ENV, five_commits, git, new_repo, tree_of
from reviewtui.cli import main
from reviewtui.core.git.commits import Counts, commit_message, split_subject


def test_series_applied_with_git_am_gives_the_accepted_tree(
        tmp_path: Path, capfdbinary: pytest.CaptureFixture[bytes]) -> None:
    repo = new_repo(tmp_path / "repo")
    base, head = five_commits(repo)
    assert main(["export", "--git", f"{base}..{head}", "--root", str(repo),
                 "--format", "series"]) == 0
    series = capfdbinary.readouterr().out
    assert series.count(b"\nSubject: [PATCH ") == 5  # one mail per turn, binary and mode too
    assert b"GIT binary patch" in series
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes",
                 "--commit", "--branch", "committed"]) in (0, 1)
    capfdbinary.readouterr()
    git(repo, "checkout", "-q", "-b", "mailed", base)
    done = subprocess.run(["git", "-c", "core.hooksPath=/dev/null", "am", "-q", "--keep-cr"],
                          cwd=repo, input=series, env=ENV, capture_output=True, check=False)
    assert done.returncode == 0, done.stderr
    assert tree_of(repo, "mailed") == tree_of(repo, "committed")
    assert git(repo, "log", "--format=%s", f"{base}..mailed").splitlines() == [
        "Edit the CRLF file", "Add a binary logo", "Make run.sh executable",
        "Rename old_name.py to new_name.py", "Shout the second note"]
    assert tree_of(repo, "mailed") == tree_of(repo, head)  # byte for byte, modes and binary
    body = git(repo, "log", "-1", "--format=%B", "mailed~4")
    assert "The reviewer asked for emphasis." in body
    assert "Reviewed-by: reviewtui; accepted 1, edited 0, rejected 0" in body
    assert tree_of(repo, "mailed")["dos.txt"] == tree_of(repo, head)["dos.txt"]


def test_series_needs_a_git_session(tmp_path: Path,
                                    capsys: pytest.CaptureFixture[str]) -> None:
    session = tmp_path / "s.patch"
    session.write_text("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n")
    assert main(["export", str(session), "--format", "series"]) == 2
    assert "needs a git session" in capsys.readouterr().err


@pytest.mark.parametrize("request_text", [
    "", "short", "x" * 200, "word " * 40, "first line\n\nsecond paragraph\nmore",
    "  spaced   out\tsubject  \nbody"])
def test_subjects_fit_72_characters_and_lose_nothing(request_text: str) -> None:
    subject, body = split_subject(request_text, "fallback")
    assert 0 < len(subject) <= 72
    assert "\n" not in subject
    words = " ".join(request_text.split()).split()
    kept = " ".join((subject + " " + body).split())
    assert all(word in kept for word in words)


def test_the_message_ends_with_the_trailers() -> None:
    message = commit_message("Do it\n\nWhy.", 3, "s.patch", Counts(7, 1, 2))
    assert message == ("Do it\n\nWhy.\n\nReviewed-by: reviewtui; accepted 7, edited 1, "
                       "rejected 2\nReview-session: s.patch turn 3\n")


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=300))
def test_property_subject_is_short_and_the_text_survives(request_text: str) -> None:
    subject, body = split_subject(request_text, "fallback")
    assert 0 < len(subject) <= 72
    assert "\n" not in subject
    assert "\r" not in subject
    kept = " ".join((subject + " " + body).split())
    for word in " ".join(request_text.split()).split():
        assert word in kept


def test_the_message_is_kept_as_written_but_its_line_ends() -> None:
    """Lines end at a newline alone, as git reads a message: a form feed, a U+2028 and a
    no-break space at a line's end were turned into line breaks or dropped, and a
    subject's double space into one (helper-107 F8)."""
    request = ("Fix  the\u00a0parser\u00a0\r\n\r\n"
               "Page one\fpage two\u2028same line\u00a0\n\t\nend  \n")
    subject, body = split_subject(request, "fallback")
    assert subject == "Fix  the\u00a0parser\u00a0"
    assert body == "Page one\fpage two\u2028same line\u00a0\n\nend"
