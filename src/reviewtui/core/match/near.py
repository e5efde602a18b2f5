"""Stage 4: the first and last SEARCH lines are in the file, the lines between are close.

Scoring: the lines between the two anchors, on each side, are tokenised (words and
punctuation, whitespace dropped, one token per line break) and compared like difflib's
ratio, 2 * matched tokens / all tokens (see ``normalise.similarity``). A place
qualifies at ``NEAR_THRESHOLD``; the ratio is what the reviewer sees as ``similarity``.
Such a landing is only ever labelled NEEDS_REVIEW: forcing it is the reviewer's call.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence

from reviewtui.core.match.expression import classify, drop_blank_edges
from reviewtui.core.match.index import FileIndex
from reviewtui.core.match.landing import INDENT_UNKNOWN, Ambiguity, Held, Landing, Located
from reviewtui.core.match.normalise import (
    aligned,
    loose_key,
    quick_similarity,
    similarity,
    token_bag,
    trim_blank_edges,
)
from reviewtui.core.match.reexpress import UnknownIndent, reexpress

NEAR_THRESHOLD = 0.75
# Common anchor lines ("}", "return None") must not make this quadratic: a few ends per
# start, and a cap on the lines looked at. Past the cap the stage gives up rather than
# call a place unique that it has not compared with all the others.
_ENDS_PER_START = 3
_LINES_BUDGET = 20_000

_Scored = tuple[float, int, int]  # (similarity, first line, last line), 0-based inclusive


def match_near(index: FileIndex, search: Sequence[str], replace: Sequence[str],
               lo: int, hi: int) -> Located:
    head, tail = trim_blank_edges(search)
    core = tuple(search[head : len(search) - tail])
    if len(core) < 3:
        return None  # no middle: stage 2 already decided
    scored = _score_pairs(index, core, lo, hi)
    chosen = _separate(scored) if scored is not None else []
    if not chosen:
        return None
    if len(chosen) > 1:
        return Ambiguity(tuple(sorted((first, last + 1) for _, first, last in chosen)))
    score, first, last = chosen[0]
    region = index.lines[first : last + 1]
    blocks = aligned([loose_key(line) for line in core], [loose_key(line) for line in region])
    partner = {i + step: j + step for i, j, size in blocks for step in range(size)}
    kinds, _ = classify([core[i] for i in partner], [region[j] for j in partner.values()])
    try:
        new_lines = reexpress(region, core, drop_blank_edges(replace, head, tail), partner,
                              kinds, index.style, (index.lines, first))
    except UnknownIndent as unknown:
        return Held(INDENT_UNKNOWN, unknown.hint, kinds)
    hint = (f"near match: the lines between matching first and last lines are "
            f"{round(score * 100)}% similar; review before applying")
    return Landing(first, last + 1, new_lines, kinds, (hint,), similarity=score)


def _score_pairs(index: FileIndex, core: Sequence[str], lo: int,
                 hi: int) -> list[_Scored] | None:
    """The best-scoring last anchor for each first anchor, if it clears the threshold;
    None when there were too many anchor pairs to compare them all."""
    ends = index.positions(loose_key(core[-1]))
    wanted = core[1:-1]
    wanted_bag = token_bag(wanted)
    budget = _LINES_BUDGET
    best: list[_Scored] = []
    for first in index.positions(loose_key(core[0])):
        if not lo <= first < hi:
            continue
        # The file's version may have gained or lost lines: up to twice the size, the
        # ends nearest the expected one first.
        reach = min(first + 2 * len(core) - 1, hi - 1)
        expected = first + len(core) - 1
        lasts = sorted(ends[bisect_left(ends, first + 2) : bisect_right(ends, reach)],
                       key=lambda last: (abs(last - expected), last))[:_ENDS_PER_START]
        top: _Scored | None = None
        for last in lasts:
            budget -= last - first
            if budget < 0:
                return None
            middle = index.lines[first + 1 : last]
            if quick_similarity(wanted_bag, token_bag(middle)) < NEAR_THRESHOLD:
                continue
            score = similarity(wanted, middle)
            if score >= NEAR_THRESHOLD and (top is None or score > top[0]):
                top = (score, first, last)
        if top is not None:
            best.append(top)
    return best


def _separate(scored: list[_Scored]) -> list[_Scored]:
    """Best first, dropping places that overlap a better one (one place, two extents)."""
    chosen: list[_Scored] = []
    for item in sorted(scored, key=lambda s: (-s[0], s[1])):
        _, first, last = item
        if all(last < other[1] or first > other[2] for other in chosen):
            chosen.append(item)
    return chosen
