"""apply's region check for Python: when it says the edited definitions prove nothing new
broke, a whole parse agrees (property), and it declines where it cannot know."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from pyregionkit import edited, parses

from reviewtui.core.syntax.pyregions import changes_of, edits_parse_alone

FRAGMENTS = [
    "def f(x):", "    return x", "class A:", "    def m(self):", "        pass",
    '"""', "def g(): pass", "x = (", ")", "@dec", "    x = 1", "y = 2", "if y:", "else:",
    "    '''", "global z", "    nonlocal z", "s = '\\", "z = 1 \\", "async def h():",
    "    await q", "'''", "# def c():", '    """doc', "", "\tpass", "    def n(self, a, a):",
    "def k(:", "    y = [", "    ]", "f'{'", "class B(A):", "        return 1", "q = 1",
    "global q", "    global q", "    q = 2",
]
line = st.sampled_from(FRAGMENTS)


edit = st.tuples(st.integers(0, 30), st.integers(0, 3), st.lists(line, max_size=3))


# Whole blocks (valid on their own) for files that parse: definitions, decorated ones,
# docstrings and strings holding "def" lines, continuations, nested functions.
BLOCKS = [
    ["def f(x):", "    return x"],
    ["class A:", "    def m(self):", "        return 1", "", "    def n(self):", "        pass"],
    ['x = """', "def inner():", "    pass", '"""'],
    ["@dec", "def g():", "    y = 1"],
    ["@dec(", "    1,", ")", "def h():", "    pass"],
    ["y = [", "    1,", "]"],
    ["def k():", "    s = \'\'\'", "def fake():", "\'\'\'", "    return s"],
    ["async def a():", "    await b"],
    ["z = 1 + \\", "    2"],
    ["def q():", '    """doc', "    def not_code():", '    """'],
    ["if x:", "    def w():", "        pass", "else:", "    def w():", "        pass"],
    ["def outer():", "    def inner():", "        return 1", "    return inner"],
    ["if x:", "    global q"],
    ["def f5():", "    if y:", "        global q", "        q = 3"],
    ["class C:", "    global q", "    def m(self):", "        pass"],
]
blocks = st.lists(st.sampled_from(BLOCKS), max_size=8).map(lambda bs: [x for b in bs for x in b])


@settings(max_examples=300)
@given(base=st.one_of(st.lists(line, max_size=30), blocks),
       edits=st.lists(edit, min_size=1, max_size=3))
def test_a_yes_means_a_whole_parse_finds_nothing_new(
        base: list[str], edits: list[tuple[int, int, list[str]]]) -> None:
    after_lines, steps = edited(base, edits)
    before, after = "\n".join(base) + "\n", "\n".join(after_lines) + "\n"
    if edits_parse_alone(before, after, changes_of(steps), budget=1.0):
        assert parses(after) or not parses(before)


@given(base=st.lists(st.integers(), max_size=20, unique=True),
       edits=st.lists(st.tuples(st.integers(0, 25), st.integers(0, 3),
                                st.lists(st.integers(1000, 2000), max_size=3)), max_size=4))
def test_changes_of_maps_every_unchanged_line(base: list[int],
                                              edits: list[tuple[int, int, list[int]]]) -> None:
    lines, steps = edited(base, edits)
    changes = changes_of(steps)
    grown, previous_end, old_previous_end = 0, 0, 0
    for lo, hi, old_lo, old_hi in [*changes, (len(lines), len(lines), len(base), len(base))]:
        # The unchanged run before this stretch is the same lines in both.
        assert lines[previous_end:lo] == base[old_previous_end:old_lo]
        assert lo - grown == old_lo
        grown += (hi - lo) - (old_hi - old_lo)
        previous_end, old_previous_end = hi, old_hi
    assert all(x >= 1000 or x in base for x in lines)


BIG = "".join(f"def f{i}(x):\n    y = x + {i}\n    return y\n\n\n" for i in range(200))


def test_an_edit_inside_one_function_is_checked_there_alone() -> None:
    before = BIG
    after = before.replace("    y = x + 100\n", "    y = x + 100 + 1\n")
    line = before.split("\n").index("    y = x + 100") + 1
    assert edits_parse_alone(before, after, changes_of([(line, line, 0)]))


def test_a_broken_function_is_left_to_the_whole_parse() -> None:
    after = BIG.replace("    y = x + 100\n", "    y = (x + 100\n")
    line = BIG.split("\n").index("    y = x + 100") + 1
    assert not edits_parse_alone(BIG, after, changes_of([(line, line, 0)]))


def test_a_definition_inside_a_string_is_no_boundary() -> None:
    # The "def" lines sit in a module docstring: text, not code.
    before = 'x = """\ndef a():\n    y = 1\ndef b():\n    pass\n"""\n' + BIG
    # Inside the docstring an opening ''' is text; a """ ends it early, and the one
    # that ended it opens a string that never ends.
    harmless = before.replace("    y = 1\n", "    y = '''\n", 1)
    assert edits_parse_alone(before, harmless, changes_of([(3, 3, 0)]), budget=1.0)
    breaking = before.replace("    y = 1\n", '    y = """\n', 1)
    assert not edits_parse_alone(before, breaking, changes_of([(3, 3, 0)]), budget=1.0)


def test_a_function_s_own_global_is_its_business() -> None:
    after = BIG.replace("    y = x + 100\n", "    global y\n")
    line = BIG.split("\n").index("    y = x + 100") + 1
    assert edits_parse_alone(BIG, after, changes_of([(line, line, 0)]))


def test_a_name_the_module_declares_global_leaves_it_to_the_whole_parse() -> None:
    before = BIG + "global g\n"  # legal: nothing used g before
    after = before.replace("    return y\n\n\ndef f6(", "    return y\ng = 1\n\ndef f6(", 1)
    assert not parses(after)  # "assigned to before global declaration"
    line = before.split("\n").index("def f6(x):") - 1  # the blank line that became g = 1
    assert not edits_parse_alone(before, after, changes_of([(line, line, 0)]))


def test_a_function_s_global_does_not_hold_back_module_statements() -> None:
    # closelog() declares log global; the module assigns log after it, in the region.
    before = "def closelog():\n    global log\n    log = None\n\nlog = print\n" + BIG
    after = before.replace("    log = None\n", "    log = None  # edit\n")
    assert edits_parse_alone(before, after, changes_of([(3, 3, 0)]), budget=1.0)
