"""A change inside a function is proved by the statements of its block alone, when the
first of them is out of every bracket and the block's clauses stay with their statements.
Property: a yes means a whole parse finds nothing new; and cases where a statement-sized
region would be wrong."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyregionkit import edited, parses

from reviewtui.core.syntax.pyregions import changes_of, edits_parse_alone

# Statement lines of function bodies: clauses, brackets spanning lines (closing at a lower
# indentation), decorators, comments at column 0, a form feed, tabs, strings.
FRAGMENTS = [
    "def f():", "    x = 1", "    if x:", "        y = 2", "    else:", "    elif y:",
    "        pass", "    try:", "    except E:", "    finally:", "    for a in b:",
    "        break", "    return x", "    y = (1,", "2)", "  3)", "    z = [", "    ]",
    "    @dec", "    def g():", "# c", "    # c", "\f    w = 1", "\tq = 1", "    s = '''",
    "'''", "    t = '('", "    u = 1  # (", "class C:", "    a = 1", "        c = 3",
    "    while x:", "        continue", "    with m:", "x = 1", "", "    match x:",
    "        case 1:", "            pass", "    yield x", "    await y", "    x = \\",
    "        1", "if x:", "else:",
]
line = st.sampled_from(FRAGMENTS)
edit = st.tuples(st.integers(0, 24), st.integers(0, 3), st.lists(line, max_size=3))


# 600 examples (was 1,500): a region started at the edit instead of at its statement's first
# line is found within them under CI's fixed seed and three other seeds; mutations of the
# clause, indentation and bracket checks pass at 1,500 as well (the region's own parse
# still refuses what they let through).
@pytest.mark.slow
@settings(max_examples=600)
@given(base=st.lists(line, max_size=24), edits=st.lists(edit, min_size=1, max_size=3))
def test_a_yes_from_statements_means_a_whole_parse_finds_nothing_new(
        base: list[str], edits: list[tuple[int, int, list[str]]]) -> None:
    after_lines, steps = edited(base, edits)
    before, after = "\n".join(base) + "\n", "\n".join(after_lines) + "\n"
    if edits_parse_alone(before, after, changes_of(steps), budget=1.0):
        assert parses(after) or not parses(before)


FUNCTION = ("def f(x):\n" + "".join(f"    y{i} = (x +\n          {i})\n" for i in range(60))
            + "    return y0\n\n\n")


def test_an_edit_in_a_long_function_parses_its_statement_alone(
        region_parses: list[list[str]]) -> None:
    before = FUNCTION * 30
    after = before.replace("          30)\n", "          30 + 1)\n", 1)
    line = before.split("\n").index("          30)") + 1
    assert edits_parse_alone(before, after, changes_of([(line, line, 0)]))
    # y30 = (x +\n 30 + 1), not the function's 123 lines
    assert [len(region) for region in region_parses] == [2]


@pytest.mark.parametrize(("base", "at", "end", "new"), [
    # The nearest line at the change's indentation is inside brackets, and so is the
    # next one: the lines between balance, and "2," and "3; z = 1" parse alone.
    (["def f():", "    y = (1,", "    2,", "    3,", "    4)", "    x = 1"], 3, 4,
     ["    3; z = 1"]),
    # The change's statement has an "else" below it: the clause stays with the region.
    (["def f():", "    x = 0", "    if x:", "        y = 2", "    else:", "        pass"], 3,
     4, ["        y = 2", "    z = 1"]),
])
def test_a_statement_region_that_would_be_wrong_is_refused(
        base: list[str], at: int, end: int, new: list[str]) -> None:
    after_lines = [*base[:at], *new, *base[end:]]
    before, after = "\n".join(base) + "\n", "\n".join(after_lines) + "\n"
    assert parses(before)
    assert not parses(after)
    steps = [(at + 1, end, len(new) - (end - at))]
    assert not edits_parse_alone(before, after, changes_of(steps), budget=1.0)
