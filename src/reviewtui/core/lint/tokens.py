"""Token estimates and the cost model behind the protocol's 70% rule.

Estimate: one token per four characters, rounded up (``ceil(len(text) / 4)``). It
is the rule of thumb tokenizer vendors quote for English and it holds roughly for
code under common BPE tokenizers. It needs no tokenizer dependency, is
deterministic, and every cost rule compares two estimates of the same kind (search
/replace against full file), so the constant mostly cancels: what matters is that
both sides are measured with the same ruler.

The search/replace cost of a file change counts what the model would have had to
write: for every hunk, the SEARCH lines, the REPLACE lines and the marker lines
(``Edit N``, ``<<<<<<< SEARCH``, ``=======``, ``>>>>>>> REPLACE``). The file header
is left out, since both forms need it.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

CHARS_PER_TOKEN = 4
# Search/replace at or above this share of the full file's tokens: send the full file.
FULL_FILE_PERCENT = 70
# Changes separated by fewer unchanged lines than this belong in one edit.
MERGE_GAP = 2
# The protocol caps a SEARCH anchor at 12 lines.
MAX_SEARCH_LINES = 12
# "File too large: always S/R". Above this estimate a full file may not fit in one
# reply, so the linter never asks for one. A conservative guess at an output budget.
LARGE_FILE_TOKENS = 16_000
# The marker lines one edit costs besides its SEARCH and REPLACE text.
EDIT_MARKERS = "Edit 1\n<<<<<<< SEARCH\n=======\n>>>>>>> REPLACE\n"


def estimate_tokens(text: str) -> int:
    """``ceil(len(text) / 4)``: 0 for empty text, 1 for one to four characters."""
    return estimate_tokens_of_length(len(text))


def estimate_tokens_of_length(length: int) -> int:
    """:func:`estimate_tokens` of a text of ``length`` characters."""
    return -(-length // CHARS_PER_TOKEN)


def _joined_length(lines: Sequence[str]) -> int:
    """``len(join_lines(lines))`` (each line and its newline), without joining them: lint
    measures whole files for every edit."""
    return sum(map(len, lines)) + len(lines)


def lines_tokens(lines: Sequence[str]) -> int:
    return estimate_tokens_of_length(_joined_length(lines))


def edit_cost(search: Sequence[str], replace: Sequence[str]) -> int:
    """Tokens of one labelled search/replace edit, markers included."""
    return estimate_tokens_of_length(_joined_length(search) + _joined_length(replace)
                                     + len(EDIT_MARKERS))


def percent(part: int, whole: int) -> int:
    return round(100 * part / whole) if whole else 0


def reaches_threshold(part: int, whole: int) -> bool:
    """``part >= 70% of whole`` in integers, so 69.99% never rounds up to a finding."""
    return 100 * part >= FULL_FILE_PERCENT * whole


# -- finding lines in a file -------------------------------------------------------


def find_all(haystack: Sequence[str], needle: Sequence[str], limit: int = 2) -> list[int]:
    """Start indexes where ``needle`` occurs as whole lines, at most ``limit`` of them."""
    found: list[int] = []
    if not needle:
        return found
    first, size, want = needle[0], len(needle), list(needle)
    last = len(haystack) - size  # the last start with room for the whole needle
    # The first line's candidates come from the sequence's own ``index`` (a scan in C for
    # a list or tuple; no copy of the file): lint looks for every edit of every turn in
    # the file as that turn sees it, and for each anchor it tries.
    index = haystack.index
    at = 0
    while at <= last:
        try:
            at = index(first, at, last + 1)
        except ValueError:
            break
        if list(haystack[at : at + size]) == want:
            found.append(at)
            if len(found) >= limit:
                break
        at += 1
    return found


def locate(haystack: Sequence[str], needle: Sequence[str]) -> int | None:
    """The start of the one exact match of ``needle``; ``None`` if absent or repeated."""
    found = find_all(haystack, needle, 2)
    return found[0] if len(found) == 1 else None


def apply_edits(
    lines: Sequence[str], edits: Iterable[tuple[Sequence[str], Sequence[str]]]
) -> list[str] | None:
    """Apply (search, replace) pairs in order by exact unique match; ``None`` if one fails."""
    out = list(lines)
    for search, replace in edits:
        at = locate(out, search)
        if at is None:
            return None
        out[at : at + len(search)] = list(replace)
    return out


# -- what search/replace would have cost --------------------------------------------


def search_replace_cost(old: Sequence[str], new: Sequence[str]) -> int | None:
    """Tokens of the cheapest sensible search/replace edits turning ``old`` into ``new``.

    Changes closer than ``MERGE_GAP`` unchanged lines share one edit. Each edit's
    SEARCH is its changed lines grown by context, one line each side at a time, until
    it matches exactly once in ``old``. ``None`` when some change has no unique
    anchor within ``MAX_SEARCH_LINES`` of context: then the protocol wants a full file.
    """
    hunks: list[list[int]] = []
    for i1, i2, j1, j2 in _changed_blocks(old, new):
        if hunks and i1 - hunks[-1][1] < MERGE_GAP:
            hunks[-1][1], hunks[-1][3] = i2, j2
        else:
            hunks.append([i1, i2, j1, j2])
    total = 0
    for i1, i2, j1, j2 in hunks:
        context = _anchor_context(old, i1, i2)
        if context is None:
            return None
        a, b = max(0, i1 - context), min(len(old), i2 + context)
        replace = [*old[a:i1], *new[j1:j2], *old[i2:b]]
        total += edit_cost(old[a:b], replace)
    return total


DIFF_LIMIT = 2_000  # changed lines (either side) above which difflib is not run


def _changed_blocks(old: Sequence[str], new: Sequence[str]) -> list[tuple[int, int, int, int]]:
    """(i1, i2, j1, j2) of each changed block, bounded in cost.

    The common head and tail are trimmed first (linear); difflib runs only on a middle
    of at most ``DIFF_LIMIT`` lines a side. A larger middle counts as one changed block:
    an upper bound of the search/replace cost (the rule then warns less, never wrongly).
    """
    limit = min(len(old), len(new))
    head = 0
    while head < limit and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < limit - head and old[len(old) - 1 - tail] == new[len(new) - 1 - tail]:
        tail += 1
    o2, n2 = len(old) - tail, len(new) - tail
    if head == o2 and head == n2:
        return []
    if max(o2 - head, n2 - head) > DIFF_LIMIT:
        return [(head, o2, head, n2)]
    from difflib import SequenceMatcher  # here: not a start-up import

    matcher = SequenceMatcher(None, list(old[head:o2]), list(new[head:n2]), autojunk=False)
    return [(i1 + head, i2 + head, j1 + head, j2 + head)
            for tag, i1, i2, j1, j2 in matcher.get_opcodes() if tag != "equal"]


def _anchor_context(old: Sequence[str], i1: int, i2: int) -> int | None:
    for context in range(MAX_SEARCH_LINES + 1):
        a, b = max(0, i1 - context), min(len(old), i2 + context)
        search = old[a:b]
        if search and len(find_all(old, search, 2)) == 1:
            return context
        if a == 0 and b == len(old):
            return None  # only reachable for an empty file: nothing to anchor on
    return None
