"""Threat: the root's lock file as a way to clobber another file.

Locks live in a private per-user folder that is checked on every use; the lock file is
opened without following links and must be a regular file.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

import pytest

from reviewtui.core.errors import DiskError
from reviewtui.shell.lock import RootLock, lock_dir, lock_file_for


@pytest.fixture
def temp_dir(arena: Any, monkeypatch: pytest.MonkeyPatch) -> Path:
    """A temp dir of the test's own (in arena.work), and no XDG_RUNTIME_DIR."""
    temp = arena.work / "tmp"
    temp.mkdir()
    monkeypatch.delenv("XDG_RUNTIME_DIR", raising=False)
    monkeypatch.setattr(tempfile, "tempdir", str(temp))
    return temp


def test_a_planted_symlink_at_the_lock_path_is_refused_not_followed(
    arena: Any, temp_dir: Path
) -> None:
    lock_path = lock_file_for(arena.root)
    lock_path.parent.mkdir(mode=0o700, exist_ok=True)
    lock_path.symlink_to(arena.canary)  # an attacker's link to a file the user owns
    with pytest.raises(DiskError, match="symbolic link"):
        RootLock(arena.root).acquire()
    assert lock_path.is_symlink()  # the arena checks the canary is untouched


def test_a_fifo_at_the_lock_path_is_refused(arena: Any, temp_dir: Path) -> None:
    lock_path = lock_file_for(arena.root)
    os.mkfifo(lock_path)
    with pytest.raises(DiskError, match="not a regular file"):
        RootLock(arena.root).acquire()


def test_locks_live_in_a_private_folder_of_ours(arena: Any, temp_dir: Path) -> None:
    with RootLock(arena.root) as lock:
        folder = lock.path.parent
        assert folder == temp_dir / f"reviewtui-{os.getuid()}"
        info = os.lstat(folder)
        assert (info.st_mode & 0o777, info.st_uid) == (0o700, os.getuid())


def test_a_lock_folder_that_is_a_symlink_is_refused(arena: Any, temp_dir: Path) -> None:
    (temp_dir / f"reviewtui-{os.getuid()}").symlink_to(arena.canary_dir)
    with pytest.raises(DiskError, match="symbolic link"):
        RootLock(arena.root).acquire()


def test_a_lock_folder_others_can_enter_is_refused(arena: Any, temp_dir: Path) -> None:
    folder = temp_dir / f"reviewtui-{os.getuid()}"
    folder.mkdir()
    folder.chmod(0o777)
    with pytest.raises(DiskError, match="mode is 777"):
        lock_dir()


@pytest.mark.skipif(os.geteuid() != 0, reason="LOUD: needs root to give the folder away")
def test_a_lock_folder_owned_by_someone_else_is_refused(arena: Any, temp_dir: Path) -> None:
    folder = temp_dir / f"reviewtui-{os.getuid()}"
    folder.mkdir(mode=0o700)
    os.chown(folder, 4242, 4242)
    with pytest.raises(DiskError, match="belongs to uid 4242"):
        lock_dir()


def test_runtime_dir_is_used_only_when_private(
    arena: Any, temp_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    runtime = arena.work / "run"
    runtime.mkdir(mode=0o700)
    runtime.chmod(0o700)
    monkeypatch.setenv("XDG_RUNTIME_DIR", str(runtime))
    assert lock_dir() == runtime / "reviewtui"
    runtime.chmod(0o755)  # shared: not good enough for locks
    assert lock_dir() == temp_dir / f"reviewtui-{os.getuid()}"
