"""``--worktree``: the uncommitted changes, accepted on disk; a reject puts HEAD back."""

from __future__ import annotations

from pathlib import Path

import pytest

from gitkit import commit_all, git, git_bytes, new_repo
from reviewtui.cli import main
from reviewtui.core.engine import Decision
from reviewtui.core.model.records import ConsoleCommand, FullFile
from reviewtui.shell.git_worktree import open_worktree
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


@pytest.mark.parametrize("config", ["core.autocrlf=true", "core.eol=crlf"])
def test_a_converting_checkouts_working_tree_opens_and_writes_nothing(
        tmp_path: Path, config: str) -> None:
    """The working tree's own diff is not written as git apply would write it: an
    untracked LF file under autocrlf was rewritten CRLF as the review opened (found
    testing s55's plain-diff conversion, never landed)."""
    repo = _dirty_repo(tmp_path)
    key, value = config.split("=")
    git(repo, "config", key, value)
    (repo / ".gitattributes").write_text("*.txt text\n")
    (repo / "mixed.txt").write_bytes(b"one\r\ntwo\n")
    before = {p: p.read_bytes() for p in repo.iterdir() if p.is_file()}
    source = open_worktree(str(repo), keep=True)
    with Review.open(source.session, source.root, state_path=source.state) as review:
        review.finish_evaluation()
        assert all(d.verdict == "accepted" for d in review.decisions.values())
        assert review.last_report is not None
        assert not review.last_report.written
    assert {p: p.read_bytes() for p in repo.iterdir() if p.is_file()} == before
    assert (repo / "fresh.txt").read_bytes() == b"brand new\n"


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


def _crlf_repo(tmp_path: Path) -> Path:
    """``core.autocrlf=true`` (a Windows checkout): git stores LF, the disk holds CRLF."""
    repo = new_repo(tmp_path / "repo")
    git(repo, "config", "core.autocrlf", "true")
    (repo / "f.txt").write_bytes(b"".join(b"line %d\n" % n for n in range(1, 13)))
    (repo / "keep.txt").write_bytes(b"kept\n")
    commit_all(repo, "Base")
    for name in ("f.txt", "keep.txt"):  # as a checkout under autocrlf writes them
        (repo / name).write_bytes((repo / name).read_bytes().replace(b"\n", b"\r\n"))
    edited = (repo / "f.txt").read_bytes().replace(b"line 2\r\n", b"LINE TWO\r\n")
    (repo / "f.txt").write_bytes(edited.replace(b"line 11\r\n", b"line 11\r\nadded\r\n"))
    (repo / "new.txt").write_bytes(b"fresh\r\nfile\r\n")
    return repo


def test_a_crlf_checkout_under_autocrlf_is_reviewed_in_place(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """It was left out whole ("its line endings on disk are not git's"), so a Windows
    checkout reviewed nothing. Its diff is now made from HEAD as checked out (CRLF)."""
    repo = _crlf_repo(tmp_path)
    disk = {p.name: p.read_bytes() for p in repo.iterdir() if p.is_file()}
    assert main(["check", "--worktree", "--root", str(repo)]) == 0
    out = capsys.readouterr().out
    assert "line endings" not in out
    assert out.splitlines()[-1].startswith("1 turn, 3 operations: 3 apply, 0 fail"), out
    source = open_worktree(str(repo), keep=True)
    assert source.origin.skipped == ()
    with Review.open(source.session, source.root, state_path=source.state) as review:
        assert review.last_report is not None
        assert not review.last_report.written
        keys = sorted(review.decisions)
        assert len(keys) == 3
        assert all(review.result(key).landed for key in keys)
        assert {p.name: p.read_bytes() for p in repo.iterdir() if p.is_file()} == disk
        first = next(k for k in keys if review.result(k).op.path == "f.txt"
                     and "LINE TWO" in "".join(review.result(k).op.replace_lines))
        review.decide(first, Decision.reject())
        new_file = next(k for k in keys if review.result(k).op.path == "new.txt")
        review.decide(new_file, Decision.reject())
    # HEAD's line back in the checkout's CRLF; every other byte as the disk had it.
    assert (repo / "f.txt").read_bytes() == disk["f.txt"].replace(b"LINE TWO", b"line 2")
    assert not (repo / "new.txt").exists()
    assert (repo / "keep.txt").read_bytes() == b"kept\r\n"


def test_an_eol_attribute_file_is_reviewed_beside_plain_ones(tmp_path: Path) -> None:
    """``*.bat text eol=crlf`` (common beside LF sources): the .bat file is reviewed too."""
    repo = new_repo(tmp_path / "repo")
    (repo / ".gitattributes").write_text("*.bat text eol=crlf\n")
    (repo / "run.bat").write_bytes(b"@echo off\r\necho one\r\n")
    (repo / "a.py").write_text("a = 1\n")
    commit_all(repo, "Base")
    assert git_bytes(repo, "show", "HEAD:run.bat") == b"@echo off\necho one\n"
    (repo / "run.bat").write_bytes(b"@echo off\r\necho two\r\n")
    (repo / "a.py").write_text("a = 2\n")
    source = open_worktree(str(repo), keep=True)
    assert source.origin.skipped == ()
    with Review.open(source.session, source.root, state_path=source.state) as review:
        paths = sorted(review.result(k).op.path for k in review.decisions)
        assert paths == ["a.py", "run.bat"]
        bat = next(k for k in review.decisions if review.result(k).op.path == "run.bat")
        review.decide(bat, Decision.reject())
    assert (repo / "run.bat").read_bytes() == b"@echo off\r\necho one\r\n"
    assert (repo / "a.py").read_text() == "a = 2\n"


def test_crlf_on_disk_where_git_checks_out_lf_is_reviewed_from_the_lf_checkout(
        tmp_path: Path) -> None:
    """``eol=lf``, the file rewritten with CRLF: it was left out ("git's diff holds LF
    lines"). Its own diff from HEAD's checkout (LF) to the disk now reviews it, and a reject
    puts back what `git checkout` writes."""
    repo = new_repo(tmp_path / "repo")
    (repo / ".gitattributes").write_text("*.txt text eol=lf\n")
    (repo / "f.txt").write_bytes(b"one\ntwo\n")
    commit_all(repo, "Base")
    (repo / "f.txt").write_bytes(b"one\r\nTWO\r\n")
    source = open_worktree(str(repo), keep=True)
    assert source.origin.skipped == ()
    with Review.open(source.session, source.root, state_path=source.state) as review:
        for key in sorted(review.decisions):
            review.decide(key, Decision.reject())
    assert (repo / "f.txt").read_bytes() == b"one\ntwo\n"


def _autocrlf_repo(tmp_path: Path, files: dict[str, bytes]) -> Path:
    repo = new_repo(tmp_path / "repo")
    git(repo, "config", "core.autocrlf", "true")
    for name, data in files.items():
        (repo / name).write_bytes(data)
    commit_all(repo, "Base")
    for name in files:  # as the checkout writes them
        (repo / name).write_bytes((repo / name).read_bytes().replace(b"\n", b"\r\n"))
    return repo


def _reject_all(repo: Path) -> None:
    source = open_worktree(str(repo), keep=True)
    with Review.open(source.session, source.root, state_path=source.state) as review:
        for key in sorted(review.decisions):
            review.decide(key, Decision.reject())


def test_a_deleted_or_emptied_file_comes_back_as_the_checkout_writes_it(
        tmp_path: Path) -> None:
    """QA pass s28: under autocrlf, rejecting a deletion or an emptying wrote HEAD's stored
    LF bytes, where `git checkout` writes CRLF (their git diff replays as it is, so no
    checkout form was taken)."""
    repo = _autocrlf_repo(tmp_path, {"gone.txt": b"a\nb\n", "emptied.txt": b"x\n",
                                     "kept.txt": b"k\n"})
    (repo / "gone.txt").unlink()
    (repo / "emptied.txt").write_bytes(b"")
    _reject_all(repo)
    assert (repo / "gone.txt").read_bytes() == b"a\r\nb\r\n"
    assert (repo / "emptied.txt").read_bytes() == b"x\r\n"
    assert (repo / "kept.txt").read_bytes() == b"k\r\n"


def test_an_attributes_file_the_agent_added_does_not_decide_heads_checkout(
        tmp_path: Path) -> None:
    """QA pass s28: the agent adds `*.txt text eol=crlf` and rewrites f.txt in CRLF; HEAD's
    checkout form was read with the agent's attributes (CRLF), so rejecting everything left
    f.txt CRLF where HEAD and its checkout are LF (exit 0)."""
    repo = new_repo(tmp_path / "repo")
    (repo / "f.txt").write_bytes(b"one\ntwo\nthree\n")
    commit_all(repo, "Base")
    (repo / ".gitattributes").write_text("*.txt text eol=crlf\n")
    (repo / "f.txt").write_bytes(b"one\r\nTWO\r\nthree\r\n")
    _reject_all(repo)
    assert not (repo / ".gitattributes").exists()
    assert (repo / "f.txt").read_bytes() == b"one\ntwo\nthree\n"
    assert git(repo, "status", "--porcelain") == ""


def test_safecrlf_does_not_refuse_the_whole_working_tree(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """QA pass s28: with core.safecrlf=true one file of mixed endings made the temporary
    `git add` fail, and nothing at all was reviewed (exit 2)."""
    repo = _autocrlf_repo(tmp_path, {"f.txt": b"a\nb\nc\n", "other.txt": b"o\n"})
    git(repo, "config", "core.safecrlf", "true")
    (repo / "f.txt").write_bytes(b"a\r\nB\nc\r\n")
    (repo / "other.txt").write_bytes(b"O\r\n")
    assert main(["check", "--worktree", "--root", str(repo)]) == 0
    out = capsys.readouterr().out
    assert out.splitlines()[-1].startswith("1 turn, 2 operations: 2 apply"), out


def test_a_file_git_calls_changed_right_after_checkout_is_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """QA pass s28: a blob of mixed endings under eol=crlf is "modified" to git as soon as it
    is checked out; it got no operation and no note."""
    repo = new_repo(tmp_path / "repo")
    lines = [b"line %d" % n for n in range(1, 21)]
    (repo / "m.txt").write_bytes(b"".join(line + b"\r\n" for line in lines[:10])
                                 + b"".join(line + b"\n" for line in lines[10:]))
    (repo / "g.txt").write_bytes(b"g\n")
    commit_all(repo, "Base")
    (repo / ".gitattributes").write_text("*.txt text eol=crlf\n")
    git(repo, "add", ".gitattributes")
    git(repo, "commit", "-q", "-m", "Attributes")
    (repo / "m.txt").unlink()
    git(repo, "checkout", "--", "m.txt")
    assert git(repo, "status", "--porcelain") == " M m.txt\n"
    (repo / "g.txt").write_bytes(b"G\r\n")
    assert main(["check", "--worktree", "--root", str(repo)]) == 0
    out = capsys.readouterr().out
    assert "m.txt: exactly as a checkout of HEAD writes it, but git would store it otherwise" \
        in out, out


@pytest.mark.parametrize("autocrlf", ["true", "false"])
def test_a_name_that_is_not_utf8_is_named_and_left_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], autocrlf: str) -> None:
    """QA pass s28 (helper-87 F6): a changed file named with a byte that is not UTF-8 ended
    `check --worktree` in a traceback (the patch writer, or the review state's save)."""
    import os

    repo = new_repo(tmp_path / "repo")
    git(repo, "config", "core.autocrlf", autocrlf)
    name = os.fsdecode(b"raw\xff.txt")
    (repo / name).write_bytes(b"a\nb\nc\n")
    (repo / "ok.txt").write_bytes(b"o\n")
    commit_all(repo, "Base")
    ending = b"\r\n" if autocrlf == "true" else b"\n"
    (repo / name).write_bytes(ending.join([b"a", b"X", b"c", b""]))
    (repo / "ok.txt").write_bytes(b"O" + ending)
    assert main(["check", "--worktree", "--root", str(repo)]) == 0
    out = capsys.readouterr().out
    assert "raw\\xff.txt: its name is not UTF-8" in out, out
    assert out.splitlines()[-1].startswith("1 turn, 1 operation: 1 apply"), out
    source = open_worktree(str(repo), keep=True)
    with Review.open(source.session, source.root, state_path=source.state) as review:
        assert [review.result(k).op.path for k in review.decisions] == ["ok.txt"]
    assert (repo / name).read_bytes() == ending.join([b"a", b"X", b"c", b""])


def test_staged_changes_are_named_and_the_commit_says_the_index_holds_them(
        tmp_path: Path) -> None:
    """QA s46 helper-141 F5, F6: rejecting a staged change put the file back on disk and
    left the change in the index, where a plain git commit took it; `G` then named the
    file put back as a change the review did not make."""
    from reviewtui.core.errors import GitError
    from reviewtui.shell.git_commit import commit_review

    repo = _dirty_repo(tmp_path)
    git(repo, "add", "story.txt")
    git(repo, "rm", "-q", "stay.txt")
    source = open_worktree(str(repo), keep=True)
    with Review.open(source.session, source.root, state_path=source.state) as review:
        (note,) = [p for p in review.session.turns[0].reply.problems
                   if p.rule == "git-staged"]
        assert note.severity == "warning"
        assert "stages the changes to stay.txt, story.txt" in note.message
        assert "git restore --staged FILE" in note.message
        (removal,) = [k for k in review.decisions
                      if isinstance(op := review.result(k).op, ConsoleCommand)
                      and op.args == ("stay.txt",)]
        review.decide(removal, Decision.reject())
        assert (repo / "stay.txt").read_text() == "unchanged\n"
        with pytest.raises(GitError) as info:
            commit_review(review)
        assert info.value.rule == "git-staged"
