"""What one replay, or one batch of outside changes, did to the disk: the record every
decision and every outside change returns (:mod:`reviewtui.shell.replay` fills it, the
workbench and ``reviewtui apply`` report it)."""

from __future__ import annotations

from reviewtui.core.record import field, record


@record(slots=True)
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
    # Session paths put back outside to the content the session started from (git
    # checkout -- FILE): their accepts are taken back (shell/outside.py take_back).
    put_back: list[str] = field(default_factory=list)
    back_again: list[str] = field(default_factory=list)  # and then back to the review's bytes
    adopted: list[str] = field(default_factory=list)  # taken from disk as new originals
    # Changed, but another program holds them open for writing (a save under way): not
    # taken in yet; the watcher asks again (shell/watch.py follow_review).
    held: list[str] = field(default_factory=list)
    # Bulk decisions left out because an accept cannot apply there (decide_many).
    skipped: list[tuple[int, int]] = field(default_factory=list)
    events: list[tuple[str, str]] = field(default_factory=list)  # (path, what happened)
    told: list[str] = field(default_factory=list)  # of events: shown as they happen (note)
    # An outside change held nothing the review had not seen (the watcher reporting its
    # own writes): the review is as it was, and a screen has nothing to draw again.
    unchanged: bool = False

    @property
    def messages(self) -> list[str]:
        return [f"{path}: {text}" for path, text in self.events]

    @property
    def touched_disk(self) -> bool:
        return bool(self.written or self.removed)

    def note(self, path: str, message: str, *, tell: bool = False) -> None:
        """``tell``: the workbench shows it as it happens (most events are said in the
        detail pane): decisions written into a file that came back from outside."""
        self.events.append((path, message))
        if tell:
            self.told.append(f"{path}: {message}")
