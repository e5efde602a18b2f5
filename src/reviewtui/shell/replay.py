"""What one replay did to the disk: the report the review (shell/review.py) returns.

The replay itself lives in :class:`reviewtui.shell.review.Review`: content-guarded,
with outside changes rebased over or reported as conflicts.
"""

from __future__ import annotations

from dataclasses import dataclass, field


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

