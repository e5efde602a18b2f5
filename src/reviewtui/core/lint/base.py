"""The pieces every rule module shares: the rule record, what a check yields, the context.

A rule is a small function from a ``LintContext`` to ``Hit``s, wrapped by the
``@rule`` decorator into a ``Rule`` that carries its stable id, default severity and
a one-line summary. The runner turns hits into ``Finding``s, so check functions
never repeat their own id.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Iterable
from functools import lru_cache

from reviewtui.core.lint.findings import Finding, Severity
from reviewtui.core.model.records import (
    CommandName,
    ConsoleBlock,
    ConsoleCommand,
    Edit,
    FileBlock,
    Reply,
    Span,
)
from reviewtui.core.record import record
from reviewtui.core.text.lines import split_lines

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from typing import Any, TypeVar

    from reviewtui.core.paths.wildcard import Wildcard

    T = TypeVar("T")

FileText = Callable[[str], str | None]


@record(frozen=True, slots=True)
class Hit:
    """One place a check found its rule broken; ``severity`` overrides the rule's default."""

    span: Span
    message: str
    path: str = ""
    severity: Severity | None = None


CheckFn = Callable[["LintContext"], Iterable[Hit]]


@record(frozen=True, slots=True)
class Rule:
    """A protocol rule. ``check`` is ``None`` for problems the parser itself reports."""

    id: str
    severity: Severity
    summary: str
    check: CheckFn | None = None
    needs_file: bool = False

    @property
    def source(self) -> str:
        return "lint" if self.check is not None else "parser"

    def run(self, ctx: LintContext, turn: int | None = None) -> list[Finding]:
        if self.check is None or (self.needs_file and ctx.file_text is None):
            return []
        return [
            Finding(self.id, hit.severity or self.severity, hit.span, hit.message, hit.path, turn)
            for hit in self.check(ctx)
        ]


def rule(
    rule_id: str, severity: Severity, summary: str, *, needs_file: bool = False
) -> Callable[[CheckFn], Rule]:
    """Decorate a check function into a ``Rule``."""

    def wrap(check: CheckFn) -> Rule:
        return Rule(rule_id, severity, summary, check, needs_file)

    return wrap


class LintContext:
    """One reply plus what the rules keep asking about it, computed once."""

    def __init__(self, reply: Reply, file_text: FileText | None = None) -> None:
        self.reply = reply
        self.file_text = file_text
        self.file_blocks: tuple[FileBlock, ...] = reply.file_blocks
        self.console_blocks: tuple[ConsoleBlock, ...] = reply.console_blocks
        self.commands: tuple[ConsoleCommand, ...] = tuple(
            cmd for block in self.console_blocks for cmd in block.commands
        )
        self.edits: tuple[Edit, ...] = tuple(
            op for block in self.file_blocks for op in block.ops if isinstance(op, Edit)
        )
        self.edits_by_path: dict[str, list[Edit]] = {}
        for edit in self.edits:
            if path_key(edit.path):
                self.edits_by_path.setdefault(path_key(edit.path), []).append(edit)
        self._lines: dict[str, list[str] | None] = {}
        self._memo: dict[Callable[[LintContext], Any], Any] = {}

    def memo(self, compute: Callable[[LintContext], T]) -> T:
        """``compute(self)``, worked out once however many rules ask for it."""
        if compute not in self._memo:
            self._memo[compute] = compute(self)
        found: T = self._memo[compute]
        return found

    def file_lines(self, path: str) -> list[str] | None:
        """The file's lines as this turn's file blocks see it; ``None`` if missing or unknown.

        ``file_text`` may answer for the state before the turn or after its own moves:
        when a path is unknown, it is traced back through the turn's ``:mv``/``:rn``
        to the name the file had before them.
        """
        if self.file_text is None:
            return None
        if path not in self._lines:
            text = self.file_text(path)
            if text is None:
                earlier = moved_from(path, effective_moves(self.commands))
                text = self.file_text(earlier) if earlier != path else None
            self._lines[path] = None if text is None else split_lines(text)
        return self._lines[path]


def undo_in_reply(commands: tuple[ConsoleCommand, ...]) -> tuple[list[ConsoleCommand], bool]:
    """The commands still in force after the reply's own ``:undo``s.

    The flag says whether some ``:undo`` reached back past this reply, undoing a
    command of an earlier turn that lint cannot see.
    """
    done: list[ConsoleCommand] = []
    reaches_back = False
    for cmd in commands:
        if cmd.name is not CommandName.UNDO:
            done.append(cmd)
        elif done:
            done.pop()
        else:
            reaches_back = True
    return done, reaches_back


def effective_moves(commands: tuple[ConsoleCommand, ...]) -> list[ConsoleCommand]:
    """The ``:mv``/``:rn`` commands left after the reply's own ``:undo``s, in order."""
    done, _ = undo_in_reply(commands)
    return [c for c in done if c.name in (CommandName.MV, CommandName.RN) and len(c.args) == 2]


def moved_from(path: str, moves: list[ConsoleCommand]) -> str:
    """The name ``path`` had before ``moves`` ran (``path`` itself if none touched it)."""
    key = path_key(path)
    for cmd in reversed(moves):
        src, dest = path_key(cmd.args[0]), path_key(cmd.args[1])
        into = cmd.args[1].endswith("/")
        target = f"{dest}/{posixpath.basename(src)}" if into else dest
        if contains(target, key):
            key = src + key[len(target):]
        elif cmd.name is CommandName.RN and "/" not in cmd.args[0] and "/" not in cmd.args[1]:
            head, _, name = key.rpartition("/")
            if dest in name:  # a substring rename (":rn .jsx .tsx"): undo it in the name
                key = f"{head}/{name.replace(dest, src)}" if head else name.replace(dest, src)
    return key


# -- paths ---------------------------------------------------------------------------

GLOB_CHARS = frozenset("*?")


@lru_cache(maxsize=4096)
def path_key(path: str) -> str:
    """A comparison key for a path as written: ``./a//b.js``, ``a\\b.js`` -> ``a/b.js``.

    Only for telling whether two mentions name the same file; findings always quote
    the path as the model wrote it.
    """
    p = path.strip().strip("`").replace("\\", "/")
    if not p:
        return ""
    p = posixpath.normpath(p)
    return "" if p == "." else p


def is_glob(path: str) -> bool:
    return any(c in GLOB_CHARS for c in path)


def glob_match(pattern: str, path: str) -> bool:
    """``*`` and ``?`` stay within one path component; ``**`` spans any number of them."""
    return _glob_wildcard(path_key(pattern)).fullmatch(path_key(path))


@lru_cache(maxsize=256)
def _glob_wildcard(pattern: str) -> Wildcard:
    """Matched without backtracking: footers are outside text (``*a*a*a...b`` hung)."""
    # Here: only a glob in a footer or a command needs it.
    from reviewtui.core.paths.wildcard import Piece, Wildcard, literal, not_newline, not_slash

    pieces: list[Piece] = []
    i = 0
    while i < len(pattern):
        if pattern.startswith("**/", i):
            pieces.append(Piece("dirs", not_newline))  # as the regex "." it replaced
            i += 3
        elif pattern.startswith("**", i):
            pieces.append(Piece("many", not_newline))
            i += 2
        elif pattern[i] == "*":
            pieces.append(Piece("many", not_slash))
            i += 1
        elif pattern[i] == "?":
            pieces.append(Piece("one", not_slash))
            i += 1
        else:
            pieces.append(literal(pattern[i]))
            i += 1
    return Wildcard(pieces)


def contains(outer: str, inner: str) -> bool:
    """True when the path key ``inner`` is ``outer`` itself or lies below it."""
    return bool(outer) and (inner == outer or inner.startswith(outer + "/"))
