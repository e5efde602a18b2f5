"""Every exception reviewtui raises on purpose, in one place.

Each carries its context as attributes, and ``str()`` is a message a user can act on:
which file, which line, which rule, what to do next.
"""

from __future__ import annotations

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.core.text.hashline import LineRef


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


class PatchError(SessionFormatError):
    """A Codex ``apply_patch`` text breaks the patch grammar at ``line`` (1-based).

    The importer turns it into a clean :class:`SessionFormatError` for a one-patch text,
    or into a problem on that patch's turn when the text holds several patches.
    """

    line: int  # always known here

    def __init__(self, rule: str, message: str, line: int) -> None:
        super().__init__(message, line=line, rule=rule)


class StateFormatError(ReviewtuiError):
    """A saved review state (or one of its records) does not have the expected shape.

    Not a ``ValueError``: code that reads a state file catches it by name.
    """


class MissingBlob(StateFormatError):
    """A saved review state names a content blob (``sha``) that is not in its blob store."""

    def __init__(self, sha: str) -> None:
        self.sha = sha
        super().__init__(f"the saved content blob {sha[:12]} is missing", rule="missing-blob")


class ConfigError(ReviewtuiError):
    """``reviewtui.toml`` is malformed."""


class PathRefused(ReviewtuiError):
    """A path breaks a safety rule (absolute, ``..``, ``.git/``, symlink escape...)."""

    def __init__(self, path: str, rule: str, message: str) -> None:
        self.path = path
        super().__init__(message, rule=rule)


class UsageError(ReviewtuiError):
    """The command line asks for something that cannot be done."""


class StaleRef(ReviewtuiError):
    """A hash-addressed line reference (``12:a3``) that does not resolve in the file as it is.

    ``rule`` says why (out of range, stale tag, a range ending before it starts); ``ref``
    is the reference that failed. The engine turns it into a refused outcome.
    """

    def __init__(self, rule: str, message: str, ref: LineRef) -> None:
        self.ref = ref
        super().__init__(message, rule=rule)


class DiskError(ReviewtuiError):
    """Reading or writing the project on disk failed."""


class DiskChanged(DiskError):
    """A file was not what the writer expected just before its rename (compare-and-swap).

    ``current`` is what is there now: ``(bytes, mode)``, or None when the file is absent.
    Nothing was written; the caller decides (rebase, conflict).
    """

    def __init__(self, path: str, current: tuple[bytes, int] | None) -> None:
        self.current = current
        super().__init__("changed on disk while being written; nothing was written",
                         source=path, rule="changed")


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


class DecisionRefused(ReviewtuiError):
    """A decision that cannot apply: accepting an operation whose outcome cannot land.

    Accepting an ambiguous, not-found or refused operation (or a near match without
    forcing it) would record a decision that writes nothing now and could land somewhere
    the reviewer never saw later, so it is not recorded. ``key`` is (turn, position).
    """

    def __init__(self, key: tuple[int, int], status: str, message: str) -> None:
        self.key = key
        self.status = status
        super().__init__(message, rule="cannot-accept")


class InputLimitError(SessionFormatError):
    """Outside text goes past a bound reviewtui keeps (file size, JSON nesting, digits).

    ``needle`` is the offending text when the parser that met it did not know its line,
    so the entry point that holds the whole text can still say where it is.
    """

    def __init__(self, message: str, *, source: str = "", line: int | None = None,
                 rule: str = "", needle: str = "") -> None:
        self.needle = needle
        super().__init__(message, source=source, line=line, rule=rule)


class GitError(ReviewtuiError):
    """A ``git`` command failed, or a repository is not in the state an action needs."""
