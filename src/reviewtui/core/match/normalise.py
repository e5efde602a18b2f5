"""Line keys that forgive how a model *typed* a line without forgiving what it says.

The stages compare keys and never write them: whatever lands in the file is either the
file's own text or the model's text re-indented (see ``reexpress``).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Hashable, Sequence
from functools import lru_cache

from reviewtui.core.text.lazy_pattern import LazyPattern

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

_ORDERED_LINES = 200  # past this many lines, difflib needs help not to go quadratic
_CLOSING = re.compile(r"[\])}]{1,3}[,;]?")
_TOKEN = LazyPattern(r"\w+|[^\w\s]")  # loose matching only: compiled on first use


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


def aligned(a: Sequence[Hashable], b: Sequence[Hashable]) -> list[tuple[int, int, int]]:
    """difflib's matching blocks ``(i, j, size)`` of two line lists.

    Past ``_ORDERED_LINES`` lines difflib's own heuristic is let loose: lines that are
    everywhere (blank, ``}``) no longer seed matches, which keeps it from going quadratic.
    """
    big = max(len(a), len(b)) > _ORDERED_LINES
    from difflib import SequenceMatcher  # here: not a start-up import

    matcher = SequenceMatcher(None, a, b, autojunk=big)
    return [(i, j, size) for i, j, size in matcher.get_matching_blocks() if size]


@lru_cache(maxsize=8192)
def line_tokens(line: str) -> tuple[str, ...]:
    """Words and punctuation of a line, whitespace dropped, closed by a line-break token."""
    return (*_TOKEN.findall(loose_key(line)), "\n")


_BLOCK_TOKENS = 600  # beyond this, a rewritten stretch is compared line by line


def similarity(a: Sequence[str], b: Sequence[str]) -> float:
    """How alike two runs of lines are, 0..1: 2 * matched tokens / all tokens.

    Tokens rather than characters, and whole equal lines matched first: difflib over
    the characters (or all the tokens) of two 1 KB regions takes ~20 ms; aligning lines
    first and comparing tokens only where lines differ takes well under 1 ms. Past
    ``_ORDERED_LINES`` lines (repeated lines make difflib quadratic) it is the overlap
    of the token bags instead, order ignored.
    """
    if max(len(a), len(b)) > _ORDERED_LINES:
        return quick_similarity(token_bag(a), token_bag(b))
    a_tokens = [line_tokens(line) for line in a]
    b_tokens = [line_tokens(line) for line in b]
    total = sum(map(len, a_tokens)) + sum(map(len, b_tokens))
    if not total:
        return 1.0
    from difflib import SequenceMatcher  # here: not a start-up import

    lines = SequenceMatcher(None, [loose_key(line) for line in a],
                            [loose_key(line) for line in b], autojunk=False)
    matched = 0
    for tag, i1, i2, j1, j2 in lines.get_opcodes():
        if tag == "equal":
            matched += sum(map(len, a_tokens[i1:i2]))
        elif tag == "replace":
            matched += _matched_tokens(a_tokens[i1:i2], b_tokens[j1:j2])
    return 2 * matched / total


def _matched_tokens(a: Sequence[tuple[str, ...]], b: Sequence[tuple[str, ...]]) -> int:
    flat_a = [token for line in a for token in line]
    flat_b = [token for line in b for token in line]
    if len(flat_a) + len(flat_b) > _BLOCK_TOKENS:
        if len(a) > 1 and len(b) > 1:
            # A long rewritten stretch (every line renamed, say): pair lines in order.
            return sum(_matched_tokens([x], [y]) for x, y in zip(a, b, strict=False))
        # One long line (minified JS, an SVG path, a JSON blob): token-level difflib is
        # quadratic in its length (a 47 KB line took 24 s), so compare chunks instead.
        return matched_in_chunks(flat_a, flat_b)
    from difflib import SequenceMatcher  # here: not a start-up import

    matcher = SequenceMatcher(None, flat_a, flat_b, autojunk=False)
    return sum(block.size for block in matcher.get_matching_blocks())


# Content-defined chunks: a token ends a chunk when its CRC says so (one in eight), so an
# insertion shifts no boundary after it, and equal stretches give equal chunks on both
# sides. CRC32, not hash(): str hashes change per process and results must not.
_CHUNK_MASK = 7
_MAX_CHUNKS = 20_000  # past this, only the common prefix and suffix count


@lru_cache(maxsize=65536)
def _ends_chunk(token: str) -> bool:
    import zlib  # here: only a rewritten block is chunked (an exact match loads none)

    return zlib.crc32(token.encode("utf-8", "surrogatepass")) & _CHUNK_MASK == 0


def _chunks(tokens: Sequence[str]) -> list[tuple[str, ...]]:
    out: list[tuple[str, ...]] = []
    start = 0
    for at, token in enumerate(tokens):
        if _ends_chunk(token):
            out.append(tuple(tokens[start : at + 1]))
            start = at + 1
    if start < len(tokens):
        out.append(tuple(tokens[start:]))
    return out


def matched_in_chunks(a: Sequence[str], b: Sequence[str]) -> int:
    """Tokens in equal runs of content-defined chunks: a lower bound of what token-level
    difflib would match (equal chunks in order are a common subsequence), in about
    linear time. Lower, never higher: a long line never looks more alike than it is."""
    prefix = 0
    for x, y in zip(a, b, strict=False):
        if x != y:
            break
        prefix += 1
    suffix = 0
    limit = min(len(a), len(b)) - prefix
    while suffix < limit and a[len(a) - 1 - suffix] == b[len(b) - 1 - suffix]:
        suffix += 1
    a_mid, b_mid = a[prefix : len(a) - suffix], b[prefix : len(b) - suffix]
    chunks_a, chunks_b = _chunks(a_mid), _chunks(b_mid)
    if not chunks_a or not chunks_b or max(len(chunks_a), len(chunks_b)) > _MAX_CHUNKS:
        return prefix + suffix
    # autojunk: a chunk repeated everywhere (" L 0 0") no longer seeds matches, which is
    # what keeps difflib from going quadratic on the chunk lists too.
    from difflib import SequenceMatcher  # here: not a start-up import

    matcher = SequenceMatcher(None, chunks_a, chunks_b, autojunk=True)
    inner = sum(len(chunk) for i, _, size in matcher.get_matching_blocks()
                for chunk in chunks_a[i : i + size])
    return prefix + suffix + inner


def token_bag(lines: Sequence[str]) -> Counter[str]:
    return Counter(token for line in lines for token in line_tokens(line))


def quick_similarity(a: Counter[str], b: Counter[str]) -> float:
    """An upper bound of ``similarity`` in one pass, from the two runs' token bags."""
    total = a.total() + b.total()
    return 2 * (a & b).total() / total if total else 1.0
