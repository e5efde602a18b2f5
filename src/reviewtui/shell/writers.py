"""Which files another program holds open for writing: a save still under way.

A program that saves a file in place truncates it and writes it in pieces. An outside
change seen between two pieces is only the first part of that save: taken as the file's
content, a replay would rename its own version over the path while the program went on
writing into the file that rename replaced, and the rest of the save would be lost (found
with a writer pausing 3 s mid-save, QA pass 79). Such a file is left alone until the
program closes it; the watcher then reports the whole save.

The same holds before any write: a program may hold the file open for writing and not
have written yet (a long-running generator, a logger, an editor that keeps its file open).
Renamed over, its save would go into the replaced file, lost with no word (QA pass 82,
repro-3). So every replay asks about the files it is about to replace or remove.

Linux answers that two ways:

* a read lease (``fcntl F_SETLEASE F_RDLCK``) is refused with ``EAGAIN`` exactly when
  some process has the file open for writing; it is taken and let go at once, about
  12 microseconds a file. Its break signal is set to ``SIGURG``, which is ignored unless
  handled, so a program opening the file in that instant stops no one (the default
  ``SIGIO`` would end this process). A lease can be refused for other reasons (a file of
  another owner, a file system without leases): then nothing is known from it;
* ``/proc/PID/fd/N`` links to the file, and ``/proc/PID/fdinfo/N`` gives its access mode:
  one pass over every process answers for a whole batch of paths (a ``git checkout`` of
  many files), a few milliseconds here, more on a desktop. Used for what a lease could
  not tell, when a change was already seen (rare); not before each write.

Elsewhere, or where a process cannot be looked at (another user's), nothing is known and
nothing is held back.
"""

from __future__ import annotations

import errno
import os
import signal
import stat
from collections.abc import Collection

_PROC = "/proc"


def held_for_writing(paths: Collection[str], *, scan: bool = True) -> set[str]:
    """The absolute ``paths`` some other process has open for writing (empty when that
    cannot be told). ``scan``: what a lease cannot tell is looked up in ``/proc``."""
    if not paths:
        return set()
    found: set[str] = set()
    unknown: set[str] = set()
    for path in paths:
        answer = _lease_says(path)
        if answer is None:
            unknown.add(path)
        elif answer:
            found.add(path)
    if unknown and scan:
        found |= _scanned(unknown)
    return found


def _lease_says(path: str) -> bool | None:
    """Whether a regular file is open for writing anywhere, by a read lease; None when the
    lease cannot tell (no leases here, not a regular file, not ours, gone)."""
    try:
        import fcntl  # not on every system
    except ImportError:
        return None
    setlease = getattr(fcntl, "F_SETLEASE", None)
    setsig = getattr(fcntl, "F_SETSIG", None)
    if setlease is None or setsig is None:
        return None
    try:
        fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOFOLLOW | os.O_CLOEXEC)
    except OSError as err:
        # Opening blocks (refused here) only under another program's write lease.
        return True if err.errno == errno.EWOULDBLOCK else None
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            return None
        fcntl.fcntl(fd, setsig, signal.SIGURG)
        try:
            fcntl.fcntl(fd, setlease, fcntl.F_RDLCK)
        except OSError as err:
            return True if err.errno == errno.EAGAIN else None
        fcntl.fcntl(fd, setlease, fcntl.F_UNLCK)
        return False
    except OSError:
        return None
    finally:
        os.close(fd)


def _scanned(paths: Collection[str]) -> set[str]:
    """Those of ``paths`` (absolute) some process has open for writing, by ``/proc``."""
    if not os.path.isdir(f"{_PROC}/self/fdinfo"):
        return set()
    wanted = set(paths)
    found: set[str] = set()
    me = str(os.getpid())
    try:
        pids = [name for name in os.listdir(_PROC) if name.isdigit() and name != me]
    except OSError:
        return set()
    for pid in pids:
        try:
            fds = os.listdir(f"{_PROC}/{pid}/fd")
        except OSError:
            continue  # gone, or not ours to look at
        for fd in fds:
            try:
                target = os.readlink(f"{_PROC}/{pid}/fd/{fd}")
            except OSError:
                continue
            if target in wanted and target not in found and _writing(pid, fd):
                found.add(target)
    return found


def _writing(pid: str, fd: str) -> bool:
    """Whether that descriptor was opened for writing (``flags:`` in its fdinfo, octal)."""
    try:
        with open(f"{_PROC}/{pid}/fdinfo/{fd}", encoding="ascii") as info:
            for line in info:
                if line.startswith("flags:"):
                    return int(line.split()[1], 8) & os.O_ACCMODE in (os.O_WRONLY, os.O_RDWR)
    except (OSError, ValueError, IndexError):
        return False
    return False
