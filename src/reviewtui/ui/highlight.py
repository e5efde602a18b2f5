"""Syntax highlighting for the diff view: pygments tokens cut into per-line style runs.

The lexer is chosen by file name (plain text when pygments knows none). The whole text
is tokenized once, so strings and comments that span lines colour correctly, then cut
at each "\\n" (the project's only line ending: a lone "\\r" stays content). Results are
cached by path and text in a small LRU shared by every view, so a worker can highlight
ahead of display and the view then finds it ready.

The colours are a small palette that reads on a dark background; nothing depends on
them, the diff's +/- markers carry the meaning without colour.
"""

from __future__ import annotations

import functools
import threading
from collections import OrderedDict
from collections.abc import Iterable
from typing import Any

# pygments ships no type hints (types-Pygments is not a dependency): its names are Any.
from pygments.lexer import Lexer  # type: ignore[import-untyped]
from pygments.lexers import (  # type: ignore[import-untyped]
    get_lexer_by_name,
    get_lexer_for_filename,
)
from pygments.lexers.special import TextLexer  # type: ignore[import-untyped]
from pygments.token import (  # type: ignore[import-untyped]
    Comment,
    Error,
    Generic,
    Keyword,
    Name,
    Number,
    Operator,
    String,
)
from pygments.util import ClassNotFound  # type: ignore[import-untyped]
from rich.style import Style

TokenType = Any  # pygments.token._TokenType, a tuple subclass with a .parent

Run = tuple[Style, str]  # a style and the text it covers
Line = tuple[Run, ...]  # a line as runs whose texts join to the line

CACHE_SIZE = 64  # highlighted texts kept (two per diff)
MAX_CHARS = 5_000_000  # longer texts are shown plain rather than lexed

# One Dark-like colours, chosen to stay readable on red and green tinted rows.
THEME: dict[TokenType, Style] = {
    Keyword: Style(color="#c678dd"),
    Keyword.Constant: Style(color="#d19a66"),
    Keyword.Type: Style(color="#e5c07b"),
    Name.Builtin: Style(color="#56b6c2"),
    Name.Builtin.Pseudo: Style(color="#e06c75", italic=True),
    Name.Function: Style(color="#61afef"),
    Name.Class: Style(color="#e5c07b", bold=True),
    Name.Decorator: Style(color="#61afef"),
    Name.Exception: Style(color="#e5c07b"),
    Name.Namespace: Style(color="#e5c07b"),
    Name.Tag: Style(color="#e06c75"),
    Name.Attribute: Style(color="#d19a66"),
    Name.Constant: Style(color="#d19a66"),
    Name.Variable: Style(color="#e06c75"),
    String: Style(color="#98c379"),
    String.Doc: Style(color="#98c379", italic=True),
    String.Escape: Style(color="#56b6c2"),
    String.Interpol: Style(color="#56b6c2"),
    Number: Style(color="#d19a66"),
    Operator: Style(color="#56b6c2"),
    Operator.Word: Style(color="#c678dd"),
    Comment: Style(color="#7f848e", italic=True),
    Comment.Preproc: Style(color="#c678dd"),
    Generic.Inserted: Style(color="#98c379"),
    Generic.Deleted: Style(color="#e06c75"),
    Generic.Heading: Style(color="#61afef", bold=True),
    Generic.Subheading: Style(color="#61afef"),
    Generic.Emph: Style(italic=True),
    Generic.Strong: Style(bold=True),
    Error: Style(color="#e06c75"),
}
PLAIN = Style()

_cache: OrderedDict[tuple[str, int, int], tuple[Line, ...]] = OrderedDict()
_lock = threading.Lock()
_styles: dict[TokenType, Style] = {}


def style_for(token: TokenType) -> Style:
    """The theme's style for a token type, inherited from its nearest styled parent."""
    style = _styles.get(token)
    if style is None:
        walk: TokenType | None = token
        while walk is not None and walk not in THEME:
            walk = walk.parent
        style = THEME[walk] if walk is not None else PLAIN
        _styles[token] = style
    return style


# Common suffixes by lexer alias: pygments' own lookup by file name scans every lexer
# (and plugin entry points) on first use, which cost ~130 ms of the first paint.
_BY_SUFFIX = {
    ".py": "python", ".pyi": "python", ".js": "javascript", ".mjs": "javascript",
    ".jsx": "jsx", ".ts": "typescript", ".tsx": "tsx", ".go": "go", ".rs": "rust",
    ".java": "java", ".c": "c", ".h": "c", ".cpp": "cpp", ".hpp": "cpp", ".cs": "csharp",
    ".rb": "ruby", ".php": "php", ".sh": "bash", ".bash": "bash", ".json": "json",
    ".toml": "toml", ".yml": "yaml", ".yaml": "yaml", ".md": "markdown", ".html": "html",
    ".htm": "html", ".css": "css", ".scss": "scss", ".sql": "sql", ".xml": "xml",
    ".txt": "text", ".ini": "ini", ".cfg": "ini",
}


@functools.lru_cache(maxsize=128)
def _lexer_class(path: str) -> type[Lexer]:
    suffix = path[path.rfind("."):].lower() if "." in path.rsplit("/", 1)[-1] else ""
    alias = _BY_SUFFIX.get(suffix)
    found: type[Lexer] = TextLexer
    try:
        found = type(
            get_lexer_by_name(alias) if alias is not None else get_lexer_for_filename(path))
    except ClassNotFound:
        pass
    except Exception:  # a lexer plugin that fails to load must not break the view
        pass
    return found


def lexer_for(path: str) -> Lexer:
    """Pygments' lexer for the file name, plain text when there is none."""
    try:
        return _lexer_class(path)(stripnl=False, ensurenl=False)
    except Exception:  # a lexer plugin that fails to load must not break the view
        return TextLexer(stripnl=False, ensurenl=False)


def _key(path: str, text: str) -> tuple[str, int, int]:
    return (path, len(text), hash(text))


def cached_lines(path: str, text: str) -> tuple[Line, ...] | None:
    """The highlighted lines if already computed, else ``None`` (never computes)."""
    key = _key(path, text)
    with _lock:
        lines = _cache.get(key)
        if lines is not None:
            _cache.move_to_end(key)
        return lines


def plain_lines(text: str) -> tuple[Line, ...]:
    return tuple(((PLAIN, line),) if line else () for line in text.split("\n"))


def highlight_lines(path: str, text: str) -> tuple[Line, ...]:
    """``text`` split on "\\n", each line as (style, text) runs joining to the line.

    Cached by (path, text); safe to call from a worker thread.
    """
    found = cached_lines(path, text)
    if found is not None:
        return found
    if len(text) > MAX_CHARS:
        lines = plain_lines(text)
    else:
        try:
            lines = _tokenize(lexer_for(path), text)
        except Exception:  # pygments lexers are third-party code: fall back, never crash
            lines = plain_lines(text)
    key = _key(path, text)
    with _lock:
        _cache[key] = lines
        _cache.move_to_end(key)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return lines


def _tokenize(lexer: Lexer, text: str) -> tuple[Line, ...]:
    # get_tokens_unprocessed keeps offsets into our text; get_tokens would rewrite
    # "\r" and strip or add newlines, shifting every line after them.
    tokens: Iterable[tuple[int, TokenType, str]] = lexer.get_tokens_unprocessed(text + "\n")
    lines: list[Line] = []
    current: list[Run] = []
    position = 0
    for index, token, value in tokens:
        if index != position:  # a lexer that skips or repeats text: trust nothing
            return plain_lines(text)
        position += len(value)
        style = style_for(token)
        pieces = value.split("\n")
        for n, piece in enumerate(pieces):
            if n:
                lines.append(tuple(current))
                current = []
            if piece:
                if current and current[-1][0] is style:
                    current[-1] = (style, current[-1][1] + piece)
                else:
                    current.append((style, piece))
    if current:
        lines.append(tuple(current))
    expected = text.count("\n") + 1
    if position != len(text) + 1 or len(lines) != expected:
        return plain_lines(text)
    return tuple(lines)


def clear_cache() -> None:
    with _lock:
        _cache.clear()
