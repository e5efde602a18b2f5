"""Which files another program holds open for writing: a save still under way.

A program that saves a file in place truncates it and writes it in pieces. An outside
change seen between two pieces is only the first part of that save: taken as the file's
content, a replay would rename its own version over the path while the program went on
writing into the file that rename replaced, and the rest of the save would be lost (found
with a writer pausing 3 s mid-save, QA pass 79). Such a file is left alone until the
program closes it; the watcher then reports the whole save.

Linux says who holds what open: ``/proc/PID/fd/N`` links to the file, and
``/proc/PID/fdinfo/N`` gives its access mode. Elsewhere, or where a process cannot be
looked at (another user's), nothing is known and nothing is held back. One pass over
``/proc`` answers for a whole batch of paths (a ``git checkout`` of many files).
"""

from __future__ import annotations

import os
from collections.abc import Collection

_PROC = "/proc"


def held_for_writing(paths: Collection[str]) -> set[str]:
    """The absolute ``paths`` some other process has open for writing (empty when that
    cannot be told)."""
    if not paths or not os.path.isdir(f"{_PROC}/self/fdinfo"):
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
