"""``apply --commit`` / commit_review: one commit per turn, trailers, and the refusals."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitkit import commit_all, disk_of, five_commits, git, git_bytes, new_repo, tree_of
from reviewtui.cli import main
from reviewtui.core.engine import Decision
from reviewtui.core.errors import GitError, UsageError
from reviewtui.shell.git_commit import commit_review
from reviewtui.shell.git_sources import open_range
from reviewtui.shell.git_worktree import open_worktree
from reviewtui.shell.review import Review

LONG = ("Rewrite the greeting so that it addresses the reader by name and mentions the "
        "weather outside")


def _three_turns(tmp_path: Path) -> tuple[Path, str, str]:
    repo = new_repo(tmp_path / "repo")
    middle = "".join(f"m{n} = {n}\n" for n in range(12))
    (repo / "greet.py").write_text(f"a = 1\n{middle}h = 8\n")
    (repo / "other.txt").write_text("x\n")
    base = commit_all(repo, "Base")
    (repo / "greet.py").write_text(f"A = 1\n{middle}H = 8\n")
    commit_all(repo, LONG + "\n\nBecause the reviewer asked.")
    (repo / "other.txt").write_text("y\n")
    commit_all(repo, "Change other")
    (repo / "added.txt").write_text("new\n")
    head = commit_all(repo, "Add a file")
    git(repo, "checkout", "-q", "-b", "review", base)
    return repo, base, head


def _messages(repo: Path, rng: str) -> list[str]:
    out = git(repo, "log", "--reverse", "--format=%B%x00", rng)
    return [m.strip("\n") for m in out.split("\0") if m.strip()]


def test_apply_commit_makes_one_commit_per_turn_with_trailers(tmp_path: Path) -> None:
    repo, base, head = _three_turns(tmp_path)
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes",
                 "--commit"]) == 0
    messages = _messages(repo, f"{base}..review")
    assert len(messages) == 3
    subject = messages[0].splitlines()[0]
    assert len(subject) <= 72
    assert subject.endswith("...")
    assert LONG in messages[0]
    assert "Because the reviewer asked." in messages[0]
    assert messages[1].splitlines()[0] == "Change other"
    trailers = git(repo, "log", "-1", "--format=%(trailers)", "review")
    assert "Reviewed-by: reviewtui; accepted 1, edited 0, rejected 0" in trailers
    assert f"Review-session: range-{base[:12]}-{head[:12]}.patch turn 3" in trailers
    # Same trees as the agent's commits, and a clean checkout afterwards.
    assert tree_of(repo, "review") == tree_of(repo, head)
    assert git(repo, "status", "--porcelain") == ""
    assert git(repo, "rev-parse", "review~3") .strip() == base


def test_log_p_of_the_commits_is_what_was_accepted(tmp_path: Path) -> None:
    repo, base, head = _three_turns(tmp_path)
    source = open_range(f"{base}..{head}", str(repo), keep=True)
    with Review.open(source.session, source.root) as review:
        keys = [(t.index, pos) for t in review.session.turns
                for pos in range(len(t.reply.ops))]
        first_turn = [k for k in keys if k[0] == 1]
        assert len(first_turn) == 2  # two hunks of greet.py
        review.decide(first_turn[0], Decision.reject())
        review.decide_many([(k, Decision.accept()) for k in keys if k != first_turn[0]])
        report = commit_review(review, branch="reviewed")
    assert len(report.commits) == 3
    log = git(repo, "log", "-p", "--reverse", "--format=%s", f"{base}..reviewed")
    assert "-h = 8\n+H = 8\n" in log
    assert "+A = 1" not in log
    trailers = git(repo, "log", "--reverse", "--format=%(trailers:key=Reviewed-by)",
                   f"{base}..reviewed")
    assert "accepted 1, edited 0, rejected 1" in trailers.splitlines()[0]
    # What was accepted is on disk; the new branch holds exactly that.
    files = disk_of(repo)
    assert tree_of(repo, "reviewed") == {p: v for p, v in files.items()}
    assert git(repo, "rev-parse", "review").strip() == base  # the checkout did not move


def test_branch_leaves_the_index_and_existing_branches_alone(tmp_path: Path) -> None:
    repo, base, head = _three_turns(tmp_path)
    index_before = (repo / ".git" / "index").read_bytes()
    refs_before = git(repo, "for-each-ref", "--format=%(refname) %(objectname)")
    assert main(["apply", "--git", f"{base}..{head}", "--yes", "--commit", "--branch",
                 "accepted", "--root", str(repo)]) == 0
    assert (repo / ".git" / "index").read_bytes() == index_before
    refs_after = git(repo, "for-each-ref", "--format=%(refname) %(objectname)")
    assert set(refs_before.splitlines()) <= set(refs_after.splitlines())
    source = open_range(f"{base}..{head}", str(repo), keep=True)
    with Review.open(source.session, source.root) as review, \
            pytest.raises(UsageError, match="already exists"):
        commit_review(review, branch="accepted")


def test_a_dirty_working_tree_is_refused(tmp_path: Path) -> None:
    repo, base, head = _three_turns(tmp_path)
    source = open_range(f"{base}..{head}", str(repo), keep=True)
    with Review.open(source.session, source.root) as review:
        review.decide_many(review.applicable())
        (repo / "stray.txt").write_text("not from the review\n")
        with pytest.raises(GitError, match=r"changes the review did not make \(stray.txt\)"):
            commit_review(review)
    assert git(repo, "rev-parse", "HEAD").strip() == base


def test_a_moved_head_is_refused(tmp_path: Path) -> None:
    repo, base, head = _three_turns(tmp_path)
    source = open_range(f"{base}..{head}", str(repo), keep=True)
    with Review.open(source.session, source.root) as review:
        review.decide_many(review.applicable())
        git(repo, "commit", "-q", "--allow-empty", "-m", "someone else")
        moved = git(repo, "rev-parse", "HEAD").strip()
        with pytest.raises(GitError, match="HEAD moved since the review started"):
            commit_review(review)
    assert git(repo, "rev-parse", "HEAD").strip() == moved


def test_worktree_commit_takes_the_accepted_changes_only(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("".join(f"{n}\n" for n in range(1, 20)))
    base = commit_all(repo, "Base")
    (repo / "a.txt").write_text("".join(f"{n}\n" for n in range(1, 20))
                                .replace("2\n", "two\n", 1).replace("18\n", "eighteen\n"))
    (repo / "b.txt").write_text("b\n")
    source = open_worktree(str(repo), keep=True)
    with Review.open(source.session, source.root, state_path=source.state) as review:
        key = next(k for k in sorted(review.decisions) if review.result(k).op.path == "a.txt")
        review.decide(key, Decision.reject())
        report = commit_review(review)
    assert len(report.commits) == 1
    assert git(repo, "rev-parse", "HEAD~1").strip() == base
    assert git(repo, "status", "--porcelain") == ""
    assert git_bytes(repo, "show", "HEAD:a.txt").decode().splitlines()[1] == "2"
    message = git(repo, "log", "-1", "--format=%B")
    assert message.startswith(f"Uncommitted changes over {base[:12]}")
    assert "accepted 2, edited 0, rejected 1" in message


def test_commit_needs_a_git_session(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session = tmp_path / "s.patch"
    session.write_text("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n")
    root = tmp_path / "root"
    root.mkdir()
    (root / "x").write_text("a\n")
    assert main(["apply", str(session), "--root", str(root), "--yes", "--commit"]) == 2
    assert "--commit needs a session from git" in capsys.readouterr().err
    assert (root / "x").read_text() == "a\n"  # refused before writing anything


def test_five_commit_range_commits_reproduce_the_text_of_b(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "repo")
    base, head = five_commits(repo)
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes",
                 "--commit", "--branch", "replayed"]) in (0, 1)
    mine, theirs = tree_of(repo, "replayed"), tree_of(repo, head)
    for path in ("notes.txt", "new_name.py", "dos.txt"):
        assert mine[path] == theirs[path]
    assert "old_name.py" not in mine


def test_a_restored_checkpoint_is_refused(tmp_path: Path) -> None:
    repo, base, head = _three_turns(tmp_path)
    source = open_range(f"{base}..{head}", str(repo), keep=True)
    with Review.open(source.session, source.root) as review:
        review.decide_many(review.applicable())
        review.restore(1)
        with pytest.raises(GitError, match="checkpoint 1 is restored on disk"):
            commit_review(review, branch="whatever")
    assert "whatever" not in git(repo, "branch", "--list")


@pytest.mark.skipif(not Path("/proc/self/fdinfo").is_dir(),
                    reason="no /proc: who holds a file open cannot be told here")
def test_apply_commit_refuses_while_a_file_is_held_open(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    """A file held open for writing elsewhere is not written; committing would leave the
    working tree undoing the commit there: refused with the file named, nothing moved."""
    from heldkit import held_open

    repo, base, head = _three_turns(tmp_path)
    with held_open(repo / "other.txt"):
        capsys.readouterr()
        assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes",
                     "--commit"]) != 0
        said = capsys.readouterr()
    assert "other.txt: open for writing in another program" in said.out + said.err
    assert git(repo, "rev-parse", "review").strip() == base  # no commit made
    assert (repo / "other.txt").read_text() == "x\n"


def test_turns_with_commit_refuses_a_resumed_review_holding_later_accepts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An earlier ``apply`` of the range accepted every turn (its review resumes): ``--turns
    1 --commit`` committed turns 1 to 3, exit 0, without a word (QA pass 84b)."""
    repo, base, head = _three_turns(tmp_path)
    git(repo, "checkout", "-q", "--detach", head)  # (a copy: the review is kept beside it)
    spec = f"{base}..{head}"
    assert main(["apply", "--git", spec, "--root", str(repo), "--yes"]) == 0
    capsys.readouterr()
    assert main(["apply", "--git", spec, "--root", str(repo), "--yes", "--turns", "1",
                 "--commit", "--branch", "only1"]) == 2
    assert "already holds accepted turns 2, 3" in capsys.readouterr().err
    assert git(repo, "branch", "--list", "only1") == ""


@pytest.mark.parametrize("direction", ["file-to-folder", "folder-to-file"])
@pytest.mark.parametrize("where", ["copy", "checkout"])
def test_a_path_replaced_by_a_folder_or_a_file_of_its_name_is_b_s_tree(
        tmp_path: Path, direction: str, where: str) -> None:
    """``git rm x; mkdir x; x/inner`` in one commit (or the reverse): refused as "x is a
    file, not a directory" (QA pass 84b), and the reverse came out as a commit without
    ``x`` (git's diff makes ``x`` before it removes ``x/inner``). Now the removal runs first,
    and the commit is one, with B's tree, on a copy or on the checkout."""
    repo = new_repo(tmp_path / "repo")
    flat, folder = repo / "x", repo / "x" / "inner"
    if direction == "file-to-folder":
        flat.write_text("a\n")
    else:
        folder.parent.mkdir()
        folder.write_text("in\n")
    base = commit_all(repo, "Base")
    if direction == "file-to-folder":
        flat.unlink()
        folder.parent.mkdir()
        folder.write_text("in\n")
    else:
        folder.unlink()
        folder.parent.rmdir()
        flat.write_text("flat\n")
    head = commit_all(repo, "Replace x")
    if where == "copy":
        git(repo, "checkout", "-q", "--detach", head)
    else:
        git(repo, "checkout", "-q", "-b", "work", base)
    branch = ["--branch", "reviewed"] if where == "copy" else []
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes",
                 "--commit", *branch]) == 0
    made = "reviewed" if where == "copy" else "work"
    assert git(repo, "rev-list", "--count", f"{base}..{made}").strip() == "1"
    assert tree_of(repo, made) == tree_of(repo, head)
    if where == "checkout":
        assert git(repo, "status", "--porcelain") == ""
