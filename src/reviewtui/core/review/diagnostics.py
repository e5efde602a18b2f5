"""Built-in syntax checks: does a file still parse after an operation?

Each check looks at one file's text and reports where it stops making sense. The engine
never runs them on its own: :func:`diagnose_result` is called by the workbench and the
headless commands for the operations they show, and caches its answer per (path, content
before, content after), so opening a 5,000-operation session costs nothing.

A diagnostic is *introduced* when the file before the operation did not have it (the
same check, the same message, at the line the operation's unchanged lines carry it to).
Errors that were already there are reported too, but are not blamed on the operation.

What each check can see (also in docs/engine.md, "Syntax checks"):

* ``python`` (``.py``, ``.pyi``): the interpreter's own parser and symbol table
  (``symtable``: every error ``ast.parse`` finds, and those Python raises before running
  a module, such as a repeated argument name; about half the cost of ``ast.parse``, which
  builds objects for every node). Exact, but it stops at the first error, so it reports
  at most one.
* ``json`` (``.json``): ``json.loads``; strict JSON (no comments, no trailing commas), the
  first error only. ``.jsonc``, and a ``.json`` file that held comments before the
  operation and parsed without them: the same with comments and trailing commas blanked
  (``json with comments``, :mod:`reviewtui.core.syntax.jsonc`).
* ``toml`` (``.toml``): ``tomllib.loads``, the first error only.
* tree-sitter (JavaScript, TypeScript/TSX, Go, Rust, Java, C, C++, C#, Ruby, PHP, Swift,
  Kotlin, Scala, Bash, CSS, SCSS, HTML, YAML, Lua, Elixir, Haskell, SQL; see
  ``core/syntax/languages.py``): the language's grammar, every ``ERROR`` node ("unexpected
  `)`") and ``MISSING`` node ("missing `}`"), the first few. The tree of the file before the
  operation is re-used, so only the edited region is parsed again.

Other files (Markdown, text, languages without a grammar wheel...) are not checked.
The lines of the file before are carried to the file after through the operation's own
edit span (``Outcome.lines``), never by diffing the whole file.
"""

from __future__ import annotations

import re
import warnings
from collections.abc import Callable, Iterator, Mapping
from pathlib import PurePosixPath

from reviewtui.core.engine import OpResult
from reviewtui.core.model.tree import FileState
from reviewtui.core.record import record, replace
from reviewtui.core.text.content import text_key

try:  # symtable.symtable's C function: only its errors are wanted, not the tree (~1 ms)
    from _symtable import symtable as _symbol_table  # type: ignore[import-not-found]
except ImportError:  # pragma: no cover - an interpreter without CPython's _symtable
    from symtable import symtable as _symbol_table

# The TOML parser, tree-sitter's languages and parsing, and the region checker are
# imported by the checks that use them: a one-file Python session loads none (start-up).

_CACHE_SIZE = 4096
_INNER_MAX = 5_000  # lines: a longer replaced span is not diffed (its lines count as new)
# Tree errors compared before/after: a file the grammar already misreads in many places (C
# full of macros) must not hide a new error behind its first few old ones. Only
# MAX_PROBLEMS of each kind are shown.
_COMPARED = 64
# Grammars that misread each entry of a C "X-macro" list as a call missing its ";".
_MACRO_LISTS = frozenset({"tree-sitter c", "tree-sitter cpp"})
# Grammars of languages with #if/#else/#endif, which read every branch as code at once
# (core/syntax/preproc.py): C, C++ and C# (BenchmarkDotNet: 17 of 23 C# files its last 300
# commits were said to break were #if branches each whole alone).
_PREPROCESSED = _MACRO_LISTS | {"tree-sitter c-sharp"}


@record(frozen=True, slots=True)
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
            # The parser and the symbol table, without converting the tree to Python
            # objects: the same syntax errors as ast.parse plus the symbol table's own.
            _symbol_table(text, "<file>", "exec")
    except SyntaxError as err:
        return [(err.lineno or 1, err.offset or 1, err.msg)]
    except (ValueError, RecursionError, MemoryError) as err:  # NUL bytes, deep nesting
        return [(1, 1, str(err) or type(err).__name__)]
    return []


def _json(text: str) -> list[_Problem]:
    import json  # a .json file's check only

    try:
        # Integers are kept as text: JSON allows any length, Python's int() stops at 4,300
        # digits, and only the syntax matters here.
        json.loads(text, parse_int=str)
    except json.JSONDecodeError as err:
        return [(err.lineno, err.colno, err.msg)]
    except RecursionError:
        return [(1, 1, "nested too deeply")]
    return []


def _jsonc(text: str) -> list[_Problem]:
    from reviewtui.core.syntax.jsonc import without_comments

    return _json(without_comments(text))


# Where tomllib's message says the error is. The blanks before it start where a run does
# ((?<!\s)): searched, "\s*" tried every start in a run of blanks to its end (quadratic);
# the leftmost match, and so every reading, is the same (tests/core/test_regex_linear.py).
TOML_AT = r"(?<!\s)\s*+\(at line (\d+), column (\d+)\)$"
TOML_END = r"(?<!\s)\s*+\(at end of document\)$"


def _toml(text: str) -> list[_Problem]:
    import tomllib

    try:
        tomllib.loads(text)
    except tomllib.TOMLDecodeError as err:
        message = str(err)
        # Patterns compiled (and cached by re) only when a TOML file fails to parse.
        where = re.search(TOML_AT, message)
        if where:
            return [(int(where[1]), int(where[2]), message[: where.start()])]
        end = re.search(TOML_END, message)
        if end:
            return [(text.count("\n") + 1, 1, message[: end.start()] + " at the end")]
        return [(1, 1, message)]
    except RecursionError:
        return [(1, 1, "nested too deeply")]
    except ValueError:  # int() past 4,300 digits; TOML integers are 64-bit anyway
        return [(1, 1, "an integer too large for TOML")]
    return []


_CHECKS: dict[str, tuple[str, Callable[[str], list[_Problem]]]] = {
    ".py": ("python", _python), ".pyi": ("python", _python),
    ".json": ("json", _json), ".jsonc": ("json with comments", _jsonc),
    ".toml": ("toml", _toml),
}


def _tree_check(path: str) -> str | None:
    from reviewtui.core.syntax.languages import grammar_name

    name = grammar_name(path)
    return None if name is None else f"tree-sitter {name}"


def _tree_problems(path: str, text: str, previous: str | None = None) -> list[_Problem]:
    from reviewtui.core.syntax.parsing import TooSlow, parse
    from reviewtui.core.syntax.problems import problems

    try:
        parsed = parse(path, text, previous)
    except TooSlow as slow:  # (said at line 1: a version that did parse in time compared
        # with one that did not reads as a change to check by hand, not as nothing found)
        return [(1, 0, f"not checked: {slow} on this text")]
    return [] if parsed is None else problems(parsed, _COMPARED)


_TEXT_CACHE_SIZE = 256
_text_cache: dict[tuple[str, str], list[_Problem]] = {}


def _checked(name: str, check: Callable[[str], list[_Problem]], text: str) -> list[_Problem]:
    """``check(text)``, cached per content hash: ``check`` then ``apply``, the badges and
    ``.``, a file version checked before and after two operations, all parse it once."""
    key = (name, text_key(text))
    found = _text_cache.get(key)
    if found is None:
        if len(_text_cache) >= _TEXT_CACHE_SIZE:
            _text_cache.pop(next(iter(_text_cache)))  # the oldest
        found = _text_cache[key] = check(text)
    return list(found)


def check_for(path: str) -> str | None:
    """The name of the check that runs on ``path``, or None when none does. Loads nothing."""
    found = _CHECKS.get(PurePosixPath(path).suffix.lower())
    return found[0] if found else _tree_check(path)


def diagnose_text(path: str, text: str,
                  previous: str | None = None) -> list[tuple[int, int, str, str]]:
    """(line, col, message, check) for every problem the check for ``path`` finds.

    ``previous`` (the text this one was made from) lets a tree-sitter check re-parse only
    what changed.
    """
    found = _CHECKS.get(PurePosixPath(path).suffix.lower())
    if found is not None:
        name, check = found
        if (name == "json" and previous is not None and _checked(name, check, previous)
                and not _checked("json with comments", _jsonc, previous)):
            name, check = "json with comments", _jsonc  # (it held comments already)
        return [(line, col, message, name) for line, col, message in _checked(name, check, text)]
    tree_name = _tree_check(path)
    if tree_name is None:
        return []
    return [(line, col, message, tree_name)
            for line, col, message in _tree_problems(path, text, previous)]


# A span of replaced lines: (first, last) 1-based inclusive in the text before (last =
# first - 1 for a pure insertion), as the engine reports it in ``Outcome.lines``.
Span = tuple[int, int]


class LineMap(Mapping[int, int]):
    """Where the unchanged lines of the text before an edit are in the text after it.

    One edit replaces lines ``first..last`` of the text before; every line above keeps its
    number and every line below moves by the change in length. A lookup costs nothing per
    line of the file (iterating, which nothing on a per-operation path does, is linear).
    Inside the replaced lines (a SEARCH block re-writes many lines it leaves as they were),
    a line is matched to an identical line of the replacement by a diff of those lines
    alone, worked out on the first lookup there: an error already on such a line is not
    blamed on the edit.
    """

    __slots__ = ("_after", "_before", "_count", "_first", "_inner", "_last", "_shift")

    def __init__(self, first: int, last: int, shift: int, count: int,
                 before: str | None = None, after: str | None = None) -> None:
        self._first, self._last, self._shift, self._count = first, last, shift, count
        self._before, self._after = before, after
        self._inner: dict[int, int] | None = None

    @classmethod
    def of(cls, before: str, after: str, span: Span | None = None) -> LineMap:
        """The map for an edit of ``span``, or, without one, of the changed middle
        (common leading and trailing lines, found by bytes comparison)."""
        old_count, new_count = before.count("\n") + 1, after.count("\n") + 1
        first, last = span if span is not None else _changed_lines(before, after)
        return cls(first, last, new_count - old_count, old_count, before, after)

    def _target(self, line: int) -> int | None:
        if not 1 <= line <= self._count:
            return None
        if line < self._first:
            return line
        if line > self._last:
            return line + self._shift
        return self._within().get(line)

    def _within(self) -> dict[int, int]:
        """Lines of the replaced span -> identical lines of its replacement (diffed once)."""
        if self._inner is None:
            self._inner = {}
            last_after = self._last + self._shift
            if (self._before is not None and self._after is not None
                    and self._last >= self._first and last_after >= self._first
                    and max(self._last, last_after) - self._first < _INNER_MAX):
                old = self._before.split("\n")[self._first - 1 : self._last]
                new = self._after.split("\n")[self._first - 1 : last_after]
                from difflib import SequenceMatcher  # here: not a start-up import

                matcher = SequenceMatcher(None, old, new, autojunk=False)
                for a, b, size in matcher.get_matching_blocks():
                    for n in range(size):
                        self._inner[self._first + a + n] = self._first + b + n
        return self._inner

    def __getitem__(self, line: int) -> int:
        found = self._target(line) if isinstance(line, int) else None
        if found is None:
            raise KeyError(line)
        return found

    def written(self, line: int) -> bool:
        """Whether ``line`` of the text after is one the edit wrote: no line of the text
        before is carried to it (False when unsure)."""
        last_after = self._last + self._shift
        return self._first <= line <= last_after and line not in self._within().values()

    def __iter__(self) -> Iterator[int]:
        return (n for n in range(1, self._count + 1) if self._target(n) is not None)

    def __len__(self) -> int:
        return sum(1 for _ in self)


def _changed_lines(before: str, after: str) -> Span:
    """The lines of ``before`` an edit replaced, from the common prefix and suffix."""
    from reviewtui.core.syntax.parsing import common_prefix, common_suffix

    old, new = before.encode("utf-8", "surrogatepass"), after.encode("utf-8", "surrogatepass")
    head = old.rfind(b"\n", 0, common_prefix(old, new)) + 1  # back to a line start
    tail = common_suffix(old, new, min(len(old), len(new)) - head)
    start = len(old) - tail  # the unchanged end of ``old`` begins here...
    while tail and not (_line_start(old, start) and _line_start(new, len(new) - tail)):
        nl = old.find(b"\n", start)  # ...but only whole lines count
        if nl < 0:
            start, tail = len(old), 0
            break
        tail -= nl + 1 - start
        start = nl + 1
    first = old.count(b"\n", 0, head) + 1
    last = old.count(b"\n", 0, start) if tail else old.count(b"\n") + 1
    return first, max(last, first - 1)


def _line_start(data: bytes, offset: int) -> bool:
    return offset == 0 or data[offset - 1 : offset] == b"\n"


def _line_map(before: str, after: str, span: Span | None = None) -> LineMap:
    """1-based line numbers of unchanged lines: before -> after (a mapping-like view)."""
    return LineMap.of(before, after, span)


def diagnose_change(path: str, before_text: str | None, after_text: str | None,
                    span: Span | None = None,
                    carried: Mapping[int, int] | None = None) -> list[Diagnostic]:
    """The problems in ``after_text``, each marked introduced or already there.

    ``before_text`` is None for a new file (everything is introduced); ``after_text`` is
    None for a removed file (nothing to check). ``span`` is the lines of ``before_text`` the
    operation replaced, when the engine knows them; without it they are worked out.
    ``carried`` (for several operations in a row) says where each unchanged line went.
    """
    if after_text is None:
        return []
    after = diagnose_text(path, after_text, before_text)
    if not after:
        return []
    # A problem on a line the edits wrote is introduced whatever the file before had (no
    # line of it is carried there): when every problem is on one, the file before is not
    # checked (a 10,000-line Python file: one whole parse fewer). Told by the edits' spans.
    mapping = carried if carried is not None else (
        LineMap.of(before_text, after_text, span)
        if before_text is not None and span is not None else None)
    written = getattr(mapping, "written", None)
    if written is not None and all(written(line) for line, _col, _message, _check in after):
        before: list[tuple[int, int, str, str]] = []
    else:
        before = diagnose_text(path, before_text) if before_text is not None else []
    if mapping is None and before and before_text is not None:
        mapping = _line_map(before_text, after_text, span)
    old = {(mapping.get(line) if mapping is not None else None, message, check)
           for line, _col, message, check in before}
    found = [Diagnostic(line, col, message, (line, message, check) not in old, check)
             for line, col, message, check in after]
    if before_text is not None and any(d.introduced and d.check in _PREPROCESSED
                                       for d in found):
        if any(d.check in _MACRO_LISTS for d in found):  # (C's macros: not C#'s)
            # (before is empty when it was skipped above: every problem on a written line)
            found = _macro_entries(found, before or None, path, before_text, after_text)
        if any(d.introduced for d in found) and _branches_unchanged(
                path, before_text, after_text, mapping or _line_map(before_text, after_text,
                                                                    span)):
            found = [replace(d, introduced=False) if d.introduced else d for d in found]
    found = _shown(found)  # before placing them: each placement costs a pass over the file
    if before_text is not None and not _CHECKS.get(PurePosixPath(path).suffix.lower()):
        found = [_at_the_edit(d, before_text, after_text, span) if d.introduced else d
                 for d in found]
    return found


def _macro_entries(found: list[Diagnostic], before: list[tuple[int, int, str, str]] | None,
                   path: str, before_text: str, after_text: str) -> list[Diagnostic]:
    """A missing ``;`` on a line that is one call of a macro the file before already had
    misread (a problem on a line that is one call of that name) is not new: an edit that
    adds an entry to an X-macro list (``LIBM_DD(cbrt)`` beside ``LIBM_DD(acos)``) adds a
    line the grammar misreads as it misread its neighbours. A line of any other shape, or
    a name the file before never had misread, stays introduced."""
    from reviewtui.core.syntax.problems import MISSING_SEMICOLON, macro_entry

    if not any(d.introduced and d.message == MISSING_SEMICOLON for d in found):
        return found
    if before is None:
        before = diagnose_text(path, before_text)
    old_lines = before_text.split("\n")
    names = {macro_entry(old_lines[line - 1]) for line, _col, _message, _check in before
             if 0 < line <= len(old_lines)}
    names.discard(None)
    if not names:
        return found
    new_lines = after_text.split("\n")
    return [replace(d, introduced=False)
            if (d.introduced and d.message == MISSING_SEMICOLON and 0 < d.line <= len(new_lines)
                and macro_entry(new_lines[d.line - 1]) in names) else d
            for d in found]


def _branches_unchanged(path: str, before: str, after: str, mapping: Mapping[int, int]
                        ) -> bool:
    """Whether, read one preprocessor branch at a time (:mod:`~reviewtui.core.syntax.preproc`),
    the edit leaves every view's errors as they were: the same stretches of lines (moved
    by ``mapping``), none new."""
    from reviewtui.core.syntax.parsing import TooSlow, parse
    from reviewtui.core.syntax.preproc import views_or_whole
    from reviewtui.core.syntax.problems import error_spans

    # A text with no conditional at all is its own two views (the edit added or removed
    # the file's only #if); with none in either, the whole file's reading stands.
    views_after, views_before = views_or_whole(after), views_or_whole(before)
    if (views_after is None or views_before is None
            or (views_after[0][0] is after and views_before[0][0] is before)):
        return False
    for (old, _held_old), (new, _held_new) in zip(views_before, views_after, strict=True):
        try:
            parsed_old, parsed_new = parse(path, old), parse(path, new, old)
        except TooSlow:
            return False
        if parsed_old is None or parsed_new is None:
            return False
        moved = {(mapping.get(first), mapping.get(last))
                 for first, last in error_spans(parsed_old, _COMPARED)}
        if not {span for span in error_spans(parsed_new, _COMPARED)} <= moved:
            return False
    return True


def _shown(found: list[Diagnostic]) -> list[Diagnostic]:
    """The first MAX_PROBLEMS introduced and the first MAX_PROBLEMS already there."""
    if not found:
        return found
    from reviewtui.core.syntax.problems import MAX_PROBLEMS

    counts = {True: 0, False: 0}
    out = []
    for diag in found:
        if counts[diag.introduced] < MAX_PROBLEMS:
            counts[diag.introduced] += 1
            out.append(diag)
    return out


def _at_the_edit(diag: Diagnostic, before: str, after: str, span: Span | None) -> Diagnostic:
    """An introduced parse error placed at the edit that caused it.

    A grammar notices a lost ``}`` or ``end`` where the file runs out, or wraps everything
    from the top of the file in one error: both far from the edit. Since the text outside
    the edit did not change, the edit is what broke it; the error moves to the nearest
    edited line and says where the parser noticed it.
    """
    first, last = span if span is not None else _changed_lines(before, after)
    last_after = last + after.count("\n") - before.count("\n")
    low, high = first, max(first, last_after)
    if low - 1 <= diag.line <= high + 1:
        return diag
    line = min(max(diag.line, low), high, after.count("\n") + 1)
    return Diagnostic(line, 1, f"{diag.message} (noticed at line {diag.line})", True,
                      diag.check)


# -- per operation, cached ------------------------------------------------------------------

_cache: dict[tuple[str, str, str], tuple[Diagnostic, ...]] = {}


def _digest(text: str | None) -> str:
    """The key of a text, remembered for that text object (``core/text/content.py``): the
    versions of a file are each asked for twice, as the after of one operation and the
    before of the next."""
    return "-" if text is None else text_key(text)


def _texts(result: OpResult) -> tuple[str, str | None, str | None] | None:
    """(path, before, after) of a file operation that produced a new version, else None."""
    path = result.outcome.path
    if not path or check_for(path) is None:
        return None
    return change_texts(result)


def change_texts(result: OpResult, *, before: bool = True
                 ) -> tuple[str, str | None, str | None] | None:
    """(path, before, after) of any file operation that produced a new version, else None
    (``before``: None for a new file, or ``before=False``). Project checks may run on any
    file type: this does not ask whether a built-in check exists."""
    outcome = result.outcome
    path = outcome.path
    if not path:
        return None
    after = outcome.after_state
    before_state = outcome.before_state if before else None
    # Unkept: a version's bytes are not built and held for a check (the workbench's
    # badges held every version's of a 3 MB file: 1.6 GB after 80 accepts).
    before_text = before_state.text_unkept() if isinstance(before_state, FileState) else None
    if isinstance(after, FileState):
        return path, before_text, after.text_unkept()
    if outcome.method == "new-file" and outcome.lines is not None:
        return path, None, outcome.after + "\n"
    return None


def edit_span(result: OpResult) -> Span | None:
    """The lines the engine replaced, for a located edit (not a whole-file rewrite)."""
    outcome = result.outcome
    if outcome.lines is None or outcome.method in ("full-file", "new-file", "fill-empty"):
        return None
    return outcome.lines


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
        cached = _cache[key] = tuple(diagnose_change(path, before, after, edit_span(result)))
    return cached


def diagnose_cached(result: OpResult) -> tuple[Diagnostic, ...] | None:
    """The diagnostics if :func:`diagnose_result` already computed them, else None: lets a
    screen paint at once and fill the badges in from a worker."""
    texts = _texts(result)
    if texts is None:
        return ()
    path, before, after = texts
    return _cache.get((path, _digest(before), _digest(after)))
