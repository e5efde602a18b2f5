"""The matching cascade: where one SEARCH/REPLACE lands in a file's lines, or why not.

Stages run from strict to loose and the first that finds anything decides: one place
lands, two or more places are AMBIGUOUS (all listed, none picked).

1. exact whole lines;
2. expression-only differences (trailing whitespace, typographic punctuation,
   indentation, tabs/spaces, spurious blank edges), written back in the file's style;
3. ``...`` elision paired in SEARCH and REPLACE, the elided lines kept from the file;
4. a near match (anchored first/last lines, similar middle): NEEDS_REVIEW only;
5. nothing: NOT_FOUND with the closest regions and a diagnosis.

Every landing then passes the duplicate-line guard. Pure: no I/O, nothing imported
beyond the standard library and the core records.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from reviewtui.core.match.elision import (
    EMPTY_SEARCH,
    TRUNCATION,
    PieceMissing,
    Refusal,
    is_marker,
    match_elided,
    unpaired_placeholder,
)
from reviewtui.core.match.exact import find_exact
from reviewtui.core.match.guards import duplicate_line
from reviewtui.core.match.landing import Ambiguity, Held, Landing, Located, method_name
from reviewtui.core.match.normalise import is_blank, trim_blank_edges
from reviewtui.core.model.chunks import ChunkedLines
from reviewtui.core.model.outcome import MatchResult, Status
from reviewtui.core.record import replace as replace_record
from reviewtui.core.text.markers import placeholder_indices

DUPLICATE_LINE = "duplicate-line"


def match_edit(
    file_lines: Sequence[str],
    search: Sequence[str],
    replace: Sequence[str],
    *,
    window: tuple[int, int] | None = None,
    history: Sequence[Sequence[str]] = (),
    path: str = "",
    literal: bool = False,
    explain: bool = True,
) -> MatchResult:
    """Where ``search`` lands in ``file_lines`` and what replaces it.

    Lines come without line endings (a stray trailing ``\\r`` on SEARCH/REPLACE lines is
    dropped). ``window`` is a 0-based ``[start, end)`` range the match must lie in;
    ``history`` holds earlier versions of the file, oldest first, to tell a stale SEARCH.
    ``path``, when known, lets the placeholder detector read a bare ``...`` by language
    (Python's Ellipsis, YAML's document end); without it Python's rules apply.
    ``literal`` (a format with exact text: unified diffs, apply_patch, Claude Code, tool
    calls): no line is an elision marker or a truncation placeholder, so the elision stage
    and the unpaired-placeholder refusal are skipped.
    ``explain=False``: a failure is not diagnosed (no candidates, no hint, no stale note
    on a near match), for a caller that explains it later (``core/model/deferred.py``);
    the status, place and new lines are the same either way.
    The caller splices ``file_lines[:start] + new_lines + file_lines[end:]``.
    """
    lines = (file_lines if isinstance(file_lines, list | tuple)
             or type(file_lines) is ChunkedLines else list(file_lines))
    wanted = _clean(search)
    writing = _clean(replace)
    lo, hi = _bounds(window, len(lines))
    if all(is_blank(line) for line in wanted):
        return MatchResult(Status.REFUSED, rule=EMPTY_SEARCH,
                           hint="SEARCH is empty: nothing to find (a new file is created "
                                "by the caller, not matched)")
    placeholder = None if literal else _placeholder(search, replace, wanted, writing, path)
    if placeholder:
        # Unless the file as the edit leaves it shows each extra marker is content where it
        # stands (a stub's body, a docstring or code-fence line, one already there).
        placed = _place_literally(lines, wanted, writing, lo, hi, path)
        if placed is not None:
            return placed
        return MatchResult(Status.REFUSED, rule=TRUNCATION, hint=placeholder)

    starts = find_exact(lines, wanted, lo, hi)
    if len(starts) > 1:
        return _ambiguous(tuple((s, s + len(wanted)) for s in starts), "exact")
    if starts:
        landing = Landing(starts[0], starts[0] + len(wanted), writing)
        return _settle(lines, wanted, landing, "exact")

    # The looser stages (and their indexes) are loaded when an exact match fails.
    from reviewtui.core.match.diagnose import diagnose, stale_version
    from reviewtui.core.match.expression import match_expression
    from reviewtui.core.match.index import index_for
    from reviewtui.core.match.near import match_near

    index = index_for(lines, lo, hi)
    found = match_expression(index, wanted, writing, lo, hi)
    if found is not None:
        return _decide(lines, wanted, found, "")

    elided = None if literal else match_elided(index, wanted, writing, lo, hi, path)
    if isinstance(elided, Refusal):
        return MatchResult(Status.REFUSED, method="elision", rule=elided.rule, hint=elided.hint)
    if isinstance(elided, PieceMissing):
        if not explain:
            return MatchResult(Status.NOT_FOUND, method="elision")
        missing = diagnose(index, _core(elided.piece), history)
        hint = f"piece {elided.number} of the elided SEARCH not found; {missing.hint}"
        return MatchResult(Status.NOT_FOUND, method="elision", candidates=missing.candidates,
                           hint=hint)
    if elided is not None:
        shown = [line for at, line in enumerate(wanted) if not is_marker(wanted, at, path)]
        return _decide(lines, shown, elided, "elision")

    near = match_near(index, wanted, writing, lo, hi)
    if isinstance(near, Landing) and history and explain:
        version = stale_version(_core(wanted), history)
        if version is not None:  # the reviewer should know the model read an old file
            stale = (f"SEARCH is verbatim in earlier version {version} of {len(history)}: "
                     "probably stale")
            near = replace_record(near, hints=(*near.hints, stale))
    if near is not None:
        return _decide(lines, wanted, near, "near")
    if not explain:
        return MatchResult(Status.NOT_FOUND)
    return diagnose(index, _core(wanted), history)


def _place_literally(lines: Sequence[str], search: tuple[str, ...], replace: tuple[str, ...],
                     lo: int, hi: int, path: str) -> MatchResult | None:
    """The edit landed with REPLACE's extra markers as content, when SEARCH lands exactly
    or by expression only at one place and, in the whole file as the edit leaves it, no
    line REPLACE writes is a placeholder (``whole_file_placeholders``). None: refuse."""
    starts = find_exact(lines, search, lo, hi)
    found: Located
    if len(starts) == 1:
        found = Landing(starts[0], starts[0] + len(search), replace)
    elif starts:
        return None
    else:
        from reviewtui.core.match.expression import match_expression
        from reviewtui.core.match.index import index_for

        found = match_expression(index_for(lines, lo, hi), search, replace, lo, hi)
    if isinstance(found, Held):
        return _decide(lines, search, found, "")
    if not isinstance(found, Landing):
        return None
    if whole_file_placeholders(lines, found.start, found.end, found.new_lines, path):
        return None
    note = ("REPLACE's ellipsis lines are content where they land (a stub's body, a "
            "docstring or code sample), not placeholders")
    found = replace_record(found, hints=(*found.hints, note))
    return _decide(lines, search, found, "") if found.kinds else _settle(
        lines, search, found, "exact")


def whole_file_placeholders(lines: Sequence[str], start: int, end: int,
                            new_lines: Sequence[str], path: str) -> list[int]:
    """Indexes in ``new_lines`` of the placeholder lines, judged in the whole file as
    ``lines[start:end] = new_lines`` leaves it; a line the replaced region already has
    is content that was there."""
    after = [*lines[:start], *new_lines, *lines[end:]]
    hits = placeholder_indices(after, path, lines[start:end], whole=True,
                               among=range(start, start + len(new_lines)))
    return [at - start for at in hits]


def _placeholder(search: Sequence[str], replace: Sequence[str], wanted: tuple[str, ...],
                 writing: tuple[str, ...], path: str) -> str | None:
    """``unpaired_placeholder`` of the cleaned lines: pure in the edit, and asked again
    for each later edit of a file a decision changes, so remembered by the edit's own
    line tuples (alive in the session anyway; a 50,000-edit session fits)."""
    if type(search) is tuple and type(replace) is tuple:
        return _unpaired(search, replace, path)
    return unpaired_placeholder(wanted, writing, path)


@lru_cache(maxsize=65536)
def _unpaired(search: tuple[str, ...], replace: tuple[str, ...], path: str) -> str | None:
    return unpaired_placeholder(_clean(search), _clean(replace), path)


def _clean(lines: Sequence[str]) -> tuple[str, ...]:
    """Lines without stray carriage returns; a bare string is split rather than iterated."""
    if isinstance(lines, str):
        lines = lines.split("\n")
    return tuple(part.rstrip("\r") for line in lines for part in line.split("\n"))


def _bounds(window: tuple[int, int] | None, size: int) -> tuple[int, int]:
    if window is None:
        return 0, size
    lo = min(max(window[0], 0), size)
    return lo, min(max(window[1], lo), size)


def _core(lines: Sequence[str]) -> tuple[str, ...]:
    head, tail = trim_blank_edges(lines)
    return tuple(lines[head : len(lines) - tail])


def _decide(lines: Sequence[str], search: Sequence[str], found: Landing | Ambiguity | Held,
            stage: str) -> MatchResult:
    if isinstance(found, Held):  # one place, but not written there as meant
        method = "near" if stage == "near" else method_name(found.kinds, stage=stage)
        return MatchResult(Status.REFUSED, method=method, rule=found.rule, hint=found.hint)
    if isinstance(found, Ambiguity):
        method = "near" if stage == "near" else method_name(found.kinds, stage=stage)
        return _ambiguous(found.spans, method)
    method = "near" if stage == "near" else method_name(found.kinds, stage=stage)
    return _settle(lines, search, found, method)


def _ambiguous(spans: Sequence[tuple[int, int]], method: str) -> MatchResult:
    locations = tuple((start + 1, end) for start, end in spans)
    listed = ", ".join(f"{start}-{end}" for start, end in locations)
    return MatchResult(Status.AMBIGUOUS, method=method, locations=locations,
                       hint=f"SEARCH matches {len(locations)} places (lines {listed}); "
                            "add surrounding lines to pick one")


def _settle(lines: Sequence[str], search: Sequence[str], landing: Landing,
            method: str) -> MatchResult:
    """One landing: APPLIED (NEEDS_REVIEW when near), or REFUSED by the guard."""
    status = Status.APPLIED if landing.similarity is None else Status.NEEDS_REVIEW
    hint = "; ".join(landing.hints)
    rule = ""
    pasted = duplicate_line(lines, landing.start, landing.end, landing.new_lines,
                            _core(search))
    if pasted:
        status, rule, hint = Status.REFUSED, DUPLICATE_LINE, pasted
    return MatchResult(status, method=method, start=landing.start, end=landing.end,
                       new_lines=landing.new_lines,
                       locations=((landing.start + 1, landing.end),), hint=hint, rule=rule,
                       similarity=landing.similarity)
