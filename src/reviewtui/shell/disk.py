"""The project on disk: one file read or written, atomically and inside the root (the
whole project listed: :mod:`reviewtui.shell.snapshot`).

Every write goes to a temporary file in the target's own directory, is flushed and
fsynced, then renamed over the target, and the directory is fsynced: a file is
either fully old or fully new, even if the machine dies mid-write. (A replay's writes
share their waits: :mod:`reviewtui.shell.write_batch`.) Mode bits are
kept, identical bytes are never rewritten, and nothing is written through a
symbolic link or outside the root.

Confinement does not rest on checking a path and then using it (a folder can be
swapped for a link in between): every folder from the root down is opened with
``O_NOFOLLOW`` relative to its parent's descriptor, the temp file is created, renamed
and cleaned up through the final folder's descriptor, and just before the rename the
chain is checked to still be linked at its names under the root (a folder moved out
of the root while we write is caught). Removals go through the same descriptors.

A writer that passes ``expected`` gets a compare-and-swap: the file's bytes are read
again right before the rename (or unlink) and, when they are not ``expected``, nothing
is written and :class:`DiskChanged` says what is there now.
"""

from __future__ import annotations

import contextlib
import errno
import os
import re
import stat
from collections.abc import Sequence
from pathlib import Path
from types import TracebackType

from reviewtui.core.errors import DiskChanged, DiskError
from reviewtui.core.paths.safety import UNREAD_DIRS
from reviewtui.core.record import record
from reviewtui.core.text.lazy_pattern import LazyPattern
from reviewtui.shell.userkey import user_key

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from typing import Final

    from reviewtui.core.review.folders import FolderLedger
    from reviewtui.shell.write_batch import WriteBatch

TEMP_SUFFIX = ".reviewtui-tmp"
IN_THE_WAY = "a folder is in the way"  # (rule "directory": a file is to be written there)
# Folders never read into the virtual tree: version control and tool caches.
SKIP_DIRS = UNREAD_DIRS


def target_path(root: Path, rel: str) -> Path:
    """``root/rel``, refusing any existing symbolic link on the way (they could lead out).

    A check only: whatever writes must go through the descriptor-based functions below,
    which cannot follow a link that appears after this check.
    """
    current = root
    for part in _parts(root, rel):
        current = current / part
        if current.is_symlink():
            raise DiskError(f"refusing to write through the symbolic link {current}",
                            source=rel, rule="symlink")
    return current


# --- temp files ----------------------------------------------------------------------

# ".<name>.<16 hex nonce><8 hex tag>.reviewtui-tmp": the tag is a hash of this user's key
# (``shell/userkey.py``), the name and the nonce, so a user's own "notes.reviewtui-tmp" never
# passes for one of ours, nor does a file a project brings named so (QA s53 helper-221:
# with the hash of the name and nonce alone, any project could carry a file that 'apply'
# removed as the leftover of an interrupted write).
# Compiled when a name with the suffix is first seen (most projects have none).
_TEMP_RE: Final = LazyPattern(r"\.(?P<name>.+)\.(?P<nonce>[0-9a-f]{16})(?P<tag>[0-9a-f]{8})"
                              + re.escape(TEMP_SUFFIX), re.DOTALL)
_TEMP_NAME_BYTES = 180  # the target's name is cut so the temp name fits in 255 bytes


def _tag(name: str, nonce: str, key: bytes) -> str:
    from reviewtui.core.digests import sha256  # here: reading a project writes no temp file

    text = f"reviewtui-tmp\0{name}\0{nonce}".encode("utf-8", "surrogateescape")
    return sha256(key + text).hexdigest()[:8]


_TEMP_KEY: list[bytes] = []  # the key temp names are tagged with, read once a process


def _temp_key(*, make: bool = True) -> bytes | None:
    """This user's key; where it can be neither read nor made, a key of this process
    alone (its own temp files are told; another run's leftovers are left in place, never
    a file removed this user's reviewtui did not make). Without ``make``: None while
    there is none (no temp file of ours can exist: a ``check`` makes no state)."""
    if not _TEMP_KEY:
        key = user_key(make=make)
        if key is None:
            if not make:
                return None
            key = os.urandom(32)
        _TEMP_KEY.append(key)
    return _TEMP_KEY[0]


def temp_name(target: str) -> str:
    """A fresh temp-file name for an atomic write of the file named ``target``."""
    try:
        raw = os.fsencode(target)
    except UnicodeEncodeError:  # a lone surrogate: no such file can exist anyway
        raw = target.encode("utf-8", "surrogatepass")
    short = os.fsdecode(raw[:_TEMP_NAME_BYTES])
    # What secrets.token_hex(8) returns, without importing secrets (and with it hmac and
    # random) on the write path of every 'apply'.
    nonce = os.urandom(8).hex()
    return f".{short}.{nonce}{_tag(short, nonce, _temp_key() or b'')}{TEMP_SUFFIX}"


def is_temp_name(name: str) -> bool:
    """Whether ``name`` (a file name, no folder) is one :func:`temp_name` made."""
    if not name.endswith(TEMP_SUFFIX):  # the pattern ends with it
        return False
    match = _TEMP_RE.fullmatch(name)
    if match is None or (key := _temp_key(make=False)) is None:
        return False
    return match["tag"] == _tag(match["name"], match["nonce"], key)


# --- descriptors -----------------------------------------------------------------------

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_DIR_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | _CLOEXEC
_READ_FLAGS = os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | _CLOEXEC
_TEMP_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | _CLOEXEC


# Private: control flow out of _Folders; the public readers turn it into "absent" (None).
class _NoFolder(Exception):
    """A folder on the way does not exist, or is a file (reading: the file is absent)."""


def _parts(root: Path, rel: str) -> list[str]:
    parts = rel.split("/")
    if any(part in ("", ".", "..") for part in parts):
        raise DiskError(f"refusing path {rel!r}", source=str(root), rule="path")
    try:
        os.fsencode(rel)
    except UnicodeEncodeError:
        raise DiskError(f"refusing path {rel!r}: it is not valid UTF-8", source=str(root),
                        rule="path") from None
    return parts


def _before_rename(directory: int, name: str) -> None:
    """Runs between preparing a temp file and checking/renaming it (a seam for tests)."""


class _Folders:
    """Descriptors of the folders from the root down to a target's folder, none followed.

    ``ledger``: told of each folder made here (:class:`FolderLedger`, the replay's).
    """

    def __init__(self, root: Path, rel: str, parts: Sequence[str], *, create: bool,
                 ledger: FolderLedger | None = None) -> None:
        self.root, self.rel, self.parts, self.ledger = root, rel, tuple(parts), ledger
        self.fds: list[int] = []
        try:
            self.fds.append(os.open(root, os.O_RDONLY | os.O_DIRECTORY | _CLOEXEC))
            for depth, part in enumerate(self.parts):
                self.fds.append(self._open(self.fds[-1], part, depth, create=create))
        except BaseException:
            self.close()
            raise

    @property
    def fd(self) -> int:
        return self.fds[-1]

    def _shown(self, depth: int) -> str:
        return str(self.root.joinpath(*self.parts[: depth + 1]))

    def relative(self, depth: int) -> str:
        """The folder at ``depth``, relative to the root."""
        return "/".join(self.parts[: depth + 1])

    def _open(self, parent: int, part: str, depth: int, *, create: bool) -> int:
        for _ in range(2):  # a second try after creating the folder
            try:
                return os.open(part, _DIR_FLAGS, dir_fd=parent)
            except FileNotFoundError:
                if not create:
                    raise _NoFolder from None
                try:
                    os.mkdir(part, 0o777, dir_fd=parent)
                except FileExistsError:
                    pass  # made meanwhile (not by us): opened below
                else:
                    if self.ledger is not None:
                        self.ledger.made_folder(self.relative(depth))
            except OSError as exc:
                if exc.errno not in (errno.ELOOP, errno.ENOTDIR, errno.EMLINK):
                    raise
                info = os.stat(part, dir_fd=parent, follow_symlinks=False)
                if stat.S_ISLNK(info.st_mode):
                    raise DiskError("refusing to write through the symbolic link "
                                    f"{self._shown(depth)}", source=self.rel,
                                    rule="symlink") from None
                if not create:
                    raise _NoFolder from None
                raise DiskError(f"cannot write: {self._shown(depth)} is a file, not a folder",
                                source=self.rel, rule="write") from None
        raise DiskError(f"cannot write: {self._shown(depth)} keeps changing",
                        source=self.rel, rule="write")

    def verify(self) -> None:
        """Every folder is still linked at its name under the root (none moved or swapped)."""
        for depth, part in enumerate(self.parts):
            try:
                named = os.stat(part, dir_fd=self.fds[depth], follow_symlinks=False)
            except FileNotFoundError:
                named = None
            held = os.fstat(self.fds[depth + 1])
            if named is None or (named.st_dev, named.st_ino) != (held.st_dev, held.st_ino):
                raise DiskError(f"{self._shown(depth)} was moved or replaced during the "
                                "write; nothing was written", source=self.rel,
                                rule="symlink")

    def close(self) -> None:
        for fd in reversed(self.fds):
            with contextlib.suppress(OSError):
                os.close(fd)
        self.fds = []

    def __enter__(self) -> _Folders:
        return self

    def __exit__(self, exc_type: type[BaseException] | None, exc: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.close()


def _current(folder: int, name: str, rel: str,
             links: bool = False) -> tuple[bytes, int] | None:
    """The bytes and mode of regular file ``name`` in ``folder``; None when absent.

    ``links``: a link there is (its target, :data:`LINK_MODE`) instead of an error (the
    caller replaces or removes the link itself, never what it points to).
    """
    try:
        fd = os.open(name, _READ_FLAGS, dir_fd=folder)
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno != errno.ELOOP:
            raise
        if links:
            return os.fsencode(os.readlink(name, dir_fd=folder)), LINK_MODE
        raise DiskError("is a symbolic link: reviewtui never replaces a link with a file",
                        source=rel, rule="symlink") from None
    # (what is there is asked before the descriptor becomes a file object: Python refuses
    # to make one of a folder, "cannot read: Is a directory", and the rule was lost)
    try:
        info = os.fstat(fd)
    except OSError:
        os.close(fd)
        raise
    if not stat.S_ISREG(info.st_mode):
        os.close(fd)
        if stat.S_ISDIR(info.st_mode):
            raise DiskError(IN_THE_WAY, source=rel, rule="directory")
        raise DiskError("not a regular file: reviewtui will not write it", source=rel,
                        rule="not-a-file")
    with os.fdopen(fd, "rb") as handle:
        return handle.read(), stat.S_IMODE(info.st_mode)


def _fsync(fd: int) -> None:
    with contextlib.suppress(OSError):  # some filesystems cannot; the rename is atomic
        os.fsync(fd)


# --- reading, writing, removing --------------------------------------------------------

class _Unchecked:
    """``expected`` not given: no compare-and-swap."""


@record(frozen=True, slots=True)
class Link:
    """``expected``: a symbolic link with this target (as ``os.readlink`` gives it)."""

    target: bytes


UNCHECKED: Final = _Unchecked()
LINK_MODE: Final = 0o120000
Expected = bytes | None | _Unchecked | Link


def _holds(now: tuple[bytes, int] | None, expected: bytes | None | Link) -> bool:
    """Whether what is there (from ``_current(..., links=True)``) is ``expected``."""
    if now is None or expected is None:
        return now is None and expected is None
    if isinstance(expected, Link):
        return now[1] == LINK_MODE and now[0] == expected.target
    return now[1] != LINK_MODE and now[0] == expected




def read_file(root: Path, rel: str) -> tuple[bytes, int] | None:
    """``root/rel``'s bytes and mode, None when absent; never through a symbolic link.

    :class:`DiskError` with rule ``symlink`` for a link on the way, ``directory`` when a
    folder is there, ``not-a-file`` for anything else that is not a regular file.
    """
    parts = _parts(root, rel)
    try:
        with _Folders(root, rel, parts[:-1], create=False) as folders:
            return _current(folders.fd, parts[-1], rel)
    except _NoFolder:
        return None
    except OSError as exc:
        raise DiskError(f"cannot read: {exc.strerror}", source=rel,
                        rule="unreadable") from None


def read_link(root: Path, rel: str) -> str | None:
    """The target of ``root/rel`` when it is a symbolic link (reached without following
    any other link); None when it is not a link, is absent, or cannot be reached."""
    parts = _parts(root, rel)
    try:
        with _Folders(root, rel, parts[:-1], create=False) as folders:
            return os.readlink(parts[-1], dir_fd=folders.fd)
    except (_NoFolder, OSError, DiskError):
        return None


def atomic_write(root: Path, rel: str, data: bytes, mode: int | None = None, *,
                 expected: Expected = UNCHECKED, batch: WriteBatch | None = None,
                 ledger: FolderLedger | None = None) -> bool:
    """Write ``data`` to ``root/rel`` atomically; False when the bytes were already there.

    With ``expected`` (the bytes the caller believes are there, None: absent), the file
    is compared again just before the rename; :class:`DiskChanged` when it differs.
    Only permission bits are ever set (no setuid, setgid or sticky bit). ``batch``: the
    replay's :class:`~reviewtui.shell.write_batch.WriteBatch` (a temp file it prepared is
    used; the folder's fsync is left to it). ``ledger``: told of the folders made on the
    way.
    """
    parts = _parts(root, rel)
    name = parts[-1]
    try:
        with _Folders(root, rel, parts[:-1], create=True, ledger=ledger) as folders:
            if isinstance(expected, _Unchecked):
                current = _current(folders.fd, name, rel)
                if current is not None and current[0] == data:
                    if mode is not None and current[1] != mode & 0o777:
                        _chmod(folders.fd, name, mode & 0o777)
                    return False
                old_mode = current[1] if current is not None else None
            elif isinstance(expected, Link):  # a link becomes this file: no mode to keep
                old_mode = None
            else:  # the bytes are compared right before the rename: only the mode now
                old_mode = _mode(folders.fd, name, rel)
            if mode is None:
                mode = old_mode if old_mode is not None else 0o644
            return _replace(folders, name, rel, data, mode & 0o777, expected, batch)
    except OSError as exc:
        raise DiskError(f"cannot write: {exc.strerror}", source=str(root / rel),
                        rule="write") from None


def _mode(folder: int, name: str, rel: str) -> int | None:
    """The permission bits of ``name`` in ``folder``; None when absent."""
    try:
        info = os.stat(name, dir_fd=folder, follow_symlinks=False)
    except FileNotFoundError:
        return None
    if stat.S_ISLNK(info.st_mode):
        raise DiskError("is a symbolic link: reviewtui never replaces a link with a file",
                        source=rel, rule="symlink")
    if stat.S_ISDIR(info.st_mode):
        raise DiskError(IN_THE_WAY, source=rel, rule="directory")
    return stat.S_IMODE(info.st_mode)


def _chmod(folder: int, name: str, mode: int) -> None:
    fd = os.open(name, _READ_FLAGS, dir_fd=folder)
    try:
        os.fchmod(fd, mode)
    finally:
        os.close(fd)


def _replace(folders: _Folders, name: str, rel: str, data: bytes, mode: int,
             expected: Expected, batch: WriteBatch | None = None) -> bool:
    taken = batch.take(rel, folders.fd, data) if batch is not None else None
    if taken is None:
        tmp = temp_name(name)
        fd = os.open(tmp, _TEMP_FLAGS, 0o600, dir_fd=folders.fd)
    else:
        tmp, fd = taken  # written and fsynced ahead, in this very folder
    try:
        with os.fdopen(fd, "wb") as handle:
            if taken is None:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            os.fchmod(handle.fileno(), mode)
        _before_rename(folders.fd, name)
        folders.verify()
        if not isinstance(expected, _Unchecked):
            now = _current(folders.fd, name, rel, links=isinstance(expected, Link))
            if now is not None and now[1] != LINK_MODE and now[0] == data:
                os.unlink(tmp, dir_fd=folders.fd)
                return False  # someone wrote the same bytes: nothing to do
            if not _holds(now, expected):
                raise DiskChanged(rel, now)
        os.replace(tmp, name, src_dir_fd=folders.fd, dst_dir_fd=folders.fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp, dir_fd=folders.fd)
        raise
    if batch is not None:
        batch.renamed(folders.fd)  # fsynced once per folder, before replay returns
    else:
        _fsync(folders.fd)
    return True


def set_mode(root: Path, rel: str, mode: int, *, expected: bytes) -> bool:
    """Give ``root/rel`` the permission bits of ``mode`` when it still holds ``expected``.

    A mode change alone (git's ``old mode``/``new mode``) rewrites no bytes; the file is
    compared first, as for a write: :class:`DiskChanged` when it differs. False when the
    mode was already that.
    """
    parts = _parts(root, rel)
    name = parts[-1]
    try:
        with _Folders(root, rel, parts[:-1], create=False) as folders:
            now = _current(folders.fd, name, rel)
            if now is None or now[0] != expected:
                raise DiskChanged(rel, now)
            if now[1] == mode & 0o777:
                return False
            _chmod(folders.fd, name, mode & 0o777)
    except OSError as exc:
        raise DiskError(f"cannot change the mode: {exc.strerror}", source=str(root / rel),
                        rule="write") from None
    return True


def write_link(root: Path, rel: str, target: str, *, expected: bytes | None | Link,
               ledger: FolderLedger | None = None) -> bool:
    """Make ``root/rel`` a symbolic link to ``target``; False when it already is one.

    The link is made under a temporary name in the final folder (reached without
    following any link, as for a file) and renamed over ``rel``: what was there is
    replaced whole, never followed. ``expected`` is what the caller believes is there (a
    :class:`Link`, a regular file's bytes, or None: absent), compared right before the
    rename: :class:`DiskChanged` when it differs. The target is not checked here: the
    engine decides which targets are allowed (inside the root). ``ledger``: as for
    :func:`atomic_write`.
    """
    parts = _parts(root, rel)
    name = parts[-1]
    try:
        with _Folders(root, rel, parts[:-1], create=True, ledger=ledger) as folders:
            tmp = temp_name(name)
            os.symlink(target, tmp, dir_fd=folders.fd)
            try:
                _before_rename(folders.fd, name)
                folders.verify()
                now = _current(folders.fd, name, rel, links=True)
                if now == (os.fsencode(target), LINK_MODE):
                    os.unlink(tmp, dir_fd=folders.fd)
                    return False
                if not _holds(now, expected):
                    raise DiskChanged(rel, now)
                os.replace(tmp, name, src_dir_fd=folders.fd, dst_dir_fd=folders.fd)
            except BaseException:
                with contextlib.suppress(OSError):
                    os.unlink(tmp, dir_fd=folders.fd)
                raise
            _fsync(folders.fd)
    except OSError as exc:
        raise DiskError(f"cannot make the link: {exc.strerror}", source=str(root / rel),
                        rule="write") from None
    return True


def remove_file(root: Path, rel: str, *, expected: Expected = UNCHECKED,
                ledger: FolderLedger | None = None) -> bool:
    """Remove ``root/rel`` and the folders that it leaves empty; False if it was not there.

    With ``expected``, the file's bytes are compared just before the unlink:
    :class:`DiskChanged` when they differ (nothing is removed). (In a replay the batch's
    renames are made durable first: ``shell/replay.py`` ``put``.) With a ``ledger``, an
    emptied folder it does not let go (the user's) stays, and with it those above.
    """
    parts = _parts(root, rel)
    name = parts[-1]
    try:
        with _Folders(root, rel, parts[:-1], create=False) as folders:
            now = _current(folders.fd, name, rel, links=isinstance(expected, Link))
            if now is None:
                return False
            if not isinstance(expected, _Unchecked) and not _holds(now, expected):
                raise DiskChanged(rel, now)
            _before_rename(folders.fd, name)
            folders.verify()
            os.unlink(name, dir_fd=folders.fd)
            _fsync(folders.fd)
            _prune(folders, ledger)
    except _NoFolder:
        return False
    except OSError as exc:
        raise DiskError(f"cannot remove: {exc.strerror}", source=str(root / rel),
                        rule="remove") from None
    return True


def _prune(folders: _Folders, ledger: FolderLedger | None) -> None:
    """Remove the folders a removal left empty, deepest first, through the descriptors,
    up to the first that ``ledger`` keeps."""
    for depth in range(len(folders.parts) - 1, -1, -1):
        name = folders.relative(depth)
        if ledger is not None and not ledger.may_remove(name):
            return
        if os.listdir(folders.fds[depth + 1]):
            return
        try:
            os.rmdir(folders.parts[depth], dir_fd=folders.fds[depth])
        except OSError:
            return  # filled or replaced meanwhile: leave it
        if ledger is not None:
            ledger.removed_folder(name)


def remove_temp(root: Path, rel: str) -> bool:
    """Remove a temp file an interrupted atomic write left; only names we make, only files."""
    parts = _parts(root, rel)
    if not is_temp_name(parts[-1]):
        return False
    try:
        with _Folders(root, rel, parts[:-1], create=False) as folders:
            info = os.stat(parts[-1], dir_fd=folders.fd, follow_symlinks=False)
            if not (stat.S_ISREG(info.st_mode) or stat.S_ISLNK(info.st_mode)):
                return False
            os.unlink(parts[-1], dir_fd=folders.fd)
    except (_NoFolder, OSError, DiskError):
        return False
    return True


def scratch_copy(source: Path, label: str) -> Path:
    """Copy a sample's ``base/`` to a new temporary folder, so samples are never modified."""
    import shutil
    import tempfile

    target = Path(tempfile.mkdtemp(prefix=f"reviewtui-{label}-"))
    if source.is_dir():
        shutil.copytree(source, target, symlinks=True, dirs_exist_ok=True)
    return target
