"""Stage 2: SEARCH differs from the file only in how it was typed.

Candidates are the places where every SEARCH line (blank edges trimmed) has the file
line's loose key. Each candidate is then classified by what actually differed, and the
strictest class wins: a place that differs only in trailing whitespace beats one that
also needs re-indenting, just as stage 1 beats stage 2. Two places in the winning class
are an ambiguity, whatever the other classes hold.
"""

from __future__ import annotations

from collections.abc import Sequence

from reviewtui.core.match.exact import find_exact
from reviewtui.core.match.indent import columns, guess_style, respelled
from reviewtui.core.match.index import FileIndex
from reviewtui.core.match.landing import (
    BLANK_LINES,
    INDENT_UNKNOWN,
    INDENTATION,
    PUNCTUATION,
    TABS,
    TRAILING,
    Ambiguity,
    Held,
    Landing,
    Located,
)
from reviewtui.core.match.normalise import (
    DASHES,
    ELLIPSIS,
    QUOTES,
    SPACES,
    is_blank,
    leading,
    loose_key,
    trim_blank_edges,
)
from reviewtui.core.match.reexpress import UnknownIndent, reexpress
from reviewtui.core.record import record

# Each class forgives a little more than the one before. A candidate ranks by the first
# class that forgives all it needed, then by whether SEARCH's blank edges had to be
# ignored there: where the file has them, the match is the closer one.
_CLASSES = (
    frozenset({TRAILING}),
    frozenset({TRAILING, INDENTATION, TABS}),
    frozenset({TRAILING, INDENTATION, TABS, PUNCTUATION}),
)


@record(frozen=True, slots=True)
class _Fit:
    """One candidate place, widened over whichever SEARCH blank edges the file has."""

    start: int
    end: int
    search: tuple[str, ...]  # the SEARCH lines aligned one-to-one with [start, end)
    drop_head: int  # spurious leading blank lines of SEARCH (not in the file)
    drop_tail: int
    kinds: frozenset[str]

    @property
    def rank(self) -> tuple[int, bool]:
        typed = self.kinds - {BLANK_LINES}
        forgiving = next(rank for rank, allowed in enumerate(_CLASSES) if typed <= allowed)
        return forgiving, BLANK_LINES in self.kinds


def locate(index: FileIndex, search: Sequence[str], replace: Sequence[str],
           lo: int, hi: int) -> Located:
    """Stages 1 and 2 within ``[lo, hi)``: exact, else expression-only differences."""
    starts = find_exact(index.lines, search, lo, hi)
    if len(starts) == 1:
        start = starts[0]
        return Landing(start, start + len(search), tuple(replace))
    if starts:
        return Ambiguity(tuple((start, start + len(search)) for start in starts))
    return match_expression(index, search, replace, lo, hi)


def match_expression(index: FileIndex, search: Sequence[str], replace: Sequence[str],
                     lo: int, hi: int) -> Located:
    head, tail = trim_blank_edges(search)
    core = search[head : len(search) - tail]
    fits = [_fit(index, search, head, tail, start, lo, hi)
            for start in find_loose(index, [loose_key(line) for line in core], lo, hi)]
    if not fits:
        return None
    best = min(fit.rank for fit in fits)
    winners = [fit for fit in fits if fit.rank == best]
    if len(winners) > 1:
        return Ambiguity(tuple((fit.start, fit.end) for fit in winners),
                         frozenset().union(*(fit.kinds for fit in winners)))
    return _land(index, winners[0], replace)


def find_loose(index: FileIndex, keys: Sequence[str], lo: int, hi: int) -> list[int]:
    """Starts in ``[lo, hi)`` where every line's loose key equals ``keys``."""
    size = len(keys)
    if not size:
        return []
    # Walk the occurrences of the longest key, usually the rarest.
    pivot_at = max(range(size), key=lambda i: len(keys[i]))
    starts: list[int] = []
    for hit in index.find(keys[pivot_at], lo + pivot_at, hi - size + pivot_at + 1):
        start = hit - pivot_at
        if all(index.key(start + i) == keys[i] for i in range(size)):
            starts.append(start)
    return starts


def loose_twins(index: FileIndex, search: Sequence[str], lo: int, hi: int,
                at: int) -> list[tuple[int, int]]:
    """Spans in ``[lo, hi)`` other than the one starting at ``at`` where ``search``'s
    lines (blank edges trimmed) have the file's loose keys, and most of them are exactly
    the file's (a block a change since touched here and there): the places stage 2 would
    also consider, had the text not been exactly at ``at``. (A copy at another depth,
    every line indented otherwise, is another block: QA s45 helper-139 #9, a hunk at its
    own line went ambiguous for one.)"""
    head, tail = trim_blank_edges(search)
    core = search[head : len(search) - tail]
    shown = [n for n, line in enumerate(core) if line.strip()]
    lines = index.lines
    return [(start, start + len(core))
            for start in find_loose(index, [loose_key(line) for line in core], lo, hi)
            if start != at + head
            and 2 * sum(lines[start + n] == core[n] for n in shown) > len(shown)]


def drop_blank_edges(lines: Sequence[str], head: int, tail: int) -> tuple[str, ...]:
    """``lines`` without up to ``head`` leading and ``tail`` trailing blank lines."""
    first, last = 0, len(lines)
    while first < min(head, last) and is_blank(lines[first]):
        first += 1
    while len(lines) - last < tail and last > first and is_blank(lines[last - 1]):
        last -= 1
    return tuple(lines[first:last])


def _fit(index: FileIndex, search: Sequence[str], head: int, tail: int, start: int,
         lo: int, hi: int) -> _Fit:
    end = start + len(search) - head - tail
    above = 0
    while above < head and start - above - 1 >= lo and not index.key(start - above - 1):
        above += 1
    below = 0
    while below < tail and end + below < hi and not index.key(end + below):
        below += 1
    aligned = tuple(search[head - above : len(search) - tail + below])
    region = index.lines[start - above : end + below]
    kinds, _ = classify(aligned, region)
    if above < head or below < tail:
        kinds |= {BLANK_LINES}
    return _Fit(start - above, end + below, aligned, head - above, tail - below, kinds)


def _land(index: FileIndex, fit: _Fit, replace: Sequence[str]) -> Landing | Held:
    region = index.lines[fit.start : fit.end]
    replace = drop_blank_edges(replace, fit.drop_head, fit.drop_tail)
    partner = {i: i for i in range(len(fit.search))}
    try:
        new_lines = reexpress(region, fit.search, replace, partner, fit.kinds, index.style,
                              (index.lines, fit.start))
    except UnknownIndent as unknown:
        return Held(INDENT_UNKNOWN, unknown.hint, fit.kinds)
    _, hints = classify(fit.search, region)
    if BLANK_LINES in fit.kinds:
        spurious = fit.drop_head + fit.drop_tail
        hints += (f"ignored {spurious} blank line{'s' * (spurious != 1)} at the edges of "
                  "SEARCH that the file does not have",)
    return Landing(fit.start, fit.end, new_lines, fit.kinds, hints)


def classify(search: Sequence[str], region: Sequence[str]) -> tuple[frozenset[str],
                                                                    tuple[str, ...]]:
    """What differs between aligned SEARCH and file lines that share loose keys, and a
    hint for each difference."""
    kinds: set[str] = set()
    odd: set[str] = set()  # the typographic characters involved
    shifts: set[int] = set()
    for typed, actual in zip(search, region, strict=True):
        if typed == actual:
            if not is_blank(typed):
                shifts.add(0)
            continue
        if is_blank(typed):
            kinds.add(TRAILING)  # a whitespace-only line against an empty one
            continue
        if typed[len(typed.rstrip()):] != actual[len(actual.rstrip()):]:
            kinds.add(TRAILING)
        if typed.strip() != actual.strip():
            kinds.add(PUNCTUATION)
            odd.update(ch for ch in typed + actual if not ch.isascii())
        kinds.update(_indent_kinds(leading(typed), leading(actual)))
        shifts.add(columns(leading(actual)) - columns(leading(typed)))
    return frozenset(kinds), _hints(kinds, odd, shifts, region)


def _indent_kinds(typed: str, actual: str) -> set[str]:
    if typed == actual:
        return set()
    if respelled(typed, actual):  # (a tabs difference too: else the line was written in the
        return {TABS}  # SEARCH's spelling, QA s45 helper-138 #2)
    kinds = set()
    if ("\t" in typed) != ("\t" in actual):
        kinds.add(TABS)
    # Tabs for spaces of the same width is only a tabs difference, at either tab size.
    if not any(typed.expandtabs(size) == actual.expandtabs(size) for size in (4, 8)):
        kinds.add(INDENTATION)
    return kinds


def _hints(kinds: set[str], odd: set[str], shifts: set[int],
           region: Sequence[str]) -> tuple[str, ...]:
    hints: list[str] = []
    if TABS in kinds:
        style = guess_style(region)
        target = "tabs" if style is not None and style.tabs else "spaces"
        hints.append(f"indentation re-grafted to {target}")
    elif INDENTATION in kinds:
        if len(shifts) == 1:
            (shift,) = shifts
            hints.append(f"indentation shifted by {shift:+d} columns; replacement re-indented")
        else:
            hints.append("indentation differed line by line; replacement re-indented "
                         "to the file's")
    if TRAILING in kinds:
        hints.append("trailing whitespace ignored")
    if PUNCTUATION in kinds:
        hints.append(_punctuation_hint(odd))
    return tuple(hints)


def _punctuation_hint(odd: set[str]) -> str:
    parts = []
    if odd & QUOTES:
        parts.append("curly quotes")
    if odd & DASHES:
        parts.append("typographic dashes")
    if ELLIPSIS in odd:
        parts.append("'\u2026'")
    if odd & SPACES:
        parts.append("unicode spaces")
    return f"{', '.join(parts) or 'typographic punctuation'} matched as ASCII"
