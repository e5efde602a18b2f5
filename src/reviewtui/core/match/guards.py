"""Guards every landing passes, whichever stage found it."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from reviewtui.core.match.normalise import is_blank, is_closing_punctuation, loose_key


def duplicate_line(lines: Sequence[str], start: int, end: int, new_lines: Sequence[str],
                   search: Sequence[str]) -> str | None:
    """A hint if REPLACE repeats the file line just outside the replaced range.

    That is the model pasting context into REPLACE: the line would end up twice. Blank
    lines are looked through on both sides (a pasted ``def g():`` two lines down is still
    pasted). A REPLACE edge that is SEARCH's own, unchanged edge is fine, and so is one REPLACE
    holds no more often than SEARCH (a line kept, not added: a deletion with context on
    one side, between two equal lines, QA s45 helper-138 #7), and so are lone closing
    brackets, which legitimately repeat at block boundaries.
    """
    filled = [line for line in new_lines if not is_blank(line)]
    shown = [line for line in search if not is_blank(line)]
    if not filled:
        return None
    added = Counter(map(loose_key, filled)) - Counter(map(loose_key, shown))
    span = f"{start + 1}-{end}"
    above = _neighbour(lines, range(start - 1, -1, -1))
    if above is not None and _pasted(filled[0], lines[above], shown[:1], added):
        return (f"REPLACE starts with line {above + 1} of the file, just above the replaced "
                f"lines {span}: {lines[above].strip()!r}; leave surrounding lines out "
                "of REPLACE")
    below = _neighbour(lines, range(end, len(lines)))
    if below is not None and _pasted(filled[-1], lines[below], shown[-1:], added):
        return (f"REPLACE ends with line {below + 1} of the file, just below the replaced "
                f"lines {span}: {lines[below].strip()!r}; leave surrounding lines out "
                "of REPLACE")
    return None


def _neighbour(lines: Sequence[str], order: range) -> int | None:
    """The first non-blank line in ``order``."""
    return next((at for at in order if not is_blank(lines[at])), None)


def _pasted(edge: str, neighbour: str, own_edge: Sequence[str], added: Counter[str]) -> bool:
    if is_closing_punctuation(edge):
        return False
    key = loose_key(edge)
    if any(loose_key(own) == key for own in own_edge) or not added[key]:
        return False  # the edge line is SEARCH's own, left unchanged, or one it keeps
    return loose_key(neighbour) == key
