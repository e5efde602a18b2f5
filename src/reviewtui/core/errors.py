"""Every exception reviewtui raises on purpose, in one place.

Each carries its context as attributes, and ``str()`` is a message a user can act on:
which file, which line, which rule, what to do next.
"""

from __future__ import annotations


class ReviewtuiError(Exception):
    """Base class: anything the CLI turns into a clean message and exit code 2."""

    def __init__(self, message: str, *, source: str = "", line: int | None = None,
                 rule: str = "") -> None:
        self.message = message
        self.source = source
        self.line = line
        self.rule = rule
        super().__init__(self.__str__())

    def __str__(self) -> str:
        where = self.source
        if where and self.line is not None:
            where = f"{where}:{self.line}"
        prefix = f"{where}: " if where else ""
        rule = f" [{self.rule}]" if self.rule else ""
        return f"{prefix}{self.message}{rule}"


class SessionFormatError(ReviewtuiError):
    """The input cannot be read as any session format (bad JSON, wrong shape)."""


class ConfigError(ReviewtuiError):
    """``reviewtui.toml`` is malformed."""


class PathRefused(ReviewtuiError):
    """A path breaks a safety rule (absolute, ``..``, ``.git/``, symlink escape...)."""

    def __init__(self, path: str, rule: str, message: str) -> None:
        self.path = path
        super().__init__(message, rule=rule)


class UsageError(ReviewtuiError):
    """The command line asks for something that cannot be done."""


class DiskError(ReviewtuiError):
    """Reading or writing the project on disk failed."""


class LockedError(ReviewtuiError):
    """Another reviewtui already replays onto this project root."""

    def __init__(self, root: str, pid: int | None, lock_file: str) -> None:
        self.root = root
        self.pid = pid
        self.lock_file = lock_file
        holder = f"pid {pid}" if pid is not None else "a process whose pid is unknown"
        super().__init__(f"already open in another reviewtui ({holder}); close that one "
                         "first, or open this one with --dry-run", source=root, rule="locked")


class WatchError(ReviewtuiError):
    """Watching the project root failed (it was removed, or too many files to watch)."""


class GitError(ReviewtuiError):
    """A ``git`` command failed, or a repository is not in the state an action needs."""
