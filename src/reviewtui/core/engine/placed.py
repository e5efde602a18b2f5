"""Edits the reviewer placed by hand: the REPLACE at lines they chose.

An ambiguous SEARCH matches several places and a missed one has close candidates; the
reviewer may pick one region (:meth:`Decision.place`). The decision names the lines
(1-based, inclusive) and the exact text they held when it was taken, so a placement
applies only at exactly that text: if the file changed there, it no longer holds and
nothing lands. The REPLACE is re-expressed in the region's conventions (indentation,
tabs) as the matching cascade does for a near match. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence

from reviewtui.core.match.normalise import aligned, loose_key
from reviewtui.core.model.outcome import MatchResult, Status

PLACED = "placed"  # the outcome's method
STALE = "placement-stale"  # the rule when the chosen lines changed


def placed_match(lines: Sequence[str], search: Sequence[str], replace: Sequence[str],
                 placement: tuple[int, int], anchor: Sequence[str]) -> MatchResult | None:
    """The edit at the reviewer's lines, or None when they no longer hold ``anchor``."""
    first, last = placement
    start, end = first - 1, last
    if not 0 <= start < end <= len(lines) or tuple(lines[start:end]) != tuple(anchor):
        return None
    region = tuple(lines[start:end])
    if region == tuple(search):
        new_lines = tuple(replace)
    else:  # the loose matcher's helpers, loaded for a placed edit alone (start-up)
        from reviewtui.core.match.expression import classify
        from reviewtui.core.match.indent import guess_style
        from reviewtui.core.match.landing import INDENT_UNKNOWN
        from reviewtui.core.match.reexpress import UnknownIndent, reexpress

        blocks = aligned([loose_key(line) for line in search],
                         [loose_key(line) for line in region])
        partner = {i + step: j + step for i, j, size in blocks for step in range(size)}
        kinds, _ = classify([search[i] for i in partner], [region[j] for j in partner.values()])
        try:
            new_lines = reexpress(region, search, replace, partner, kinds,
                                  lambda: guess_style(lines[:400]), (lines, start))
        except UnknownIndent as unknown:
            return MatchResult(Status.REFUSED, method=PLACED, rule=INDENT_UNKNOWN,
                               hint=unknown.hint, locations=((first, last),))
    return MatchResult(Status.APPLIED, method=PLACED, start=start, end=end,
                       new_lines=new_lines, locations=((first, last),),
                       hint=f"placed by reviewer at lines {first}-{last}")


def stale_message(placement: tuple[int, int]) -> str:
    first, last = placement
    return (f"the reviewer's placement at lines {first}-{last} no longer holds: the file "
            "changed there; nothing was applied; place it again or decide otherwise")
