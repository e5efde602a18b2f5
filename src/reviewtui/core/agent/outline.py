"""The read side of the line-addressed file API: numbered or id-tagged lines, and an outline.

A model that addresses lines by number or by id (`12:a3`) first has to see them; for long
files an outline (functions, classes, methods, headings, CSS selectors, element ids, with
their line ranges) tells it which range to ask for. The outline comes from the syntax tree
(``core/syntax/symbols``) for every language with a grammar and for Python; the regular
expressions below are the fallback for the rest (Markdown headings) and for a file its
grammar cannot read at all. Pure: text in, lines out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reviewtui.core.record import record
from reviewtui.core.syntax.symbols import Symbol, definitions, has_symbols
from reviewtui.core.text.hashline import line_id

OUTLINE_FROM = 300  # lines: longer files get an outline instead of their whole text
OUTLINE_MAX = 200  # entries: the outline itself stays bounded

# A tag with an id: '<[a-zA-Z][^>]*\bid="[^"]+"' somewhere in the line. Searched, that
# pattern read from every "<a" to the next ">" (a line of "<a<a<a...": quadratic, 8,000
# characters 0.39 s). This one starts after each ">" (and at the line's start) and tries
# only the first tag opened there: a later one could only find an id the first also
# reaches. A line has a match by this pattern exactly when it had one by that (the match
# starts earlier; only whether there is one is used).
HTML_ID = r'(?:^|(?<=>))[^<>]*+(?:<(?![a-zA-Z])[^<>]*+)*+<[a-zA-Z][^>]*\bid="[^"]+"'
_PATTERNS: dict[str, tuple[re.Pattern[str], ...]] = {
    "python": (re.compile(r"^\s*(?:async\s+)?(?:def|class)\s+\w+"),),
    "js": (
        re.compile(r"^\s*(?:export\s+)?(?:default\s+)?(?:async\s+)?(?:function\*?|class)\s+\w+"),
        re.compile(r"^\s*(?:export\s+)?(?:const|let|var)\s+\w+\s*=\s*(?:async\s*)?\(.*\)\s*=>"),
        re.compile(r"^\s{2,4}(?:async\s+)?(?!if\b|for\b|while\b|switch\b)\w+\s*\(.*\)\s*\{\s*$"),
    ),
    "go": (re.compile(r"^(?:func|type)\s+"),),
    "rust": (re.compile(r"^\s*(?:pub\s+)?(?:fn|struct|enum|trait|impl|mod)\b"),),
    "ruby": (re.compile(r"^\s*(?:def|class|module)\s+"),),
    "markdown": (re.compile(r"^#{1,6}\s+\S"),),
    "css": (re.compile(r"^[^\s{}][^{}]*\{\s*$"),),
    "html": (re.compile(HTML_ID),),
}
_LANGUAGE = {
    ".py": "python", ".js": "js", ".mjs": "js", ".jsx": "js", ".ts": "js", ".tsx": "js",
    ".go": "go", ".rs": "rust", ".rb": "ruby", ".md": "markdown", ".css": "css",
    ".scss": "css", ".html": "html", ".htm": "html",
}


@record(frozen=True, slots=True)
class OutlineEntry:
    number: int
    text: str
    end: int = 0  # the definition's last line, when known (0: unknown)


def language_of(path: str) -> str | None:
    dot = path.rfind(".")
    return _LANGUAGE.get(path[dot:].lower()) if dot > path.rfind("/") else None


def outline(path: str, lines: Sequence[str], limit: int = OUTLINE_MAX) -> list[OutlineEntry]:
    """The structural lines of a file (1-based numbers), at most ``limit`` of them."""
    if has_symbols(path):
        found_symbols = definitions(path, "\n".join(lines), limit=limit * 4)
        if found_symbols is not None:
            return _from_symbols(found_symbols, lines, limit)
    patterns = _PATTERNS.get(language_of(path) or "", ())
    found: list[OutlineEntry] = []
    for number, line in enumerate(lines, start=1):
        if any(p.search(line) for p in patterns):
            found.append(OutlineEntry(number, line.rstrip()))
            if len(found) >= limit:
                break
    return found


def _from_symbols(symbols: Sequence[Symbol], lines: Sequence[str],
                  limit: int) -> list[OutlineEntry]:
    """One entry per line that starts a definition (the outermost one's range)."""
    found: dict[int, OutlineEntry] = {}
    for symbol in symbols:
        number, end = symbol.line, symbol.end
        if number in found or not 1 <= number <= len(lines):
            continue
        found[number] = OutlineEntry(number, lines[number - 1].rstrip(), end)
    return sorted(found.values(), key=lambda e: e.number)[:limit]


def numbered(lines: Sequence[str], *, start: int = 1, hashed: bool = False) -> list[str]:
    """``lines`` prefixed with their number, or with their id (``12:a3``), right-aligned."""
    last = start + len(lines) - 1
    width = len(str(last)) + (3 if hashed else 0)
    out = []
    for number, line in enumerate(lines, start=start):
        label = line_id(number, line) if hashed else str(number)
        out.append(f"{label:>{width}}  {line}")
    return out
