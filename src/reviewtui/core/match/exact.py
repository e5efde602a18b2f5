"""Stage 1: whole-line exact matches, without normalising or joining the file.

``list.index`` compares strings in C (length first, then memcmp), so scanning for the
longest SEARCH line -- usually the rarest -- costs about what one ``str.find`` over the
joined text does, and the joined text itself is never built.
"""

from __future__ import annotations

from collections.abc import Sequence


def find_exact(lines: Sequence[str], search: Sequence[str], lo: int, hi: int) -> list[int]:
    """Every 0-based start in ``[lo, hi)`` where ``search`` occurs as whole lines.

    Overlapping occurrences count separately: ``a a`` is in ``a a a`` twice.
    """
    size = len(search)
    if not size or hi - lo < size:
        return []
    pivot_at = max(range(size), key=lambda i: len(search[i]))
    pivot = search[pivot_at]
    wanted = list(search)
    # A pivot hit at p puts the match at p - pivot_at; keep the whole match inside.
    stop = hi - size + pivot_at + 1
    starts: list[int] = []
    position = lo + pivot_at
    while position < stop:
        try:
            hit = lines.index(pivot, position, stop)
        except ValueError:
            break
        start = hit - pivot_at
        if list(lines[start : start + size]) == wanted:
            starts.append(start)
        position = hit + 1
    return starts
