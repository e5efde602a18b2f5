"""One workbench per project root: an advisory lock held while replaying onto it.

The lock file lives outside the project (``$XDG_RUNTIME_DIR``, else the temp dir), named
by a hash of the resolved root, so the project stays untouched and two spellings of one
root share a lock. ``fcntl.flock`` is tied to the open file: closing it or the process
dying releases the lock, so a crashed workbench never leaves a stale lock behind (its
file stays, and is reused). The file holds the holder's pid, for the message the second
opener gets; a clean release removes it.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import os
import tempfile
from pathlib import Path
from types import TracebackType

from reviewtui.core.errors import DiskError, LockedError


def lock_dir() -> Path:
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and Path(runtime).is_dir():
        return Path(runtime)
    return Path(tempfile.gettempdir())


def lock_file_for(root: Path) -> Path:
    digest = hashlib.sha256(str(root.resolve()).encode("utf-8", "surrogateescape"))
    return lock_dir() / f"reviewtui-{digest.hexdigest()[:24]}.lock"


class RootLock:
    """``with RootLock(root):`` or ``acquire()`` / ``release()``."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.path = lock_file_for(root)
        self._fd: int | None = None

    @property
    def held(self) -> bool:
        return self._fd is not None

    def acquire(self) -> RootLock:
        if self._fd is not None:
            return self
        while True:
            fd = self._lock_once()
            # The holder unlinks the file on release; a lock taken on a file that is no
            # longer at the path (opened just before that) guards nothing: try again.
            try:
                same = os.stat(self.path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        os.ftruncate(fd, 0)
        os.write(fd, f"{os.getpid()}\n{self.root.resolve()}\n".encode())
        self._fd = fd
        return self

    def _lock_once(self) -> int:
        try:
            fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        except OSError as exc:
            raise DiskError(f"cannot create the lock file: {exc.strerror}",
                            source=str(self.path), rule="lock") from None
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            pid = _read_pid(fd)
            os.close(fd)
            raise LockedError(str(self.root), pid, str(self.path)) from None
        except OSError as exc:
            os.close(fd)
            raise DiskError(f"cannot lock: {exc.strerror}", source=str(self.path),
                            rule="lock") from None
        return fd

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is None:
            return
        with contextlib.suppress(OSError):
            os.unlink(self.path)  # still holding it: see acquire for why this is safe
        with contextlib.suppress(OSError):
            fcntl.flock(fd, fcntl.LOCK_UN)
        os.close(fd)

    def __enter__(self) -> RootLock:
        return self.acquire()

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.release()


def _read_pid(fd: int) -> int | None:
    try:
        first = os.pread(fd, 64, 0).split(b"\n", 1)[0]
        return int(first)
    except (OSError, ValueError):
        return None
