"""Which lines of a Python text start inside a string: the scan the region check
(:mod:`reviewtui.core.syntax.pyregions`) and the token check
(:mod:`reviewtui.core.syntax.pytokens`) start from, with the tokenizer's rules for
strings and comments (Python 3.11's)."""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from collections.abc import Iterator, Sequence

# Comments, and strings with the tokenizer's extent (a prefix does not change it; a
# backslash escapes the next character even in a raw string; an unterminated triple
# quote runs to the end).
_TOKENS = re.compile(
    r"#[^\n]*"
    r'|"""[^"\\]*(?:(?:\\[\s\S]|"(?!""))[^"\\]*)*(?:"""|\Z)'
    r"|'''[^'\\]*(?:(?:\\[\s\S]|'(?!''))[^'\\]*)*(?:'''|\Z)"
    r'|"[^"\\\n]*(?:\\[\s\S][^"\\\n]*)*"?'
    r"|'[^'\\\n]*(?:\\[\s\S][^'\\\n]*)*'?")
# What cannot hold a newline, and what :data:`_TOKENS` makes of it: text out of tokens,
# a comment, a string not opening a triple quote with no backslash before a newline.
# Passing over these inside one match spares a Python step for most tokens; the next
# token (group 1) is then one of the rest, and :data:`_TOKENS` matches it whole. Each
# match ends where the pattern can start again: no position is tried twice.
# (Text out of tokens is spelt as ranges around the quotes and "#": the regex engine
# runs over a range set faster than over a negated one. The Latin-1 part and the rest are
# two runs: a range set up to U+10FFFF costs ~5 ms to compile, at every start of apply.)
_ONE_LINE = (r"[\x00-\x21\x24-\x26\x28-\xff]++|[^\x00-\xff]++|#[^\n]*+"
             r'|"(?!"")[^"\\\n]*+(?:\\[^\n][^"\\\n]*+)*+(?!\\\n)"?'
             r"|'(?!'')[^'\\\n]*+(?:\\[^\n][^'\\\n]*+)*+(?!\\\n)'?")
_SPANNING = re.compile(rf"(?:{_ONE_LINE})*+({_TOKENS.pattern}|\Z)")


def _continuations(text: str, pos: int) -> list[int]:
    """The offset of every backslash right before a newline from ``pos`` on, ascending.

    Found through the backslashes one at a time (``str.find`` of one character runs as a
    byte scan, ~15x faster than of the two ending in a newline, whose last character is on
    every line), as Python files hold few; past a share of the text's size in backslashes
    (a file of regular expressions), the rest with the two-character search, so a text
    full of them costs about what that search alone does."""
    find = text.find
    out: list[int] = []
    budget = 64 + (len(text) >> 11)  # backslashes visited one by one
    at = find("\\", pos)
    while at >= 0:
        if text.startswith("\n", at + 1):
            out.append(at)
        budget -= 1
        if not budget:
            at = find("\\\n", at + 1)
            while at >= 0:
                out.append(at)
                at = find("\\\n", at + 2)
            break
        at = find("\\", at + 1)
    return out


def _long_strings(text: str, pos: int = 0, line: int = 0,
                  continued: list[int] | None = None) -> Iterator[tuple[int, int]]:
    """(line, newlines) of each token spanning lines, scanning from offset ``pos``, the
    start of line ``line``, where no token is open. (The tokens of :data:`_TOKENS`.)
    ``continued``: gets the line after each backslash before a newline from ``pos`` on
    (in a token or not), in order -- what :func:`_add_continued` finds in a text without
    a carriage return: each is either a trigger passed over or inside a spanning token.

    Only a triple quote or a backslash before a newline lets a token span lines, so the
    scan jumps (``str.find``) to the next line holding one of those: every token that
    starts above it ends on its own line, and the line starts out of every token. That
    line alone goes through :data:`_SPANNING` (which passes over the one-line tokens)
    up to its first token that could span lines (not needed when only blanks precede a
    triple quote there); that token is then matched whole (a
    triple-quoted string with no backslash by its closing quotes, ``str.find`` again)."""
    find, rfind, count = text.find, text.rfind, text.count
    size = len(text)
    at = pos
    spanning = _SPANNING.match
    # The next offset of each way to span lines (``size``: none left), found again only
    # once the scan has passed it: a triple quote each way, a backslash before a newline
    # (those are all found first: :func:`_continuations`).
    slashes = _continuations(text, pos)
    slashes.append(size)
    next_slash = 0
    double = single = slash = -1
    while True:
        if double < pos:
            double = find('"""', pos)
            if double < 0:
                double = size
        if single < pos:
            single = find("'''", pos)
            if single < 0:
                single = size
        if slash < pos:
            slash = slashes[next_slash]
            while slash < pos:
                next_slash += 1
                slash = slashes[next_slash]
        trigger = double if double < single else single
        if slash < trigger:
            trigger = slash
        if trigger >= size:
            return
        start = rfind("\n", pos, trigger) + 1
        if start < pos:
            start = pos
        if trigger != slash and (start == trigger or not text[start:trigger].strip(" \t")):
            # Only blanks between a place out of every token and the triple quote (a
            # docstring's first line): the string opens there, no pattern needed.
            token = trigger
        else:
            stop = find("\n", trigger)
            stop = size if stop < 0 else stop + 1
            token, end = spanning(text, start, stop).span(1)  # type: ignore[union-attr]
            if token == end:
                if continued is not None and slash < stop:  # (one a line at most)
                    line += count("\n", at, slash)
                    at = slash
                    continued.append(line + 1)
                pos = stop  # every token on that line ends there
                continue
        quote = text[token : token + 3]
        close = find(quote, token + 3) if quote in ('"""', "'''") else -1
        plain = close >= 0 and find("\\", token + 3, close) < 0  # no backslash in it
        end = close + 3 if plain else _TOKENS.match(text, token).end()  # type: ignore[union-attr]
        newlines = count("\n", token, end)
        if newlines:
            line += count("\n", at, token)
            at = token
            if continued is not None and not plain:
                # (+ 1: a string may end between a backslash and the newline after it)
                k = bisect_left(slashes, token)
                while slashes[k] < end:  # (the list ends with the text's size)
                    continued.append(line + count("\n", token, slashes[k]) + 1)
                    k += 1
            yield line, newlines
            line += newlines  # (its own newlines are not counted again from ``at``)
            at = end
        pos = end


def _in_strings(text: str, continued: list[int] | None = None) -> set[int]:
    """0-based lines whose start lies inside a string (``continued``: see
    :func:`_long_strings`)."""
    inside: set[int] = set()
    for line, newlines in _long_strings(text, continued=continued):
        inside.update(range(line + 1, line + 1 + newlines))
    return inside


def _add_continued(text: str, inside: set[int]) -> None:
    """Add the lines that continue the line above (a backslash before its newline). (The
    backslashes are found with ``str.find``, not a regex, and the newlines counted only up
    to each: a file holds few.)"""
    found: list[int] = []  # the offset of each line's start that follows a backslash
    # (Without a "\r" no "\\\r\n" can occur: its scan, slow for a needle ending in a
    # newline, is skipped.)
    for needle in ("\\\n", "\\\r\n") if "\r" in text else ("\\\n",):
        at = text.find(needle)
        while at >= 0:
            found.append(at + len(needle))
            at = text.find(needle, at + 1)
    line, at = 0, 0
    for end in sorted(found):  # one in a comment only makes this stricter
        line += text.count("\n", at, end)
        at = end
        inside.add(line)


def continued_after(new: Sequence[str], changes: Sequence[tuple[int, int, int, int]],
                    old_count: int, old_continued: Sequence[int]) -> list[int]:
    """The lines of a text after edits that continue the line above (what
    :func:`_add_continued` finds in it, without a carriage return), from those of the
    text before (``old_continued``, all of them; ``old_count``: its lines, split at
    "\n"): ``new`` is the text after split at "\n", ``changes`` its changed stretches
    ``(lo, hi, old_lo, old_hi)`` in order. A line continues the one above when that one
    ends with a backslash and a newline follows it: only an unchanged line that did so
    before (or was the last), or a changed line, can."""
    his = [change[3] for change in changes]
    grown = [0]
    for lo, hi, old_lo, old_hi in changes:
        grown.append(grown[-1] + (hi - lo) - (old_hi - old_lo))
    candidates: list[int] = []
    for old_line in (*(line - 1 for line in old_continued), old_count - 1):
        k = bisect_right(his, old_line)
        if k == len(changes) or changes[k][2] > old_line:  # unchanged
            candidates.append(old_line + grown[k])
    for lo, hi, _old_lo, _old_hi in changes:
        candidates.extend(range(lo, hi))
    last = len(new) - 1
    return sorted({line + 1 for line in candidates
                   if 0 <= line < last and new[line].endswith("\\")})
