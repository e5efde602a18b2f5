"""App-wide messages, named as events."""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from reviewtui.shell.replay_report import ReplayReport


@dataclass
class FilesChanged(Message):
    """The watcher saw these root-relative paths change on disk."""

    paths: frozenset[str]


@dataclass
class OutsideChangeTaken(Message):
    """The review took in an outside change (rebased, conflicted, refreshed): show it."""

    report: ReplayReport


@dataclass
class WatcherFailed(Message):
    reason: str


@dataclass
class SessionGrew(Message):
    """A live session recorded new operations (and the workbench's gate took some)."""

    new: tuple[tuple[int, int], ...]
    accepted: tuple[tuple[int, int], ...] = ()
    problem: str = ""
