"""This user's secret key and state folder: ``$XDG_STATE_HOME/reviewtui/state-key`` (32
random bytes, mode 600), kept outside every project. It seals the review states this
machine writes (``shell/stateseal.py``) and tags the names of atomic writes' temp files
(``shell/disk.py``: only this user's reviewtui makes a name that passes for a leftover of
an interrupted write, QA s53 helper-221). Read, or made once, by whoever needs it first;
each caller keeps what it read."""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
KEY_BYTES = 32


def state_home() -> Path:
    """This user's folder for reviewtui's state (``$XDG_STATE_HOME/reviewtui``)."""
    base = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(base) / "reviewtui"


def key_path() -> Path:
    return state_home() / "state-key"


def user_key(*, make: bool = True) -> bytes | None:
    """The key, made when there is none (``O_EXCL``: runs starting together agree on the
    first one's, QA s53 helper-226; one left short by a run killed while making it is
    replaced whole). None where it can be neither read nor made (an unwritable state
    home), or, without ``make``, while there is none."""
    path = key_path()
    key = _read_key(path)
    if len(key) == KEY_BYTES:
        return key
    return _made_key(path) if make else None


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
        return source.read(KEY_BYTES + 1)


def _made_key(path: Path) -> bytes | None:
    key = os.urandom(KEY_BYTES)
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
                if len(found) == KEY_BYTES:
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
    except OSError:
        return None
    found = _read_key(path)
    return found if len(found) == KEY_BYTES else None
