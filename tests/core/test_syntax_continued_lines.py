"""The lines that continue the line above (a backslash before the newline), found by the
string scan itself and carried through the edits, say what a scan of the whole text for
backslash-newlines says (``_add_continued``), before and after the edits."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st
from pyregionkit import edited

from reviewtui.core.syntax import pystrings
from reviewtui.core.syntax.pyregions import changes_of

PIECES = ['"""', "'''", '"', "'", "x", "#", "\\", "\\\n", "\n", " ", '""', "''", '""""',
          "#'''", "'\"\"\"'", 'a = """b', "\\\\", "\\\\\n", "    ", "'a\\\nb'", '"""a\\\nb"""']


def every_continued(text: str) -> list[int]:
    found: set[int] = set()
    pystrings._add_continued(text, found)
    return sorted(found)


@settings(max_examples=400)
@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
@example('"""a\\\nb"""')  # a backslash-newline in a docstring closed by its own quotes
@example('"\\\n\\\\\n')  # a string that ends between a backslash and its newline
@example("x = \"'''\" \\\ny")  # one after a one-line string holding a triple quote
@example("'''a'''  \\\nb")
def test_the_scan_finds_every_backslash_newline(text: str) -> None:
    continued: list[int] = []
    strings = pystrings._in_strings(text, continued)
    assert continued == every_continued(text)
    assert strings == pystrings._in_strings(text)


LINES = ["x", "x \\", "\\", '"""', '"""a\\', "'''", "y = 1", "", "# c \\", "'a\\", "b'"]
line_strategy = st.lists(st.sampled_from(LINES), max_size=3).map("".join)
edit = st.tuples(st.integers(0, 20), st.integers(0, 3), st.lists(line_strategy, max_size=3))


@settings(max_examples=400)
@given(base=st.lists(line_strategy, max_size=20), edits=st.lists(edit, min_size=1, max_size=4),
       ends=st.sampled_from(["\n", "", "\\"]))
@example(base=["a\\", "b"], edits=[(1, 1, [])], ends="")  # the last line left ends with one
def test_lines_continued_after_the_edits_match_a_scan_of_the_whole_file(
        base: list[str], edits: list[tuple[int, int, list[str]]], ends: str) -> None:
    lines, steps = edited(base, edits)
    before, after = "\n".join(base) + ends, "\n".join(lines) + ends
    old_continued: list[int] = []
    pystrings._in_strings(before, old_continued)
    new = after.split("\n")
    found = pystrings.continued_after(new, changes_of(steps), before.count("\n") + 1,
                                      old_continued)
    assert found == every_continued(after)
