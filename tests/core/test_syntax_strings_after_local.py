"""The rescan of the file after the edits reads the lines from each change to the next line
out of every token, joined on their own (no whole-file offsets): a string that runs past
them (an edit opened one, or one reaches their end) makes it read the rest of the file. It
finds what a scan of the whole file after the edits finds."""

from __future__ import annotations

from hypothesis import example, given, settings
from hypothesis import strategies as st
from pyregionkit import edited

from reviewtui.core.syntax import pyregions

PIECES = ['"""', "'''", '"', "'", "x", "#", "\\", "a = '", '"""\\', "'x\\", "", "y = 1",
          '""', "'''z'''", "# '''"]
token_line = st.lists(st.sampled_from(PIECES), max_size=3).map("".join)
token_edit = st.tuples(st.integers(0, 40), st.integers(0, 3), st.lists(token_line, max_size=3))


@settings(max_examples=500)
@given(base=st.lists(token_line, max_size=40),
       edits=st.lists(token_edit, min_size=1, max_size=5),
       ends=st.sampled_from(["\n", "", "\\"]))
@example(base=["x", "y", "z", "w"], edits=[(1, 1, ['a = """'])], ends="\n")  # opens one
@example(base=['s = """', "x", '"""', "y", "z"], edits=[(2, 1, ["x"])], ends="\n")  # closes none
@example(base=["x", "y", "z", "w", "v"], edits=[(1, 1, ["a = 'x\\"])], ends="\n")  # runs on
def test_strings_after_the_edits_read_locally_match_a_whole_scan(
        base: list[str], edits: list[tuple[int, int, list[str]]], ends: str) -> None:
    lines, steps = edited(base, edits)
    before, after = "\n".join(base) + ends, "\n".join(lines) + ends
    found = pyregions._in_strings_after(before, after, after.split("\n"),
                                        pyregions.changes_of(steps),
                                        pyregions._in_strings(before))
    assert found == pyregions._in_strings(after)
