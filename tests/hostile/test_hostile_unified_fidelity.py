"""Threat: a unified diff applied differently from ``git apply`` (a quiet wrong result).

Before: a diff creating a CRLF file wrote it with LF endings, and a mode change (old mode /
new mode) was dropped with only an info line. Both now reach the disk as git writes them;
the arena checks nothing outside the root changed.
"""

from __future__ import annotations

import os
import stat
import subprocess

import pytest
from disk_threat_kit import Arena

from reviewtui.cli import main

CRLF_NEW = ("diff --git a/win.bat b/win.bat\nnew file mode 100644\n--- /dev/null\n"
            "+++ b/win.bat\n@@ -0,0 +1,2 @@\n+@echo off\r\n+echo hi\r\n")
MODE_ONLY = "diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n"
NEW_EXECUTABLE = ("diff --git a/tool.sh b/tool.sh\nnew file mode 100755\n--- /dev/null\n"
                  "+++ b/tool.sh\n@@ -0,0 +1,2 @@\n+#!/bin/sh\r\n+echo tool\r\n")
MODE_AND_EDIT = ("diff --git a/run.sh b/run.sh\nold mode 100644\nnew mode 100755\n"
                 "--- a/run.sh\n+++ b/run.sh\n@@ -1 +1 @@\n-echo run\n+echo ran\n")


def _apply(arena: Arena, text: str | bytes, capsys: pytest.CaptureFixture[str]) -> int:
    patch = arena.work / "change.diff"
    # byte for byte: the CRs are the point
    patch.write_bytes(text if isinstance(text, bytes) else text.encode())
    capsys.readouterr()
    code = main(["apply", str(patch), "--format", "unified", "--yes", "--root", str(arena.root)])
    capsys.readouterr()
    return code


def _refused(arena: Arena, diff: bytes, capsys: pytest.CaptureFixture[str]) -> str:
    """Apply ``diff``; it must exit 1 (something not applied). What it printed."""
    patch = arena.work / "change.diff"
    patch.write_bytes(diff)
    capsys.readouterr()
    code = main(["apply", str(patch), "--format", "unified", "--yes", "--root", str(arena.root)])
    out = capsys.readouterr().out
    assert code == 1, out
    return out


def _mode(path: os.PathLike[str]) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_a_new_crlf_file_keeps_its_crs(arena: Arena, capsys: pytest.CaptureFixture[str]) -> None:
    assert _apply(arena, CRLF_NEW, capsys) == 0
    assert (arena.root / "win.bat").read_bytes() == b"@echo off\r\necho hi\r\n"


def test_a_mode_change_reaches_the_disk(arena: Arena, capsys: pytest.CaptureFixture[str]) -> None:
    (arena.root / "run.sh").write_bytes(b"echo run\n")
    os.chmod(arena.root / "run.sh", 0o644)
    assert _apply(arena, MODE_ONLY, capsys) == 0
    assert _mode(arena.root / "run.sh") == 0o755
    assert (arena.root / "run.sh").read_bytes() == b"echo run\n"


def test_a_mode_change_with_an_edit_keeps_both(
        arena: Arena, capsys: pytest.CaptureFixture[str]) -> None:
    (arena.root / "run.sh").write_bytes(b"echo run\n")
    os.chmod(arena.root / "run.sh", 0o644)
    assert _apply(arena, MODE_AND_EDIT, capsys) == 0
    assert (arena.root / "run.sh").read_bytes() == b"echo ran\n"
    assert _mode(arena.root / "run.sh") == 0o755


def test_a_new_executable_crlf_file_keeps_mode_and_crs(
        arena: Arena, capsys: pytest.CaptureFixture[str]) -> None:
    assert _apply(arena, NEW_EXECUTABLE, capsys) == 0
    assert (arena.root / "tool.sh").read_bytes() == b"#!/bin/sh\r\necho tool\r\n"
    assert _mode(arena.root / "tool.sh") == 0o755


NEW_NOTES = ("diff --git a/a.txt b/a.txt\nnew file mode 100644\n--- /dev/null\n"
             "+++ b/a.txt\n@@ -0,0 +1 @@\n+from the diff\n")


def test_a_new_file_diff_does_not_overwrite_a_file_that_exists(
        arena: Arena, capsys: pytest.CaptureFixture[str]) -> None:
    """A diff creating ``a.txt`` where ``a.txt`` holds other work: it was overwritten with
    exit 0 (``git apply``: "already exists in working directory"); now it is refused
    (``new-file-exists``), and the file keeps its content (helper-80, repro-5)."""
    (arena.root / "a.txt").write_bytes(b"precious local work\n")
    out = _refused(arena, NEW_NOTES.encode(), capsys)
    assert "exists with other content" in out
    assert (arena.root / "a.txt").read_bytes() == b"precious local work\n"


def test_a_new_file_diff_over_the_same_content_is_no_change(
        arena: Arena, capsys: pytest.CaptureFixture[str]) -> None:
    (arena.root / "a.txt").write_bytes(b"from the diff\n")
    assert _apply(arena, NEW_NOTES, capsys) == 0
    assert (arena.root / "a.txt").read_bytes() == b"from the diff\n"


DELETE_NOTES = ("diff --git a/a.txt b/a.txt\ndeleted file mode 100644\nindex 4cb29ea..0000000\n"
                "--- a/a.txt\n+++ /dev/null\n@@ -1,3 +0,0 @@\n-one\n-two\n-three\n")


@pytest.mark.parametrize("content", [b"one\ntwo LOCAL EDIT\nthree\n", b"one\ntwo\n"])
def test_a_deletion_diff_does_not_remove_a_file_that_changed(
        arena: Arena, capsys: pytest.CaptureFixture[str], content: bytes) -> None:
    """A diff deleting ``a.txt`` as it was, applied where ``a.txt`` holds other lines: it
    was removed with exit 0 (``git apply`` and ``patch`` refuse; helper-80, repro-4); now it
    is refused (``stale-delete``) and the file stays."""
    (arena.root / "a.txt").write_bytes(content)
    assert "with other content" in _refused(arena, DELETE_NOTES.encode(), capsys)
    assert (arena.root / "a.txt").read_bytes() == content


@pytest.mark.parametrize("content", [b"one\ntwo\nthree\n", b"one\r\ntwo\r\nthree\r\n"])
def test_a_deletion_diff_removes_the_file_it_names(
        arena: Arena, capsys: pytest.CaptureFixture[str], content: bytes) -> None:
    (arena.root / "a.txt").write_bytes(content)
    assert _apply(arena, DELETE_NOTES, capsys) == 0
    assert not (arena.root / "a.txt").exists()


@pytest.mark.parametrize(("before", "after"), [
    (b"x\r", b"y\r"), (b"a\nx\r", b"a\ny\r"), (b"a\r\nb\r\nx\r", b"a\r\nb\r\ny\r"),
    (b"a\nx\r", b"a\nx\r\n"), (b"a\nb\nx\r", b"a\nb2\nx\r"),
    # A line ending in CR CR LF (QA pass s28): its own CR is content, which the matcher
    # dropped as a stray line ending: a removed CR "applied" with the file unchanged, and
    # an added line next to such a line lost its trailing blanks, exit 0.
    (b"a\r\r\nb\n", b"a\r\nb\n"), (b"x\nx\nv\nq\r\r\n", b"x\n  t  \nv\nq\r\r\n"),
    (b"x\r\nx\r\nv\r\nq\r\r\n", b"x\r\n\tt\t\r\nv\r\nq\r\r\n"),
    (b"a\nb\n", b"a\nb\r\r\n")])
def test_a_last_line_ending_in_a_lone_cr_is_refused_not_mangled(
        arena: Arena, capsys: pytest.CaptureFixture[str], before: bytes, after: bytes) -> None:
    """A file whose last line ends in a bare CR with no newline after it: an edit of it was
    written without the CR (``x\\r`` -> ``y``, exit 0; helper-80, repro-2); it is refused
    (``diff-lone-cr``) and the file stays as it was. The diff is git's own."""
    old, new = arena.work / "old" / "f", arena.work / "new" / "f"
    for path, data in ((old, before), (new, after)):
        path.parent.mkdir()
        path.write_bytes(data)
    diff = subprocess.run(["git", "diff", "--no-index", "--", "old/f", "new/f"],
                          cwd=arena.work, capture_output=True, check=False).stdout
    diff = diff.replace(b"a/old/f", b"a/f").replace(b"b/new/f", b"b/f")
    (arena.root / "f").write_bytes(before)
    assert "diff-lone-cr" in _refused(arena, diff, capsys)
    assert (arena.root / "f").read_bytes() == before


def test_a_deletion_diff_leaves_a_link_or_binary_file_that_changed(
        arena: Arena, capsys: pytest.CaptureFixture[str]) -> None:
    """git's own diff deleting link ``l2 -> a`` and binary ``x.bin``, applied where ``l2``
    points elsewhere and ``x.bin`` holds other bytes: both were removed, exit 0 (git apply:
    "does not match the current contents"; helper-80 repro-6). The link's target is the
    diff's deleted line; the binary file is checked by the index line's blob id."""
    work = arena.work / "git"
    work.mkdir()
    (work / "a").write_text("a\n")
    os.symlink("a", work / "l2")
    (work / "x.bin").write_bytes(b"\0\1\2binary-v1")
    git = ["git", "-c", "user.name=t", "-c", "user.email=t@t", "-c", "core.autocrlf=false"]
    subprocess.run([*git, "init", "-q"], cwd=work, check=True)
    subprocess.run([*git, "add", "-A"], cwd=work, check=True)
    subprocess.run([*git, "commit", "-qm", "base"], cwd=work, check=True)
    subprocess.run([*git, "rm", "-q", "l2", "x.bin"], cwd=work, check=True)
    diff = subprocess.run([*git, "diff", "--cached", "--binary"], cwd=work, check=True,
                          capture_output=True).stdout
    os.symlink("mine", arena.root / "l2")
    (arena.root / "x.bin").write_bytes(b"\0\1\2binary-LOCAL")
    assert _refused(arena, diff, capsys).count("with other content") == 2
    assert os.readlink(arena.root / "l2") == "mine"
    assert (arena.root / "x.bin").read_bytes() == b"\0\1\2binary-LOCAL"
    os.unlink(arena.root / "l2")  # as the diff's base: both removed
    os.symlink("a", arena.root / "l2")
    (arena.root / "x.bin").write_bytes(b"\0\1\2binary-v1")
    assert _apply(arena, diff, capsys) == 0
    assert not os.path.lexists(arena.root / "l2")
    assert not (arena.root / "x.bin").exists()


@pytest.mark.parametrize(("there", "applies"), [("mine", False), ("a", True), ("b", True)])
def test_a_link_retarget_needs_the_link_the_diff_names(
        arena: Arena, capsys: pytest.CaptureFixture[str], there: str, applies: bool) -> None:
    """git's diff retargeting ``l`` from ``a`` to ``b``, where ``l`` points to ``there``:
    ``mine`` was retargeted anyway, exit 0 (helper-80, repro-6); now only ``a`` (or ``b``,
    already done) takes it."""
    diff = (b"diff --git a/l b/l\nindex 2e65efe..63d8dbd 120000\n--- a/l\n+++ b/l\n"
            b"@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n"
            b"\\ No newline at end of file\n")
    os.symlink(there, arena.root / "l")
    if applies:
        assert _apply(arena, diff, capsys) == 0
        assert os.readlink(arena.root / "l") == "b"
    else:
        assert "it is not retargeted" in _refused(arena, diff, capsys)
        assert os.readlink(arena.root / "l") == there


def test_a_bom_file_is_deleted_and_a_bom_new_file_is_not_taken_as_there(
        arena: Arena, capsys: pytest.CaptureFixture[str]) -> None:
    """A file starting with a UTF-8 BOM: its deletion diff names the BOM in its first line,
    and the file's lines come without it (refused as stale, helper-81); a new-file diff
    with a BOM over the same text without one is not "no change"."""
    (arena.root / "f").write_bytes(b"\xef\xbb\xbfa\nb\n")
    deletion = ("diff --git a/f b/f\ndeleted file mode 100644\nindex 1111111..0000000\n"
                "--- a/f\n+++ /dev/null\n@@ -1,2 +0,0 @@\n-\ufeffa\n-b\n")
    assert _apply(arena, deletion, capsys) == 0
    assert not (arena.root / "f").exists()
    (arena.root / "n").write_bytes(b"a\nb\n")
    creation = ("diff --git a/n b/n\nnew file mode 100644\nindex 0000000..1111111\n"
                "--- /dev/null\n+++ b/n\n@@ -0,0 +1,2 @@\n+\ufeffa\n+b\n")
    assert "exists with other content" in _refused(arena, creation.encode(), capsys)
    assert (arena.root / "n").read_bytes() == b"a\nb\n"


def test_a_link_deletion_diff_leaves_a_regular_file_of_the_same_text(
        arena: Arena, capsys: pytest.CaptureFixture[str]) -> None:
    """A diff deleting the link ``l -> a``, where ``l`` is a regular file holding ``a``:
    the file was removed, exit 0 (the blob id and the text are the same; git apply: "wrong
    type"; helper-81 repro-9)."""
    (arena.root / "l").write_bytes(b"a")
    diff = (b"diff --git a/l b/l\ndeleted file mode 120000\nindex 2e65efe..0000000\n"
            b"--- a/l\n+++ /dev/null\n@@ -1 +0,0 @@\n-a\n\\ No newline at end of file\n")
    assert "is a file: it is not removed" in _refused(arena, diff, capsys)
    assert (arena.root / "l").read_bytes() == b"a"


@pytest.mark.parametrize("there", [b"a\r\nb\r\n", b"a\nb\n"], ids=["crlf-checkout", "lf"])
def test_a_short_deletion_diff_removes_a_crlf_checkout_of_its_blob(
        arena: Arena, capsys: pytest.CaptureFixture[str], there: bytes) -> None:
    """``git diff -D`` names the deleted file by its blob id alone, and git stores text as
    LF: a file checked out with CRLF (``eol=crlf``, ``core.autocrlf``) is that blob. It
    was refused as changed since (QA pass 82, repro-10), while the full diff of the same
    deletion applied. A file with other text is still refused."""
    blob = subprocess.run(["git", "hash-object", "--stdin"], input=b"a\nb\n",
                          capture_output=True, check=True).stdout.decode().strip()
    diff = (f"diff --git a/f.txt b/f.txt\ndeleted file mode 100644\nindex {blob[:7]}..0000000\n"
            ).encode()
    (arena.root / "f.txt").write_bytes(b"a\r\nB\r\n")
    assert "with other content" in _refused(arena, diff, capsys)
    assert (arena.root / "f.txt").exists()
    (arena.root / "f.txt").write_bytes(there)
    assert _apply(arena, diff, capsys) == 0
    assert not (arena.root / "f.txt").exists()


@pytest.mark.parametrize(("there", "applies"), [(b"x\r\ny\r\n", False), (b"x\ny\n", True)],
                         ids=["crlf", "same-bytes"])
def test_a_new_file_diff_over_the_same_text_in_crlf_is_not_no_change(
        arena: Arena, capsys: pytest.CaptureFixture[str], there: bytes, applies: bool) -> None:
    """A new-file diff of ``x\\ny\\n`` where ``n`` holds ``x\\r\\ny\\r\\n``: it was "no change",
    exit 0, the file left in bytes other than the diff's (QA pass 82, repro-9; git apply:
    already exists). Refused as an existing file with other content, as a BOM is; the
    very bytes are still no change."""
    (arena.root / "n").write_bytes(there)
    creation = (b"diff --git a/n b/n\nnew file mode 100644\nindex 0000000..1111111\n"
                b"--- /dev/null\n+++ b/n\n@@ -0,0 +1,2 @@\n+x\n+y\n")
    if applies:
        assert _apply(arena, creation, capsys) == 0
    else:
        assert "exists with other content" in _refused(arena, creation, capsys)
    assert (arena.root / "n").read_bytes() == there
