"""A file the review reads as binary (not UTF-8) on a checkout that writes it otherwise
than git stores it (``shell/git_checkout.py``).

On a ``core.autocrlf`` checkout git writes a Latin-1 file (text to git) with CRLF, other
bytes than the blob its binary patch was made for, and the patch was refused (QA s35
helper-103 F4). Converting the result by hand was tried and reverted (QA s36 helper-105:
git does not convert every blob so). Now git says what its checkout writes for each blob,
and the disk must be exactly that: what ``git checkout B`` writes in the same clone is the
measure of every test here.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gitkit import clone_at, commit_all, configure, git, git_bytes, new_repo, tree_of
from reviewtui.cli import main


def _crlf_clone(source: Path, where: Path, rev: str, setting: str = "true") -> Path:
    return clone_at(source, where, rev, f"core.autocrlf={setting}")


def _checked_out(source: Path, where: Path, rev: str, path: str) -> bytes:
    """What a fresh autocrlf clone at ``rev`` holds at ``path``: git's own checkout."""
    return (_crlf_clone(source, where, rev) / path).read_bytes()


def _grown(tmp_path: Path, before: bytes = b"Caf\xe9\n") -> tuple[Path, str, str]:
    """A source repository whose Latin-1 lat.txt (``before``) grows a line: (it, A, B)."""
    source = new_repo(tmp_path / "source")
    (source / "lat.txt").write_bytes(before)
    base = commit_all(source, "Base")
    (source / "lat.txt").write_bytes(b"Caf\xe9\nmore\n")
    return source, base, commit_all(source, "Grow it")


def _apply(repo: Path, base: str, head: str, capsys: pytest.CaptureFixture[str],
           *extra: str) -> tuple[int, str]:
    code = main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes", *extra])
    return code, capsys.readouterr().out


@pytest.mark.parametrize("setting", ["true", "2"])  # (any number but 0 is true to git)
def test_a_latin1_file_gets_what_git_checks_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], setting: str) -> None:
    source = new_repo(tmp_path / "source")
    (source / "lat.txt").write_bytes(b"Caf\xe9\n" * 40)
    base = commit_all(source, "Base")
    (source / "lat.txt").write_bytes(b"Caf\xe9\n" * 40 + b"cr\xe8me\n")
    commit_all(source, "Grow it")
    (source / "lat.txt").write_bytes(b"d\xe9j\xe0\n" + b"Caf\xe9\n" * 39 + b"cr\xe8me\n")
    head = commit_all(source, "Change its first line")  # (a delta over the one before)
    repo = _crlf_clone(source, tmp_path / "crlf", base, setting)
    assert (repo / "lat.txt").read_bytes() == b"Caf\xe9\r\n" * 40
    code, out = _apply(repo, base, head, capsys)
    assert code == 0, out
    assert "2 of 2 operations applied" in out  # (two binary patches, the second a delta)
    assert (repo / "lat.txt").read_bytes() == _checked_out(source, tmp_path / "at-head", head,
                                                          "lat.txt")
    assert b"\r\n" in (repo / "lat.txt").read_bytes()


def test_a_result_git_does_not_convert_is_written_as_git_stores_it(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """B holds a NUL: binary to git, checked out as it is (the reverted conversion wrote it
    with CRLF)."""
    source = new_repo(tmp_path / "source")
    (source / "lat.txt").write_bytes(b"Caf\xe9\n")
    base = commit_all(source, "Base")
    (source / "lat.txt").write_bytes(b"Caf\xe9\n\0\n")
    head = commit_all(source, "A NUL")
    repo = _crlf_clone(source, tmp_path / "crlf", base)
    code, out = _apply(repo, base, head, capsys)
    assert code == 0, out
    want = _checked_out(source, tmp_path / "at-head", head, "lat.txt")
    assert want == b"Caf\xe9\n\0\n"
    assert (repo / "lat.txt").read_bytes() == want


def test_the_commit_holds_the_blob_git_stores(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, base, head = _grown(tmp_path)
    repo = _crlf_clone(source, tmp_path / "crlf", base)
    configure(repo, user__name="Rita Reviewer", user__email="rita@example.org")
    git(repo, "switch", "-q", "-c", "work")
    code, out = _apply(repo, base, head, capsys, "--commit")
    assert code == 0, out
    assert tree_of(repo, "HEAD")["lat.txt"] == tree_of(source, head)["lat.txt"]
    assert (repo / "lat.txt").read_bytes() == b"Caf\xe9\r\nmore\r\n"
    assert git(repo, "status", "--porcelain") == ""


def test_a_file_not_as_git_checked_it_out_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    source, base, head = _grown(tmp_path)
    repo = _crlf_clone(source, tmp_path / "crlf", base)
    (repo / "lat.txt").write_bytes(b"Caf\xe9\r\nmine\r\n")  # the user's own change
    code, out = _apply(repo, base, head, capsys)
    assert code == 1
    assert "lat.txt is not the version the binary patch was made for" in out
    assert (repo / "lat.txt").read_bytes() == b"Caf\xe9\r\nmine\r\n"


def _attributes_range(tmp_path: Path, attributes: str | None, move: bool = False,
                      before: str = "*.md text\n") -> tuple[Path, str, str]:
    """lat.txt grows a line while the range changes A's ``.gitattributes`` (``before``)
    to ``attributes`` (None: removed; ``move``: moved to sub/ instead)."""
    source = new_repo(tmp_path / "source")
    (source / "lat.txt").write_bytes(b"Caf\xe9\n")
    (source / ".gitattributes").write_text(before)
    base = commit_all(source, "Base")
    (source / "lat.txt").write_bytes(b"Caf\xe9\nmore\n")
    if move:
        (source / "sub").mkdir()
        (source / ".gitattributes").rename(source / "sub" / ".gitattributes")
    elif attributes is None:
        (source / ".gitattributes").unlink()
    else:
        (source / ".gitattributes").write_text(attributes)
    return source, base, commit_all(source, "Grow it, attributes changed")


@pytest.mark.parametrize(("attributes", "move", "autocrlf"), [
    ("*.md text\nlat.txt -text\n", False, True), ("lat.txt eol=lf\n", False, True),
    (None, False, False), (None, True, False)],
    ids=["text-off", "eol-lf", "deleted", "moved-away"])
def test_a_range_that_changes_the_attributes_leaves_the_patch_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], attributes: str | None,
        move: bool, autocrlf: bool) -> None:
    """A ``.gitattributes`` the range changes, removes or moves away (a command, not an
    edit, too: QA s37 helper-111 F2, written by A's rules, exit 0): no forms are taken
    from git, and the patch is refused, the file as it was (since s39 before it is
    evaluated: the range changes how git checks the file out). Following the attributes
    from commit to commit was tried in s38 and taken out (QA helper-116, helper-117)."""
    source, base, head = _attributes_range(
        tmp_path, attributes, move, "*.md text\n" if autocrlf else "lat.txt eol=crlf\n")
    config = ["core.autocrlf=true"] if autocrlf else []
    repo = clone_at(source, tmp_path / "review", base, *config)
    assert (repo / "lat.txt").read_bytes() == b"Caf\xe9\r\n"
    code, out = _apply(repo, base, head, capsys)
    assert code == 1
    assert "this range changes how git checks lat.txt out" in out  # (git-attributes)
    assert (repo / "lat.txt").read_bytes() == b"Caf\xe9\r\n"


def test_attributes_changed_in_the_working_tree_leave_the_patch_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A ``.gitattributes`` the user changed and did not commit: the files on disk were
    written by other rules than any commit's (``git checkout`` refuses to overwrite them),
    and what the review writes is committed by the user's: nothing is taken from git, and
    the patch is refused (here the attribute drops the file's eol)."""
    source, base, head = _attributes_range(tmp_path, "*.md text\n")
    repo = _crlf_clone(source, tmp_path / "crlf", base)
    (repo / ".gitattributes").write_text("*.md text\nlat.txt -text\n")
    before = (repo / "lat.txt").read_bytes()
    assert before == b"Caf\xe9\r\n"
    code, out = _apply(repo, base, head, capsys)
    assert code == 1
    assert "lat.txt is not the version the binary patch was made for" in out
    assert (repo / "lat.txt").read_bytes() == before


def test_git_is_asked_for_the_checkout_not_the_review(tmp_path: Path) -> None:
    """The forms come from git with the repository's filter programs off: a filter the
    configuration names never runs (its smudge would write a marker file)."""
    source, base, head = _grown(tmp_path)
    repo = _crlf_clone(source, tmp_path / "crlf", base)
    marker = tmp_path / "ran"
    git(repo, "config", "filter.mark.smudge", f"touch {marker}; cat")
    (repo / ".git" / "info" / "attributes").write_text("lat.txt filter=mark\n")
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes"]) == 0
    assert not marker.exists()
    assert (repo / "lat.txt").read_bytes() == b"Caf\xe9\r\nmore\r\n"
    assert git_bytes(repo, "cat-file", "-p", f"{head}:lat.txt") == b"Caf\xe9\nmore\n"


@pytest.mark.parametrize("fmt", ["patch", "series"])
def test_an_export_of_the_review_holds_the_blobs_git_stores(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], fmt: str) -> None:
    """A review kept on the checkout exported its binary patch from the bytes on disk (the
    checkout's CRLF): blob ids ``git apply`` refuses on any checkout, as it converts the
    file before it checks them. The patch carries the blobs git stores, and applies on a
    fresh autocrlf clone of A to what git checks out for B."""
    source, base, head = _grown(tmp_path)
    repo = _crlf_clone(source, tmp_path / "crlf", base)
    state = repo / ".git" / "reviewtui" / f"range-{base[:12]}-{head[:12]}.patch.review.json"
    code, out = _apply(repo, base, head, capsys, "--state", str(state))
    assert code == 0, out
    exported = tmp_path / "out.patch"
    assert main(["export", "--git", f"{base}..{head}", "--root", str(repo), "--format", fmt,
                 "-o", str(exported)]) == 0
    assert "the decisions in the review state" in exported.read_text() or fmt == "series"
    fresh = _crlf_clone(source, tmp_path / "fresh", base)
    if fmt == "patch":
        git(fresh, "apply", str(exported))
    else:
        configure(fresh, user__name="Rita Reviewer", user__email="rita@example.org")
        git(fresh, "switch", "-q", "-c", "work")
        git(fresh, "am", "-q", str(exported))
        assert tree_of(fresh, "HEAD")["lat.txt"] == tree_of(source, head)["lat.txt"]
    assert (fresh / "lat.txt").read_bytes() == (repo / "lat.txt").read_bytes() == (
        _checked_out(source, tmp_path / "at-head", head, "lat.txt"))


def test_the_workbench_accepts_and_rejects_in_the_checkouts_form(tmp_path: Path) -> None:
    """Decided one at a time (the workbench's way): an accept writes git's checkout of B,
    a reject puts back git's checkout of A (byte for byte), reopening resumes it."""
    from reviewtui.core.engine import Decision
    from reviewtui.shell.git_sources import open_range
    from reviewtui.shell.review import Review

    source, base, head = _grown(tmp_path)
    repo = _crlf_clone(source, tmp_path / "crlf", base)
    at_head = _checked_out(source, tmp_path / "at-head", head, "lat.txt")
    opened = open_range(f"{base}..{head}", str(repo), keep=True)
    try:
        assert opened.root == repo
        with Review.open(opened.session, opened.root) as review:
            key = (1, 0)  # (the one operation: turn 1, lat.txt)
            review.decide(key, Decision.accept())
            assert (repo / "lat.txt").read_bytes() == at_head
            review.decide(key, Decision.reject())
            assert (repo / "lat.txt").read_bytes() == b"Caf\xe9\r\n"
            review.decide(key, Decision.accept())
        with Review.open(opened.session, opened.root) as again:
            assert again.decisions[key].verdict.value == "accepted"
            assert again.outcome(key).status.value == "applied"
            assert (repo / "lat.txt").read_bytes() == at_head
    finally:
        opened.close()


def test_an_eol_attribute_alone_converts_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No core.autocrlf: the user's own attributes say ``eol=crlf`` for the file (asked of
    git with check-attr before any blob is read)."""
    source, base, head = _grown(tmp_path)
    repo = tmp_path / "eol"
    git(tmp_path, "clone", "-q", "--no-checkout", str(source), str(repo))
    (repo / ".git" / "info" / "attributes").write_text("*.txt eol=crlf\n")
    git(repo, "checkout", "-q", "--detach", base)
    assert (repo / "lat.txt").read_bytes() == b"Caf\xe9\r\n"
    code, out = _apply(repo, base, head, capsys)
    assert code == 0, out
    assert (repo / "lat.txt").read_bytes() == b"Caf\xe9\r\nmore\r\n"


@pytest.mark.parametrize("before", [b"Caf\xe9\r\n", b"Caf\xe9\n\0\n", b"Caf\xe9"])
def test_a_blob_git_checks_out_as_it_is_followed_by_one_it_converts(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], before: bytes) -> None:
    """The blob before holds CRLF already, a NUL, or no newline: git checks it out as it
    is, but converts the blob after; B was written as git stores it (QA s37 helper-111
    F1)."""
    source, base, head = _grown(tmp_path, before)
    repo = _crlf_clone(source, tmp_path / "crlf", base)
    assert (repo / "lat.txt").read_bytes() == before
    code, out = _apply(repo, base, head, capsys)
    assert code == 0, out
    assert (repo / "lat.txt").read_bytes() == _checked_out(
        source, tmp_path / "at-head", head, "lat.txt") == b"Caf\xe9\r\nmore\r\n"


@pytest.mark.parametrize("data", [b"\0\1\2", b"Caf\xe9\n"])
def test_a_new_binary_file_never_overwrites_a_file_of_yours(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], data: bytes) -> None:
    """The range adds f.dat (binary, or Latin-1 read as binary) where you have an untracked
    f.dat: it was overwritten, exit 0 (a text file was refused; git checkout refuses too;
    QA s37 helper-111 F7)."""
    source = new_repo(tmp_path / "source")
    (source / "k").write_text("k\n")
    base = commit_all(source, "Base")
    (source / "f.dat").write_bytes(data)
    head = commit_all(source, "Add f.dat")
    repo = tmp_path / "plain"
    git(tmp_path, "clone", "-q", str(source), str(repo))
    git(repo, "checkout", "-q", "--detach", base)
    (repo / "f.dat").write_text("MY OWN WORK\n")
    code, out = _apply(repo, base, head, capsys)
    assert code == 1
    assert "the diff creates f.dat as a new file, but f.dat exists with other content" in out
    assert (repo / "f.dat").read_text() == "MY OWN WORK\n"


def test_a_latin1_file_deleted_on_an_autocrlf_checkout_is_removed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """git checks it out with CRLF; its deletion was refused as "other content" (the LF
    form was tried for text only, and a Latin-1 file reads as binary: helper-111 F8). An
    edited copy is still refused."""
    source = new_repo(tmp_path / "source")
    (source / "lat.txt").write_bytes(b"Caf\xe9\n")
    (source / "k").write_text("k\n")
    base = commit_all(source, "Base")
    (source / "lat.txt").unlink()
    head = commit_all(source, "Remove it")
    repo = _crlf_clone(source, tmp_path / "crlf", base)
    code, out = _apply(repo, base, head, capsys)
    assert code == 0, out
    assert not (repo / "lat.txt").exists()
    edited = _crlf_clone(source, tmp_path / "edited", base)
    (edited / "lat.txt").write_bytes(b"Caf\xe9\r\nmine\r\n")
    code, out = _apply(edited, base, head, capsys)
    assert code == 1
    assert (edited / "lat.txt").read_bytes() == b"Caf\xe9\r\nmine\r\n"
