"""A region of the file before is not parsed when its shape proves it whole (a ``def`` or
``class`` line first, brackets balanced, every line in the block, no declared name in it):
a yes still means a whole parse finds nothing new, and it agrees with parsing that region
whenever that proved something."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyregionkit import edited, parses

from reviewtui.core.syntax import pyregions
from reviewtui.core.syntax.pyregions import changes_of, edits_parse_alone

# Lines that make a region end inside brackets (an "@" line may be a matrix product),
# leave the block, end in decorators, hide brackets in strings and comments, mix tabs.
FRAGMENTS = [
    "def f():", "    x = (a", "@ b)", "@b", ")", "    @dec", "    def g():", "        pass",
    "class C:", "    def m(self):", "        return (1,", "        2)", "    y = [", "    ]",
    "if y:", "  z = 1", "  def h(): pass", "x = '('", "x = 1  # (", "\tdef t():", "\t\tpass",
    "    \tpass", "  \tpass", "    return x", "@dec", "def k(): pass", "x = (", "    1)",
    "    s = '''(", "'''", "    x = 1", "", "async def a():", "    await (b", "    )",
    "    nonlocal q", "    q = 1", "def outer():", "    q = 0", "    def inner():",
]
line = st.sampled_from(FRAGMENTS)
edit = st.tuples(st.integers(0, 24), st.integers(0, 3), st.lists(line, max_size=3))


def slow(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every region of the file before parsed, as before this shortcut."""
    monkeypatch.setattr(pyregions, "_complete_before", lambda *args: False)


@settings(max_examples=500)
@given(base=st.lists(line, max_size=24), edits=st.lists(edit, min_size=1, max_size=3))
def test_a_yes_without_the_region_before_means_a_whole_parse_finds_nothing_new(
        base: list[str], edits: list[tuple[int, int, list[str]]]) -> None:
    after_lines, steps = edited(base, edits)
    before, after = "\n".join(base) + "\n", "\n".join(after_lines) + "\n"
    if edits_parse_alone(before, after, changes_of(steps), budget=1.0):
        assert parses(after) or not parses(before)


@settings(max_examples=200)
@given(base=st.lists(line, max_size=24), edits=st.lists(edit, min_size=1, max_size=3))
def test_the_shortcut_loses_no_proof_the_parse_of_the_region_before_gave(
        base: list[str], edits: list[tuple[int, int, list[str]]]) -> None:
    after_lines, steps = edited(base, edits)
    before, after = "\n".join(base) + "\n", "\n".join(after_lines) + "\n"
    fast = edits_parse_alone(before, after, changes_of(steps), budget=1.0)
    with pytest.MonkeyPatch.context() as patch:
        slow(patch)
        assert fast or not edits_parse_alone(before, after, changes_of(steps), budget=1.0)


BIG = "".join(f"def f{i}(x):\n    y = (x +\n         {i})\n    return y\n\n\n"
              for i in range(200))


def test_an_edit_in_a_function_parses_only_the_function_after(
        region_parses: list[list[str]]) -> None:
    after = BIG.replace("         100)\n", "         100 + 1)\n")
    line = BIG.split("\n").index("         100)") + 1
    assert edits_parse_alone(BIG, after, changes_of([(line, line, 0)]))
    parsed = ["\n".join(region) for region in region_parses]
    assert len(parsed) == 1
    assert "100 + 1" in parsed[0]


@pytest.mark.parametrize(("base", "at", "end", "new"), [
    # The region before ends inside brackets: "@ b)" is a matrix product, not a decorator.
    (["def f():", "    x = (a", "@ b)", "y = 1"], 1, 2, ["    x = (a)"]),
    # It starts and ends inside brackets, balanced between: "@b" and "@d)" again.
    (["x = (a", "@b", "+ c", "@d)", "def g(): pass"], 2, 3, ["def f(): pass"]),
    # Lines of it leave the block (the region after does not have them).
    (["def outer():", "    def f():", "        pass", "if y:", "  z = 1", "  def h(): pass"],
     3, 5, []),
    # A bracket opened in a string or a comment does not count; the real one does.
    (["def f():", "    x = (a  # )", "@ b)", "y = 1"], 1, 2, ["    x = (a)  # )"]),
    (["def f():", "    x = (a, ')'", "@ b)", "y = 1"], 1, 2, ["    x = (a, ')')"]),
])
def test_a_region_before_that_is_not_whole_is_not_taken_as_whole(
        base: list[str], at: int, end: int, new: list[str]) -> None:
    after_lines = [*base[:at], *new, *base[end:]]
    before, after = "\n".join(base) + "\n", "\n".join(after_lines) + "\n"
    assert parses(before)
    assert not parses(after)
    steps = [(at + 1, end, len(new) - (end - at))]
    assert not edits_parse_alone(before, after, changes_of(steps), budget=1.0)
