"""``--worktree``: the uncommitted changes, accepted on disk; a reject puts HEAD back."""

from __future__ import annotations

from pathlib import Path

import pytest
from gitkit import commit_all, git, new_repo

from reviewtui.cli import main
from reviewtui.core.engine import Decision
from reviewtui.core.model.records import FullFile
from reviewtui.shell.git_sources import open_worktree
from reviewtui.shell.review import Review

LINES = [f"line {n}\n" for n in range(1, 21)]


def _dirty_repo(tmp_path: Path) -> Path:
    repo = new_repo(tmp_path / "repo")
    (repo / "story.txt").write_text("".join(LINES))
    (repo / "stay.txt").write_text("unchanged\n")
    (repo / ".gitignore").write_text("*.log\n")
    commit_all(repo, "Base")
    edited = list(LINES)
    edited[1] = "LINE TWO\n"
    edited[17] = "LINE EIGHTEEN\n"
    (repo / "story.txt").write_text("".join(edited))
    (repo / "fresh.txt").write_text("brand new\n")
    (repo / "noise.log").write_text("ignored\n")
    (repo / "blob.bin").write_bytes(b"\0\1\2binary")
    return repo


def test_a_working_tree_opens_accepted_and_writes_nothing(tmp_path: Path) -> None:
    repo = _dirty_repo(tmp_path)
    before = {p: p.read_bytes() for p in repo.iterdir() if p.is_file()}
    source = open_worktree(str(repo), keep=True)
    with Review.open(source.session, source.root, state_path=source.state) as review:
        ops = [op for turn in review.session.turns for op in turn.reply.ops]
        assert sorted({op.path for op in ops if op.path}) == ["fresh.txt", "story.txt"]
        assert len(review.session.turns) == 1
        assert all(d.verdict == "accepted" for d in review.decisions.values())
        assert len(review.decisions) == len(ops) == 3
        assert review.last_report is not None
        assert not review.last_report.written
        notes = [p.message for p in review.session.turns[0].reply.problems]
        assert any("blob.bin: a binary file" in note for note in notes)
    assert {p: p.read_bytes() for p in repo.iterdir() if p.is_file()} == before


def test_rejecting_an_operation_restores_that_region_from_head(tmp_path: Path) -> None:
    repo = _dirty_repo(tmp_path)
    source = open_worktree(str(repo), keep=True)
    with Review.open(source.session, source.root, state_path=source.state) as review:
        keys = sorted(review.decisions)
        first = next(k for k in keys if review.result(k).op.path == "story.txt")
        review.decide(first, Decision.reject())
        new_file = next(k for k in keys if isinstance(review.result(k).op, FullFile))
        review.decide(new_file, Decision.reject())
    text = (repo / "story.txt").read_text().splitlines()
    assert text[1] == "line 2"  # back as in HEAD
    assert text[17] == "LINE EIGHTEEN"  # the other region stays as the agent left it
    assert not (repo / "fresh.txt").exists()  # an untracked file rejected: as in HEAD
    assert (repo / "noise.log").read_text() == "ignored\n"
    assert (repo / "blob.bin").read_bytes() == b"\0\1\2binary"
    assert git(repo, "status", "--porcelain", "--", "story.txt") == " M story.txt\n"


def test_an_agent_still_writing_is_an_outside_change(tmp_path: Path) -> None:
    repo = _dirty_repo(tmp_path)
    source = open_worktree(str(repo), keep=True)
    with Review.open(source.session, source.root, state_path=source.state) as review:
        story = repo / "story.txt"
        story.write_text(story.read_text() + "line 21\n")
        report = review.outside_changed(["story.txt"])
        assert report.outside == ["story.txt"]
        first = next(k for k in sorted(review.decisions)
                     if review.result(k).op.path == "story.txt")
        review.decide(first, Decision.reject())
    lines = (repo / "story.txt").read_text().splitlines()
    assert lines[1] == "line 2"
    assert lines[-1] == "line 21"


def test_check_worktree_evaluates_against_head(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    repo = _dirty_repo(tmp_path)
    assert main(["check", "--worktree", "--root", str(repo)]) == 0
    out = capsys.readouterr().out
    assert "3 operations: 3 apply, 0 fail" in out
    assert not (repo / ".git" / "reviewtui").exists()  # check keeps nothing


def test_worktree_root_must_be_the_top_folder(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str]) -> None:
    repo = _dirty_repo(tmp_path)
    (repo / "sub").mkdir()
    assert main(["check", "--worktree", "--root", str(repo / "sub")]) == 2
    assert "--root must be its top folder" in capsys.readouterr().err


def test_a_change_the_project_rules_refuse_is_left_out_not_reverted(tmp_path: Path) -> None:
    """reviewtui.toml reserves a path: its operation would be refused, so opening the
    review must not put HEAD's content back there; the path stays out of the review."""
    repo = new_repo(tmp_path / "repo")
    (repo / "reviewtui.toml").write_text('[reserved]\npaths = ["secrets/*"]\n')
    (repo / "secrets").mkdir()
    (repo / "secrets" / "key.txt").write_text("old\n")
    (repo / "ok.txt").write_text("old\n")
    commit_all(repo, "Base")
    (repo / "secrets" / "key.txt").write_text("agent wrote this\n")
    (repo / "ok.txt").write_text("new\n")
    source = open_worktree(str(repo), keep=True)
    assert [p for p, _ in source.origin.skipped] == ["secrets/key.txt"]
    with Review.open(source.session, source.root, state_path=source.state) as review:
        assert review.last_report is not None
        assert review.last_report.written == []
        ops = [op.path for t in review.session.turns for op in t.reply.ops]
        assert ops == ["ok.txt"]
    assert (repo / "secrets" / "key.txt").read_text() == "agent wrote this\n"


def test_a_crlf_checkout_under_autocrlf_says_why_it_is_left_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``core.autocrlf=true`` (a Windows checkout): a changed file is left out, and the note
    says it is the line endings (it said "cannot be replayed exactly from its diff")."""
    repo = new_repo(tmp_path / "repo")
    git(repo, "config", "core.autocrlf", "true")
    (repo / "f.txt").write_bytes(b"one\ntwo\n")
    commit_all(repo, "Base")
    (repo / "f.txt").write_bytes(b"one\r\nTWO\r\n")
    assert main(["check", "--worktree", "--root", str(repo)]) == 0
    assert ("f.txt: its line endings on disk are not git's (core.autocrlf or an eol "
            "attribute converts them)") in capsys.readouterr().out
