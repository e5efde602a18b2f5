"""Replay's disk side: the report, reading and walking the root, the guarded write loop.

:class:`ReplayReport` is what one replay (or one batch of outside changes) did to the
disk. The functions read files and folders under the root (never through a link) and
order a batch of content-guarded writes and removals (:func:`write_in_order`); the
review (``shell/review.py``) decides what to write (``core/review/plan.py``) and guards
each write with what it last saw.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from reviewtui.core.engine.fileops import normalize_or_none
from reviewtui.core.engine.links import is_link, link_state, link_target
from reviewtui.core.errors import DiskError
from reviewtui.core.paths import link_on_path
from reviewtui.core.tree import FileState
from reviewtui.shell.disk import (
    LINK_MODE,
    SKIP_DIRS,
    Link,
    read_file,
    read_link,
    remove_file,
    write_link,
)
from reviewtui.shell.state import blob_dir_for


@dataclass(slots=True)
class ReplayReport:
    """What one replay (or one batch of outside changes) did to the disk.

    ``events`` holds one (path, message) per event in the order they happened: what the
    reviewer and ``reviewtui apply`` are told; ``messages`` joins them as lines.
    """

    written: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    conflicts: list[str] = field(default_factory=list)
    rebased: list[str] = field(default_factory=list)  # written over an outside change
    outside: list[str] = field(default_factory=list)  # session paths changed outside
    refreshed: list[str] = field(default_factory=list)  # other paths changed outside
    would_write: list[str] = field(default_factory=list)  # dry run: left unwritten
    # Accepts that no longer land, taken back to pending: (operation key, notice).
    reverted: list[tuple[tuple[int, int], str]] = field(default_factory=list)
    # Bulk decisions left out because an accept cannot apply there (decide_many).
    skipped: list[tuple[int, int]] = field(default_factory=list)
    events: list[tuple[str, str]] = field(default_factory=list)  # (path, what happened)

    @property
    def messages(self) -> list[str]:
        return [f"{path}: {text}" for path, text in self.events]

    @property
    def touched_disk(self) -> bool:
        return bool(self.written or self.removed)

    def note(self, path: str, message: str) -> None:
        self.events.append((path, message))



# --- reading and walking the disk ------------------------------------------------------


class Directory:
    """The path is a directory on disk (the watcher reports those too)."""


DIRECTORY = Directory()


def same(a: FileState | None, b: FileState | None) -> bool:
    """Same content (absent counts); modes are the disk's business, not the guard's, but
    a link is never the same as a file holding its target."""
    if a is None or b is None:
        return a is b
    return a.data == b.data and is_link(a) == is_link(b)


def disk_state(found: tuple[bytes, int] | None) -> FileState | None:
    """What the disk layer found (bytes and mode; a link as its target) as a file state."""
    if found is None:
        return None
    data, mode = found
    return link_state(data) if mode == LINK_MODE else FileState.from_bytes(data, mode=mode)


def expected_of(state: FileState | None) -> bytes | None | Link:
    """What a guarded write expects on disk for ``state`` (a link: its target, as a link)."""
    if state is None:
        return None
    return Link(state.data) if is_link(state) else state.data


def put_state(root: Path, path: str, state: FileState | None,
              expected: bytes | None | Link) -> bool | None:
    """Write or remove ``path`` when either concerns a link; None when neither does (the
    caller writes the regular file). True when the disk changed."""
    if state is not None and is_link(state):
        return write_link(root, path, link_target(state), expected=expected)
    if state is None and isinstance(expected, Link):
        return remove_file(root, path, expected=expected)
    return None


def nested(a: str, b: str) -> bool:
    """Whether one path is a folder of the other (they cannot both be files)."""
    return a.startswith(b + "/") or b.startswith(a + "/")


def read_state(root: Path, path: str) -> FileState | None | Directory:
    """The file at ``path`` under ``root`` (None: absent), never through a link."""
    try:
        found = read_file(root, path)
    except DiskError as err:
        if err.rule == "directory":
            return DIRECTORY
        target = read_link(root, path) if err.rule == "symlink" else None
        if target is not None:  # the path itself is a link (none on its way): its target
            return link_state(os.fsencode(target))
        raise DiskError(err.message, source=path, rule=err.rule) from None
    return None if found is None else FileState.from_bytes(found[0], mode=found[1])


def walk_files(root: Path, directory: Path) -> Iterator[str]:
    """Root-relative files under ``directory``, skipping the folders reviewtui never reads."""
    for dirpath, dirnames, filenames in os.walk(directory, followlinks=False):
        dirnames[:] = [d for d in dirnames if d not in SKIP_DIRS]
        base = Path(dirpath)
        for name in filenames:
            yield (base / name).relative_to(root).as_posix()


def own_files(root: Path, state_path: Path | None) -> set[str]:
    """The state file and its blobs, when they live inside the root."""
    if state_path is None:
        return set()
    out: set[str] = set()
    for own in (state_path, blob_dir_for(state_path)):
        try:
            out.add(own.resolve().relative_to(root.resolve()).as_posix())
        except ValueError:
            continue
    return out


def expand_paths(root: Path, paths: Iterable[str], *,
                 files_under: Callable[[str], Iterable[str]], records: Iterable[str],
                 symlinks: Mapping[str, str], own: set[str]) -> set[str]:
    """Normalised paths; a directory stands for every file under it, then (the base tree's
    ``files_under`` and the ``records``' paths) or now (on disk). Our own files are left
    out."""
    def skipped(path: str) -> bool:
        return (any(path == mine or path.startswith(mine + "/") for mine in own)
                or any(part in SKIP_DIRS for part in path.split("/")))

    record_paths = list(records)
    out: set[str] = set()
    for raw in paths:
        path = normalize_or_none(raw)
        if path is None or skipped(path):
            continue
        prefix = path + "/"
        under = set(files_under(path))
        under.update(p for p in record_paths if p.startswith(prefix))
        full = root / path
        # Never walk through a link: it may lead out of the root (and is never written).
        if link_on_path(path, symlinks) is None and full.is_dir() and not full.is_symlink():
            under.update(walk_files(root, full))
        out.update(under or {path})
    return {path for path in out if not skipped(path)}


# --- the guarded write loop --------------------------------------------------------------


def write_in_order(changes: list[tuple[str, FileState | None]], report: ReplayReport, *,
                   put: Callable[[str, FileState | None], bool],
                   held_for: Callable[[str, list[str], set[str], dict[str, FileState | None]],
                                      str | None]) -> None:
    """Write, then remove, each through ``put`` (a content-guarded write or removal).

    Writes go first and a removal waits for the write that replaces it (a move's
    destination; ``held_for`` says "" while it waits, the failed replacement, or None):
    a file's last copy is never removed unless its replacement is on disk. A write waits
    for a removal only when one path is a folder of the other (a file becoming a folder,
    or back).
    """
    wanted = dict(changes)
    writes = sorted(path for path, state in changes if state is not None)
    removals = sorted(path for path, state in changes if state is None)
    failed: set[str] = set()
    progress = True
    while progress and (writes or removals):
        progress = False
        for path in list(writes):
            if any(nested(path, other) for other in removals):
                continue
            writes.remove(path)
            progress = True
            if not put(path, wanted[path]):
                failed.add(path)
        for path in list(removals):
            held = held_for(path, writes, failed, wanted)
            if held == "":
                continue  # its replacement is not written yet
            removals.remove(path)
            progress = True
            if held is not None:
                report.note(path, f"not removed: its content goes to {held}, which was "
                            "not written; the file stays until it is")
                continue
            put(path, None)
    for path in writes:  # waiting on a removal that waits on it: try, and report
        put(path, wanted[path])
    for path in removals:
        report.note(path, "not removed: what replaces it could not be written")
