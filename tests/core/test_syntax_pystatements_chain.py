"""Statement regions after one another in one function: a region may start from where the
last one proved ends (a line out of every bracket of the file before), and may end at a
comment less indented than itself when the next statement is at its indentation or less.
Property: a yes means a whole parse finds nothing new; several edits in one function, with
brackets spanning lines, comments at every indentation, clauses and continuations."""

from __future__ import annotations

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from pyregionkit import edited, parses

from reviewtui.core.syntax.pyregions import changes_of, edits_parse_alone

FRAGMENTS = [
    "def f():", "    x = 1", "    y = 2", "        z = 3", "    if x:", "        y = 2",
    "    else:", "        pass", "    for a in b:", "    try:", "    except E:",
    "    y = (1,", "    2)", "2)", "        3)", "    z = [", "    ]", "# c", "  # c",
    "    # c", "        # c", "            # c", "", "    return x", "    x = \\",
    "        1", "    s = '''", "'''", "    while x:", "        break", "    @d",
    "    def g():", "class C:", "x = 1", "            w = 4", "    elif y:", "    q(1)",
    "    2,", "    a = 1", "    b = f(", "    )", "    c,", "    3)", "    d = {",
]
line = st.sampled_from(FRAGMENTS)
edit = st.tuples(st.integers(0, 30), st.integers(0, 2), st.lists(line, max_size=2))


@settings(max_examples=800)
@given(base=st.lists(line, max_size=30), edits=st.lists(edit, min_size=1, max_size=4))
@example(base=["def f():", "    y = (1,", "    2)", "    x = 1", "    y = 2"],
         edits=[(3, 1, ["    x = 2"]), (4, 1, ["    y = 3"])])
@example(base=["def f():", "    if x:", "        y = 2", "# c", "            w = 4",
               "    x = 1"], edits=[(2, 1, ["        z = 3"])])
def test_a_yes_from_chained_statements_means_a_whole_parse_finds_nothing_new(
        base: list[str], edits: list[tuple[int, int, list[str]]]) -> None:
    after_lines, steps = edited(base, edits)
    before, after = "\n".join(base) + "\n", "\n".join(after_lines) + "\n"
    if edits_parse_alone(before, after, changes_of(steps), budget=1.0):
        assert parses(after) or not parses(before)


# Whole statements of a function body, some spanning lines inside brackets (where a line
# at the block's indentation starts no statement), for a base that mostly parses.
UNITS = [
    ["    x = 1"], ["    y = f(", "    a,", "    c,", "    )"], ["    z = [", "    1,", "    ]"],
    ["    if x:", "        y = 2"], ["    if x:", "        y = 2", "    else:", "        pass"],
    ["    # c"], ["# c"], [""], ["    w = (1 +", "    2)"], ["    q(1)"],
    ["    for a in b:", "        y = (1,", "        2)"], ["    s = , "],
    ["    x = \\", "    1"],
]
NEW_LINES = ["    a = 1", "    return x", "    3; z = 1", "    c,", "    )", "    y = f(",
             "        y = 2", "    if x:", "# c", "    else:", ""]


@settings(max_examples=700)
@given(units=st.lists(st.sampled_from(UNITS), max_size=12),
       edits=st.lists(st.tuples(st.integers(1, 30), st.integers(0, 2),
                                st.lists(st.sampled_from(NEW_LINES), max_size=2)),
                      min_size=1, max_size=4))
@example(units=[["    y = f(", "    a,", "    c,", "    c,", "    c,", "    )"]],
         edits=[(5, 1, ["    return x"])])  # an anchor inside the call's brackets: wrong
@example(units=[["    w = 0"], ["    x = 1"],
                ["    y = f(", "    a,", "    c,", "    c,", "    )"]],
         edits=[(2, 1, ["    a = 1"]), (6, 1, ["    return x"])])  # a line past the last
# region's end (inside the call it opens) taken for that end: wrong
def test_a_yes_on_statement_units_means_a_whole_parse_finds_nothing_new(
        units: list[list[str]], edits: list[tuple[int, int, list[str]]]) -> None:
    base = ["def f():", *(line for unit in units for line in unit), "    return 0"]
    after_lines, steps = edited(base, edits)
    before, after = "\n".join(base) + "\n", "\n".join(after_lines) + "\n"
    if edits_parse_alone(before, after, changes_of(steps), budget=1.0):
        assert parses(after) or not parses(before)


BODY = "".join(f"    v{i} = (1 +\n         {i})\n    # note {i}\n" for i in range(40))
FUNCTION = "def f():\n" + BODY + "    if v0:\n        v1 = 2\n# out\n    return v0\n\n\n"


def test_two_edits_in_one_function_each_parse_their_statements_alone(
        region_parses: list[list[str]]) -> None:
    before = FUNCTION * 20
    lines = before.split("\n")
    first, second = lines.index("         10)"), lines.index("         30)")
    after_lines = list(lines)
    after_lines[first], after_lines[second] = "         10 + 1)", "         30 + 1)"
    steps = [(first + 1, first + 1, 0), (second + 1, second + 1, 0)]
    assert edits_parse_alone(before, "\n".join(after_lines), changes_of(steps))
    # Each: its assignment (two lines) and the one above, not the function's 125 lines.
    parsed = [len(region) for region in region_parses]
    assert parsed
    assert max(parsed) <= 6


def test_a_statement_before_a_less_indented_comment_parses_alone(
        region_parses: list[list[str]]) -> None:
    before = FUNCTION * 20
    lines = before.split("\n")
    at = lines.index("        v1 = 2")
    after_lines = list(lines)
    after_lines[at] = "        v1 = 3"
    assert edits_parse_alone(before, "\n".join(after_lines), changes_of([(at + 1, at + 1, 0)]))
    parsed = [len(region) for region in region_parses]
    assert parsed
    assert max(parsed) <= 3


@pytest.mark.parametrize(("base", "at", "new"), [
    # A comment less indented, then a statement deeper than the region: the region may
    # not end at the comment (the inserted line leaves the deeper one without a block).
    (["def f():", "    if x:", "        y = 1", "# c", "        z = 2"], 3, ["    w = 0"]),
    # ... nor before a clause at its own indentation (the clause loses its statement).
    (["def f():", "    if x:", "        y = 1", "# c", "    else:", "        z = 2"], 3,
     ["    w = 0"]),
])
def test_a_region_that_would_end_wrongly_at_a_comment_is_refused(
        base: list[str], at: int, new: list[str]) -> None:
    after_lines = [*base[:at], *new, *base[at:]]
    before, after = "\n".join(base) + "\n", "\n".join(after_lines) + "\n"
    assert parses(before)
    assert not parses(after)
    steps = [(at + 1, at, len(new))]  # an insertion before line ``at``
    assert not edits_parse_alone(before, after, changes_of(steps), budget=1.0)
