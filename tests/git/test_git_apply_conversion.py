"""A plain diff on a git checkout that converts line endings: written as ``git apply``
writes it (``core/engine/git_apply.py``, ``shell/git_apply_rules.py``).

A unified diff or ``format-patch`` series given as the session (not ``--git``) wrote its
bytes as the diff gives them: a new file LF where ``git apply`` writes CRLF on an
autocrlf checkout, a CRLF blob whose lines the diff made LF left LF, exit 0 (QA s54
helper-229: PowerShell ``HEAD~400..HEAD~300``, 15 files). The measure of every test is
``git apply`` itself, run on a copy of the same checkout: the random cases compare every
file of hundreds of sections, under autocrlf, ``core.eol`` and each ``text``/``eol`` rule.
"""

from __future__ import annotations

import random
import re
import subprocess
from collections.abc import Callable
from pathlib import Path

import pytest

from gitkit import ENV, git, git_bytes, stored_commits
from reviewtui.cli import main
from reviewtui.core.engine.git_apply import checked_out

# (the checkout's -c settings, its .git/info/attributes)
SETUPS = {
    "autocrlf": (("core.autocrlf=true",), ""),
    "autocrlf-input": (("core.autocrlf=input",), ""),
    "attributes": ((), "*.a text=auto\n*.c text eol=crlf\n*.l text eol=lf\n*.t text\n"
                       "*.b -text\n*.x text=auto eol=crlf\n*.i crlf=input\n"),
    "autocrlf-attributes": (("core.autocrlf=true",), "*.c text eol=crlf\n*.l eol=lf\n"
                                                     "*.b -text\n*.a text=auto\n"),
    "eol-crlf": (("core.eol=crlf",), "*.a text=auto\n*.t text\n"),
}
EXTENSIONS = ("txt", "a", "c", "l", "t", "b", "x", "i")


def _checkout(source: Path, where: Path, rev: str, config: tuple[str, ...], info: str
              ) -> Path:
    """A clone of ``source`` checked out at ``rev`` with these settings and attributes (set
    before the checkout, so git writes its files by them)."""
    settings = [part for setting in config for part in ("-c", setting)]
    git(where.parent, "clone", "-q", "--no-checkout", *settings, str(source), str(where))
    (where / ".git" / "info" / "attributes").write_text(info)
    git(where, "checkout", "-q", "--detach", rev)
    return where


def _replayed(tmp_path: Path, before: dict[str, bytes | None],
              after: dict[str, bytes | None], setup: str, *, full_index: bool = False,
              touch: dict[str, bytes] | None = None
              ) -> tuple[Path, Path, str, int, dict[str, bytes | None]]:
    """The diff A..B (A's files ``before``, B's ``after``, stored as given) applied by
    ``git apply`` to one checkout of A and by reviewtui to another (``touch``: files
    written over both checkouts first, the user's own bytes): (git's checkout, the
    review's, git apply's errors ("": it applied every hunk), reviewtui's exit code, the
    review's files before)."""
    config, info = SETUPS[setup]
    source, (base, head) = stored_commits(tmp_path / "source", [before, after])
    diff = tmp_path / "change.diff"
    diff.write_bytes(git_bytes(source, "diff", "--no-renames",
                               *(["--full-index"] if full_index else []), base, head))
    theirs = _checkout(source, tmp_path / "git", base, config, info)
    ours = _checkout(source, tmp_path / "review", base, config, info)
    for name, data in (touch or {}).items():
        (theirs / name).write_bytes(data)
        (ours / name).write_bytes(data)
    was = {name: _bytes(ours, name) for name in before}
    applied = subprocess.run(["git", "apply", "--reject", str(diff)], cwd=theirs,
                             capture_output=True, env=ENV, check=False)
    code = main(["apply", "--root", str(ours), "--yes", str(diff)])
    return theirs, ours, applied.stderr.decode() if applied.returncode else "", code, was


def _bytes(root: Path, name: str) -> bytes | None:
    path = root / name
    return path.read_bytes() if path.is_file() else None


@pytest.mark.parametrize(("setup", "name", "before", "after"), [
    ("autocrlf", "new.txt", None, b"side\n"),
    ("autocrlf", "f.txt", b"a\r\nb\r\n", b"a\nb\nz\n"),  # a CRLF blob made LF
    ("autocrlf", "f.txt", b"hello", b"hello\nworld\n"),  # nothing of its own to keep
    ("autocrlf", "f.txt", b"", b"one\ntwo\n"),
    ("attributes", "f.c", None, b"x\ny\n"),  # eol=crlf
    ("attributes", "f.a", b"a\nb\nc\n", b"a\nB\nc\n"),
    ("eol-crlf", "f.t", None, b"t\n"),  # core.eol=crlf for a text file
    ("eol-crlf", "f.txt", None, b"plain\n"),  # and none for the others
    ("autocrlf", "f.txt", b"a\r\nb\nc\nd\n", b"a\r\nb\nC\nd\n"),  # mixed: kept as stored
    ("autocrlf", "f.txt", b"a\rx\nb\nc\n", b"a\rx\nb\nC\n"),  # a lone CR: binary to git
    ("autocrlf", "f.txt", b"\x01a\nb\n", b"\x01a\nB\n"),  # a control byte: binary to git
], ids=["new-file", "crlf-blob-made-lf", "no-newline", "empty", "eol-crlf-new",
        "text-auto", "core-eol-text", "core-eol-plain", "mixed", "lone-cr", "control"])
@pytest.mark.parametrize("full_index", [False, True], ids=["abbreviated", "full-index"])
def test_a_diff_is_written_as_git_apply_writes_it(
        tmp_path: Path, setup: str, name: str, before: bytes | None, after: bytes,
        full_index: bool) -> None:
    theirs, ours, errors, code, _ = _replayed(tmp_path, {name: before, "k.txt": b"k\n"},
                                              {name: after, "k.txt": b"k\n"}, setup,
                                              full_index=full_index)
    assert not errors
    assert code == 0
    assert _bytes(ours, name) == _bytes(theirs, name)
    assert _bytes(ours, name) != (before if before is not None else b"")  # (it changed)


def test_a_crlf_file_under_text_auto_is_written_as_git_reads_it(tmp_path: Path) -> None:
    """``* text=auto`` where LF is native: git reads the user's CRLF file as LF text and
    writes the patched text LF; the review kept the CRLF."""
    theirs, ours, errors, code, _ = _replayed(
        tmp_path, {"f.a": b"a\nb\nc\n"}, {"f.a": b"a\nB\nc\n"}, "attributes",
        touch={"f.a": b"a\r\nb\r\nc\r\n"})
    assert not errors
    assert code == 0
    assert _bytes(ours, "f.a") == _bytes(theirs, "f.a") == b"a\nB\nc\n"


def test_crlf_lines_added_to_a_file_git_reads_as_lf_are_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Autocrlf, an LF blob (CRLF on disk), a diff adding a CRLF line: git writes an LF
    file with that one line CRLF, which the review cannot tell from the file's own lines;
    refused, named, the file untouched. Under ``eol=crlf`` every line is CRLF either way:
    written."""
    theirs, ours, _, code, _ = _replayed(tmp_path, {"f.txt": b"a\nb\nc\n", "g.c": b"a\nb\n"},
                                         {"f.txt": b"a\nb\r\nc\n", "g.c": b"a\r\nb\n"},
                                         "autocrlf-attributes")
    out = capsys.readouterr().out
    assert code == 1
    assert "git reads f.txt with LF line endings here" in out
    assert _bytes(theirs, "f.txt") == b"a\nb\r\nc\n"
    assert _bytes(ours, "f.txt") == b"a\r\nb\r\nc\r\n"  # (as checked out: untouched)
    assert _bytes(ours, "g.c") == _bytes(theirs, "g.c") == b"a\r\nb\r\n"


def test_a_re_encoding_checkout_is_refused_by_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``working-tree-encoding=UTF-16LE``: the file on disk is UTF-16, the diff's lines
    UTF-8; the edit said "not found, nothing in the file is similar"."""
    config = (("core.autocrlf=false",), "*.txt text working-tree-encoding=UTF-16LE\n")
    SETUPS["utf16"] = config
    try:
        _, ours, _, code, _ = _replayed(tmp_path, {"u.txt": b"a\nb\n"}, {"u.txt": b"a\nB\n"},
                                        "utf16")
    finally:
        del SETUPS["utf16"]
    out = capsys.readouterr().out
    assert code == 1
    assert "git checks u.txt out as UTF-16LE" in out
    assert _bytes(ours, "u.txt") == "a\nb\n".encode("utf-16-le")


def test_an_expanded_id_is_refused_by_name(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """``ident``: the file holds ``$Id: <blob> $``, the diff ``$Id$``; a file of the same
    rule without one is written as git writes it."""
    SETUPS["ident"] = (("core.autocrlf=true",), "*.txt ident\n")
    try:
        theirs, ours, _, code, _ = _replayed(
            tmp_path, {"id.txt": b"$Id$\nx\n", "plain.txt": b"p\n"},
            {"id.txt": b"$Id$\ny\n", "plain.txt": b"p\nq\n"}, "ident")
    finally:
        del SETUPS["ident"]
    out = capsys.readouterr().out
    assert code == 1
    assert "git checks id.txt out with $Id$ expanded" in out
    assert _bytes(ours, "id.txt") != _bytes(theirs, "id.txt")
    assert _bytes(ours, "plain.txt") == _bytes(theirs, "plain.txt") == b"p\r\nq\r\n"


# -- many random sections against git apply ------------------------------------------------


def _text(rng: random.Random) -> bytes:
    """A few lines of text in any mix of line endings, sometimes with a lone CR, a control
    byte (binary to git's eyes) or no final newline."""
    lines = []
    for _ in range(rng.randint(1, 6)):
        word = rng.choice([b"a", b"b", b"foo", b"x y", b"", b"tab\there"])
        if rng.random() < 0.04:
            word += b"\r" + word
        if rng.random() < 0.04:
            word += b"\x01"
        lines.append(word + rng.choice([b"\n", b"\n", b"\r\n"]))
    text = b"".join(lines)
    return text.rstrip(b"\r\n") if rng.random() < 0.12 else text


def _changed(rng: random.Random, text: bytes) -> bytes:
    lines = text.splitlines(keepends=True)
    out = []
    for line in lines:
        roll = rng.random()
        if roll < 0.2:
            out.append(rng.choice([b"new", b"a", b"zz"]) + rng.choice([b"\n", b"\r\n"]))
        elif roll < 0.3:  # the same line, its ending turned
            body = line.rstrip(b"\r\n")
            out.append(body + (b"\n" if line.endswith(b"\r\n") else b"\r\n"))
        elif roll < 0.35:
            continue
        else:
            out.append(line)
        if rng.random() < 0.1:
            out.append(b"added" + rng.choice([b"\n", b"\n", b"\r\n"]))
    if out and not out[-1].endswith(b"\n"):
        out[-1] += b"\n"
    changed = b"".join(out)
    return changed if changed != text else changed + b"tail\n"


@pytest.mark.parametrize("setup", sorted(SETUPS))
def test_random_sections_are_written_as_git_apply_writes_them(
        tmp_path: Path, setup: str, capsys: pytest.CaptureFixture[str]) -> None:
    """About eighty files of every rule's extension, each new, edited or removed in one
    diff: every file the review writes is git apply's bytes; one it leaves is refused by
    name (``git-apply-endings``, or ``diff-lone-cr`` for a line ending in CR CR LF), and
    few are."""
    rng = random.Random(f"git-apply {setup}")
    before: dict[str, bytes | None] = {}
    after: dict[str, bytes | None] = {}
    for n in range(80):
        name = f"f{n}.{EXTENSIONS[n % len(EXTENSIONS)]}"
        roll = rng.random()
        before[name] = None if roll < 0.15 else _text(rng)
        after[name] = (None if 0.15 <= roll < 0.2 else
                       _changed(rng, before[name] or b"") if before[name] else _text(rng))
    theirs, ours, errors, code, was = _replayed(tmp_path, before, after, setup,
                                                full_index=setup.startswith("auto"))
    out = capsys.readouterr().out
    rejected = {found.group(1) or found.group(2) for line in errors.splitlines()
                if (found := re.match(r"Applying patch (\S+) with \d+ reject|"
                                      r"error: (\S+): patch does not apply", line))}
    refused = {name for name in before if f"git reads {name} with LF" in out}
    # (a line ending in a CR of its own before its CRLF: not read, docs/formats.md)
    unread = set(re.findall(r"diff-lone-cr error the change to '([^']+)'", out))
    compared = 0
    for name in sorted(before):
        if name in rejected:
            continue
        compared += 1
        if name in refused | unread:
            assert _bytes(ours, name) == was[name], name
            continue
        assert _bytes(ours, name) == _bytes(theirs, name), name
    assert compared >= 70
    assert len(refused) <= 12
    assert len(unread) <= 4
    assert code == (1 if refused or unread else 0)


@pytest.mark.parametrize("writes", ["auto", "all"])
def test_checked_out_is_what_git_checks_out(tmp_path: Path, writes: str) -> None:
    """``checked_out`` against ``git checkout-index`` of the same blobs, two hundred of
    them: CR, LF, CRLF, NUL, control bytes, DEL, a final EOF character, in any mix."""
    rng = random.Random(f"checkout {writes}")
    alphabet = [b"a", b"b", b" ", b"\t", b"\n", b"\n", b"\r\n", b"\r", b"\x00", b"\x01",
                b"\x7f", b"\x1b", b"\xc3\xa9"]
    blobs = {f"b{n}.txt": b"".join(rng.choice(alphabet) for _ in range(rng.randint(0, 40)))
             + (b"\x1a" if n % 17 == 0 else b"") for n in range(200)}
    source, _ = stored_commits(tmp_path / "source", [blobs])
    rule = "* text=auto eol=crlf\n" if writes == "auto" else "* text eol=crlf\n"
    clone = _checkout(source, tmp_path / "clone", "HEAD", (), rule)
    for name, blob in blobs.items():
        assert checked_out(blob, writes) == (clone / name).read_bytes(), (name, blob)


def test_an_edit_of_a_re_encoded_file_in_a_range_is_refused_by_name(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--git``, a ``working-tree-encoding`` the range leaves alone: the file on disk is
    UTF-16, the hunk UTF-8; it said "not found, nothing in the file is similar" (QA s54
    helper-229). A new file of the same rule is still written as git checks it out."""
    source, (base, head) = stored_commits(tmp_path / "source", [
        {"w.u16": b"hello\nworld\n"}, {"w.u16": b"hello\nWorld\n", "n.u16": b"new\n"}])
    ours = _checkout(source, tmp_path / "review", base, (),
                     "*.u16 text working-tree-encoding=UTF-16LE\n")
    code = main(["apply", "--git", f"{base}..{head}", "--root", str(ours), "--yes"])
    out = capsys.readouterr().out
    assert code == 1
    assert "git checks w.u16 out as UTF-16LE" in out
    assert "not_found" not in out
    assert _bytes(ours, "w.u16") == "hello\nworld\n".encode("utf-16-le")
    assert _bytes(ours, "n.u16") == "new\n".encode("utf-16-le")


def test_a_diff_changing_the_attributes_is_written_by_those_git_read_first(
        tmp_path: Path) -> None:
    """``git apply`` reads every attribute file before it writes any: a diff that adds
    ``*.yml text eol=lf`` under ``* text eol=crlf`` has its ``.yml`` files written CRLF
    (SqlServerDsc's history: 73 files written LF where git writes CRLF, exit 0)."""
    SETUPS["changed"] = ((), "")
    try:
        theirs, ours, errors, code, _ = _replayed(
            tmp_path,
            {".gitattributes": b"* text eol=crlf\n", "ci.yml": b"a: 1\nb: 2\n",
             "s.ps1": b"x\n"},
            {".gitattributes": b"* text eol=crlf\n*.yml text eol=lf\n",
             "ci.yml": b"a: 1\nb: 3\n", "s.ps1": b"x\ny\n", "new.yml": b"n: 1\n"}, "changed")
    finally:
        del SETUPS["changed"]
    assert not errors
    assert code == 0
    for name in (".gitattributes", "ci.yml", "s.ps1", "new.yml"):
        assert _bytes(ours, name) == _bytes(theirs, name), name
    assert _bytes(ours, "new.yml") == b"n: 1\r\n"


def _series(tmp_path: Path, steps: list[dict[str, bytes | None]],
            config: tuple[str, ...] = ("core.autocrlf=true",)) -> tuple[Path, Path]:
    """A ``format-patch`` series of the steps after the first, and a checkout of the
    first with ``config``."""
    source, commits = stored_commits(tmp_path / "source", steps)
    series = tmp_path / "series.mbox"
    series.write_bytes(git_bytes(source, "format-patch", "--stdout",
                                 f"{commits[0]}..{commits[-1]}"))
    return series, _checkout(source, tmp_path / "review", commits[0], config, "")


def test_a_later_turn_of_a_series_that_changes_a_conversion_is_refused(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``git am`` applies each patch by the attributes the earlier ones left: the review
    does not follow them, so a later turn's file is refused by name; the turn that
    changes them is written by the checkout's own."""
    series, ours = _series(tmp_path, [
        {"a.txt": b"a\n"},
        {".gitattributes": b"*.txt -text\n", "a.txt": b"a\nb\n"},
        {"a.txt": b"a\nb\nc\n", "n.txt": b"n\n"}])
    code = main(["apply", "--root", str(ours), "--yes", str(series)])
    out = capsys.readouterr().out
    assert code == 1
    assert "turn 1 of this session changes a .gitattributes" in out
    assert _bytes(ours, "a.txt") == b"a\r\nb\r\n"  # (turn 1, as git apply writes it)
    assert not (ours / "n.txt").exists()


def test_a_series_changing_attributes_but_no_conversion_is_written_whole(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    series, ours = _series(tmp_path, [
        {"a.txt": b"a\n"},
        {".gitattributes": b"*.md linguist-documentation\n", "a.txt": b"a\nb\n"},
        {"a.txt": b"a\nb\nc\n", "n.txt": b"n\n"}])
    code = main(["apply", "--root", str(ours), "--yes", str(series)])
    assert code == 0, capsys.readouterr().out
    assert _bytes(ours, "a.txt") == b"a\r\nb\r\nc\r\n"
    assert _bytes(ours, "n.txt") == b"n\r\n"


def test_text_auto_added_where_lf_is_native_holds_only_files_with_a_cr(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """No autocrlf, LF native: a series adding ``* text=auto`` can only make git read a
    later file's CRLF as LF; a later turn's LF files are written, its CRLF file refused."""
    series, ours = _series(tmp_path, [
        {"a.txt": b"a\n", "w.txt": b"w\r\nx\r\n"},
        {".gitattributes": b"* text=auto\n"},
        {"a.txt": b"a\nb\n", "w.txt": b"w\r\ny\r\n", "n.txt": b"n\n"}], ())
    code = main(["apply", "--root", str(ours), "--yes", str(series)])
    out = capsys.readouterr().out
    assert code == 1
    assert "this change of w.txt is not applied" in out
    assert "of a.txt is not applied" not in out
    assert _bytes(ours, "a.txt") == b"a\nb\n"
    assert _bytes(ours, "n.txt") == b"n\n"
    assert _bytes(ours, "w.txt") == b"w\r\nx\r\n"


@pytest.mark.parametrize("setup", ["autocrlf", "eol-crlf-all"])
def test_a_binary_patchs_new_file_is_checked_out_as_git_applies_it(
        tmp_path: Path, setup: str) -> None:
    """A ``GIT binary patch`` (a diff made where ``* binary`` holds) of a text-looking file
    and of one holding a NUL: git checks their bytes out by the target's rules too (under
    ``eol=crlf`` even the NUL one); the review wrote the patch's bytes (QA s55 helper-230
    R1)."""
    SETUPS["eol-crlf-all"] = ((), "* text eol=crlf\n")
    source, (base, head) = stored_commits(tmp_path / "source", [
        {"k.txt": b"k\n"}, {"k.txt": b"k\n", "n.txt": b"x\ny\n", "b.dat": b"P\0Q\nR\n"}])
    (source / ".git" / "info" / "attributes").write_text("* binary\n")
    diff = tmp_path / "change.diff"
    diff.write_bytes(git_bytes(source, "diff", "--binary", base, head))
    assert b"GIT binary patch" in diff.read_bytes()
    try:
        config, info = SETUPS[setup]
        theirs = _checkout(source, tmp_path / "git", base, config, info)
        ours = _checkout(source, tmp_path / "review", base, config, info)
    finally:
        del SETUPS["eol-crlf-all"]
    subprocess.run(["git", "apply", str(diff)], cwd=theirs, env=ENV, check=True)
    assert main(["apply", "--root", str(ours), "--yes", str(diff)]) == 0
    assert _bytes(ours, "n.txt") == _bytes(theirs, "n.txt") == b"x\r\ny\r\n"
    assert _bytes(ours, "b.dat") == _bytes(theirs, "b.dat")
    assert _bytes(ours, "b.dat") == (b"P\0Q\r\nR\r\n" if setup == "eol-crlf-all"
                                     else b"P\0Q\nR\n")


def test_renames_are_read_by_the_old_paths_rules_and_written_by_the_new_ones(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``*.txt text eol=crlf``: a renamed and edited ``.txt`` becomes a ``.md`` git reads
    as LF and writes LF; the review kept the CRLF. A pure rename between the two rules is
    refused by name (it moves the bytes as they are, git rewrites them); one within a rule
    is made."""
    text = b"".join(b"line %d of a file long enough to be found renamed\n" % n
                    for n in range(12))
    source, (base, head) = stored_commits(tmp_path / "source", [
        {"a.txt": text, "p.txt": text + b"p\n", "q.txt": text + b"q\n"},
        {"b.md": text.replace(b"line 5", b"LINE 5"), "p.md": text + b"p\n",
         "r.txt": text + b"q\n", "a.txt": None, "p.txt": None, "q.txt": None}])
    diff = tmp_path / "change.diff"
    diff.write_bytes(git_bytes(source, "diff", "-M", base, head))
    assert diff.read_bytes().count(b"rename from") == 3
    info = "*.txt text eol=crlf\n"
    theirs = _checkout(source, tmp_path / "git", base, (), info)
    ours = _checkout(source, tmp_path / "review", base, (), info)
    subprocess.run(["git", "apply", str(diff)], cwd=theirs, env=ENV, check=True)
    code = main(["apply", "--root", str(ours), "--yes", str(diff)])
    out = capsys.readouterr().out
    assert code == 1
    assert "git converts p.txt and p.md otherwise on this checkout" in out
    assert _bytes(ours, "b.md") == _bytes(theirs, "b.md")
    assert _bytes(ours, "b.md") == text.replace(b"line 5", b"LINE 5")
    assert _bytes(ours, "r.txt") == _bytes(theirs, "r.txt") == (text + b"q\n").replace(
        b"\n", b"\r\n")
    assert _bytes(ours, "p.txt") == (text + b"p\n").replace(b"\n", b"\r\n")  # (untouched)
    assert not (ours / "p.md").exists()
    assert _bytes(theirs, "p.md") == text + b"p\n"


def _attribute_case(tmp_path: Path) -> tuple[Path, Path, Path]:
    """A diff adding a rule to a ``.gitattributes`` (``* text eol=crlf`` stands above it)
    and changing two ``.txt`` files; a checkout for git apply and one for the review."""
    text = b"# rules\n* text eol=crlf\n#\n#\n#\n*.png binary\n"
    source, (base, head) = stored_commits(tmp_path / "source", [
        {".gitattributes": text, "g.txt": b"a\nb\nc\n"},
        {".gitattributes": text + b"*.txt eol=lf\n", "g.txt": b"a\nB\nc\n",
         "n.txt": b"1\n2\n"}])
    diff = tmp_path / "change.diff"
    diff.write_bytes(git_bytes(source, "diff", base, head))
    return (diff, _checkout(source, tmp_path / "git", base, (), ""),
            _checkout(source, tmp_path / "review", base, (), ""))


def test_your_uncommitted_attributes_are_read_as_git_apply_reads_them(
        tmp_path: Path) -> None:
    """A session changing a ``.gitattributes`` where your own change of it is not
    committed: git apply reads the working tree's rules (here ``n.txt -text`` added), the
    review read the index's and wrote CRLF, exit 0 (QA s55 helper-230 R2)."""
    diff, theirs, ours = _attribute_case(tmp_path)
    for root in (theirs, ours):
        path = root / ".gitattributes"
        # (the file is written CRLF: its own rule; line 3 is above the diff's context)
        was = path.read_bytes()
        path.write_bytes(was.replace(b"crlf\r\n#\r\n", b"crlf\r\nn.txt -text\r\n"))
        assert path.read_bytes() != was
    subprocess.run(["git", "apply", str(diff)], cwd=theirs, env=ENV, check=True)
    assert main(["apply", "--root", str(ours), "--yes", str(diff)]) == 0
    for name in (".gitattributes", "g.txt", "n.txt"):
        assert _bytes(ours, name) == _bytes(theirs, name), name
    assert _bytes(ours, "n.txt") == b"1\n2\n"


def test_a_review_reopened_after_writing_the_attributes_reads_the_rules_it_began_with(
        tmp_path: Path) -> None:
    """The review writes the session's ``.gitattributes`` change, closes, and is opened
    again: its files are still read by the rules the checkout was written by (the index's),
    not by the change it wrote, and end as git apply writes them."""
    from reviewtui.core.engine import Decision
    from reviewtui.shell import loader
    from reviewtui.shell.review import Review

    diff, theirs, ours = _attribute_case(tmp_path)
    subprocess.run(["git", "apply", str(diff)], cwd=theirs, env=ENV, check=True)
    with Review.open(diff, ours) as review:
        review.finish_evaluation()
        first = next(result.key for turn in review.draft.turns for result in turn.results
                     if getattr(result.op, "path", "") == ".gitattributes")
        review.decide(first, Decision.accept())
    assert _bytes(ours, ".gitattributes") == _bytes(theirs, ".gitattributes")
    loader._pinned.clear()  # (as a new process reads it: nothing known of the first)
    loader._adjust.pop(str(diff), None)
    with Review.open(diff, ours) as review:
        review.decide_many(review.applicable())
    for name in (".gitattributes", "g.txt", "n.txt"):
        assert _bytes(ours, name) == _bytes(theirs, name), name
    assert _bytes(ours, "n.txt") == b"1\r\n2\r\n"


@pytest.mark.parametrize("given", ["count", "global"])
def test_your_configuration_given_through_the_environment_is_read(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, given: str) -> None:
    """``core.autocrlf`` given through ``GIT_CONFIG_COUNT`` (as CI runners set it) or
    ``GIT_CONFIG_GLOBAL``: git apply converts by it, the review stripped every ``GIT_*``
    variable and wrote LF, exit 0 (QA s55 helper-230 R6); a filter set so stays off."""
    source, (base, head) = stored_commits(tmp_path / "source", [
        {"k.txt": b"k\n"}, {"k.txt": b"k\n", "n.txt": b"1\n2\n"}])
    diff = tmp_path / "change.diff"
    diff.write_bytes(git_bytes(source, "diff", base, head))
    ours = _checkout(source, tmp_path / "review", base, (), "* filter=evil\n")
    marker = tmp_path / "ran"
    settings = {"core.autocrlf": "true", "filter.evil.smudge": f"touch {marker}; cat",
                "filter.evil.clean": f"touch {marker}; cat"}
    if given == "count":
        monkeypatch.setenv("GIT_CONFIG_COUNT", str(len(settings)))
        for n, (key, value) in enumerate(settings.items()):
            monkeypatch.setenv(f"GIT_CONFIG_KEY_{n}", key)
            monkeypatch.setenv(f"GIT_CONFIG_VALUE_{n}", value)
    else:
        config = tmp_path / "gitconfig"
        config.write_text('[core]\n\tautocrlf = true\n[filter "evil"]\n'
                          f'\tsmudge = touch {marker}; cat\n\tclean = touch {marker}; cat\n')
        monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(config))
    monkeypatch.setenv("GIT_DIR", str(tmp_path / "elsewhere"))  # (still ignored)
    assert main(["apply", "--root", str(ours), "--yes", str(diff)]) == 0
    assert _bytes(ours, "n.txt") == b"1\r\n2\r\n"
    assert not marker.exists()


@pytest.mark.parametrize("autocrlf", ["true", "input"])
def test_a_series_is_written_as_git_am_writes_it(tmp_path: Path, autocrlf: str) -> None:
    """``git am`` patches the index's blob: a blob of mixed line endings, which the
    checkout leaves as it is, keeps them where the patch does not touch them; the review
    read the file as git apply reads it (as LF) and wrote it all CRLF, or all LF (QA s55
    helper-230 R4)."""
    mixed = b"a\r\nb\nc\nd\ne\nf\ng\nh\ni\nj\n"
    source, commits = stored_commits(tmp_path / "source", [
        {"f.txt": mixed}, {"f.txt": mixed.replace(b"h\n", b"H\n")}])
    series = tmp_path / "series.mbox"
    series.write_bytes(git_bytes(source, "format-patch", "--stdout",
                                 f"{commits[0]}..{commits[1]}"))
    config = (f"core.autocrlf={autocrlf}",)
    theirs = _checkout(source, tmp_path / "git", commits[0], config, "")
    ours = _checkout(source, tmp_path / "review", commits[0], config, "")
    git(theirs, "-c", "user.name=R", "-c", "user.email=r@example.com", "am", "-q",
        str(series))
    assert main(["apply", "--root", str(ours), "--yes", str(series)]) == 0
    assert _bytes(ours, "f.txt") == _bytes(theirs, "f.txt") == mixed.replace(b"h\n", b"H\n")


def test_a_series_naming_a_macro_in_its_attributes_holds_its_later_turns(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Turn 1 adds ``*.txt dos`` where ``[attr]dos text eol=crlf`` is defined above its
    context: git am writes turn 2's files CRLF, the review read no conversion in the
    change and wrote them LF, exit 0 (QA s55 helper-230 R3). Refused now, by name."""
    rules = b"[attr]dos text eol=crlf\n#1\n#2\n#3\n#4\n#5\n#6\n"
    series, ours = _series(tmp_path, [
        {".gitattributes": rules, "g.txt": b"a\nb\n"},
        {".gitattributes": rules + b"*.txt dos\n"},
        {"g.txt": b"a\nB\n", "n.txt": b"1\n2\n"}], ())
    assert main(["apply", "--root", str(ours), "--yes", str(series)]) == 1
    out = capsys.readouterr().out
    assert "turn 1 of this session changes a .gitattributes" in out
    assert _bytes(ours, "g.txt") == b"a\nb\n"
    assert not (ours / "n.txt").exists()


def test_a_binary_patch_of_a_converted_file_is_checked_against_what_git_reads(
        tmp_path: Path) -> None:
    """A ``GIT binary patch`` changing a text-looking file on an autocrlf checkout: the file
    on disk is CRLF, the patch's blob LF; git reads the file as LF, the blob matches, and
    it writes the result CRLF; the review refused it as "not the version the binary patch
    was made for" (QA s55 helper-230 R7)."""
    source, (base, head) = stored_commits(tmp_path / "source", [
        {"f.txt": b"a\nb\nc\nd\ne\nf\n"}, {"f.txt": b"a\nb\nC\nd\ne\nf\n"}])
    (source / ".git" / "info" / "attributes").write_text("* binary\n")
    diff = tmp_path / "change.diff"
    diff.write_bytes(git_bytes(source, "diff", "--binary", base, head))
    assert b"GIT binary patch" in diff.read_bytes()
    theirs = _checkout(source, tmp_path / "git", base, ("core.autocrlf=true",), "")
    ours = _checkout(source, tmp_path / "review", base, ("core.autocrlf=true",), "")
    subprocess.run(["git", "apply", str(diff)], cwd=theirs, env=ENV, check=True)
    assert main(["apply", "--root", str(ours), "--yes", str(diff)]) == 0
    assert _bytes(ours, "f.txt") == _bytes(theirs, "f.txt") == b"a\r\nb\r\nC\r\nd\r\ne\r\nf\r\n"


def _review_then(tmp_path: Path, between: Callable[[Path], None], *, old: bool = False,
                 monkeypatch: pytest.MonkeyPatch | None = None) -> tuple[Path, Path]:
    """A plain diff's review (an edit, a new file) accepted on a checkout with
    ``core.autocrlf=false`` and closed (``old``: by a reviewtui before the git rules, which
    saved none); ``between`` changes the checkout; then the review is opened again as a
    new process opens it. (Its root and session.)"""
    from reviewtui.shell import loader
    from reviewtui.shell.review import Review

    source, (base, head) = stored_commits(tmp_path / "source", [
        {"f.txt": b"a\nb\n"}, {"f.txt": b"a\nB\n", "n.txt": b"new\n"}])
    diff = tmp_path / "change.diff"
    diff.write_bytes(git_bytes(source, "diff", base, head))
    root = _checkout(source, tmp_path / "review", base, ("core.autocrlf=false",), "")
    if old and monkeypatch is not None:
        with monkeypatch.context() as patched:
            patched.setattr(loader, "with_git_rules", lambda loaded, *_: (loaded, None))
            with Review.open(diff, root) as review:
                review.decide_many(review.applicable())
    else:
        with Review.open(diff, root) as review:
            review.decide_many(review.applicable())
    assert (root / "n.txt").read_bytes() == b"new\n"
    between(root)
    loader._pinned.clear()
    loader._adjust.pop(str(diff), None)
    return root, diff


@pytest.mark.parametrize("change", ["autocrlf", "attributes"])
def test_a_review_reopened_after_the_rules_changed_keeps_its_decisions_and_files(
        tmp_path: Path, change: str) -> None:
    """The rules are saved with the review: read again from the configuration, a
    ``core.autocrlf`` set (or a ``.gitattributes`` made) between two sessions rewrote a
    file as the review opened and dropped its decisions, and rejecting no longer took its
    writes back (QA s55 helper-231 F1)."""
    from reviewtui.core.engine import Decision
    from reviewtui.shell.review import Review

    def between(root: Path) -> None:
        if change == "autocrlf":
            git(root, "config", "core.autocrlf", "true")
        else:
            (root / ".gitattributes").write_text("*.txt text eol=crlf\n")

    root, diff = _review_then(tmp_path, between)
    with Review.open(diff, root) as review:
        assert review.last_report is not None
        assert not review.last_report.written
        assert all(d.verdict == "accepted" for d in review.decisions.values())
        assert len(review.decisions) == 2
        assert (root / "n.txt").read_bytes() == b"new\n"
        review.decide_many([(key, Decision.reject()) for key in review.decisions])
    assert not (root / "n.txt").exists()
    assert (root / "f.txt").read_bytes() == b"a\nb\n"


def test_a_review_saved_before_the_git_rules_is_read_as_it_was_made(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A review saved by a reviewtui before the rules, on an autocrlf checkout, had written
    its new file LF: opening it rewrote the file CRLF, and rejecting it wrote it back
    instead of removing it (QA s55 helper-231 F2). It is read without them."""
    from reviewtui.core.engine import Decision
    from reviewtui.shell.review import Review

    root, diff = _review_then(tmp_path, lambda root: git(root, "config", "core.autocrlf",
                                                         "true"),
                              old=True, monkeypatch=monkeypatch)
    with Review.open(diff, root) as review:
        assert review.last_report is not None
        assert not review.last_report.written
        assert (root / "n.txt").read_bytes() == b"new\n"
        review.decide_many([(key, Decision.reject()) for key in review.decisions])
    assert not (root / "n.txt").exists()
    assert (root / "f.txt").read_bytes() == b"a\nb\n"


def test_an_exported_patch_carries_what_git_stores_for_a_new_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A new file written CRLF on an autocrlf checkout is exported as git stores it (LF):
    the patch applied and committed where the diff came from committed CRLF (QA s55
    helper-231 F3)."""
    source, (base, head) = stored_commits(tmp_path / "source", [
        {"k.txt": b"k\n"}, {"k.txt": b"k\n", "n.txt": b"new\nfile\n"}])
    diff = tmp_path / "change.diff"
    diff.write_bytes(git_bytes(source, "diff", base, head))
    ours = _checkout(source, tmp_path / "review", base, ("core.autocrlf=true",), "")
    state = tmp_path / "change.diff.review.json"
    assert main(["apply", "--root", str(ours), "--yes", "--state", str(state),
                 str(diff)]) == 0
    assert _bytes(ours, "n.txt") == b"new\r\nfile\r\n"
    out = tmp_path / "export.patch"
    assert main(["export", "--format", "patch", "--root", str(ours), "--state", str(state),
                 "--output", str(out), str(diff)]) == 0
    assert b"+new\n+file\n" in out.read_bytes()
    assert b"\r" not in out.read_bytes()


def test_a_fifo_for_attributes_does_not_hang_the_review(tmp_path: Path) -> None:
    """An untracked FIFO at ``.gitattributes`` (a crafted project): ``git check-attr``
    waited on it forever and ``check`` with it (QA s55 helper-231 F5; git apply hangs
    too). The rules are not asked for: the diff is read as it is."""
    import os
    import sys

    source, (base, head) = stored_commits(tmp_path / "source", [
        {"f.txt": b"a\n"}, {"f.txt": b"a\nb\n"}])
    diff = tmp_path / "change.diff"
    diff.write_bytes(git_bytes(source, "diff", base, head))
    ours = _checkout(source, tmp_path / "review", base, ("core.autocrlf=true",), "")
    os.mkfifo(ours / ".gitattributes")
    done = subprocess.run([sys.executable, "-m", "reviewtui", "check", "--root", str(ours),
                           str(diff)], capture_output=True, text=True, timeout=60,
                          check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "f.txt · Edit 1: applied" in done.stdout


def test_check_reads_a_plain_diff_as_apply_does(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``check`` evaluates as ``apply`` writes: the CRLF a new file gets is said, and an
    operation apply refuses by a git rule is refused there too (check said "applied" and
    exited 0 where apply exited 1)."""
    source, (base, head) = stored_commits(tmp_path / "source", [
        {"f.txt": b"a\nb\nc\n"}, {"f.txt": b"a\nb\r\nc\n", "n.txt": b"new\n"}])
    diff = tmp_path / "change.diff"
    diff.write_bytes(git_bytes(source, "diff", base, head))
    ours = _checkout(source, tmp_path / "review", base, ("core.autocrlf=true",), "")
    assert main(["check", "--root", str(ours), str(diff)]) == 1
    out = capsys.readouterr().out
    assert "refused (rule git-apply-endings)" in out
    assert "written with CRLF line endings, as git apply writes it" in out
    assert main(["apply", "--root", str(ours), "--yes", str(diff)]) == 1
