"""Lint's token estimates and line search, made cheap for big sessions, answer as their
plain definitions: the estimate of the joined text, and a scan of every start."""

from __future__ import annotations

from hypothesis import example, given
from hypothesis import strategies as st

from reviewtui.core.lint import tokens
from reviewtui.core.model.records import join_lines

# Few distinct lines, so that needles occur, repeat and overlap; empty lines and
# characters outside ASCII (a length is counted in characters, not bytes).
line = st.sampled_from(["", "a", "b", "ab", "é€", "  x = 1"])
lines = st.lists(line, max_size=25)


def scan_every_start(haystack: list[str], needle: list[str], limit: int) -> list[int]:
    if not needle:
        return []
    starts = [i for i in range(len(haystack) - len(needle) + 1)
              if haystack[i : i + len(needle)] == needle]
    return starts[:limit]


@given(lines, lines)
@example([], [])
@example([""], [])
def test_the_estimates_are_those_of_the_joined_text(search: list[str],
                                                    replace: list[str]) -> None:
    assert tokens.lines_tokens(search) == tokens.estimate_tokens(join_lines(tuple(search)))
    assert tokens.lines_tokens(tuple(search)) == tokens.lines_tokens(search)
    joined = join_lines(tuple(search)) + join_lines(tuple(replace)) + tokens.EDIT_MARKERS
    assert tokens.edit_cost(search, replace) == tokens.estimate_tokens(joined)


@given(lines, st.lists(line, min_size=1, max_size=4), st.integers(1, 4), st.booleans())
@example(["a", "a", "a"], ["a", "a"], 4, False)  # overlapping occurrences
@example(["a"], ["a", "b"], 2, True)  # a needle longer than what is left
def test_find_all_finds_what_a_scan_of_every_start_finds(
        haystack: list[str], needle: list[str], limit: int, as_tuple: bool) -> None:
    expected = scan_every_start(haystack, needle, limit)
    assert tokens.find_all(tuple(haystack) if as_tuple else haystack, needle, limit) == expected
    assert tokens.locate(haystack, needle) == (expected[0] if len(
        scan_every_start(haystack, needle, 2)) == 1 else None)
