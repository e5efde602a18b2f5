"""The region check and the block around a region: what the symbol table allows at the top of
a module (where a region is parsed alone) but not in a function or a class body, and
declarations outside the region (in the same function, after "if x:") that its statements
clash with. Each case: the file before parses, the file after does not, and the region
check must not call it proved. Property: a yes means a whole parse finds nothing new."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyregionkit import edited, parses

from reviewtui.core.syntax.pyregions import changes_of, edits_parse_alone

OUTER = "def outer():\n    def f():\n        pass\n    y = 1\n    def g():\n        pass\n"
CASES = {
    "import * in a function": (OUTER, "    from m import *\n"),
    "walrus in a comprehension in a class body": (
        OUTER.replace("def outer():", "class C:"), "    q = [(z := x) for x in w]\n"),
    "assigned before the function's global": (OUTER + "    global x\n", "    x = 1\n"),
    "annotated name the function declares global": (
        OUTER.replace("    def f", "    global x\n    def f", 1), "    x: int = 1\n"),
    "binding a nested nonlocal needs, removed": (
        OUTER.replace("    y = 1\n", "    x = 1\n") + "    def h():\n        nonlocal x\n",
        "    y = 1\n"),
    "module assignment before a global after if x:": (
        "def f():\n    pass\ny = 1\ndef g():\n    pass\nif y: global x\n", "x = 1\n"),
    "a global continued past a backslash": (
        OUTER + "    global w, \\\n        x\n", "    x = 1\n"),
}


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_clash_with_the_block_around_is_left_to_the_whole_parse(name: str) -> None:
    before, changed = CASES[name]
    lines = before.split("\n")
    at = next(n for n, text in enumerate(lines) if text.strip() in ("y = 1", "x = 1"))
    after = "\n".join([*lines[:at], changed.rstrip("\n"), *lines[at + 1 :]])
    assert parses(before)
    assert not parses(after)
    assert not edits_parse_alone(before, after, changes_of([(at + 1, at + 1, 0)]), budget=1.0)


def test_a_plain_edit_in_a_nested_function_is_still_proved_alone() -> None:
    before = OUTER + "".join(f"    def h{i}():\n        return {i}\n" for i in range(40))
    after = before.replace("        return 7\n", "        return 7 + 1\n")
    line = before.split("\n").index("        return 7") + 1
    assert edits_parse_alone(before, after, changes_of([(line, line, 0)]))


# Statement lines in functions and classes, with the declarations and bindings that clash.
FRAGMENTS = [
    "def outer():", "class C:", "    def f():", "        pass", "    x = 1", "    y = 1",
    "    global x", "    nonlocal x", "        nonlocal x", "    from m import *",
    "    q = [(x := v) for v in w]", "    x: int = 1", "if y: global x", "x = 1",
    "    def h():", "    if y: global x", "    global w, \\", "        x", "    return x",
    "        x = 2", "    del x", "    import x", "    for x in w: pass", "    class D:",
    "        x = [(y := v) for v in w]", "",
]
line = st.sampled_from(FRAGMENTS)
edit = st.tuples(st.integers(0, 20), st.integers(0, 2), st.lists(line, max_size=2))


@settings(max_examples=400)
@given(base=st.lists(line, max_size=20), edits=st.lists(edit, min_size=1, max_size=3))
def test_a_yes_in_a_block_means_a_whole_parse_finds_nothing_new(
        base: list[str], edits: list[tuple[int, int, list[str]]]) -> None:
    lines, steps = edited(base, edits)
    before, after = "\n".join(base) + "\n", "\n".join(lines) + "\n"
    if edits_parse_alone(before, after, changes_of(steps), budget=1.0):
        assert parses(after) or not parses(before)
