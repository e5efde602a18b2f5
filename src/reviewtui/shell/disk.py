"""The project on disk: reading it, and writing to it atomically and inside the root.

Every write goes to a temporary file in the target's own directory, is flushed and
fsynced, then renamed over the target, and the directory is fsynced: a file is
either fully old or fully new, even if the machine dies mid-write. Mode bits are
kept, identical bytes are never rewritten, and nothing is written through a
symbolic link or outside the root.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

from reviewtui.core.errors import DiskError

TEMP_SUFFIX = ".reviewtui-tmp"  # atomic writes go through "<dir>/.<name>.<random>" + this
# Folders never read into the virtual tree: version control and tool caches.
SKIP_DIRS = frozenset({".git", ".hg", ".svn", ".venv", "node_modules", "__pycache__",
                       ".mypy_cache", ".pytest_cache", ".ruff_cache"})


@dataclass(slots=True)
class DiskSnapshot:
    """What is under a root: file bytes and modes, and symbolic links (not followed)."""

    files: dict[str, tuple[bytes, int]] = field(default_factory=dict)
    symlinks: dict[str, str] = field(default_factory=dict)
    # Temp files of atomic writes that never finished (the writer died): not project files.
    leftovers: list[str] = field(default_factory=list)


def read_snapshot(root: Path) -> DiskSnapshot:
    snap = DiskSnapshot()
    if not root.is_dir():
        raise DiskError("project root is not a directory", source=str(root), rule="root")
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        base = Path(dirpath)
        rel_dir = base.relative_to(root).as_posix()
        prefix = "" if rel_dir == "." else rel_dir + "/"
        kept = []
        for name in dirnames:
            if name in SKIP_DIRS or name.endswith(".review.blobs"):
                continue
            full = base / name
            if full.is_symlink():
                snap.symlinks[prefix + name] = os.readlink(full)
            else:
                kept.append(name)
        dirnames[:] = sorted(kept)
        for name in sorted(filenames):
            full = base / name
            rel = prefix + name
            if full.is_symlink():
                snap.symlinks[rel] = os.readlink(full)
                continue
            if name.endswith(TEMP_SUFFIX):
                snap.leftovers.append(rel)
                continue
            try:
                info = full.stat()
                if not stat.S_ISREG(info.st_mode):
                    continue
                snap.files[rel] = (full.read_bytes(), stat.S_IMODE(info.st_mode))
            except OSError as exc:
                raise DiskError(f"cannot read: {exc.strerror}", source=str(full),
                                rule="unreadable") from None
    return snap


def target_path(root: Path, rel: str) -> Path:
    """``root/rel``, refusing any existing symbolic link on the way (they could lead out)."""
    current = root
    for part in rel.split("/"):
        if part in ("", ".", ".."):
            raise DiskError(f"refusing path {rel!r}", source=str(root), rule="path")
        current = current / part
        if current.is_symlink():
            raise DiskError(f"refusing to write through the symbolic link {current}",
                            source=rel, rule="symlink")
    return current


def atomic_write(root: Path, rel: str, data: bytes, mode: int | None = None) -> bool:
    """Write ``data`` to ``root/rel`` atomically; False when the bytes were already there."""
    path = target_path(root, rel)
    try:
        if path.is_file() and path.read_bytes() == data:
            if mode is not None and stat.S_IMODE(path.stat().st_mode) != mode:
                path.chmod(mode)
            return False
        path.parent.mkdir(parents=True, exist_ok=True)
        if mode is None:
            mode = stat.S_IMODE(path.stat().st_mode) if path.exists() else 0o644
        fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=TEMP_SUFFIX,
                                   dir=path.parent)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.chmod(tmp, mode)
            os.replace(tmp, path)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(tmp)
            raise
        _fsync_dir(path.parent)
    except OSError as exc:
        raise DiskError(f"cannot write: {exc.strerror}", source=str(path),
                        rule="write") from None
    return True


def remove_file(root: Path, rel: str) -> bool:
    """Remove ``root/rel`` and any folders that it leaves empty; False if it was not there."""
    path = target_path(root, rel)
    try:
        if not path.exists():
            return False
        path.unlink()
        _fsync_dir(path.parent)
        parent = path.parent
        while parent != root and parent.is_dir() and not any(parent.iterdir()):
            parent.rmdir()
            parent = parent.parent
    except OSError as exc:
        raise DiskError(f"cannot remove: {exc.strerror}", source=str(path),
                        rule="remove") from None
    return True


def _fsync_dir(directory: Path) -> None:
    try:
        fd = os.open(directory, os.O_RDONLY)
    except OSError:
        return  # some filesystems cannot open directories; the rename is still atomic
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


def scratch_copy(source: Path, label: str) -> Path:
    """Copy a sample's ``base/`` to a new temporary folder, so samples are never modified."""
    target = Path(tempfile.mkdtemp(prefix=f"reviewtui-{label}-"))
    if source.is_dir():
        shutil.copytree(source, target, symlinks=True, dirs_exist_ok=True)
    return target
