"""Stage 3: SEARCH and REPLACE skip the same stretches with ``...`` markers.

A marker is a line that is only an ellipsis, possibly wrapped in a comment and saying
what it skips (``// ... existing code ...``, ``<!-- ... -->``), or a comment-only line
of placeholder prose (``# rest of code unchanged``); a bare ``...`` that is Python's
Ellipsis (the whole body of a block) or a doctest line is code. ``core.placeholders``
decides, for the matcher, the engine and lint alike. The k-th marker of SEARCH pairs
with the k-th of REPLACE; the file lines each pair stands for are kept as they are. A
marker in REPLACE with no partner in SEARCH would be written literally and truncate the
file.
"""

from __future__ import annotations

from collections.abc import Sequence

from reviewtui.core.match.landing import Ambiguity, Held, Landing
from reviewtui.core.match.normalise import is_blank
from reviewtui.core.record import record
from reviewtui.core.text.markers import is_placeholder_at, may_hold_placeholder

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.core.match.index import FileIndex


def is_marker(lines: Sequence[str], at: int, path: str = "") -> bool:
    """Whether ``lines[at]`` stands for lines it does not show (see ``core.placeholders``,
    the one detector the matcher, the engine and lint share)."""
    return is_placeholder_at(lines, at, path)


def markers(lines: Sequence[str], path: str = "") -> list[int]:
    return [at for at in range(len(lines)) if is_placeholder_at(lines, at, path)]


EMPTY_SEARCH = "empty-search"
TRUNCATION = "truncation-placeholder"


@record(frozen=True, slots=True)
class Refusal:
    """The elision cannot be honoured; ``hint`` says why."""

    hint: str
    rule: str = TRUNCATION


@record(frozen=True, slots=True)
class PieceMissing:
    """One piece between markers is nowhere to be found (diagnose that piece)."""

    piece: tuple[str, ...]
    number: int  # 1-based, for the hint


ElisionResult = Landing | Ambiguity | Refusal | PieceMissing


def unpaired_placeholder(search: Sequence[str], replace: Sequence[str],
                         path: str = "") -> str | None:
    """A hint if REPLACE holds more markers than SEARCH, naming the first extra one."""
    if not may_hold_placeholder(replace):
        return None  # no marker in REPLACE (most edits: one look at its text)
    in_replace = markers(replace, path)
    in_search = len(markers(search, path))
    if len(in_replace) <= in_search:
        return None
    extra = in_replace[in_search]
    return (f"REPLACE line {extra + 1} ({replace[extra].strip()!r}) is a placeholder with "
            "no matching elision in SEARCH; it would be written into the file literally")


def match_elided(index: FileIndex, search: Sequence[str], replace: Sequence[str],
                 lo: int, hi: int, path: str = "") -> ElisionResult | None:
    """Stage 3, or None when SEARCH has no marker."""
    search_pieces = _split(search, path)
    if len(search_pieces) == 1:
        return None
    replace_pieces = _split(replace, path)
    if len(replace_pieces) != len(search_pieces):
        return Refusal("SEARCH elides lines with '...' that REPLACE does not keep; "
                       "the elided lines would be deleted unseen")
    # Blank-only pieces between markers carry nothing to anchor on: they join the elision.
    pairs = [(s, r) for s, r in zip(search_pieces, replace_pieces, strict=True)
             if _substantive(s) or _substantive(r)]
    if not pairs:
        return Refusal("SEARCH is only elision markers: nothing to find", EMPTY_SEARCH)
    if any(not _substantive(s) for s, _ in pairs):
        return Refusal("REPLACE puts new lines where SEARCH has only '...'; "
                       "cannot tell where in the elided lines they go")
    return _land_pieces(index, pairs, lo, hi)


def _substantive(lines: Sequence[str]) -> bool:
    return any(not is_blank(line) for line in lines)


def _split(lines: Sequence[str], path: str) -> list[tuple[str, ...]]:
    pieces: list[tuple[str, ...]] = []
    current: list[str] = []
    for at, line in enumerate(lines):
        if is_placeholder_at(lines, at, path):
            pieces.append(tuple(current))
            current = []
        else:
            current.append(line)
    pieces.append(tuple(current))
    return pieces


def _land_pieces(index: FileIndex, pairs: Sequence[tuple[tuple[str, ...], tuple[str, ...]]],
                 lo: int, hi: int) -> ElisionResult:
    """Each piece must land exactly once after the one before it."""
    from reviewtui.core.match.expression import locate

    landings: list[Landing] = []
    for number, (piece, replacement) in enumerate(pairs, 1):
        after = landings[-1].end if landings else lo
        found = locate(index, piece, replacement, after, hi)
        if found is None:
            return PieceMissing(piece, number)
        if isinstance(found, Ambiguity):
            return found
        if isinstance(found, Held):
            return Refusal(f"piece {number} of the elided SEARCH: {found.hint}", found.rule)
        landings.append(found)
    new_lines: list[str] = []
    elided = 0
    kinds: frozenset[str] = frozenset()
    hints: list[str] = []
    for before, landing in zip([None, *landings], landings, strict=False):
        if before is not None:
            kept = index.lines[before.end : landing.start]
            new_lines.extend(kept)
            elided += len(kept)
        new_lines.extend(landing.new_lines)
        kinds |= landing.kinds
        hints.extend(hint for hint in landing.hints if hint not in hints)
    summary = f"elided {elided} line{'s' * (elided != 1)} kept from the file"
    return Landing(landings[0].start, landings[-1].end, tuple(new_lines), kinds,
                   (summary, *hints))
