"""Line keys that forgive how a model *typed* a line without forgiving what it says.

The stages compare keys and never write them: whatever lands in the file is either the
file's own text or the model's text re-indented (see ``reexpress``).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from difflib import SequenceMatcher

# Typographic characters models (and the chat UIs they were trained on) substitute for
# ASCII. Zero-width characters are dropped: nobody means to match on them.
_TYPOGRAPHIC: dict[str, str | None] = {
    **dict.fromkeys("\u2018\u2019\u201a\u201b\u2032", "'"),
    **dict.fromkeys("\u201c\u201d\u201e\u201f\u2033", '"'),
    **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"),
    "\u2026": "...",
    **dict.fromkeys("\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
                    "\u200a\u202f\u205f\u3000", " "),
    **dict.fromkeys("\u200b\ufeff", None),
}
_TABLE = str.maketrans(_TYPOGRAPHIC)

QUOTES = frozenset("\u2018\u2019\u201a\u201b\u2032\u201c\u201d\u201e\u201f\u2033")
DASHES = frozenset("\u2010\u2011\u2012\u2013\u2014\u2015\u2212")
SPACES = frozenset("\u00a0\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009"
                   "\u200a\u202f\u205f\u3000\u200b\ufeff")
ELLIPSIS = "\u2026"

_CLOSING = re.compile(r"[\])}]{1,3}[,;]?")
_TOKEN = re.compile(r"\w+|[^\w\s]|\n")


def ascii_punct(text: str) -> str:
    """Typographic punctuation and unicode spaces as their ASCII forms."""
    # isascii() is O(1) on CPython: most lines skip the translate entirely.
    return text if text.isascii() else text.translate(_TABLE)


def loose_key(line: str) -> str:
    """The line with indentation, trailing whitespace and typography forgiven."""
    return ascii_punct(line).strip()


def squash_key(line: str) -> str:
    """The line with every whitespace character removed (for the diagnosis only)."""
    return "".join(ascii_punct(line).split())


def is_blank(line: str) -> bool:
    return not loose_key(line)


def leading(line: str) -> str:
    """The indentation of a line, exactly as written."""
    return line[: len(line) - len(line.lstrip())]


def is_closing_punctuation(line: str) -> bool:
    """A lone ``}``, ``)`` or ``]`` (a few stacked, optionally with ``,`` or ``;``)."""
    return _CLOSING.fullmatch(line.strip()) is not None


def trim_blank_edges(lines: Sequence[str]) -> tuple[int, int]:
    """How many blank lines open and close ``lines`` (both 0 when all are blank)."""
    head = 0
    while head < len(lines) and is_blank(lines[head]):
        head += 1
    if head == len(lines):
        return 0, 0
    tail = 0
    while is_blank(lines[len(lines) - 1 - tail]):
        tail += 1
    return head, tail


def tokens(lines: Iterable[str]) -> list[str]:
    """Words and punctuation of the lines, one token per line break, whitespace dropped."""
    return _TOKEN.findall("\n".join(loose_key(line) for line in lines))


def similarity(a: Sequence[str], b: Sequence[str]) -> float:
    """How alike two token lists are, 0..1 (difflib's ratio: 2 * matched / total).

    Tokens rather than characters: character-level SequenceMatcher is quadratic enough to
    take ~20 ms on two 1 KB regions, tokens take ~1 ms and rank regions the same way.
    """
    if not a and not b:
        return 1.0
    matcher = SequenceMatcher(None, a, b, autojunk=False)
    return matcher.ratio()


def quick_similarity(a: Sequence[str], b: Sequence[str]) -> float:
    """An upper bound of ``similarity`` that costs one pass (bag-of-tokens overlap)."""
    if not a and not b:
        return 1.0
    return SequenceMatcher(None, a, b, autojunk=False).quick_ratio()
