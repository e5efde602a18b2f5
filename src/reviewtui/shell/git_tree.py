"""A commit's tree as a project that is never copied: names and modes from ``ls-tree``,
each file's bytes from git's object store when the engine first needs them.

``check``, ``stats`` and ``export`` of ``--git A..B`` write nothing: they need A's tree as a
base, not a folder holding it. Copying it cost a file creation per file of the repository
(prettier, 9,304 files: ~2.8 s for a ``check`` of 20 commits that ``git log -p`` writes in
0.03 s). Here the tree is listed as :func:`reviewtui.shell.snapshot.read_snapshot` lists a
folder (the same folders left out, the same links), and the files enter the base as
:class:`~reviewtui.core.model.unread.UnreadFile`\\ s that one ``git cat-file --batch`` reads.
The paths are :meth:`Repo.tree_entries`' (a crafted tree's ``..`` or ``.git`` refused).
"""

from __future__ import annotations

import _thread
import subprocess
from pathlib import Path

from reviewtui.core.errors import GitError
from reviewtui.core.protocol.config import CONFIG_NAME
from reviewtui.shell.disk import atomic_write, is_temp_name
from reviewtui.shell.git import Repo, git_mode_bits, git_process_command
from reviewtui.shell.git_environment import git_env
from reviewtui.shell.snapshot import DiskSnapshot, skipped_folder


class BlobStream:
    """Blobs by id through one ``git cat-file --batch``, started on the first read."""

    def __init__(self, repo: Repo) -> None:
        self._repo = repo
        self._process: subprocess.Popen[bytes] | None = None
        self._lock = _thread.allocate_lock()
        self._closed = False

    def read(self, sha: str) -> bytes:
        with self._lock:
            if self._closed:
                raise GitError("the repository's objects were read after the command "
                               "ended", source=str(self._repo.top), rule="git")
            process = self._process
            if process is None:
                process = self._process = subprocess.Popen(
                    git_process_command(self._repo, "cat-file", "--batch"),
                    cwd=self._repo.top, stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                    stderr=subprocess.DEVNULL, env=git_env(self._repo.env()))
            assert process.stdin is not None
            assert process.stdout is not None
            try:
                process.stdin.write(sha.encode("ascii") + b"\n")
                process.stdin.flush()
                header = process.stdout.readline().split()
                if len(header) != 3 or header[1] != b"blob":
                    raise GitError(f"git cat-file: no blob {sha}", source=str(self._repo.top),
                                   rule="git")
                size = int(header[2])
                data = process.stdout.read(size)
                process.stdout.read(1)  # the newline after the content
            except (OSError, ValueError) as exc:
                raise GitError(f"git cat-file failed: {exc}", source=str(self._repo.top),
                               rule="git") from None
            if len(data) != size:
                raise GitError(f"git cat-file: {sha} cut short", source=str(self._repo.top),
                               rule="git")
            return data

    def close(self) -> None:
        with self._lock:
            self._closed = True
            process, self._process = self._process, None
        if process is not None:
            if process.stdin is not None:
                process.stdin.close()
            process.kill()
            process.wait()
            if process.stdout is not None:
                process.stdout.close()


def tree_listing(repo: Repo, rev: str, root: Path) -> tuple[DiskSnapshot, dict[str, str],
                                                              BlobStream]:
    """``rev``'s tree as ``read_snapshot(contents=False)`` would list a copy of it in
    ``root``: the snapshot, each listed file's blob id, and the stream that reads them.
    ``reviewtui.toml`` at the top, the one file a project is read by name, is written
    into ``root`` (an empty folder of the caller's)."""
    snap = DiskSnapshot()
    blobs: dict[str, str] = {}
    links: list[tuple[str, str]] = []
    for mode, sha, path in repo.tree_entries(rev):
        if any(map(skipped_folder, path.split("/")[:-1])):
            continue  # (a folder on its way is one a listing does not enter)
        name = path.rpartition("/")[2]
        if is_temp_name(name):
            snap.leftovers.append(path)
        elif mode == "120000":
            links.append((path, sha))
        else:
            snap.unread[path] = git_mode_bits(mode)
            blobs[path] = sha
    targets = repo.blobs([sha for _, sha in links], [path for path, _ in links])
    for (path, _), target in zip(links, targets, strict=True):
        snap.symlinks[path] = target.decode("utf-8", "surrogateescape")
    stream = BlobStream(repo)
    if CONFIG_NAME in blobs:
        atomic_write(root, CONFIG_NAME, stream.read(blobs[CONFIG_NAME]), 0o644)
    return snap, blobs, stream
