"""Threat: ``--state`` aimed at something that is not a review state.

A device, FIFO, folder or symbolic link at the state path is a usage error (exit 2, one
line) before anything is read or written, and the state writer checks again before it
replaces what is at the path.
"""

from __future__ import annotations

import os
import stat
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from hostile_statekit import write_markdown_session

from reviewtui.cli import main
from reviewtui.core.errors import DiskError, UsageError
from reviewtui.shell.state import ReviewState, StateFile, check_state_path


def _device(path: Path) -> None:
    if os.geteuid() != 0:  # mknod needs root; a link to /dev/null is the nearest thing
        path.symlink_to("/dev/null")
        return
    os.mknod(path, 0o600 | stat.S_IFCHR, os.makedev(1, 3))


def _folder(path: Path) -> None:
    path.mkdir()


def _link_to_device(path: Path) -> None:
    path.symlink_to("/dev/null")


def _link_to_file(path: Path) -> None:
    target = path.with_name("elsewhere.json")
    target.write_text("{}")
    path.symlink_to(target)


def _fingerprint(path: Path) -> tuple[int, str]:
    info = os.lstat(path)
    return info.st_mode, os.readlink(path) if stat.S_ISLNK(info.st_mode) else ""


@pytest.mark.parametrize("make", [_device, _folder, _link_to_device, _link_to_file],
                         ids=["device", "folder", "link-to-device", "link-to-file"])
@pytest.mark.parametrize("command", ["apply", "restore", "export"])
def test_state_that_is_not_a_regular_file_is_a_usage_error(
    arena: Any, make: Callable[[Path], None], command: str,
    capsys: pytest.CaptureFixture[str],
) -> None:
    (arena.root / "a.txt").write_text("a\n")
    session = write_markdown_session(arena.work / "s.md", [[("a.txt", "a", "b")]])
    state = arena.work / "state.json"
    make(state)
    before = _fingerprint(state)
    argv = {"apply": ["apply", str(session), "--root", str(arena.root), "--yes"],
            "restore": ["restore", str(session), "--root", str(arena.root),
                        "--checkpoint", "0", "--yes"],
            "export": ["export", str(session), "--root", str(arena.root),
                       "--format", "json"]}[command]
    code = main([*argv, "--state", str(state)])
    err = capsys.readouterr().err
    assert code == 2
    assert len(err.strip().splitlines()) == 1
    assert "must be a regular file or not exist" in err
    assert _fingerprint(state) == before
    assert (arena.root / "a.txt").read_text() == "a\n"


def test_a_fifo_state_is_refused_without_hanging(arena: Any) -> None:
    (arena.root / "a.txt").write_text("a\n")
    session = write_markdown_session(arena.work / "s.md", [[("a.txt", "a", "b")]])
    fifo = arena.work / "state.json"
    os.mkfifo(fifo)
    done = subprocess.run(
        [sys.executable, "-m", "reviewtui", "apply", str(session), "--root", str(arena.root),
         "--yes", "--state", str(fifo)], capture_output=True, text=True, timeout=120,
        stdin=subprocess.DEVNULL)
    assert done.returncode == 2
    assert "this is a FIFO" in done.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert (arena.root / "a.txt").read_text() == "a\n"


def test_the_state_writer_checks_again(arena: Any) -> None:
    state = arena.work / "state.json"
    writer = StateFile(state)
    state.mkdir()  # appeared after the command line was checked
    with pytest.raises(DiskError, match="regular file or not exist"):
        writer.save(ReviewState(), arena.work / "s.md")
    assert state.is_dir()


def test_a_regular_or_absent_state_is_fine(arena: Any) -> None:
    absent = arena.work / "new.json"
    assert check_state_path(absent) == absent
    absent.write_text("{}")
    assert check_state_path(absent) == absent
    with pytest.raises(UsageError, match="this is a folder"):
        check_state_path(arena.work)


def test_a_shipped_default_state_that_is_a_link_is_refused(arena: Any) -> None:
    from reviewtui.shell.review import Review

    (arena.root / "a.txt").write_text("a\n")
    session = write_markdown_session(arena.work / "s.md", [[("a.txt", "a", "b")]])
    session.with_name("s.md.review.json").symlink_to(arena.canary)
    with pytest.raises(UsageError, match="this is a symbolic link"):
        Review.open(session, arena.root)
    assert (arena.root / "a.txt").read_text() == "a\n"
