"""One workbench per project root: an advisory lock held while replaying onto it.

The lock file lives outside the project, in a private per-user folder: ``reviewtui``
under ``$XDG_RUNTIME_DIR`` when that is ours and 0700, else ``reviewtui-<uid>`` in the temp
dir. Either folder is created 0700 and checked on every use (a real folder, owned by us,
mode 0700; anything else is refused), and the lock file is opened without following a
symbolic link and must be a regular file: a planted link or FIFO is refused, never
followed or truncated. The file is named by a hash of the resolved root, so the project
stays untouched and two spellings of one root share a lock.

``fcntl.flock`` is tied to the open file: closing it or the process
dying releases the lock, so a crashed workbench never leaves a stale lock behind (its
file stays, and is reused). The file holds the holder's pid, for the message the second
opener gets; a clean release removes it.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import os
import stat
from pathlib import Path
from types import TracebackType

from reviewtui.core.digests import sha256
from reviewtui.core.errors import DiskError, LockedError


def _private(directory: Path) -> str:
    """Why ``directory`` is not a private folder of ours ("" when it is)."""
    try:
        info = os.lstat(directory)
    except OSError as exc:
        return f"cannot check it: {exc.strerror}"
    if stat.S_ISLNK(info.st_mode):
        return "it is a symbolic link"
    if not stat.S_ISDIR(info.st_mode):
        return "it is not a folder"
    if info.st_uid != os.getuid():
        return f"it belongs to uid {info.st_uid}, not {os.getuid()}"
    if stat.S_IMODE(info.st_mode) != 0o700:
        return f"its mode is {stat.S_IMODE(info.st_mode):o}, not 700"
    return ""


def _make_private(directory: Path) -> Path:
    with contextlib.suppress(FileExistsError):
        os.mkdir(directory, 0o700)  # the umask can only take bits away
    why = _private(directory)
    if why:
        raise DiskError(f"refusing the lock folder: {why} (remove it, or set "
                        "XDG_RUNTIME_DIR to a private folder)", source=str(directory),
                        rule="lock")
    return directory


def lock_dir() -> Path:
    """The private per-user folder the locks live in (created and checked on each call)."""
    runtime = os.environ.get("XDG_RUNTIME_DIR")
    if runtime and os.path.isabs(runtime) and not _private(Path(runtime)):
        return _make_private(Path(runtime) / "reviewtui")
    import tempfile  # here: with a runtime folder, no tempfile (shutil, bz2, lzma, random)

    return _make_private(Path(tempfile.gettempdir()) / f"reviewtui-{os.getuid()}")


def lock_file_for(root: Path) -> Path:
    digest = sha256(str(root.resolve()).encode("utf-8", "surrogateescape"))
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
                same = os.lstat(self.path).st_ino == os.fstat(fd).st_ino
            except FileNotFoundError:
                same = False
            if same:
                break
            os.close(fd)
        # Written over what is there, then cut to its length: never truncated to nothing
        # first, which on ext4 makes the close() at release wait for the disk (4-10 ms).
        who = f"{os.getpid()}\n{self.root.resolve()}\n".encode()
        os.pwrite(fd, who, 0)
        os.ftruncate(fd, len(who))
        self._fd = fd
        return self

    def _lock_once(self) -> int:
        flags = os.O_RDWR | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC
        try:
            fd = os.open(self.path, flags, 0o600)
        except OSError as exc:
            why = ("it is a symbolic link" if exc.errno == errno.ELOOP
                   else exc.strerror)
            raise DiskError(f"cannot open the lock file: {why}",
                            source=str(self.path), rule="lock") from None
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            os.close(fd)
            raise DiskError("the lock path is not a regular file: remove it",
                            source=str(self.path), rule="lock")
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
