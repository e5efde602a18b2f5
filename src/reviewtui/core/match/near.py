"""Stage 4: the first and last SEARCH lines are in the file, the lines between are close.

Scoring: the lines between the two anchors, on each side, are tokenised (words and
punctuation, whitespace dropped, one token per line break) and compared with difflib's
ratio, 2 * matched tokens / all tokens. A place qualifies at ``NEAR_THRESHOLD``; the
ratio is what the reviewer sees as ``similarity``. Such a landing is only ever labelled
NEEDS_REVIEW: forcing it is the reviewer's call.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Sequence
from difflib import SequenceMatcher

from reviewtui.core.match.expression import classify, drop_blank_edges
from reviewtui.core.match.index import FileIndex
from reviewtui.core.match.landing import Ambiguity, Landing, Located
from reviewtui.core.match.normalise import (
    loose_key,
    quick_similarity,
    similarity,
    tokens,
    trim_blank_edges,
)
from reviewtui.core.match.reexpress import reexpress

NEAR_THRESHOLD = 0.75
_MAX_PAIRS = 2000  # anchor pairs scored at most: common anchors must not go quadratic

_Scored = tuple[float, int, int]  # (similarity, first line, last line), 0-based inclusive


def match_near(index: FileIndex, search: Sequence[str], replace: Sequence[str],
               lo: int, hi: int) -> Located:
    head, tail = trim_blank_edges(search)
    core = tuple(search[head : len(search) - tail])
    if len(core) < 3:
        return None  # no middle: stage 2 already decided
    chosen = _separate(_score_pairs(index, core, lo, hi))
    if not chosen:
        return None
    if len(chosen) > 1:
        return Ambiguity(tuple(sorted((first, last + 1) for _, first, last in chosen)))
    score, first, last = chosen[0]
    region = index.lines[first : last + 1]
    matcher = SequenceMatcher(None, [loose_key(line) for line in core],
                              [loose_key(line) for line in region], autojunk=False)
    partner = {i + step: j + step
               for i, j, size in matcher.get_matching_blocks() for step in range(size)}
    kinds, _ = classify([core[i] for i in partner], [region[j] for j in partner.values()])
    new_lines = reexpress(region, core, drop_blank_edges(replace, head, tail), partner,
                          kinds, index.style)
    hint = (f"near match: the lines between matching first and last lines are "
            f"{round(score * 100)}% similar; review before applying")
    return Landing(first, last + 1, new_lines, kinds, (hint,), similarity=score)


def _score_pairs(index: FileIndex, core: Sequence[str], lo: int, hi: int) -> list[_Scored]:
    """The best-scoring last anchor for each first anchor, if it clears the threshold."""
    ends = index.positions(loose_key(core[-1]))
    wanted = tokens(core[1:-1])
    budget = _MAX_PAIRS
    best: list[_Scored] = []
    for first in index.positions(loose_key(core[0])):
        if not lo <= first < hi:
            continue
        # The file's version may have gained or lost lines: allow up to twice the size.
        reach = min(first + 2 * len(core) - 1, hi - 1)
        top: _Scored | None = None
        for last in ends[bisect_left(ends, first + 2) : bisect_right(ends, reach)]:
            budget -= 1
            if budget < 0:
                return best
            middle = tokens(index.lines[first + 1 : last])
            if quick_similarity(wanted, middle) < NEAR_THRESHOLD:
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
