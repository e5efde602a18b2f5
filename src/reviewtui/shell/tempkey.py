"""This user's key for the names of atomic writes' temp files (``shell/disk.py``): a
temp name's tag is a hash keyed with it, so only this user's reviewtui makes a name that
passes for a leftover of an interrupted write, and only such files are removed (QA s53
helper-221: unkeyed, any project could carry one, removed by the next ``apply``). Kept in
this user's state folder; made once, by the first write that needs it."""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)


def state_home() -> Path:
    """This user's folder for reviewtui's state (``$XDG_STATE_HOME/reviewtui``)."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "reviewtui"


_KEY: list[bytes] = []  # (read once a process)
_KEY_FILE = "temp-names.key"


def temp_key(*, make: bool = True) -> bytes | None:
    """This user's key for temp-file names: 32 random bytes kept in the state folder, made
    by the first write that needs it (mode 0600; one left short or empty by a run killed
    while making it is made again). Where it can be neither read nor made, a key of this
    process alone: its own temp files are told, another run's leftovers are left in place
    (never a file removed that this user's reviewtui did not make). Without ``make``:
    None while there is none (no temp file of ours can exist: a ``check`` makes no state)."""
    if not _KEY:
        path = state_home() / _KEY_FILE
        key = _read_key(path)
        if len(key) < 16:
            if not make:
                return None
            key = _made_key(path)
        _KEY.append(key)
    return _KEY[0]


def _read_key(path: Path) -> bytes:
    """The key file's bytes; b"" when it is no regular file (a FIFO is not waited on:
    QA s53 helper-226) or cannot be read."""
    try:
        descriptor = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | _CLOEXEC)
    except OSError:
        return b""
    with os.fdopen(descriptor, "rb") as source:
        if not stat.S_ISREG(os.fstat(source.fileno()).st_mode):
            return b""
        return source.read(64)


def _made_key(path: Path) -> bytes:
    """A new key at ``path``, made once (``O_EXCL``: runs starting together agree on the
    first one's, QA s53 helper-226); one left short by a run killed while making it is
    replaced whole (a temp file renamed over it). This process's own where neither goes."""
    key = os.urandom(32)
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | _CLOEXEC
    try:
        path.parent.mkdir(parents=True, exist_ok=True, mode=0o700)
        try:
            with os.fdopen(os.open(path, flags, 0o600), "wb") as out:
                out.write(key)
            return key
        except FileExistsError:
            import time

            for _ in range(50):  # (made by a run starting with this one: being written)
                found = _read_key(path)
                if len(found) >= 16:
                    return found  # (that run's)
                time.sleep(0.02)
        scratch = path.with_name(f".{path.name}.{os.getpid()}.{key[:4].hex()}")
        try:
            with os.fdopen(os.open(scratch, flags, 0o600), "wb") as out:
                out.write(key)
            os.replace(scratch, path)
        finally:
            with contextlib.suppress(OSError):
                scratch.unlink()
        found = _read_key(path)
        return found if len(found) >= 16 else key
    except OSError:
        return key


