"""``--git A..B`` with symbolic links: made, retargeted, turned into files and back, removed.

Accepting every turn gives B's links (``os.readlink`` equal) and B's files, on a checkout
of A; ``--commit`` records the links as links (mode 120000) in the commits it makes.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gitkit import commit_all, git, link_file_link, new_repo, tree_of
from reviewtui.cli import main


def link_history(repo: Path) -> tuple[str, str]:
    (repo / "docs").mkdir()
    (repo / "docs" / "guide.md").write_text("guide\n")
    (repo / "notes.txt").write_text("notes\n")
    (repo / "old").symlink_to("notes.txt")
    (repo / "gone").symlink_to("notes.txt")
    (repo / "was_link").symlink_to("notes.txt")
    base = commit_all(repo, "Base with links")
    (repo / "latest").symlink_to("docs/guide.md")
    (repo / "docs" / "up").symlink_to("../notes.txt")
    commit_all(repo, "Add two links")
    (repo / "old").unlink()
    (repo / "old").symlink_to("docs")
    (repo / "notes.txt").unlink()
    (repo / "notes.txt").symlink_to("docs/guide.md")
    commit_all(repo, "Retarget a link, make a file a link")
    (repo / "gone").unlink()
    (repo / "was_link").unlink()
    (repo / "was_link").write_text("a file now\n")
    head = commit_all(repo, "Remove a link, make a link a file")
    return base, head


def entries(root: Path) -> dict[str, str]:
    out = {}
    for folder, dirs, files in os.walk(root):
        dirs[:] = [d for d in dirs if d != ".git" and not Path(folder, d).is_symlink()]
        for name in files + [d for d in os.listdir(folder)
                             if Path(folder, d).is_symlink() and Path(folder, d).is_dir()]:
            full = Path(folder, name)
            rel = full.relative_to(root).as_posix()
            out[rel] = ("-> " + os.readlink(full)) if full.is_symlink() else full.read_text()
    return out


def test_accepting_every_turn_gives_the_links_of_b(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "repo")
    base, head = link_history(repo)
    want = entries(repo)
    git(repo, "checkout", "-q", "-b", "review", base)
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes"]) == 0
    assert entries(repo) == want
    assert os.readlink(repo / "old") == "docs"
    assert os.readlink(repo / "docs" / "up") == "../notes.txt"
    assert not (repo / "gone").is_symlink()
    assert not (repo / "was_link").is_symlink()


def test_commits_record_links_as_links(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "repo")
    base, head = link_history(repo)
    git(repo, "checkout", "-q", base)
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes",
                 "--commit", "--branch", "replayed"]) == 0
    assert tree_of(repo, "replayed") == tree_of(repo, head)
    assert tree_of(repo, "replayed")["latest"] == ("120000", b"docs/guide.md")


def test_the_patch_export_carries_links_that_git_apply_makes(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "repo")
    base, head = link_history(repo)
    want = entries(repo)
    git(repo, "checkout", "-q", base)
    patch = tmp_path / "export.diff"
    assert main(["export", "--git", f"{base}..{head}", "--root", str(repo),
                 "--format", "patch", "--output", str(patch)]) == 0
    text = patch.read_text()
    assert "new file mode 120000" in text
    assert "GIT binary patch" not in text  # a link's target is text, as git writes it
    git(repo, "apply", str(patch))
    assert entries(repo) == want


def test_apply_commit_on_the_checkout_commits_a_retargeted_link(tmp_path: Path) -> None:
    """The range retargets a link; ``apply --commit`` on the checkout at A writes it and
    commits it. The link on disk was taken for a change the review did not make: the
    commit was refused after the write, and the checkout left dirty (QA pass 84b)."""
    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("a\n")
    (repo / "b.txt").write_text("b\n")
    (repo / "link").symlink_to("a.txt")
    base = commit_all(repo, "Base")
    (repo / "link").unlink()
    (repo / "link").symlink_to("b.txt")
    (repo / "b.txt").write_text("b\nmore\n")
    head = commit_all(repo, "Retarget the link")
    git(repo, "checkout", "-q", "-b", "work", base)
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes",
                 "--commit"]) == 0
    assert git(repo, "rev-parse", "work^{tree}") == git(repo, "rev-parse", f"{head}^{{tree}}")
    assert git(repo, "status", "--porcelain") == ""


def _link_made_a_file(tmp_path: Path) -> tuple[Path, str, str]:
    """A repository whose one commit makes the link ``link`` a file; checked out at it
    (a review on a copy). Returns it, A and B."""
    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("a\n")
    (repo / "link").symlink_to("a.txt")
    base = commit_all(repo, "Base")
    (repo / "link").unlink()
    (repo / "link").write_text("now a file\n")
    head = commit_all(repo, "Link to file")
    git(repo, "checkout", "-q", "--detach", head)
    return repo, base, head


def test_a_link_made_a_file_in_one_commit_is_committed_as_one_commit(tmp_path: Path) -> None:
    """git's diff of a typechange is a removal then a new file of the same path: read as two
    turns (the removal must run first), they were committed as two commits, the first a
    tree the history never held (QA pass 84b). One commit, with B's tree."""
    repo, base, head = _link_made_a_file(tmp_path)
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes",
                 "--commit", "--branch", "reviewed"]) == 0
    assert git(repo, "rev-list", "--count", f"{base}..reviewed").strip() == "1"
    assert git(repo, "rev-parse", "reviewed^{tree}") == git(repo, "rev-parse", f"{head}^{{tree}}")


def test_turns_that_cut_such_a_commit_in_half_are_refused_with_commit(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--turns 1 --commit`` took the removal half of it: a commit of a tree the history
    never held (QA pass 84b)."""
    repo, base, head = _link_made_a_file(tmp_path)
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes",
                 "--turns", "1", "--commit", "--branch", "half"]) == 2
    assert "[turns-split-commit]" in capsys.readouterr().err
    assert git(repo, "branch", "--list", "half") == ""


def test_a_renamed_link_is_refused_with_the_true_reason(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A git rename of a link was refused saying reviewtui "never replaces a link with a
    regular file", which nothing did (QA s36 helper-107). Still refused (moving links was
    tried and reverted: links moved together led out of the root through each other,
    helper-108), saying why, and nothing moves."""
    repo = new_repo(tmp_path / "repo")
    (repo / "notes.txt").write_text("notes\n")
    (repo / "old").symlink_to("notes.txt")
    base = commit_all(repo, "Base with a link")
    git(repo, "mv", "old", "new")
    head = commit_all(repo, "Rename the link")
    git(repo, "checkout", "-q", "-b", "review", base)
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes"]) == 1
    out = capsys.readouterr().out
    assert ("old is a symbolic link: reviewtui does not move links (where a link leads "
            "depends on where it is, and on the links around it)") in out
    assert "regular file" not in out
    assert os.readlink(repo / "old") == "notes.txt"
    assert not (repo / "new").is_symlink()


@pytest.mark.parametrize("at_base", [True, False], ids=["a-file-at-a", "new-path"])
@pytest.mark.parametrize("form", ["patch", "series"])
def test_a_link_made_a_file_and_a_link_again_exports_every_accept(
        tmp_path: Path, form: str, at_base: bool) -> None:
    """Once ``apply --state`` had written B (a.txt a link), the export opened the review
    again with the disk's links as the engine's: the link the last turn made stood at
    a.txt through every turn, so the turns making it a file were refused and their
    accepts taken back, exit 1 (QA s40 helper-125 m2 b, older). The links the review made
    itself are its own. (A series mail that adds a link is a link, mode 120000.)"""
    repo, commits = link_file_link(tmp_path, at_base=at_base)
    git(repo, "checkout", "-q", "--detach", commits[0])
    spec, state = f"{commits[0]}..{commits[-1]}", tmp_path / "review.json"
    assert main(["apply", "--git", spec, "--root", str(repo), "--yes",
                 "--state", str(state)]) == 0
    assert os.readlink(repo / "a.txt") == "k"
    out = tmp_path / f"out.{form}"
    assert main(["export", "--git", spec, "--root", str(repo), "--format", form,
                 "--state", str(state), "-o", str(out)]) == 0
    check = tmp_path / "check"
    git(tmp_path, "clone", "-q", str(repo), str(check))
    git(check, "checkout", "-q", "--detach", commits[0])
    if form == "patch":
        git(check, "apply", "--index", str(out))
        assert git(check, "write-tree") == git(repo, "rev-parse", f"{commits[-1]}^{{tree}}")
        return
    git(check, "-c", "user.name=R", "-c", "user.email=r@x", "am", "-q", str(out))
    for back, commit in enumerate(reversed(commits[1:])):
        assert tree_of(check, f"HEAD~{back}") == tree_of(repo, commit)
