"""One workbench per root: the lock names its holder and dies with it."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from diskkit import Ed, make_project, write_session
from reviewtui.cli import main
from reviewtui.core.errors import LockedError, ReviewtuiError
from reviewtui.shell.lock import RootLock, lock_file_for
from reviewtui.shell.review import Review

HOLD = textwrap.dedent("""
    import sys, time
    from pathlib import Path
    from reviewtui.shell.lock import RootLock
    RootLock(Path(sys.argv[1])).acquire()
    print("locked", flush=True)
    time.sleep(60)
""")


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, Path]:
    session = write_session(tmp_path / "s", [[Ed("a.txt", "a", "b")]])
    return session, make_project(tmp_path / "proj", {"a.txt": "a\n"})


def test_second_open_names_the_first_pid(project: tuple[Path, Path]) -> None:
    session, root = project
    first = Review.open(session, root)
    try:
        with pytest.raises(LockedError) as info:
            Review.open(session, root / ".")  # another spelling of the same root
        assert isinstance(info.value, ReviewtuiError)
        assert info.value.pid == os.getpid()
        assert f"already open in another reviewtui (pid {os.getpid()})" in str(info.value)
        assert str(root) in str(info.value)
    finally:
        first.close()
    with Review.open(session, root) as second:  # released on close
        assert second.decisions == {}


def test_lock_file_lives_outside_the_project(project: tuple[Path, Path]) -> None:
    _, root = project
    with RootLock(root) as lock:
        assert lock.held
        assert root.resolve() not in lock.path.resolve().parents
        assert lock.path == lock_file_for(root)
        assert lock.path.read_text().split("\n")[0] == str(os.getpid())
    assert not lock.path.exists()  # a clean release leaves nothing behind
    assert sorted(p.name for p in root.iterdir()) == ["a.txt"]


def test_lock_of_a_killed_process_is_released(project: tuple[Path, Path]) -> None:
    session, root = project
    with subprocess.Popen([sys.executable, "-c", HOLD, str(root)], stdout=subprocess.PIPE,
                          text=True) as child:
        try:
            assert child.stdout is not None
            assert child.stdout.readline().strip() == "locked"
            with pytest.raises(LockedError) as info:
                Review.open(session, root)
            assert info.value.pid == child.pid
        finally:
            child.send_signal(signal.SIGKILL)
            child.wait()
    with Review.open(session, root) as review:  # flock died with the process
        assert review.root == root


def test_apply_refuses_a_locked_root(project: tuple[Path, Path],
                                     capsys: pytest.CaptureFixture[str]) -> None:
    session, root = project
    with Review.open(session, root):
        code = main(["apply", str(session), "--root", str(root), "--yes"])
    assert code == 2
    assert f"(pid {os.getpid()})" in capsys.readouterr().err
    assert (root / "a.txt").read_text() == "a\n"


def test_lock_file_is_rewritten_in_place_never_truncated_to_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A stale, longer lock file ends as exactly this process's pid and root; and the file
    is never cut to zero bytes first (on ext4 that makes the release's close() wait for
    the disk)."""
    root = tmp_path / "root"
    root.mkdir()
    lock = RootLock(root)
    lock.path.write_bytes(b"99999999\n/some/much/longer/stale/root/than/this/one\n" * 3)
    sizes: list[int] = []
    real = os.ftruncate

    def recording(fd: int, size: int) -> None:
        sizes.append(size)
        real(fd, size)

    monkeypatch.setattr(os, "ftruncate", recording)
    with lock:
        assert lock.path.read_bytes() == f"{os.getpid()}\n{root.resolve()}\n".encode()
    assert sizes
    assert 0 not in sizes
