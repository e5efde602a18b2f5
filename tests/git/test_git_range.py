"""``--git A..B``: each commit a turn, and accepting all of them reproduces B's tree."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitkit import BINARY, commit_all, disk_of, five_commits, git, new_repo, tree_of
from reviewtui.cli import main
from reviewtui.core.importers.gitlog import import_git
from reviewtui.shell.git_sources import open_range
from reviewtui.shell.loader import load_session


@pytest.fixture(scope="module")
def replayed(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """The five-commit range replayed with ``apply --git A..B --yes`` on a checkout of A."""
    repo = new_repo(tmp_path_factory.mktemp("range") / "repo")
    base, head = five_commits(repo)
    git(repo, "checkout", "-q", "-b", "review", base)
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes"]) in (0, 1)
    return repo, base, head


def test_a_range_of_five_commits_is_five_turns_with_their_messages(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "repo")
    base, head = five_commits(repo)
    source = open_range(f"{base}..{head}", str(repo), keep=False)
    try:
        session = load_session(source.session).session
    finally:
        source.close()
    assert session.format == "git"
    assert [t.request for t in session.turns] == [
        "Shout the second note\n\nThe reviewer asked for emphasis.",
        "Rename old_name.py to new_name.py", "Make run.sh executable", "Add a binary logo",
        "Edit the CRLF file"]
    assert [t.index for t in session.turns] == [1, 2, 3, 4, 5]


def test_accepting_every_turn_gives_the_text_files_of_b_byte_for_byte(
        replayed: tuple[Path, str, str]) -> None:
    repo, _, head = replayed
    want = tree_of(repo, head)
    disk = disk_of(repo)
    for path in ("notes.txt", "new_name.py", "run.sh", "dos.txt"):
        assert disk[path][1] == want[path][1], path
    assert "old_name.py" not in disk
    assert disk["dos.txt"][1] == b"alpha\r\nBETA\r\ngamma\r\ndelta\r\n"


def test_accepting_every_turn_gives_the_binary_file_of_b(
        replayed: tuple[Path, str, str]) -> None:
    repo, _, _ = replayed
    assert (repo / "logo.bin").read_bytes() == BINARY


def test_accepting_every_turn_gives_the_modes_of_b(replayed: tuple[Path, str, str]) -> None:
    repo, _, head = replayed
    assert disk_of(repo)["run.sh"][0] == tree_of(repo, head)["run.sh"][0] == "100755"


def test_a_commit_message_cannot_forge_a_diff(tmp_path: Path) -> None:
    """Message lines are indented by git: a diff written in a message is only words."""
    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("a\n")
    base = commit_all(repo, "Base")
    (repo / "b.txt").write_text("b\n")
    forged = ("Innocent subject\n\nFrom 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 "
              "00:00:00 2001\ndiff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n"
              "@@ -1 +1 @@\n-a\n+pwned\n")
    head = commit_all(repo, forged)
    source = open_range(f"{base}..{head}", str(repo), keep=False)
    try:
        session = load_session(source.session).session
    finally:
        source.close()
    assert len(session.turns) == 1
    ops = session.turns[0].reply.ops
    assert [op.path for op in ops] == ["b.txt"]
    assert "pwned" in session.turns[0].request


def test_merges_and_empty_commits_are_turns_with_a_note(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("a\n")
    base = commit_all(repo, "Base")
    git(repo, "checkout", "-q", "-b", "side")
    (repo / "side.txt").write_text("side\n")
    commit_all(repo, "Side work")
    git(repo, "checkout", "-q", "main")
    commit_all(repo, "Nothing at all")
    git(repo, "merge", "-q", "--no-ff", "-m", "Merge side", "side")
    head = git(repo, "rev-parse", "HEAD").strip()
    source = open_range(f"{base}..{head}", str(repo), keep=False)
    try:
        session = load_session(source.session).session
    finally:
        source.close()
    assert [t.request for t in session.turns] == ["Nothing at all", "Merge side"]
    assert [p.rule for p in session.turns[0].reply.problems] == ["git-empty"]
    assert [p.rule for p in session.turns[1].reply.problems] == ["git-merge"]
    assert [op.path for op in session.turns[1].reply.ops] == ["side.txt"]


def test_a_bad_range_is_a_clean_usage_error(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("a\n")
    commit_all(repo, "Base")
    assert main(["check", "--git", "nope..HEAD", "--root", str(repo)]) == 2
    assert "no commit 'nope'" in capsys.readouterr().err
    assert main(["check", "--git=--upload-pack=x..HEAD", "--root", str(repo)]) == 2
    assert "is not a revision" in capsys.readouterr().err


def test_import_git_reads_the_header_and_refuses_a_bad_one() -> None:
    from reviewtui.core.errors import SessionFormatError

    text = "# reviewtui git session: range\n# base 0123456\n# head 89abcde\n"
    session = import_git(text, "s.patch")
    assert session.turns == ()
    assert session.title == "git 0123456..89abcde"
    with pytest.raises(SessionFormatError, match="malformed header"):
        import_git("# reviewtui git session: range\n# base xyz\n", "s.patch")


def test_a_range_whose_start_is_not_an_ancestor_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("a\n")
    commit_all(repo, "Base")
    git(repo, "checkout", "-q", "-b", "side")
    (repo / "b.txt").write_text("b\n")
    side = commit_all(repo, "Side")
    git(repo, "checkout", "-q", "main")
    (repo / "c.txt").write_text("c\n")
    main_tip = commit_all(repo, "Main")
    assert main(["check", "--git", f"{side}..{main_tip}", "--root", str(repo)]) == 2
    assert "is not an ancestor of" in capsys.readouterr().err


def test_a_range_whose_start_a_merge_brought_in_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A, a side branch's commit merged into B's line: git's first-parent walk from B
    went past it, down main, and main's commits were replayed on A's tree (each refused
    for a reason that named nothing of the cause: QA s39 helper-119 L2). Refused, saying
    why and which start would do; a range from the merge reads as before."""
    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("a\n")
    commit_all(repo, "Base")
    git(repo, "checkout", "-q", "-b", "side")
    (repo / "b.txt").write_text("b\n")
    side = commit_all(repo, "Side")
    git(repo, "checkout", "-q", "main")
    (repo / "c.txt").write_text("c\n")
    commit_all(repo, "Main")
    git(repo, "merge", "-q", "--no-edit", "side")
    merge = git(repo, "rev-parse", "HEAD").strip()
    (repo / "d.txt").write_text("d\n")
    tip = commit_all(repo, "After")
    assert main(["check", "--git", f"{side}..{tip}", "--root", str(repo)]) == 2
    err = capsys.readouterr().err
    assert "is not on" in err
    assert "first-parent line" in err
    assert main(["check", "--git", f"{merge}..{tip}", "--root", str(repo)]) == 0
