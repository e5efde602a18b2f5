"""Atomic writes, root confinement, replay with content guards, and session loading."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from reviewtui.core.errors import DiskError, SessionFormatError
from reviewtui.shell.disk import atomic_write, remove_file, scratch_copy
from reviewtui.shell.loader import load_session
from reviewtui.shell.snapshot import read_snapshot


def test_atomic_write_creates_dirs_keeps_mode_and_skips_identical(tmp_path: Path) -> None:
    assert atomic_write(tmp_path, "a/b/run.sh", b"echo 1\n", 0o755)
    target = tmp_path / "a/b/run.sh"
    assert target.read_bytes() == b"echo 1\n"
    assert target.stat().st_mode & 0o777 == 0o755
    before = target.stat().st_ino
    assert not atomic_write(tmp_path, "a/b/run.sh", b"echo 1\n", 0o755)
    assert target.stat().st_ino == before  # identical bytes: not rewritten
    assert atomic_write(tmp_path, "a/b/run.sh", b"echo 2\n")
    assert target.stat().st_mode & 0o777 == 0o755  # mode kept when not given
    assert not [p for p in target.parent.iterdir() if p.name.endswith(".reviewtui-tmp")]


def test_write_never_goes_through_a_symlink(tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    root = tmp_path / "root"
    root.mkdir()
    (root / "link").symlink_to(outside)
    with pytest.raises(DiskError) as info:
        atomic_write(root, "link/evil.txt", b"x")
    assert info.value.rule == "symlink"
    assert not (outside / "evil.txt").exists()


def test_failed_write_leaves_old_content_and_no_temp_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    (tmp_path / "f.txt").write_bytes(b"old")

    def broken_replace(src: str, dst: str, **dir_fds: int) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", broken_replace)
    with pytest.raises(DiskError) as info:
        atomic_write(tmp_path, "f.txt", b"new")
    assert "No space left" in str(info.value)
    assert (tmp_path / "f.txt").read_bytes() == b"old"
    assert [p.name for p in tmp_path.iterdir()] == ["f.txt"]


def test_remove_prunes_emptied_folders(tmp_path: Path) -> None:
    atomic_write(tmp_path, "a/b/c.txt", b"x")
    atomic_write(tmp_path, "a/keep.txt", b"y")
    assert remove_file(tmp_path, "a/b/c.txt")
    assert not (tmp_path / "a/b").exists()
    assert (tmp_path / "a/keep.txt").exists()
    assert not remove_file(tmp_path, "a/b/c.txt")


def test_snapshot_skips_vcs_and_records_links(tmp_path: Path) -> None:
    atomic_write(tmp_path, "src/a.py", b"x")
    atomic_write(tmp_path, ".git/HEAD", b"ref")
    (tmp_path / "ln").symlink_to("src/a.py")
    snap = read_snapshot(tmp_path)
    assert sorted(snap.files) == ["src/a.py"]
    assert snap.symlinks == {"ln": "src/a.py"}


def test_scratch_copy_is_a_new_folder(tmp_path: Path) -> None:
    atomic_write(tmp_path, "x/y.txt", b"y")
    copy = scratch_copy(tmp_path, "t")
    assert copy != tmp_path
    assert (copy / "x/y.txt").read_bytes() == b"y"


def test_load_session_directory_and_errors(tmp_path: Path) -> None:
    (tmp_path / "base").mkdir()
    (tmp_path / "session.md").write_text("## Turn 1\n:rm a\n")
    loaded = load_session(tmp_path)
    assert loaded.base == tmp_path / "base"
    assert loaded.file == tmp_path / "session.md"
    assert len(loaded.session.turns) == 1
    with pytest.raises(SessionFormatError) as info:
        load_session(tmp_path / "base")
    assert info.value.rule == "session-dir"
    bad = tmp_path / "bad.md"
    bad.write_bytes(b"## Turn 1\nok\n\xff\xfe\n")
    with pytest.raises(SessionFormatError) as info:
        load_session(bad)
    assert (info.value.rule, info.value.line) == ("encoding", 3)
    # the bad byte's value and its column on that line (it said "byte 13": the offset in
    # the file, read as a column or a value: QA s32)
    assert "byte 0xFF at column 1" in info.value.message
    first = tmp_path / "first.diff"  # a diff whose first line is its file's header
    first.write_bytes(b"diff --git a/c.rst b/c.rst\n--- a/c.rst\n+++ b/c.rst\n"
                      b"@@ -1 +1 @@\n-Ren\xe9\n+Ren\xc3\xa9\n")
    # (a diff whose file is not UTF-8 text is read, that file's change left out and said:
    # tests/shell/test_diff_not_utf8.py)
    (turn,) = load_session(first).session.turns
    (note,) = turn.reply.problems
    assert (note.rule, note.span.start) == ("diff-not-utf8", 1)
    assert "'c.rst' is not UTF-8 text (byte 0xE9 at line 5)" in note.message
    with pytest.raises(SessionFormatError) as info:
        load_session(tmp_path / "nope.md")
    assert info.value.rule == "missing"


def test_a_folder_where_a_file_is_read_says_so(tmp_path: Path) -> None:
    """Python will not make a file object of a folder: the read failed as "cannot read: Is
    a directory" (rule ``unreadable``), and the replay's own handling of a folder in the
    way (rule ``directory``) never ran."""
    from reviewtui.shell.disk import read_file

    (tmp_path / "m").mkdir()
    with pytest.raises(DiskError) as raised:
        read_file(tmp_path, "m")
    assert raised.value.rule == "directory"
    assert "a folder is in the way" in str(raised.value)
