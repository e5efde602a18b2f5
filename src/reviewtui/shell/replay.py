"""Make the disk equal to the draft for the paths that differ from the base.

Before touching a path the file on disk is compared by content with what the
draft was built from; a file someone else changed meanwhile is left alone and
reported as a conflict, never overwritten.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from reviewtui.core.tree import FileState, Tree
from reviewtui.shell.disk import atomic_write, remove_file, target_path


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
    events: list[tuple[str, str]] = field(default_factory=list)  # (path, what happened)

    @property
    def messages(self) -> list[str]:
        return [f"{path}: {text}" for path, text in self.events]

    @property
    def touched_disk(self) -> bool:
        return bool(self.written or self.removed)

    def note(self, path: str, message: str) -> None:
        self.events.append((path, message))


def _disk_matches(root: Path, rel: str, expected: FileState | None) -> bool:
    path = target_path(root, rel)
    if expected is None:
        return not path.exists()
    try:
        return path.read_bytes() == expected.data
    except OSError:
        return False


def replay(root: Path, base: Tree, draft: Tree) -> ReplayReport:
    report = ReplayReport()
    changes = base.diff(draft)
    # Removals first, so a move onto a path that held a removed file finds it free.
    for rel in sorted(changes, key=lambda p: changes[p][1] is not None):
        old, new = changes[rel]
        if not _disk_matches(root, rel, old):
            report.conflicts.append(rel)
            continue
        if new is None:
            remove_file(root, rel)
            report.removed.append(rel)
        else:
            atomic_write(root, rel, new.data, new.mode)
            report.written.append(rel)
    return report
