"""The placeholder rule: ``...`` and "rest of file unchanged" where real lines belong.

A line is a placeholder when, once comment markers (``//``, ``#``, ``/* */``,
``<!-- -->``, ``--``, ``;``, ``%``) and one pair of brackets are peeled off, it is

* only an ellipsis (``...`` or ``…``);
* a comment or bracketed text with a free-standing ellipsis at either end
  (``// ...``, ``// other methods ...``; not ``{...props}`` or ``// Loading...``);
* text with such an ellipsis and a telltale phrase (``... existing code ...``); or
* a telltale phrase ("existing code", "rest of the file is unchanged", "code omitted",
  "for brevity"...) with at most two other words, commented or, if bare, free of
  code punctuation.

A bare ``...`` is real syntax in Python and YAML, so there it only counts when it is
commented or bracketed. A placeholder line that the file really contains (or that
the edit's own SEARCH contains, for a REPLACE) is real code and is not reported.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from reviewtui.core.lint.base import Hit, LintContext, rule
from reviewtui.core.lint.findings import Severity
from reviewtui.core.model import Edit, FullFile, Span

_COMMENT_OPEN = re.compile(r"^(?:<!--|\{/\*|/\*+|//+|#+|--+|;+|%+|\*+)\s*")
_COMMENT_CLOSE = re.compile(r"\s*(?:\*+/\}?|-->)$")
_BRACKETS = {"[": "]", "(": ")", "{": "}", "<": ">"}
_ELLIPSIS_ONLY = re.compile(r"^(?:\.{3,}|…+)$")
# Not "...props": an ellipsis glued to a name is spread/rest syntax.
_STARTS_ELLIPSIS = re.compile(r"^(?:\.{3,}|…)(?![\w$])")
# "other methods ...", but not "Loading...": the ellipsis stands apart.
_ENDS_ELLIPSIS = re.compile(r"\s(?:\.{3,}|…)$")
_EXTRA_WORDS = 2
_PHRASE = re.compile(
    r"""\b(?:
        (?:existing|previous|original|remaining|unchanged|old)\s+
            (?:code|content|lines|implementation|logic|methods|functions|imports)
      | rest\s+of\s+(?:the\s+)?(?:file|code|function|class|method|module|component|
            implementation|body|content|logic|imports|styles|config|tests)
            (?:\s+(?:is|are|remains|stays))?
            (?:\s+(?:unchanged|the\s+same|as\s+before|omitted))?
      | (?:code|content|lines|implementation|body|rest|file)
            \s+(?:is\s+|are\s+|remains\s+|stays\s+)?
            (?:unchanged|omitted|truncated|elided|not\ shown)
      | (?:everything|all)\s+else\b.*\b(?:unchanged|the\ same|as\ before|as\ is)
      | code\s+(?:goes\s+)?here
      | same\s+as\s+before
      | for\s+brevity
    )\b""",
    re.IGNORECASE | re.VERBOSE,
)
_CODE_CHARS = re.compile(r"[(){};=<>\[\]]")
# Where a bare "..." line is valid syntax (Python's Ellipsis, YAML's document end).
_ELLIPSIS_IS_SYNTAX = (".py", ".pyi", ".yml", ".yaml")


def is_placeholder(line: str, path: str = "") -> bool:
    text = line.strip()
    if not text or ("..." not in text and "…" not in text and _PHRASE.search(text) is None):
        return False  # the common case, a line of code, leaves here
    body, wrapped = _unwrap(text)
    if not body:
        return False
    if _ELLIPSIS_ONLY.match(body):
        return wrapped or not path.lower().endswith(_ELLIPSIS_IS_SYNTAX)
    loose_ellipsis = _STARTS_ELLIPSIS.match(body) or _ENDS_ELLIPSIS.search(body)
    if wrapped and loose_ellipsis:
        return True
    phrases = [m.group(0) for m in _PHRASE.finditer(body)]
    if not phrases:
        return False
    if loose_ellipsis:
        return True
    # Without an ellipsis the phrase must be nearly the whole line: a comment that
    # merely mentions "existing code" is prose, not a placeholder.
    extra = len(body.split()) - sum(len(p.split()) for p in phrases)
    return extra <= _EXTRA_WORDS and (wrapped or _CODE_CHARS.search(body) is None)


def _unwrap(text: str) -> tuple[str, bool]:
    """Peel comment markers and one pair of brackets; say whether anything was peeled."""
    body = _COMMENT_OPEN.sub("", text, count=1)
    body = _COMMENT_CLOSE.sub("", body, count=1).strip()
    wrapped = body != text
    if len(body) >= 2 and _BRACKETS.get(body[0]) == body[-1]:
        body = body[1:-1].strip()
        wrapped = True
    return body, wrapped


def _first(lines: tuple[str, ...], path: str, real: set[str]) -> tuple[int, int] | None:
    """(index of the first placeholder line, how many there are), skipping real lines."""
    hits = [k for k, line in enumerate(lines) if line not in real and is_placeholder(line, path)]
    return (hits[0], len(hits)) if hits else None


def _count(n: int) -> str:
    return "a placeholder line" if n == 1 else f"{n} placeholder lines"


@rule("placeholder", Severity.ERROR, "an ellipsis or 'rest unchanged' line instead of real code "
      "(warning inside SEARCH)")
def placeholder(ctx: LintContext) -> Iterator[Hit]:
    for block in ctx.file_blocks:
        current = set(ctx.file_lines(block.path) or ())
        for op in block.ops:
            if isinstance(op, FullFile):
                found = _first(op.lines, op.path, current)
                if found is not None:
                    line = op.span.start + found[0]
                    yield Hit(Span(line, line), f"full file {op.path!r} has {_count(found[1])} "
                              f"({op.lines[found[0]].strip()!r}); the file would be written with "
                              "it and lose the code it stands for", op.path)
            elif isinstance(op, Edit):
                yield from _edit_hits(op, current)


def _edit_hits(edit: Edit, current: set[str]) -> Iterator[Hit]:
    found = _first(edit.replace_lines, edit.path, current | set(edit.search_lines))
    if found is not None:
        line = edit.replace_span.start + 1 + found[0]
        yield Hit(Span(line, line), f"REPLACE of Edit {edit.label} in {edit.path!r} has "
                  f"{_count(found[1])} ({edit.replace_lines[found[0]].strip()!r}); applying it "
                  "would delete the code it stands for", edit.path)
    found = _first(edit.search_lines, edit.path, current)
    if found is not None:
        line = edit.search_span.start + 1 + found[0]
        yield Hit(Span(line, line), f"SEARCH of Edit {edit.label} in {edit.path!r} has "
                  f"{_count(found[1])} ({edit.search_lines[found[0]].strip()!r}); a search "
                  "must copy the file exactly, so it will not match", edit.path,
                  Severity.WARNING)


RULES = (placeholder,)
