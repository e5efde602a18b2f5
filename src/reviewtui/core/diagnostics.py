"""Built-in syntax checks: does a file still parse after an operation?

Each check looks at one file's text and reports where it stops making sense. The engine
never runs them on its own: :func:`diagnose_result` is called by the workbench and the
headless commands for the operations they show, and caches its answer per (path, content
before, content after), so opening a 5,000-operation session costs nothing.

A diagnostic is *introduced* when the file before the operation did not have it (the
same check, the same message, at the line the operation's unchanged lines carry it to).
Errors that were already there are reported too, but are not blamed on the operation.

What each check can see (also in docs/engine.md, "Syntax checks"):

* ``python`` (``.py``, ``.pyi``): ``ast.parse``, the interpreter's own parser. Exact, but
  it stops at the first error, so it reports at most one.
* ``json`` (``.json``): ``json.loads``; strict JSON (no comments, no trailing commas), the
  first error only.
* ``toml`` (``.toml``): ``tomllib.loads``, the first error only.
* ``brackets`` (C family, JavaScript/TypeScript, Go, Rust, Java, CSS, Ruby, R...): that
  ``()[]{}`` nest and close. Strings and comments are skipped roughly by language family
  (quotes with backslash escapes; ``//`` and ``/* */``, or ``#``); raw strings, regex
  literals, heredocs and template nesting can fool it. It sees no other mistakes.

Other files (Markdown, text, YAML, shell, HTML...) are not checked.
"""

from __future__ import annotations

import ast
import difflib
import hashlib
import json
import re
import tomllib
import warnings
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import PurePosixPath

from reviewtui.core.engine import OpResult
from reviewtui.core.tree import FileState

MAX_BRACKET_DIAGNOSTICS = 5
_CACHE_SIZE = 4096


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """One problem in the file as an operation leaves it. ``line``/``col`` are 1-based."""

    line: int
    col: int
    message: str
    introduced: bool
    check: str

    def to_json(self) -> dict[str, object]:
        return {"line": self.line, "col": self.col, "message": self.message,
                "introduced": self.introduced, "check": self.check}


# (line, col, message) from one check
_Problem = tuple[int, int, str]


def _python(text: str) -> list[_Problem]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")  # invalid escapes and the like are not errors
            ast.parse(text)
    except SyntaxError as err:
        return [(err.lineno or 1, err.offset or 1, err.msg)]
    except (ValueError, RecursionError, MemoryError) as err:  # NUL bytes, deep nesting
        return [(1, 1, str(err) or type(err).__name__)]
    return []


def _json(text: str) -> list[_Problem]:
    try:
        # Integers are kept as text: JSON allows any length, Python's int() stops at 4,300
        # digits, and only the syntax matters here.
        json.loads(text, parse_int=str)
    except json.JSONDecodeError as err:
        return [(err.lineno, err.colno, err.msg)]
    except RecursionError:
        return [(1, 1, "nested too deeply")]
    return []


_TOML_WHERE = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")
_TOML_END = re.compile(r"\s*\(at end of document\)$")


def _toml(text: str) -> list[_Problem]:
    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        message = str(err)
        where = _TOML_WHERE.search(message)
        if where:
            return [(int(where[1]), int(where[2]), message[: where.start()])]
        end = _TOML_END.search(message)
        if end:
            return [(text.count("\n") + 1, 1, message[: end.start()] + " at the end")]
        return [(1, 1, message)]
    except RecursionError:
        return [(1, 1, "nested too deeply")]
    except ValueError:  # int() past 4,300 digits; TOML integers are 64-bit anyway
        return [(1, 1, "an integer too large for TOML")]
    return []


@dataclass(frozen=True, slots=True)
class _Family:
    line_comments: tuple[str, ...]
    block_comment: tuple[str, str] | None
    quotes: str


_C = _Family(("//",), ("/*", "*/"), "\"'")
_JS = _Family(("//",), ("/*", "*/"), "\"'`")
_RUST = _Family(("//",), ("/*", "*/"), "\"")  # 'a is a lifetime, not a quote
_CSS = _Family((), ("/*", "*/"), "\"'")
_HASH = _Family(("#",), None, "\"'")

_CLOSERS = {")": "(", "]": "[", "}": "{"}


def _brackets(family: _Family) -> Callable[[str], list[_Problem]]:
    def check(text: str) -> list[_Problem]:
        return _bracket_problems(text, family)

    return check


def _bracket_problems(text: str, family: _Family) -> list[_Problem]:
    stack: list[tuple[str, int, int]] = []
    problems: list[_Problem] = []
    line, col = 1, 0
    i, n = 0, len(text)
    quote: str | None = None
    block_end: str | None = None
    while i < n and len(problems) < MAX_BRACKET_DIAGNOSTICS:
        ch = text[i]
        col += 1
        if ch == "\n":
            line, col = line + 1, 0
            if quote is not None and quote != "`":
                quote = None  # an unterminated string ends at the line end (roughly)
            i += 1
            continue
        if block_end is not None:
            if text.startswith(block_end, i):
                i += len(block_end)
                col += len(block_end) - 1
                block_end = None
            else:
                i += 1
            continue
        if quote is not None:
            if ch == "\\" and text[i + 1 : i + 2] not in ("", "\n"):
                i += 2
                col += 1
                continue
            if ch == quote:
                quote = None
            i += 1
            continue
        if any(text.startswith(c, i) for c in family.line_comments):
            end = text.find("\n", i)
            col += (n if end < 0 else end) - i - 1
            i = n if end < 0 else end
            continue
        if family.block_comment and text.startswith(family.block_comment[0], i):
            block_end = family.block_comment[1]
            i += len(family.block_comment[0])
            col += len(family.block_comment[0]) - 1
            continue
        if ch in family.quotes:
            quote = ch
        elif ch in "([{":
            stack.append((ch, line, col))
        elif ch in _CLOSERS:
            if not stack:
                problems.append((line, col, f"unmatched '{ch}'"))
            elif stack[-1][0] != _CLOSERS[ch]:
                # No position of the opener in the message: messages are compared
                # across versions, where lines move.
                opener = stack.pop()[0]
                problems.append((line, col, f"'{ch}' does not close the open '{opener}'"))
            else:
                stack.pop()
        i += 1
    for opener, oline, ocol in stack[: MAX_BRACKET_DIAGNOSTICS - len(problems)]:
        problems.append((oline, ocol, f"'{opener}' is never closed"))
    return problems


_CHECKS: dict[str, tuple[str, Callable[[str], list[_Problem]]]] = {
    ".py": ("python", _python), ".pyi": ("python", _python),
    ".json": ("json", _json),
    ".toml": ("toml", _toml),
    **{ext: ("brackets", _brackets(_C)) for ext in (
        ".c", ".h", ".cc", ".cpp", ".cxx", ".hpp", ".hh", ".java", ".cs",
        ".kt", ".kts", ".swift", ".scala", ".dart", ".php")},
    **{ext: ("brackets", _brackets(_JS)) for ext in (
        ".js", ".mjs", ".cjs", ".jsx", ".ts", ".mts", ".cts", ".tsx", ".go")},
    ".rs": ("brackets", _brackets(_RUST)),
    **{ext: ("brackets", _brackets(_CSS)) for ext in (".css", ".scss", ".less")},
    **{ext: ("brackets", _brackets(_HASH)) for ext in (".rb", ".r")},
}


def check_for(path: str) -> str | None:
    """The name of the check that runs on ``path``, or None when none does."""
    found = _CHECKS.get(PurePosixPath(path).suffix.lower())
    return found[0] if found else None


def diagnose_text(path: str, text: str) -> list[tuple[int, int, str, str]]:
    """(line, col, message, check) for every problem the check for ``path`` finds."""
    found = _CHECKS.get(PurePosixPath(path).suffix.lower())
    if found is None:
        return []
    name, check = found
    return [(line, col, message, name) for line, col, message in check(text)]


def _line_map(before: str, after: str) -> dict[int, int]:
    """1-based line numbers of unchanged lines: before -> after."""
    old, new = before.split("\n"), after.split("\n")
    mapping: dict[int, int] = {}
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for a, b, size in matcher.get_matching_blocks():
        for k in range(size):
            mapping[a + k + 1] = b + k + 1
    return mapping


def diagnose_change(path: str, before_text: str | None,
                    after_text: str | None) -> list[Diagnostic]:
    """The problems in ``after_text``, each marked introduced or already there.

    ``before_text`` is None for a new file (everything is introduced); ``after_text`` is
    None for a removed file (nothing to check).
    """
    if after_text is None:
        return []
    after = diagnose_text(path, after_text)
    if not after:
        return []
    before = diagnose_text(path, before_text) if before_text is not None else []
    mapping = _line_map(before_text, after_text) if before and before_text is not None else {}
    old = {(mapping.get(line), message, check) for line, _col, message, check in before}
    return [Diagnostic(line, col, message, (line, message, check) not in old, check)
            for line, col, message, check in after]


# -- per operation, cached ------------------------------------------------------------------

_cache: dict[tuple[str, str, str], tuple[Diagnostic, ...]] = {}


def _digest(text: str | None) -> str:
    return "-" if text is None else hashlib.sha256(text.encode("utf-8", "replace")).hexdigest()


def _texts(result: OpResult) -> tuple[str, str | None, str | None] | None:
    """(path, before, after) of a file operation that produced a new version, else None."""
    path = result.outcome.path
    if not path or check_for(path) is None:
        return None
    return change_texts(result)


def change_texts(result: OpResult) -> tuple[str, str | None, str | None] | None:
    """(path, before, after) of any file operation that produced a new version, else None.

    ``before`` is None for a new file. Unlike the built-in checks, project checks may run on
    any file type, so this does not ask whether a built-in check exists.
    """
    outcome = result.outcome
    path = outcome.path
    if not path:
        return None
    before = outcome.extra.get("before_state")
    after = outcome.extra.get("after_state")
    before_text = before.text if isinstance(before, FileState) else None
    if isinstance(after, FileState):
        return path, before_text, after.text
    if outcome.method == "new-file" and outcome.lines is not None:
        return path, None, outcome.after + "\n"
    return None


def diagnose_result(result: OpResult) -> tuple[Diagnostic, ...]:
    """The diagnostics of the file as this operation would leave it (cached)."""
    texts = _texts(result)
    if texts is None:
        return ()
    path, before, after = texts
    key = (path, _digest(before), _digest(after))
    cached = _cache.get(key)
    if cached is None:
        if len(_cache) >= _CACHE_SIZE:
            _cache.clear()
        cached = _cache[key] = tuple(diagnose_change(path, before, after))
    return cached


def introduced(result: OpResult) -> tuple[Diagnostic, ...]:
    """Only the diagnostics this operation introduced."""
    return tuple(d for d in diagnose_result(result) if d.introduced)
