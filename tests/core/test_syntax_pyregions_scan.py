"""The region check's scans of the whole file, made cheaper, say what the plain ones said:
``Declared`` (pydeclared.py) against a reference that runs ``_DECLARES`` over every
offset (as it did), and the whole answer of ``edits_parse_alone`` on files where regions
are tried more than once (nested definitions, globals)."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyregionkit import edited

from reviewtui.core.model.filestate import FileState
from reviewtui.core.syntax import pydeclared, pyregions
from reviewtui.core.syntax.pydeclared import Declared, _in_function
from reviewtui.core.syntax.pyregions import (
    _covered,
    changes_of,
    edits_parse_alone,
    split_lines,
)


def declared_reference(text: str) -> tuple[frozenset[str], frozenset[str]]:
    lines, inside = text.split("\n"), _covered(text)
    names: set[str] = set()
    every: set[str] = set()
    line, at = 0, 0
    for found in pydeclared._DECLARES.finditer(text):
        line += text.count("\n", at, found.start())
        at = found.start()
        declared = {name.strip(" \t\\\r\n") for name in found.group(1).split(",")}
        every.update(declared)
        if not _in_function(lines, inside, line):
            names.update(declared)
    return frozenset(names), frozenset(every)


PIECES = ["global", "nonlocal", " ", "\t", "a", "b", ",", "\n", "def f():", "    ",
          "x = 1", "#", '"""', "'", "globals()", "nonlocal_", "\\\n", "class C:", "if a: ",
          ";", "\\\r\n", "\\"]


@settings(max_examples=400)
@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
def test_declared_names_match_a_scan_of_every_offset(text: str) -> None:
    declared = Declared(text, text.split("\n"), _covered(text))
    assert (declared.outside(), declared.every) == declared_reference(text)


NESTED = ("class K:\n    def a(self):\n        def inner():\n            return 1\n"
          "        return inner\n\n    def b(self):\n        global g\n        g = 2\n\n")


def test_a_change_in_each_of_two_nested_definitions_is_still_checked_alone() -> None:
    before = NESTED * 300
    after = before.replace("            return 1\n", "            return 1 + 1\n", 2)
    first = before.split("\n").index("            return 1") + 1
    second = first + NESTED.count("\n")
    steps = [(first, first, 0), (second, second, 0)]
    assert edits_parse_alone(before, after, changes_of(steps))
    broken = before.replace("            return 1\n", "            return (1\n", 2)
    assert not edits_parse_alone(before, broken, changes_of(steps))


# Lines full of what opens, closes or continues a token: the rescan after each change has
# to find where both files are out of every string again.
TOKENISH = ['"""', "'''", '"', "'", "x", "#", "\\", '# """', 'a = """b', "'''c'''", '""',
            "s = '\\", "\\\\", '"""\\', "def f():", "", '""""', "'#'", "\r"]
token_line = st.lists(st.sampled_from(TOKENISH), max_size=4).map("".join)
token_edit = st.tuples(st.integers(0, 30), st.integers(0, 3), st.lists(token_line, max_size=3))


@pytest.mark.slow
@settings(max_examples=600)
@given(base=st.lists(token_line, max_size=30),
       edits=st.lists(token_edit, min_size=1, max_size=4),
       ends=st.sampled_from(["\n", "", "\\"]))
def test_strings_after_the_edits_match_a_scan_of_the_whole_file(
        base: list[str], edits: list[tuple[int, int, list[str]]], ends: str) -> None:
    lines, steps = edited(base, edits)
    before, after = "\n".join(base) + ends, "\n".join(lines) + ends
    found = pyregions._in_strings_after(before, after, after.split("\n"), changes_of(steps),
                                        pyregions._in_strings(before))
    assert found == pyregions._in_strings(after)
    assert pyregions._covered(after, found) == _covered(after)


@given(st.lists(st.sampled_from(["a", "\n", "\r", "\r\n", "\ufeff", "\f", "\u2028", " "]),
                max_size=12).map("".join))
def test_lines_of_a_file_state_stand_for_the_split_text(text: str) -> None:
    state = FileState.from_bytes(text.encode("utf-8"))
    assert state.text is not None
    assert list(split_lines(state.text, state.lines)) == state.text.split("\n")


def test_the_region_check_takes_the_file_states_lines() -> None:
    before = FileState.from_text(NESTED * 300)
    line = before.lines.index("            return 1")
    after = before.splice(line, line + 1, ["            return (1"])
    assert after.text is not None
    assert before.text is not None
    steps = changes_of([(line + 1, line + 1, 0)])
    assert not edits_parse_alone(before.text, after.text, steps,
                                 before_lines=before.lines, after_lines=after.lines)
    fixed = before.splice(line, line + 1, ["            return 2"])
    assert fixed.text is not None
    assert edits_parse_alone(before.text, fixed.text, steps,
                             before_lines=before.lines, after_lines=fixed.lines)
