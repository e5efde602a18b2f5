"""The reviewer's placement of an edit: exactly at the chosen lines, or not at all."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from reviewtui.core.engine.placed import PLACED, placed_match
from reviewtui.core.model.outcome import Status

LINES = ("def a():", "    x = 0", "", "def b():", "    x = 0", "")


def test_places_at_the_second_location() -> None:
    result = placed_match(LINES, ["    x = 0"], ["    x = 1"], (5, 5), ("    x = 0",))
    assert result is not None
    assert result.status is Status.APPLIED
    assert result.method == PLACED
    assert (result.start, result.end, result.new_lines) == (4, 5, ("    x = 1",))
    assert result.hint == "placed by reviewer at lines 5-5"


def test_a_candidate_region_gets_the_file_indentation() -> None:
    lines = ("class C:", "\tdef f(self):", "\t\treturn 1")
    search = ["def f(self):", "    return 2"]  # the model's text: spaces, another value
    replace = ["def f(self):", "    return 3"]
    result = placed_match(lines, search, replace, (2, 3), lines[1:3])
    assert result is not None
    assert result.new_lines == ("\tdef f(self):", "\t\treturn 3")


def test_changed_lines_no_longer_hold() -> None:
    assert placed_match(LINES, ["    x = 0"], ["    x = 1"], (5, 5), ("    x = 9",)) is None
    assert placed_match(LINES, ["    x = 0"], ["    x = 1"], (9, 9), ("    x = 0",)) is None


@given(st.lists(st.sampled_from(["a", "b", "  c", ""]), min_size=1, max_size=12),
       st.data())
def test_only_the_chosen_lines_change(lines: list[str], data: st.DataObject) -> None:
    first = data.draw(st.integers(1, len(lines)))
    last = data.draw(st.integers(first, len(lines)))
    anchor = tuple(lines[first - 1 : last])
    wrong = data.draw(st.booleans())
    if wrong:
        anchor = (*anchor[:-1], anchor[-1] + "x")
    result = placed_match(lines, list(anchor), ["NEW"], (first, last), anchor)
    if wrong:
        assert result is None or tuple(lines[first - 1 : last]) == anchor
        return
    assert result is not None
    spliced = [*lines[: result.start], *result.new_lines, *lines[result.end :]]
    assert spliced == [*lines[: first - 1], "NEW", *lines[last:]]
