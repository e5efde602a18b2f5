"""A range holding a file git diffs as text that is not UTF-8 text (``shell/git_not_utf8.py``).

Found on ripgrep's history (session 35): a compressed fixture with no NUL byte
(``tests/data/sherlock.br``) is text to git, its diff was not UTF-8, and the whole range
was refused ("reads UTF-8 text only"). Such a file now comes as git's binary patch,
replayed byte for byte; what marking cannot make readable is refused as before.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gitkit import commit_all, disk_of, git, new_repo, tree_of
from reviewtui.cli import main
from reviewtui.shell.git_not_utf8 import not_utf8_paths

TYPE_CHECKING = False
if TYPE_CHECKING:
    from reviewtui.ui.opview import OpView

LATIN = "Café crème, déjà vu: ½ ± ¿\n".encode("latin-1")


def _latin_range(repo: Path) -> tuple[str, str]:
    """A base, then a Latin-1 file added, a UTF-8 edit beside it, the Latin-1 file edited,
    and a Latin-1 file renamed with an edit."""
    (repo / "notes.txt").write_text("one\ntwo\n")
    (repo / "old.txt").write_bytes(LATIN * 3)
    base = commit_all(repo, "Base")
    (repo / "legacy.c").write_bytes(b"/* " + LATIN + b"*/\nint x;\n")
    (repo / "notes.txt").write_text("one\nTWO\n")
    commit_all(repo, "Add a Latin-1 source")
    (repo / "legacy.c").write_bytes(b"/* " + LATIN + b"*/\nint x = 1;\n")
    commit_all(repo, "Set x")
    (repo / "old.txt").rename(repo / "new.txt")
    (repo / "new.txt").write_bytes(LATIN * 3 + b"\xe9t\xe9\n")
    head = commit_all(repo, "Rename and grow the Latin-1 notes")
    return base, head


def test_a_range_with_latin1_files_is_reviewed_and_applied_byte_for_byte(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = new_repo(tmp_path / "repo")
    base, head = _latin_range(repo)
    out = _checked(repo, base, head, capsys)
    assert "from a git binary" in out  # legacy.c and new.txt come as binary patches
    assert "notes.txt · Edit 1: applied" in out  # the UTF-8 file is still a text edit
    code = main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes"])
    assert code == 0, capsys.readouterr().out
    want = tree_of(repo, head)
    disk = disk_of(repo)
    assert {p: c for p, (_, c) in disk.items()} == {p: c for p, (_, c) in want.items()}


@pytest.mark.parametrize("rule", ["*.c diff\n", "*.c text diff=cpp\n"])
def test_text_git_is_told_to_diff_as_text_comes_as_binary_patches_too(
        tmp_path: Path, rule: str, capsys: pytest.CaptureFixture[str]) -> None:
    """The repository's own attributes weigh more than the ones made for the run: a file
    they give a diff (a driver: Newtonsoft.Json's ``*.cs text diff=csharp``) kept its text
    diff, and the range was refused as not UTF-8, or an edit away from the accents as a
    text edit of a binary file (QA s40). Its diffs are made git's binary patches of the
    blobs their index lines name: reviewed, and applied byte for byte."""
    repo = new_repo(tmp_path / "repo")
    (repo / ".gitattributes").write_text(rule)
    base, head = _latin_range(repo)
    out = _checked(repo, base, head, capsys)
    assert "legacy.c · full file: applied" in out
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes"]) == 0
    assert {p: c for p, (_, c) in disk_of(repo).items()} == {
        p: c for p, (_, c) in tree_of(repo, head).items()}


def test_a_commit_message_not_utf8_is_refused_as_before(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("a\n")
    base = commit_all(repo, "Base")
    (repo / "a.txt").write_text("b\n")
    git(repo, "add", "-A")
    git(repo, "-c", "i18n.commitEncoding=", "commit", "-q", "-F", "-",
        input=b"Caf\xe9 fix\n")
    head = git(repo, "rev-parse", "HEAD").strip()
    code = main(["check", "--git", f"{base}..{head}", "--root", str(repo)])
    err = capsys.readouterr().err
    assert code == 2
    assert "not UTF-8 text" in err


def test_paths_are_named_only_when_marking_them_can_help() -> None:
    diff = (b"From " + b"1" * 40 + b" Mon Sep 17 00:00:00 2001\nSubject: x\n\n"
            b"\ndiff --git a/p.c b/p.c\nindex 1..2 100644\n--- a/p.c\n+++ b/p.c\n"
            b"@@ -1 +1 @@\n-caf\xe9\n+CAF\xc9\n"
            b"\ndiff --git a/ok.txt b/ok.txt\n--- a/ok.txt\n+++ b/ok.txt\n@@ -1 +1 @@\n-a\n+b\n")
    assert not_utf8_paths(diff) == ["p.c"]
    # A quoted path (git quotes one holding a quote, a backslash, a control character), a
    # message that is not UTF-8: not named (the reader names them). A blank (git ends the
    # line with a tab then) or a wildcard character is named as it is.
    quoted = diff.replace(b"--- a/p.c\n+++ b/p.c", b'--- "a/p\\tc"\n+++ "b/p\\tc"')
    assert not_utf8_paths(quoted) == []
    assert not_utf8_paths(diff.replace(b"p.c", b"p*.c")) == ["p*.c"]
    assert not_utf8_paths(diff.replace(b"--- a/p.c\n+++ b/p.c",
                                       b"--- a/p q.c\t\n+++ b/p q.c\t")) == ["p q.c"]
    later = diff + b"\nFrom " + b"2" * 40 + b" Mon Sep 17 00:00:00 2001\nSubject: caf\xe9\n"
    assert not_utf8_paths(later) == ["p.c"]
    assert not_utf8_paths(diff.replace(b"\xe9", b"e").replace(b"\xc9", b"E")) == []


def test_what_marking_cannot_help_is_named_not_what_it_did(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """helper-103 #3: the refusal named the first byte that is not UTF-8 in the log, often
    a file the marking had made readable, not the one it could not (a path git quotes, a
    commit message)."""
    repo = new_repo(tmp_path / "repo")
    (repo / "a.c").write_bytes(LATIN)
    (repo / 'z"q.txt').write_bytes(LATIN)  # (a name git quotes: no pattern names it)
    base = commit_all(repo, "Base")
    (repo / "a.c").write_bytes(LATIN * 2)
    (repo / 'z"q.txt').write_bytes(LATIN * 2)
    head = commit_all(repo, "Both")
    code = main(["check", "--git", f"{base}..{head}", "--root", str(repo)])
    err = capsys.readouterr().err
    assert code == 2
    assert "in the diff of '\"a/z" in err
    assert "q.txt\"' of commit" in err
    assert "a.c" not in err


def test_the_users_own_attributes_stay_in_force(
        tmp_path: Path, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """helper-103 #2: the run's attributes file took the place of the user's global one,
    which called another file with no NUL byte binary: that file came as a text diff not
    in UTF-8, and the range was refused."""
    home = tmp_path / "home"
    home.mkdir()
    (home / ".gitconfig").write_text("[core]\n\tattributesFile = ~/my.attributes\n")
    (home / "my.attributes").write_text("*.dat binary\n")
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("XDG_CONFIG_HOME", raising=False)
    repo = new_repo(tmp_path / "repo")
    (repo / "lat.txt").write_bytes(LATIN)
    (repo / "blob.dat").write_bytes(b"\x01\x02\xff\xfe\n")
    base = commit_all(repo, "Base")
    (repo / "lat.txt").write_bytes(LATIN * 2)
    (repo / "blob.dat").write_bytes(b"\x01\x02\xff\xfd\n")
    head = commit_all(repo, "Edit")
    code = main(["check", "--git", f"{base}..{head}", "--root", str(repo)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert out.count("from a git binary") == 2


def test_names_with_blanks_and_wildcards_are_matched_exactly(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The attributes made for the run name each path alone: a blank, a leading ``#`` or
    ``!`` and wildcard characters are part of the name (a pattern ``lat[1].txt`` would
    match ``lat1.txt``, which stays a text file here)."""
    repo = new_repo(tmp_path / "repo")
    (repo / "dir with space").mkdir()
    names = ["dir with space/lat[1]*.txt", "#notes.txt", "!bang?.txt"]
    for name in names:
        (repo / name).write_bytes(LATIN)
    (repo / "lat1.txt").write_text("plain\n")
    base = commit_all(repo, "Base")
    for name in names:
        (repo / name).write_bytes(LATIN * 2)
    (repo / "lat1.txt").write_text("plain, edited\n")
    head = commit_all(repo, "Edit them all")
    out = _checked(repo, base, head, capsys)
    assert out.count("from a git binary") == 3
    assert "lat1.txt · Edit 1: applied" in out
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes"]) == 0
    want = tree_of(repo, head)
    assert {p: c for p, (_, c) in disk_of(repo).items()} == {p: c for p, (_, c) in want.items()}


def test_a_patch_export_of_such_a_range_applies(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """helper-103 #5 (older, for any binary file): a file not in UTF-8 renamed with a
    change made ``export --format patch`` end in a traceback (its similarity was worked
    out on text lines). The patch now applies with ``git apply`` onto A, giving B."""
    repo = new_repo(tmp_path / "repo")
    base, head = _latin_range(repo)
    out_file = tmp_path / "range.patch"
    code = main(["export", "--git", f"{base}..{head}", "--root", str(repo), "--format",
                 "patch", "--output", str(out_file)])
    assert code == 0, capsys.readouterr()
    assert b"GIT binary patch" in out_file.read_bytes()
    git(repo, "checkout", "-q", "--detach", base)
    git(repo, "apply", "--index", str(out_file))
    assert git(repo, "write-tree").strip() == git(repo, "rev-parse", f"{head}^{{tree}}").strip()


@pytest.mark.parametrize("rule", ["", "*.yml text diff=yaml\n"],
                         ids=["no-rule", "a-diff-driver"])
def test_an_edit_far_from_the_latin1_bytes_is_taken_as_binary_too(
        tmp_path: Path, rule: str, capsys: pytest.CaptureFixture[str]) -> None:
    """helper-103 #1: a Latin-1 file whose commit edits lines away from its accented ones
    has a UTF-8 diff; as a text edit of a file the review reads as binary, it was refused
    (jq's ``manual.yml``: 20 edits of one range). Its version before the range is looked
    at too, and it comes as a binary patch; also where the repository names a diff driver
    for it (refused until QA s40: Newtonsoft.Json's ``AssemblyInfo.cs``)."""
    repo = new_repo(tmp_path / "repo")
    if rule:
        (repo / ".gitattributes").write_text(rule)
    far = LATIN + b"".join(b"line %d\n" % n for n in range(40))
    (repo / "manual.yml").write_bytes(far)
    (repo / "plain.txt").write_text("plain\n")
    base = commit_all(repo, "Base")
    (repo / "manual.yml").write_bytes(far.replace(b"line 30\n", b"line thirty\n"))
    (repo / "plain.txt").write_text("plain, edited\n")
    head = commit_all(repo, "Edit far from the accents")
    out = _checked(repo, base, head, capsys)
    assert "manual.yml · full file: applied" in out
    assert "plain.txt · Edit 1: applied" in out
    assert main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes"]) == 0
    assert (repo / "manual.yml").read_bytes() == far.replace(b"line 30\n", b"line thirty\n")


def _checked(repo: Path, base: str, head: str, capsys: pytest.CaptureFixture[str]) -> str:
    """``check --git base..head`` on the repository checked out at ``base``: its report
    (it must exit 0)."""
    git(repo, "checkout", "-q", "--detach", base)
    code = main(["check", "--git", f"{base}..{head}", "--root", str(repo)])
    out = capsys.readouterr().out
    assert code == 0, out
    return out


def test_a_worktree_names_a_latin1_file_as_not_utf8_text(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--worktree`` leaves such a file out, as it leaves binary files; it said "this
    change cannot be replayed exactly from its diff" (helper-103 F10). The UTF-8 change
    beside it is reviewed; the Latin-1 one stays on disk as it is."""
    repo = new_repo(tmp_path / "repo")
    (repo / "notes.txt").write_text("one\ntwo\n")
    (repo / "legacy.c").write_bytes(b"/* " + LATIN + b"*/\nint x;\n")
    commit_all(repo, "Base")
    (repo / "notes.txt").write_text("one\nTWO\n")
    edited = b"/* " + LATIN + b"*/\nint x = 1;\n"
    (repo / "legacy.c").write_bytes(edited)
    assert main(["check", "--worktree", "--root", str(repo)]) == 0
    out = capsys.readouterr().out
    assert ("git-skipped info legacy.c: not UTF-8 text (a Latin-1 source, say): a working "
            "tree's review reads UTF-8 text alone, and leaves it out as it leaves binary "
            "files") in out
    assert "cannot be replayed exactly" not in out
    assert "notes.txt · Edit 1: applied" in out
    assert (repo / "legacy.c").read_bytes() == edited


def test_the_workbench_shows_a_latin1_files_change_read_as_latin1(tmp_path: Path) -> None:
    """Replayed as a binary file, it showed "binary file: not shown" for every change: a
    Latin-1 source is read as Latin-1 for the view (a preview; written byte for byte).
    Data (a NUL byte) still shows nothing."""
    from reviewtui.ui.opview import LEGACY_NOTE

    repo = new_repo(tmp_path / "repo")
    (repo / "legacy.c").write_bytes(b"/* Caf\xe9 */\nint x;\n")
    (repo / "blob.dat").write_bytes(b"a\0b\n")
    base = commit_all(repo, "Base")
    (repo / "legacy.c").write_bytes(b"/* Caf\xe9 */\nint x = 1;\n")
    (repo / "blob.dat").write_bytes(b"a\0c\n")
    (repo / "new.c").write_bytes(b"/* \xe9t\xe9 */\n")
    head = commit_all(repo, "Latin-1 and data")
    views = _views(repo, f"{base}..{head}")
    legacy = views["legacy.c"]
    assert legacy.message == ""
    assert LEGACY_NOTE in legacy.explanation.plain
    assert (legacy.panes[0].before, legacy.panes[0].after) == (
        ("/* Café */", "int x;"), ("/* Café */", "int x = 1;"))
    assert views["new.c"].panes[0].after == ("/* été */",)
    assert views["blob.dat"].message == "binary file: not shown"
    assert not views["blob.dat"].panes


@pytest.mark.parametrize("case", ["new", "deleted", "renamed with an edit", "made Latin-1"])
def test_a_worktree_leaves_out_every_change_of_text_that_is_not_utf8(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], case: str) -> None:
    """A new Latin-1 file, a UTF-8 file given a Latin-1 byte, a Latin-1 file renamed with
    an edit: a traceback (UnicodeEncodeError); a Latin-1 file deleted: the whole review
    refused, "reads UTF-8 text only" (QA s36 helper-105). Each is left out, named, on
    disk as it is; the UTF-8 change beside it is reviewed."""
    repo = new_repo(tmp_path / "repo")
    (repo / "notes.txt").write_text("one\ntwo\n")
    (repo / "lat.c").write_bytes(b"h\xe9\n")
    commit_all(repo, "Base")
    (repo / "other.txt").write_text("new\n")
    named = {"new": "new.c", "deleted": "lat.c", "renamed with an edit": "lat2.c",
             "made Latin-1": "notes.txt"}[case]
    if case == "new":
        (repo / "new.c").write_bytes(b"caf\xe9\n")
    elif case == "deleted":
        (repo / "lat.c").unlink()
    elif case == "renamed with an edit":
        git(repo, "mv", "lat.c", "lat2.c")
        (repo / "lat2.c").write_bytes(b"h\xe9\nmore\n")
    else:
        (repo / "notes.txt").write_bytes(b"one\nTW\xc9\n")
    before = {p.name: p.read_bytes() for p in repo.iterdir() if p.is_file()}
    assert main(["check", "--worktree", "--root", str(repo)]) == 0
    out = capsys.readouterr().out
    assert f"git-skipped info {named}: not UTF-8 text" in out
    assert "other.txt · full file: applied" in out
    assert {p.name: p.read_bytes() for p in repo.iterdir() if p.is_file()} == before


def test_a_file_changing_its_encoding_shows_each_side_as_it_reads(tmp_path: Path) -> None:
    """UTF-8 made Latin-1 showed every line deleted, the right side empty; Latin-1 made
    UTF-8 showed "café" becoming "cafÃ©" (its UTF-8 read as Latin-1): an encoding fix
    looked like corruption (QA s36 helper-106). The UTF-8 side reads as UTF-8."""
    repo = new_repo(tmp_path / "repo")
    (repo / "to_latin.txt").write_bytes("café\n".encode())
    (repo / "to_utf8.txt").write_bytes("café\n".encode("latin-1"))
    (repo / "crlf.txt").write_bytes("café\n".encode())
    base = commit_all(repo, "Base")
    (repo / "to_latin.txt").write_bytes("café\n".encode("latin-1"))
    (repo / "to_utf8.txt").write_bytes("café\n".encode())
    (repo / "crlf.txt").write_bytes("café\r\n".encode("latin-1"))
    head = commit_all(repo, "Swap the encodings")
    views = _views(repo, f"{base}..{head}")
    crlf = views["crlf.txt"].panes[0]
    assert (crlf.before, crlf.after) == (("café",), ("café",))
    assert crlf.label.endswith(": the same lines; the encoding changes, and bytes the lines "
                               "do not show (line endings, a last newline, a byte order mark)")
    for path in ("to_latin.txt", "to_utf8.txt"):
        pane = views[path].panes[0]
        assert (pane.before, pane.after) == (("café",), ("café",)), path
        assert pane.label == ("the UTF-8 side as it reads, the other read as Latin-1 (a "
                              "preview): the same text, in another encoding")


def _views(repo: Path, spec: str) -> dict[str, OpView]:
    """Each operation's view in the workbench, by path, for the range ``spec``."""
    from reviewtui.shell.git_sources import open_range
    from reviewtui.shell.review import Review
    from reviewtui.ui.opview import build_view

    source = open_range(spec, str(repo), keep=False)
    try:
        with Review.open(source.session, source.root, dry_run=True) as review:
            return {r.op.path: build_view(r) for t in review.display.turns for r in t.results}
    finally:
        source.close()


def test_a_message_that_is_not_utf8_is_named_as_the_message(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A commit message with a Latin-1 byte (no encoding header, as old gits wrote them):
    the refusal named the diff of the commit before it (QA s39 helper-120 F1: curl's
    ``CHANGES`` for a byte in the next commit's subject)."""
    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("hello\n")
    (repo / "b.txt").write_text("one\n")
    base = commit_all(repo, "Base")
    (repo / "a.txt").write_text("hello world\n")
    commit_all(repo, "Edit a")
    (repo / "b.txt").write_text("two\n")
    git(repo, "add", "b.txt")
    tree, parent = git(repo, "write-tree").strip(), git(repo, "rev-parse", "HEAD").strip()
    raw = (f"tree {tree}\nparent {parent}\nauthor t <t@t> 1000000000 +0000\n"
           "committer t <t@t> 1000000000 +0000\n\nfix by Andr").encode() + b"\xe9s\n"
    head = git(repo, "hash-object", "-t", "commit", "-w", "--stdin", input=raw).strip()
    code = main(["check", "--git", f"{base}..{head}", "--root", str(repo)])
    err = capsys.readouterr().err
    assert code == 2
    assert f"in the message of commit {head[:12]}" in err
    assert "a.txt" not in err
