"""Whether the replay after the last save of the review state finished: a mark beside it.

The state is saved just before each replay writes (the decision first, then the files),
and each save holds a fresh ``nonce``. Once every write of that replay is made, the
nonce is written to ``<state file>.written``. A review reopened after a kill can then tell
a file that still holds what it held before the last write apart:

* the mark holds the last save's nonce: the writes were all made, so the file was put back
  while the review was down (``git checkout``): its accepts go back to pending;
* it does not: the review was killed between the save and the writes (mid-replay), and
  the replay finishes them (a decision over many files is never left half on disk).

A state without a nonce (saved before this mark existed) says neither: unknown, and the
file is taken as put back, which writes nothing without a keypress. The mark is written
as the state is (atomic, fsynced, never through a link); a failure to write it is not an
error (it then reads "not finished" on reopen, and the replay finishes what the decision
said).
"""

from __future__ import annotations

import contextlib
import os
import stat
from pathlib import Path

from reviewtui.core.errors import DiskError
from reviewtui.shell.disk import atomic_write

SUFFIX = ".written"


def new_nonce() -> str:
    return os.urandom(8).hex()


def mark_path(state_path: Path) -> Path:
    return state_path.with_name(state_path.name + SUFFIX)


def mark_finished(state_path: Path, nonce: str) -> None:
    """Every write of the replay after the save that holds ``nonce`` is made."""
    if nonce:
        with contextlib.suppress(OSError, DiskError):
            atomic_write(state_path.parent, state_path.name + SUFFIX, nonce.encode(), 0o644)


def finished(state_path: Path, nonce: str) -> bool | None:
    """Whether the replay after the save holding ``nonce`` finished (None: unknown)."""
    if not nonce:
        return None
    try:  # a regular file only: a FIFO put there would hang the open, a link is not ours
        fd = os.open(mark_path(state_path), os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)
    except OSError:
        return False
    try:
        return stat.S_ISREG(os.fstat(fd).st_mode) and os.read(fd, 64) == nonce.encode()
    except OSError:
        return False
    finally:
        os.close(fd)
