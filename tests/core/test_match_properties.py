"""Properties of the matcher over generated files (hypothesis)."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from reviewtui.core.match import match_edit
from reviewtui.core.match.elision import markers
from reviewtui.core.match.exact import find_exact
from reviewtui.core.match.landing import INDENT_UNKNOWN
from reviewtui.core.match.normalise import is_blank, leading, loose_key
from reviewtui.core.model.outcome import Diagnosis, MatchResult, Status

# Few words, so lines repeat and uniqueness is a real question; spaces-only indentation
# and no trailing whitespace, as in a tidy source file.
WORDS = st.sampled_from(["x", "y = 1", "call(a, 'b')", "return x", "if y:", "}", "say(\"hi\")"])
LINE = st.one_of(
    st.just(""),
    st.builds(lambda depth, word: " " * depth + word,
              st.integers(min_value=0, max_value=12), WORDS),
)
FILE = st.lists(LINE, min_size=1, max_size=40)
NEW = st.lists(st.builds(lambda depth, word: " " * depth + word,
                         st.integers(min_value=0, max_value=12),
                         st.sampled_from(["fresh()", "z = 'new'", "x", "pass"])),
               max_size=4)


def occurrences(file: list[str], search: list[str], key: Callable[[str], str]) -> int:
    size = len(search)
    wanted = [key(line) for line in search]
    return sum(1 for i in range(len(file) - size + 1)
               if [key(line) for line in file[i : i + size]] == wanted)


def splice(file: list[str], result: MatchResult) -> list[str]:
    return [*file[: result.start], *result.new_lines, *file[result.end :]]


@st.composite
def unique_edits(draw: st.DrawFn) -> tuple[list[str], int, int, list[str]]:
    """A file, a slice of it that occurs exactly once, and a replacement for it."""
    file = draw(FILE)
    start = draw(st.integers(min_value=0, max_value=len(file) - 1))
    end = draw(st.integers(min_value=start + 1, max_value=min(len(file), start + 6)))
    search = file[start:end]
    assume(any(not is_blank(line) for line in search))
    assume(occurrences(file, search, lambda line: line) == 1)
    # The replacement keeps some SEARCH lines and brings some new ones.
    kept = draw(st.lists(st.sampled_from(search), max_size=4))
    replace = draw(st.permutations([*kept, *draw(NEW)]))
    assume(not markers(search) and not markers(replace))
    return file, start, end, list(replace)


@given(unique_edits())
@settings(max_examples=300, deadline=None)
def test_a_unique_exact_search_lands_where_it_is(
        edit: tuple[list[str], int, int, list[str]]) -> None:
    file, start, end, replace = edit
    result = match_edit(file, file[start:end], replace)
    assert result.method == "exact"
    assert (result.start, result.end) == (start, end)
    assert result.locations == ((start + 1, end),)
    assert result.new_lines == tuple(replace)
    if result.status is Status.APPLIED:
        assert splice(file, result) == [*file[:start], *replace, *file[end:]]
    else:  # the model's REPLACE repeats a neighbour: refused, still forceable
        assert (result.status, result.rule) == (Status.REFUSED, "duplicate-line")


def shift(lines: list[str], columns: int) -> list[str]:
    return [line if is_blank(line) else " " * columns + line for line in lines]


def dedent(lines: list[str], columns: int) -> list[str]:
    return [line if is_blank(line) else line[columns:] for line in lines]


def pad(lines: list[str]) -> list[str]:
    return [line + "  " for line in lines]


def curl(lines: list[str]) -> list[str]:
    return [line.replace("'", "\u2019").replace('"', "\u201d") for line in lines]


@pytest.mark.slow
@given(unique_edits(), st.sampled_from(["shift", "drop", "trailing", "curly", "all"]),
       st.integers(min_value=1, max_value=8))
@settings(max_examples=300, deadline=None)
def test_expression_slips_give_the_unperturbed_result(
        edit: tuple[list[str], int, int, list[str]], slip: str, columns: int) -> None:
    file, start, end, replace = edit
    search = file[start:end]
    # Only places unique even after normalisation can be expected to land the same (and
    # blank edges are matched loosely: they are no part of what must be unique).
    assume(not is_blank(search[0]) and not is_blank(search[-1]))
    assume(occurrences(file, search, loose_key) == 1)
    intended = match_edit(file, search, replace)
    assume(intended.status is Status.APPLIED)

    typed_search, typed_replace = search, replace
    if slip in ("shift", "all"):
        typed_search, typed_replace = shift(search, columns), shift(replace, columns)
    if slip == "drop":
        depth = min(len(leading(line)) for line in search + replace if not is_blank(line))
        assume(depth > 0)
        typed_search, typed_replace = dedent(search, depth), dedent(replace, depth)
    if slip in ("trailing", "all"):
        typed_search = pad(typed_search)
    if slip in ("curly", "all"):
        typed_search = curl(typed_search)
    assume(typed_search != search)

    result = match_edit(file, typed_search, typed_replace)
    if result.rule == INDENT_UNKNOWN and slip in ("shift", "all"):
        # A new line at the region's edge joins a block beyond it whose first level the
        # shifted edit does not settle (a block by one column, a line by two under it):
        # refused, never guessed. Only a shifted edit's, and only next to such a block.
        assert _edge_block(file, start, end), result.hint
        return
    assert result.status is Status.APPLIED, result.hint
    assert (result.start, result.end) == (intended.start, intended.end)
    assert splice(file, result) == splice(file, intended)


def _edge_block(file: list[str], start: int, end: int) -> bool:
    """Whether an indented line stands right beyond the region (blank lines passed)."""
    above = [line for line in file[:start] if not is_blank(line)][-1:]
    below = [line for line in file[end:] if not is_blank(line)][:1]
    return any(leading(line) for line in above + below)


TEXT = st.text(alphabet=st.characters(codec="utf-8", exclude_categories=["Cs"]), max_size=12)
ANY_LINES = st.lists(st.one_of(TEXT, st.sampled_from(
    ["...", "# ...", "", "  ", "\t}", "\r", "// rest of code unchanged", "\u2026"])), max_size=12)


@given(ANY_LINES, ANY_LINES, ANY_LINES,
       st.one_of(st.none(), st.tuples(st.integers(-3, 15), st.integers(-3, 15))),
       st.lists(ANY_LINES, max_size=2))
@settings(max_examples=400, deadline=None)
@example(["00:00"], ["0"], [], None, [])  # (part of a line, 33% like it: found s37)
def test_never_raises_and_answers_consistently(
        file: list[str], search: list[str], replace: list[str],
        window: tuple[int, int] | None, history: list[list[str]]) -> None:
    result = match_edit(file, search, replace, window=window, history=history)
    if result.status in (Status.APPLIED, Status.NEEDS_REVIEW):
        assert 0 <= result.start <= result.end <= len(file)
        assert result.locations == ((result.start + 1, result.end),)
    if result.status is Status.NEEDS_REVIEW:
        assert result.similarity is not None
    if result.status is Status.AMBIGUOUS:
        assert len(result.locations) >= 2
    if result.status is Status.NOT_FOUND:
        assert len(result.candidates) <= 3
        # (a SEARCH found inside one line is shown there, however unlike the line it is)
        assert all((c.similarity >= 0.4 or c.diagnosis is Diagnosis.PART_OF_A_LINE)
                   and c.similarity <= 1 and 1 <= c.start <= c.end <= len(file)
                   for c in result.candidates)
    if result.status is Status.REFUSED:
        assert result.rule in ("empty-search", "truncation-placeholder", "duplicate-line")


@given(st.lists(st.sampled_from(["a", "b", "", "ab", "a b", "}"]), max_size=300),
       st.lists(st.sampled_from(["a", "b", "", "ab", "}"]), min_size=1, max_size=3),
       st.integers(0, 300), st.integers(0, 300))
@settings(max_examples=300, deadline=None)
def test_the_cached_joined_text_finds_what_the_line_scan_finds(
        file: list[str], search: list[str], lo: int, hi: int) -> None:
    version = tuple(file)
    lo, hi = min(lo, len(file)), min(max(lo, hi), len(file))
    by_scan = find_exact(file, search, lo, hi)  # a list is never cached
    find_exact(version, search, lo, hi)  # first sighting: scanned, remembered
    assert find_exact(version, search, lo, hi) == by_scan  # second: the joined text
