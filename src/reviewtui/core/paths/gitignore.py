"""A small ``.gitignore`` matcher: which root-relative paths the watcher can skip.

Supported (the common subset of gitignore(5)): blank lines and ``#`` comments (``\\#``
for a literal hash), trailing spaces dropped (``\\ `` keeps one), ``!`` negation
(``\\!`` for a literal), ``dir/`` for directories only, ``/anchored`` and any pattern
with an inner ``/`` anchored at the root, ``*``, ``?``, ``[a-z]`` / ``[!a-z]``,
``**/`` (any leading directories), ``/**`` (everything inside) and ``/**/`` (zero or
more directories). As in git, a file whose parent directory is ignored cannot be
re-included by a later ``!`` pattern, and the last matching pattern wins.

Not supported: nested ``.gitignore`` files, ``.git/info/exclude``, the global excludes
file and ``core.ignoreCase``; only the root's own ``.gitignore`` is read. Pure: the
shell passes the file's text in.
"""

from __future__ import annotations

import re

from reviewtui.core.paths.wildcard import Piece, Wildcard, any_char, char_class, literal, not_slash
from reviewtui.core.record import record


@record(frozen=True, slots=True)
class IgnoreRule:
    pattern: str  # as written, for messages
    regex: re.Pattern[str] | Wildcard  # the same meaning; Wildcard where a regex backtracks
    negated: bool
    dir_only: bool


def _strip_trailing_spaces(line: str) -> str:
    end = len(line)
    while end and line[end - 1] == " ":
        if end >= 2 and line[end - 2] == "\\":
            return line[: end - 2] + " "
        end -= 1
    return line[:end]


def _class(body: str, at: int) -> tuple[str, int] | None:
    """A ``[...]`` character class starting at ``body[at]``: (regex, index after it)."""
    end = body.find("]", at + 2 if body[at + 1 : at + 2] in ("!", "^") else at + 1)
    if end < 0:
        return None
    inner = body[at + 1 : end]
    negate = inner[:1] in ("!", "^")
    if negate:
        inner = inner[1:]
    inner = inner.replace("\\", "\\\\")
    return f"[{'^' if negate else ''}{inner}]", end + 1


def _translate(body: str) -> tuple[str, list[Piece]]:
    """Glob text (no leading or trailing slash handling) to a regex fragment, and the same
    as wildcard pieces (for patterns a regex would backtrack on)."""
    out: list[str] = []
    pieces: list[Piece] = []
    i = 0
    while i < len(body):
        ch = body[i]
        if body.startswith("**/", i) and (i == 0 or body[i - 1] == "/"):
            out.append("(?:.*/)?")
            pieces.append(Piece("dirs"))
            i += 3
        elif body.startswith("**", i) and i + 2 == len(body) and (i == 0 or body[i - 1] == "/"):
            out.append(".*")
            pieces.append(Piece("many", any_char))
            i += 2
        elif ch == "*":
            while i < len(body) and body[i] == "*":
                i += 1  # any other run of stars is a plain "*"
            out.append("[^/]*")
            pieces.append(Piece("many", not_slash))
        elif ch == "?":
            out.append("[^/]")
            pieces.append(Piece("one", not_slash))
            i += 1
        elif ch == "[":
            found = _class(body, i)
            if found is None:
                out.append(re.escape(ch))
                pieces.append(literal(ch))
                i += 1
            else:
                out.append(found[0])
                pieces.append(Piece("one", char_class(found[0])))
                i = found[1]
        elif ch == "\\" and i + 1 < len(body):
            out.append(re.escape(body[i + 1]))
            pieces.append(literal(body[i + 1]))
            i += 2
        else:
            out.append(re.escape(ch))
            pieces.append(literal(ch))
            i += 1
    return "".join(out), pieces


# A regex with more unbounded repeats than this can backtrack for long enough to hang on a
# crafted name; such (rare) rules are matched as a Wildcard, slower but linear.
_MAX_REGEX_REPEATS = 2


def compile_rule(line: str) -> IgnoreRule | None:
    """One ``.gitignore`` line as a rule; None for blank lines and comments."""
    text = _strip_trailing_spaces(line.rstrip("\r\n"))
    if not text or text.startswith("#"):
        return None
    negated = text.startswith("!")
    if negated or text.startswith(("\\!", "\\#")):
        text = text[1:]  # the "!" marker, or the backslash of an escaped "!" / "#"
    dir_only = text.endswith("/")
    body = text.rstrip("/")
    if not body:
        return None
    anchored = "/" in body
    body = body.lstrip("/")
    if not body:
        return None
    prefix = "" if anchored else "(?:.*/)?"
    fragment, pieces = _translate(body)
    if not anchored:
        pieces.insert(0, Piece("dirs"))
    repeats = sum(piece.kind != "one" for piece in pieces)
    matcher: re.Pattern[str] | Wildcard = (
        re.compile(prefix + fragment, re.DOTALL) if repeats <= _MAX_REGEX_REPEATS
        else Wildcard(pieces))
    return IgnoreRule(line.strip(), matcher, negated, dir_only)


class GitIgnore:
    """The rules of one ``.gitignore`` at the project root."""

    __slots__ = ("rules",)

    def __init__(self, rules: tuple[IgnoreRule, ...] = ()) -> None:
        self.rules = rules

    @classmethod
    def from_text(cls, text: str) -> GitIgnore:
        # Lines end at "\n" alone, less one "\r" before it, as git reads them: a form
        # feed, U+2028 or a lone "\r" is part of a pattern (str.splitlines split there).
        rules = (compile_rule(line[:-1] if line.endswith("\r") else line)
                 for line in text.split("\n"))
        return cls(tuple(rule for rule in rules if rule is not None))

    def __bool__(self) -> bool:
        return bool(self.rules)

    def _matches(self, path: str, is_dir: bool) -> bool:
        ignored = False
        for rule in self.rules:
            if rule.dir_only and not is_dir:
                continue
            if rule.regex.fullmatch(path):
                ignored = not rule.negated
        return ignored

    def ignored(self, path: str, *, is_dir: bool = False) -> bool:
        """Whether the root-relative POSIX ``path`` is ignored (or lies in an ignored dir)."""
        if not self.rules:
            return False
        parts = path.strip("/").split("/")
        for depth in range(1, len(parts)):
            if self._matches("/".join(parts[:depth]), True):
                return True
        return self._matches("/".join(parts), is_dir)
