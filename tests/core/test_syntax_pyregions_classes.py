"""A change in a class's first lines (docstring, attributes, first method) is proved by
the class down to the next method at its body's indentation, with ``pass`` standing for
the rest; when that proves nothing, the whole class is tried as before. Property: a yes
still means a whole parse finds nothing new."""

from __future__ import annotations

import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyregionkit import edited, parses

from reviewtui.core.syntax.pyregions import changes_of, edits_parse_alone

CLASSES = [
    ["class A:", '    """Doc.', "", "    more", '    """', "    x = 1", "", "    def m(self):",
     "        return 1", "", "    def n(self):", "        pass"],
    ["class B(A):", "    # note", "    def m(self):", "        def inner():",
     "            return 2", "        return inner", "    @property", "    def p(self):",
     "        return 3"],
    ["\tclass T:", "\t\ty = 2", "\t\tdef t(self):", "\t\t\tpass"],
    ["class T2:", "\ty = 2", "\tdef t(self):", "\t\tpass", "\tdef u(self):", "\t\tpass"],
    ["def outer():", "    q = 1", "    class C:", "        z = 3", "        def n(self):",
     "            nonlocal q", "            q = 2", "        def o(self):", "            pass"],
    ["class G:", "    global g", "    def m(self):", "        pass"],
    ["class E: pass"],
    ["class H(", "    A):", "    h = 1", "    def m(self):", "        pass"],
    ["x = 1"],
    ["if x:", "    class I:", "        i = 1", "        def m(self):", "            pass"],
]
FRAGMENTS = [
    "class A:", "class K(A):", '    """doc', '    """', "    x = 1", "  y = 2", "\tz = 3",
    "        w = 4", "    def m(self):", "        return 1", "x = 1", "    @dec", "    if c:",
    "        pass", "    global g", "    nonlocal q", "# c", "", "    # c", "def f():",
    "        class C:", "        def n(self):", "            pass", "\tdef t(self):",
    "\t\tpass", "    g = 1", "    q = 2", "    y = (", "    )", "    s = '''", "'''", "\f    v = 5",
    "    def m(self, a, a):", "  def n(self):", "    ...",
]
blocks = st.lists(st.sampled_from(CLASSES), min_size=1, max_size=6).map(
    lambda bs: [x for b in bs for x in b])
edit = st.tuples(st.integers(0, 40), st.integers(0, 3),
                 st.lists(st.sampled_from(FRAGMENTS), max_size=3))


@settings(max_examples=300)
@given(base=blocks, edits=st.lists(edit, min_size=1, max_size=3))
def test_a_yes_for_edits_in_classes_means_a_whole_parse_finds_nothing_new(
        base: list[str], edits: list[tuple[int, int, list[str]]]) -> None:
    after_lines, steps = edited(base, edits)
    before, after = "\n".join(base) + "\n", "\n".join(after_lines) + "\n"
    if edits_parse_alone(before, after, changes_of(steps), budget=1.0):
        assert parses(after) or not parses(before)


METHODS = "".join(f"    def m{i}(self):\n        return {i}\n\n" for i in range(300))
BIG = 'class Big:\n    """Doc.\n\n    More.\n    """\n\n    size = 1\n\n' + METHODS


def one_change(before: str, old: str, new: str) -> tuple[str, list[tuple[int, int, int]]]:
    line = before.split("\n").index(old) + 1
    return before.replace(old + "\n", new + "\n", 1), [(line, line, new.count("\n"))]


def test_a_docstring_edit_parses_the_class_head_alone(
        region_parses: list[list[str]]) -> None:
    # The docstring split in two (its text alone changed would need no region at all:
    # test_syntax_pytokens.py).
    after, steps = one_change(BIG, "    More.", '    More."""\n    """And better.')
    assert edits_parse_alone(BIG, after, changes_of(steps), budget=1.0)
    sizes = [len(region) for region in region_parses]
    assert sizes
    assert max(sizes) < 20


@pytest.mark.parametrize("new", [
    "size = 1",              # the class ends there: the methods below are indented for nothing
    "  size = 1",            # the body's indentation changes under the unchanged methods
    "\tsize = 1",            # a tab where the methods have four spaces
    "    size = (",          # an open bracket runs into the methods
    '    """',               # a string runs into the methods
    "    global m1",         # declared outside any function in a class that defines m1
])
def test_a_head_that_does_not_fit_the_rest_is_not_proved_alone(new: str) -> None:
    after, steps = one_change(BIG, "    size = 1", new)
    assert not edits_parse_alone(BIG, after, changes_of(steps), budget=1.0) or (
        parses(after))


@pytest.mark.parametrize("new", ["size = 1", "  size = 1", "\tsize = 1", "    size = ("])
def test_the_whole_parse_agrees_these_heads_break_the_file(new: str) -> None:
    after, _ = one_change(BIG, "    size = 1", new)
    assert parses(BIG)
    assert not parses(after)


def test_a_class_that_ends_before_the_next_method_is_not_proved_alone() -> None:
    # The class ends at "if c:", whose body is at the class body's indentation: a pass
    # there would parse, yet g's nonlocal loses its binding in f.
    before = ("class A:\n    a = 1\ndef f():\n    x = 1\n    def g():\n        nonlocal x\n"
              "        x = 2\n")
    after = before.replace("    a = 1\ndef f():\n", "    a = 2\nif c:\n")
    assert parses(before)
    assert not parses(after)
    assert not edits_parse_alone(before, after, changes_of([(2, 3, 0)]), budget=1.0)


def test_a_body_that_moves_into_a_block_is_not_proved_alone() -> None:
    # Before, the methods were inside "if c:" at four spaces, the class body at two.
    before = "class X:\n  if c:\n    y = 1\n    def m(self):\n      pass\n  z = 2\n"
    after = "class X:\n    y = 1\n    def m(self):\n      pass\n  z = 2\n"
    assert parses(before)
    assert not parses(after)
    assert not edits_parse_alone(before, after, changes_of([(2, 2, -1)]), budget=1.0)


def test_what_the_regions_warn_stays_silent() -> None:
    # An invalid escape warns while a region is parsed; warnings are silenced once for
    # all regions (no longer region by region), and still none escapes.
    before = "".join(f'def f{i}():\n    s = "\\d{i}"\n    return s\n\n' for i in range(300))
    after, steps = one_change(before, '    s = "\\d7"', '    s = "\\d7" + "\\w"')
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        assert edits_parse_alone(before, after, changes_of(steps), budget=1.0)
    assert not seen
