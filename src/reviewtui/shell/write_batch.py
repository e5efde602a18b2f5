"""A replay's writes made durable together: the same atomic writes, fewer waits on the disk.

One atomic write (``shell/disk.py``) waits for the disk twice: the temp file's fsync
before the rename, and the folder's fsync after it. On a replay of ten files that was
twenty waits in a row (~60-140 ms on this project's machines, more than the rest of an
``apply`` of 191 edits). A :class:`WriteBatch` keeps every promise and waits less:

* :meth:`WriteBatch.prepare` writes each file's temp file up front, in the file's own
  folder, and fsyncs them all at once on a few threads (the filesystem commits
  concurrent fsyncs together). A write then takes its temp file (:meth:`take`) only once
  its fsync is done, only with the very bytes asked for, and only if the temp file's name
  in the folder the write reached (again, without following links) is still that very
  file (same device and inode); otherwise the temp file is removed and the write makes
  its own as before. The content guard, the
  folder check and the rename happen at the write, in replay's order, as before.
* The folder fsync after a rename is deferred (:meth:`renamed`) and done once per folder
  by :meth:`flush`: before any removal (a file's last copy is never removed before the
  write that replaces it is durable) and when the batch ends, before replay returns.

So: a file's bytes are durable before its rename, as before; its rename is durable
when replay returns (before: when its own write returned), and before any removal of
the same replay. A crash (SIGKILL, power loss) in between leaves each file old or new,
plus temp files (named as every temp file, removed as leftovers on the next open): the
saved state file finishes the replay then, as for a crash in the middle of one write.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Iterable
from pathlib import Path
from types import TracebackType

from reviewtui.core.errors import DiskError
from reviewtui.shell.disk import _TEMP_FLAGS, _Folders, _fsync, _NoFolder, _parts, temp_name

# Threads fsyncing prepared temp files at once: enough for the filesystem to commit
# them together, few enough for a replay of many files.
WORKERS = 8


class _Prepared:
    """One temp file written ahead: its folder, name, descriptor, bytes and fsync."""

    __slots__ = ("data", "done", "error", "fd", "folder", "name", "tmp")

    def __init__(self, folder: int, name: str, tmp: str, fd: int, data: bytes) -> None:
        self.folder, self.name, self.tmp, self.fd, self.data = folder, name, tmp, fd, data
        self.done = threading.Event()
        self.error: OSError | None = None

    def sync(self) -> None:
        try:
            os.fsync(self.fd)
        except OSError as exc:
            self.error = exc
        finally:
            self.done.set()

    def discard(self) -> None:
        """Remove the temp file (through the folder it was made in) and close both."""
        self.done.wait()
        with contextlib.suppress(OSError):
            os.unlink(self.tmp, dir_fd=self.folder)
        for fd in (self.fd, self.folder):
            with contextlib.suppress(OSError):
                os.close(fd)


class WriteBatch:
    """Writes of one replay under ``root``; see the module docstring. Use as a context
    manager: leaving it flushes the deferred folder fsyncs and removes unused temp files."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._prepared: dict[str, _Prepared] = {}
        self._folders: dict[tuple[int, int], int] = {}  # renamed into, not yet fsynced
        self._threads: list[threading.Thread] = []

    def prepare(self, writes: Iterable[tuple[str, bytes]]) -> None:
        """Write a temp file for each (path, bytes) whose folders exist (none is made
        here), and start fsyncing them. A path that cannot be prepared is written the
        usual way (its error, if any, comes from there)."""
        jobs: list[_Prepared] = []
        for rel, data in writes:
            if rel in self._prepared:
                continue
            try:
                prepared = self._write_temp(rel, data)
            except (OSError, DiskError, _NoFolder, ValueError):
                continue  # a refused path, a link on the way: the write itself says so
            self._prepared[rel] = prepared
            jobs.append(prepared)
        count = min(WORKERS, len(jobs))
        for n in range(count):
            thread = threading.Thread(target=_sync_all, args=(jobs[n::count],), daemon=True,
                                      name="reviewtui-fsync")
            thread.start()
            self._threads.append(thread)

    def _write_temp(self, rel: str, data: bytes) -> _Prepared:
        parts = _parts(self.root, rel)
        with _Folders(self.root, rel, parts[:-1], create=False) as folders:
            folder = os.dup(folders.fd)
        try:
            tmp = temp_name(parts[-1])
            fd = os.open(tmp, _TEMP_FLAGS, 0o600, dir_fd=folder)
        except BaseException:
            os.close(folder)
            raise
        prepared = _Prepared(folder, parts[-1], tmp, fd, data)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        except BaseException:
            prepared.done.set()
            prepared.discard()
            raise
        return prepared

    def take(self, rel: str, folder: int, data: bytes) -> tuple[str, int] | None:
        """The temp file prepared for ``rel`` (its name, and its descriptor, which the
        caller now owns), fsynced, if it was made in ``folder`` with ``data``; else None
        (a mismatched one is removed). It is ours only if the name in ``folder`` is the
        file it wrote (same device and inode): a folder swapped or moved since, or the
        temp file replaced (by a link...), gets a fresh temp file. Raises the OSError its
        fsync met."""
        prepared = self._prepared.pop(rel, None)
        if prepared is None:
            return None
        if prepared.data is not data and prepared.data != data:
            prepared.discard()
            return None
        try:  # our very file under its name in ``folder`` (no other folder, no swap)
            named = os.stat(prepared.tmp, dir_fd=folder, follow_symlinks=False)
            held = os.fstat(prepared.fd)
            ours = (named.st_dev, named.st_ino) == (held.st_dev, held.st_ino)
        except OSError:
            ours = False
        if not ours:
            prepared.discard()
            return None
        prepared.done.wait()
        with contextlib.suppress(OSError):
            os.close(prepared.folder)
        if prepared.error is not None:
            with contextlib.suppress(OSError):
                os.unlink(prepared.tmp, dir_fd=folder)
            os.close(prepared.fd)
            raise prepared.error
        return prepared.tmp, prepared.fd

    def renamed(self, folder: int) -> None:
        """A file was renamed into ``folder``: fsync it at the next :meth:`flush`."""
        info = os.fstat(folder)
        key = (info.st_dev, info.st_ino)
        if key not in self._folders:
            self._folders[key] = os.dup(folder)

    def flush(self) -> None:
        """Fsync every folder renamed into since the last flush (once each)."""
        folders, self._folders = self._folders, {}
        for fd in folders.values():
            try:
                _fsync(fd)
            finally:
                os.close(fd)

    def close(self) -> None:
        """Flush, remove the temp files no write took, wait for the threads."""
        try:
            self.flush()
        finally:
            prepared, self._prepared = self._prepared, {}
            for item in prepared.values():
                item.discard()
            for thread in self._threads:
                thread.join()
            self._threads = []

    def __enter__(self) -> WriteBatch:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def _sync_all(jobs: list[_Prepared]) -> None:
    for job in jobs:
        job.sync()
