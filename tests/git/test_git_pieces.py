"""A range read while git writes it: the same session as reading the whole file after.

``open_range`` reads the commits git has written into turns while it writes the rest
(:class:`~reviewtui.core.importers.gitlog.PieceImport`), and the loader takes that
session instead of reading the file again. Everything here checks "the same": the
pieces' session against :func:`import_git` of the whole text, for any cut between
commits, and the loader falling back to reading the file whenever it could differ.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import reviewtui.shell.loader as loader
from gitkit import commit_all, five_commits, git, new_repo, tree_of
from reviewtui.cli import main
from reviewtui.core.importers import import_session
from reviewtui.core.importers.gitlog import PieceImport, _from_lines, import_git
from reviewtui.core.importers.mails import COMMIT
from reviewtui.core.importers.mails import commit_lines as _commit_lines
from reviewtui.core.model.records import Session, literal_session
from reviewtui.core.protocol.reply import split_lines
from reviewtui.shell.git import Repo
from reviewtui.shell.git_sources import _RangeReader, open_range, range_text
from reviewtui.shell.loader import load_session

COMMIT_AT = re.compile(r"\nFrom [0-9a-f]{40} ")


def _crlf_lines(count: int) -> bytes:
    return b"".join(b"line%d\r\n" % n for n in range(count))


def _history(repo: Path) -> tuple[str, str]:
    """Every shape a range can hold: the five commits (edit, rename, mode, binary, CRLF),
    then an empty commit, a merge, a symbolic link, a deletion, a file without a final
    newline, a CRLF hunk whose header ends in CR, a message quoting a commit line."""
    base, _ = five_commits(repo)
    commit_all(repo, "Nothing changes here")
    git(repo, "checkout", "-q", "-b", "side")
    (repo / "side.txt").write_text("from the side\n")
    commit_all(repo, "Side work")
    git(repo, "checkout", "-q", "main")
    git(repo, "merge", "-q", "--no-ff", "-m", "Merge side", "side")
    os.symlink("notes.txt", repo / "link")
    commit_all(repo, "Link the notes")
    (repo / "notes.txt").unlink()
    (repo / "tail.txt").write_bytes(b"no newline at the end")
    commit_all(repo, "Drop the notes, add a tail\n\nFrom 0123456789abcdef0123456789abcdef01234567 "
               "Mon Sep 17 00:00:00 2001\n+not a diff")
    (repo / "wide.txt").write_bytes(_crlf_lines(12))
    commit_all(repo, "A CRLF file")
    (repo / "wide.txt").write_bytes(_crlf_lines(12).replace(b"line9\r", b"LINE9\r"))
    (repo / "fresh.txt").write_bytes(b"new\r\nwith CR\r\n")
    head = commit_all(repo, "Edit the CRLF file, add a CRLF file")
    return base, head


def _cr_headers(text: str) -> str:
    """``text`` with the last commit's hunk headers ending in CR, as in a diff sent with
    CRLF line ends (git itself never ends one so): read alone, that commit takes CRLF as
    the transport's and keeps no CR in its new file's lines; the whole text keeps them."""
    last = text.rindex("\nFrom ")
    tail = re.sub(r"^(@@ -[^\n]*@@[^\n\r]*)$", "\\1\r", text[last:], flags=re.MULTILINE)
    return text[:last] + tail


@pytest.fixture(scope="module")
def history(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str, str]:
    repo = new_repo(tmp_path_factory.mktemp("pieces") / "repo")
    base, head = _history(repo)
    text = range_text(Repo.at(repo), base, head).decode("utf-8")
    return repo, base, head, text


def _pieces(text: str, cuts: list[int]) -> Session | None:
    """The pieces' session of ``text`` cut before the commit lines at ``cuts``."""
    starts = [m.start() + 1 for m in COMMIT_AT.finditer(text)]
    header = text[:starts[0]]
    bounds = sorted({starts[c % len(starts)] for c in cuts} | {starts[0]})
    reader = PieceImport(header, "s.patch", root="/project", literal=True)
    for at, end in zip(bounds, [*bounds[1:], len(text)], strict=True):
        reader.add(text[at:end], last=end == len(text))
    return reader.session()


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(cuts=st.lists(st.integers(min_value=0, max_value=40), max_size=8), cr=st.booleans())
def test_pieces_read_as_the_whole_text_for_any_cut_between_commits(
        history: tuple[Path, str, str, str], cuts: list[int], cr: bool) -> None:
    *_, text = history
    text = _cr_headers(text) if cr else text
    whole = import_git(text, "s.patch", root="/project", literal=True)
    got = _pieces(text, cuts)
    if got is not None:  # None: the caller reads the whole text (a CRLF reading differs)
        assert got == whole
    assert len(whole.turns) >= 10


def test_every_single_commit_as_its_own_piece_reads_the_same(
        history: tuple[Path, str, str, str]) -> None:
    *_, text = history
    whole = import_git(text, "s.patch", root="/project", literal=True)
    count = len(COMMIT_AT.findall(text))
    assert _pieces(text, list(range(count))) == whole
    # Hunk headers in CR only in the last commit: read alone, it would be read as sent
    # with CRLF and differ from the whole text's reading. Refused (None), never wrong.
    crlf = _cr_headers(text)
    assert crlf != text
    assert _pieces(crlf, list(range(count))) is None
    assert _pieces(crlf, []) == import_git(crlf, "s.patch", root="/project", literal=True)


def test_pieces_refuse_what_they_cannot_read_alike() -> None:
    header = "# reviewtui git session: range\n# base " + "a" * 40 + "\n"
    sha256 = "From " + "b" * 64 + " Mon Sep 17 00:00:00 2001\n"
    reader = PieceImport(header, "s", literal=True)
    reader.add(sha256 + "Parents: x\nSubject: s\n\n    s\n", last=True)
    assert reader.session() is None  # a SHA-256 commit line: the whole text decides
    unfinished = PieceImport(header, "s", literal=True)
    unfinished.add("From " + "c" * 40 + " Mon Sep 17 00:00:00 2001\n")
    assert unfinished.session() is None  # no last piece yet
    empty = PieceImport(header, "s", literal=True)
    empty.add("", last=True)
    assert empty.session() == import_git(header, "s", literal=True)


@pytest.mark.parametrize("piece", [1, 300, 256 * 1024])
def test_open_range_reads_the_log_as_the_loader_would(
        history: tuple[Path, str, str, str], piece: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    repo, base, head, _ = history
    monkeypatch.setattr(_RangeReader, "PIECE", piece)
    source = open_range(f"{base}..{head}", str(repo), keep=False)
    try:
        text = source.session.read_bytes().decode("utf-8")
        expected = import_session(text, str(source.session), root=str(source.root.absolute()))
        primed = loader._primed
        loaded = load_session(source.session, root=source.root).session
        assert loaded == expected
        assert primed is not None  # git never ends a hunk header in CR: read in pieces
        assert loaded is primed[3]
        assert loader._primed is None  # taken once
    finally:
        source.close()


def test_applying_a_range_read_in_pieces_gives_b_byte_for_byte(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    repo = new_repo(tmp_path / "repo")
    base, head = _history(repo)
    git(repo, "checkout", "-q", "-b", "review", base)
    monkeypatch.setattr(_RangeReader, "PIECE", 1)
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes"]) in (0, 1)
    for path, (mode, data) in tree_of(repo, head).items():
        full = repo / path
        if mode == "120000":
            assert os.readlink(full).encode() == data, path
        else:
            assert full.read_bytes() == data, path
            assert bool(full.stat().st_mode & 0o111) == (mode == "100755"), path
    assert not (repo / "notes.txt").exists()


class _SlowGit:
    """Stands for git writing ``text`` a few bytes at a time: each look writes more."""

    def __init__(self, path: Path, text: bytes, step: int) -> None:
        self.path, self.text, self.step, self.at = path, text, step, 0

    def running(self) -> bool:
        if self.at >= len(self.text):
            return False
        with self.path.open("ab") as out:
            out.write(self.text[self.at:self.at + self.step])
        self.at += self.step
        return True


@pytest.mark.parametrize("step", [7, 500, 4096])
def test_a_log_read_while_it_grows_reads_as_the_whole(
        history: tuple[Path, str, str, str], tmp_path: Path, step: int,
        monkeypatch: pytest.MonkeyPatch) -> None:
    *_, text = history
    header = text[:text.index("From ")]
    path = tmp_path / "range.patch"
    path.write_text(header)
    monkeypatch.setattr(_RangeReader, "PIECE", 1)
    added: list[bool] = []
    real_add = _RangeReader._add

    def add(self: _RangeReader, piece: bytearray, *, last: bool) -> None:
        added.append(last)
        real_add(self, piece, last=last)

    monkeypatch.setattr(_RangeReader, "_add", add)
    monkeypatch.setattr("time.sleep", lambda _seconds: None)
    reader = _RangeReader(header, "s.patch", tmp_path)
    data, got_text, session = reader.follow(
        _SlowGit(path, text[len(header):].encode(), step), path)  # type: ignore[arg-type]
    assert data == text.encode()
    assert got_text == text
    assert len(added) > 1  # read in pieces, the last one last
    assert added[-1]
    assert not any(added[:-1])
    assert session == import_session(text, "s.patch", root=str(tmp_path.absolute()))


def test_a_log_that_is_not_utf8_is_left_to_the_loader(tmp_path: Path) -> None:
    header = "# reviewtui git session: range\n# base " + "a" * 40 + "\n"
    body = ("From " + "c" * 40 + " Mon Sep 17 00:00:00 2001\nParents: " + "a" * 40 +
            "\nSubject: s\n\n    s\n\n").encode() + b"diff --git a/x b/x\n\xff\n"
    path = tmp_path / "range.patch"
    path.write_text(header)
    reader = _RangeReader(header, "s.patch", tmp_path)
    data, text, session = reader.follow(_SlowGit(path, body, 10), path)  # type: ignore[arg-type]
    assert data == header.encode() + body
    assert text is None
    assert session is None


def test_the_loader_reads_the_file_when_it_is_not_what_was_read(tmp_path: Path) -> None:
    repo = new_repo(tmp_path / "repo")
    base, head = five_commits(repo)
    source = open_range(f"{base}..{head}", str(repo), keep=False)
    try:
        assert loader._primed is not None
        text = source.session.read_text()
        changed = text.replace("Make run.sh executable", "Make run.sh runnable")
        source.session.write_text(changed)
        loaded = load_session(source.session, root=source.root).session
        assert [t.request for t in loaded.turns][2] == "Make run.sh runnable"
        # Another root than the one read for: the file is read again.
        source.session.write_text(text)
        loader.prime(source.session, source.root, text,
                     import_session(text, str(source.session)))
        other = load_session(source.session, root=tmp_path).session
        assert other == import_session(text, str(source.session),
                                       root=str(tmp_path.absolute()))
        assert loader._primed is None
    finally:
        source.close()


def test_commit_lines_are_found_as_matching_each_line_would(tmp_path: Path) -> None:
    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.sampled_from(
        ["\n", "\r", "\r\n", "From ", "abc1234 ", "From abcdef1 x", "a", " ",
         "From 0123456789abcdef0123456789abcdef01234567 ", "From 0123456 "]),
        max_size=30).map("".join))
    def check(text: str) -> None:
        expected = [i for i, line in enumerate(split_lines(text)) if COMMIT.match(line)]
        assert _commit_lines(text) == expected
        starts = [i for i, line in enumerate(text.split("\n")) if line.startswith("From ")]
        assert _from_lines(text) == starts

    check()


def test_literal_session_keeps_what_is_already_literal(tmp_path: Path) -> None:
    diff = "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n"
    plain = import_session(diff, "d.diff", format="unified")
    assert all(op.literal for turn in plain.turns for op in turn.reply.ops)
    assert literal_session(plain) is plain
    from reviewtui.core.importers.unified import import_unified
    unmarked = import_unified(diff, "d.diff")
    assert not any(op.literal for turn in unmarked.turns for op in turn.reply.ops)
    assert literal_session(unmarked) == plain


@pytest.mark.parametrize("odd", ["\f", "\x1c", "\u2028"])
def test_a_repository_whose_path_holds_a_line_separator_is_found(tmp_path: Path,
                                                                  odd: str) -> None:
    """git prints its paths one a line (at "\\n"); ``str.splitlines`` cut such a path in
    two and the repository was "not inside a git working tree"."""
    repo = new_repo(tmp_path / f"pro{odd}ject")
    (repo / "a.txt").write_text("a\n")
    commit_all(repo, "one")
    found = Repo.at(repo / ".")
    assert found.top == repo.resolve()
    assert found.git_dir == (repo / ".git").resolve()
