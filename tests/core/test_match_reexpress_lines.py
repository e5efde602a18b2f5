"""Which REPLACE lines the re-graft takes as unchanged, and whose indentation it copies.

The alignment of SEARCH and REPLACE must be a longest one: difflib's (the longest block
first, then the earliest) paired a lone ``#`` with a later one and left an unchanged line
between them to be written as the model typed it. A rewritten line keeps its own line's
indentation; a new line measures from the nearest unchanged or rewritten one.
"""

from __future__ import annotations

import ast

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.engine.placed import placed_match
from reviewtui.core.match import match_edit
from reviewtui.core.match.landing import INDENT_UNKNOWN
from reviewtui.core.match.reexpress import _blocks
from reviewtui.core.model.outcome import Status


def _spaced(file: list[str]) -> list[str]:
    """The lines as a model types a tab-indented file: four spaces for each tab."""
    return [line.replace("\t", "    ") for line in file]


def _landed(file: list[str], search: list[str], replace: list[str]) -> tuple[str, ...]:
    result = match_edit(file, search, replace)
    assert result.status is Status.APPLIED, result
    return result.new_lines


def _longest(a: list[int], b: list[int]) -> int:
    table = [[0] * (len(b) + 1) for _ in range(len(a) + 1)]
    for i, x in enumerate(a):
        for j, y in enumerate(b):
            table[i + 1][j + 1] = (table[i][j] + 1 if x == y
                                   else max(table[i][j + 1], table[i + 1][j]))
    return table[-1][-1]


_LINES = st.lists(st.integers(0, 4), max_size=14)


@given(_LINES, _LINES)
def test_the_blocks_are_a_longest_common_subsequence(a: list[int], b: list[int]) -> None:
    keys_a = [(0, str(x)) for x in a]
    keys_b = [(0, str(x)) for x in b]
    blocks = _blocks(keys_a, keys_b)
    pairs = [(i + k, j + k) for i, j, size in blocks for k in range(size)]
    assert all(size > 0 for _, _, size in blocks)
    assert all(keys_a[i] == keys_b[j] for i, j in pairs)
    steps = list(zip(pairs, pairs[1:], strict=False))
    assert all(p[0] < q[0] for p, q in steps)
    assert all(p[1] < q[1] for p, q in steps)
    assert len(pairs) == _longest(a, b)
    # Neighbouring pairs are one block (callers walk the gaps between blocks).
    assert all(i1 + s1 < i2 or j1 + s1 < j2
               for (i1, j1, s1), (i2, j2, _) in zip(blocks, blocks[1:], strict=False))


def test_an_unchanged_line_between_two_lone_hashes_keeps_the_files_quote() -> None:
    # asyncore.py's comment block, quoted indented, with trailing spaces and a curly
    # quote; one "#" line edited, a line added after the next.
    region = ["# will be sitting in memory for us already when we go to read it.", "#",
              "# What other OS's (besides NT) support async file i/o?  [VMS?]", "#"]
    file = ["import os", "", *region, "", "def loop():", "    pass"]
    search = ["    " + line.replace("'", "\u2018") + "  " for line in region]
    replace = [search[0], "    #  # reviewed  ", search[2], "    trace(2)  ", search[3]]
    assert _landed(file, search, replace) == (
        region[0], "#  # reviewed", region[2], "trace(2)", "#")


def test_a_new_line_after_a_kept_aligned_line_is_not_taken_for_a_rewritten_one() -> None:
    # typing.py, tabbed: a line added under an aligned ``else:`` is as deep as the next
    # line, which the edit rewrites. It measures from ``else:`` (the line above: its
    # indentation, then a tab); the rewritten line keeps its own.
    file = ["def f(val):", "\tif val:", "\t\t\t   pass", "\t\t\t   else:",
            "\t\t\t\t   # Else, narrowed.", "\treturn val"]
    typed = _spaced(file)
    assert _landed(file, typed[3:5], [typed[3], " " * 19 + "trace(0)", typed[4] + "  # x"]) == (
        file[3], "\t\t\t   \ttrace(0)", file[4] + "  # x")


def test_a_new_line_sharing_words_with_a_rewritten_one_is_not_taken_for_it() -> None:
    # trace.py, tabbed: ``trace(0, 'inserted')`` shares five tokens with the continuation
    # line ``trace=0, count=1)`` below it, which the edit rewrites; paired first, it left
    # the rewritten line to be measured from the line above and written in spaces.
    file = ["def main():", "  tracer = trace.Trace(ignoredirs=[sys.base_prefix],",
            "\t\t\t\t\t   trace=0, count=1)", "\treturn tracer"]
    typed = _spaced(file)
    new = "  trace(0, 'inserted')"
    assert _landed(file, typed[1:3], [typed[1], new, typed[2] + "  # x"]) == (
        file[1], new, file[2] + "  # x")


def test_a_rewritten_line_is_paired_with_the_line_it_rewrites_not_the_first_alike() -> None:
    # _sysconfigdata, tabbed: the edit drops one continuation line and rewrites the next;
    # both share most of their words, and the rewrite is the closer one.
    file = ["build = {", " 'SOABI': 'cpython-311',",
            " 'SRCDIRS': 'Modules   Modules/_blake2   Modules/_decimal   '",
            "\t\t\t'Modules/_decimal/libmpdec   Modules/_io   '",
            "\t\t\t'Modules/_sqlite   '", "}"]
    typed = _spaced(file)
    assert _landed(file, typed[1:5], [typed[1], typed[3] + "  # x", typed[4]]) == (
        file[1], file[3] + "  # x", file[4])


def test_spaces_for_tabs_shifted_by_four_are_not_read_as_eight_spaces_a_tab() -> None:
    # random.py, tabbed: the model types spaces and quotes the lines four columns deeper
    # than the file's two tabs, then adds a line at four. One jump of eight columns in its
    # text made its level width eight, so four columns became a tab instead of none.
    file = ["class Random:", "\tdef choice(self):", "\t\t# lock here.)", "",
            "\t\trandom = self.random", "\t\treturn random"]
    search = [" " * 12 + "# lock here.)", "", " " * 12 + "random = self.random"]
    assert _landed(file, search, [search[0], "", "    trace(1)", search[2] + "  # x"]) == (
        file[2], "", "trace(1)", file[4] + "  # x")


def test_a_line_deeper_than_an_aligned_line_keeps_its_alignment_then_adds_tabs() -> None:
    # glob.py on Debian's stdlib, tabbed: a continuation aligned with spaces after its
    # tabs, then a new line one level deeper: that line's indentation and a tab.
    # Rendering the 35 columns afresh gave eight tabs and three spaces instead.
    file = ["def glob2(dirs):", "\tfor dirname in dirs:",
            "\t\tfor name in glob_in_dir(dirname, basename, dir_fd,",
            "\t\t\t\t\t\t\t   include_hidden=include_hidden):",
            "\t\t\tyield name", "\treturn None"]
    typed = _spaced(file)
    assert _landed(file, typed[2:5], [*typed[2:4], " " * 35 + "trace()", typed[4]]) == (
        file[2], file[3], "\t\t\t\t\t\t\t   \ttrace()", file[4])
    # Not whole levels deeper, or shallower: the columns rendered in tabs, then spaces.
    replace = [*typed[2:4], " " * 33 + "x = 1", " " * 8 + "y = 2", typed[4]]
    assert _landed(file, typed[2:5], replace)[2:4] == ("\t" * 8 + " x = 1", "\t\ty = 2")


def test_a_line_rewritten_at_its_own_depth_keeps_the_files_indentation() -> None:
    # timeit.py, tabbed: a docstring indented with tabs on one line and spaces on the
    # next. The model edits the tabbed line and adds one as deep: both take its tabs
    # (measured from the space-indented line they came out in spaces).
    file = ["def main():", '\t"""Time it.', "",
            "\t\t\t\tExecution time of this setup statement is NOT timed.",
            "  -p/--process: use time.process_time()", '\t"""', "\treturn 0"]
    typed = _spaced(file)
    replace = [typed[3] + "  # x", " " * 16 + "Then it runs.", typed[4]]
    assert _landed(file, typed[3:5], replace) == (
        file[3] + "  # x", "\t\t\t\tThen it runs.", file[4])


def test_a_new_line_in_a_region_mixing_tabs_and_spaces_takes_the_files_style() -> None:
    """A tab-indented file's docstring: its items indented by two spaces, one continuation
    by tabs (the matcher sweep's seed 20, aifc.py). The model types spaces for the tabs and
    adds a line one level in under the line opening the list: four spaces are one tab in
    this file (the region alone, mostly two-space lines, read as spaces wrote it so)."""
    code = ["def open(f):", '\t"""Open an AIFF file.', ""]
    code += [f"\tx{n} = {n}" for n in range(6)]
    region = ["This returns an instance with these methods:",
              "  getnchannels()  -- number of audio channels (1 for",
              "\t\t\t mono, 2 for stereo)",
              "  getsampwidth()  -- sample width in bytes",
              "  getframerate()  -- sampling frequency"]
    file = [*code, *region, '\t"""', "\treturn f"]
    search = _spaced(region)
    replace = [search[0], "    trace(0, 'inserted')", *search[1:3],
               search[3] + "  # reviewed", search[4]]
    assert _landed(file, search, replace) == (
        region[0], "\ttrace(0, 'inserted')", *region[1:3], region[3] + "  # reviewed",
        region[4])


def test_a_mixed_region_in_a_space_indented_file_stays_in_spaces() -> None:
    """The other way round: a file indented with spaces, one tab-led line in the region;
    a new line the model adds one level in comes out in the file's spaces."""
    file = ["class A:", "    def f(self):", "\treturn 1", "    def g(self):",
            "        return 2", "    def h(self):", "        return 3"]
    search = ["    def f(self):", "        return 1", "    def g(self):"]
    replace = ["    def f(self):", "        return 1", "    def g(self):",
               "        pass"]
    got = _landed(file, search, replace)
    assert got[-1] == "        pass"


def test_a_new_line_under_a_tab_led_line_of_a_mixed_region_takes_tabs() -> None:
    """QA s48 helper-162 #3: a tab-indented function in a space-indented file, one of its
    lines a continuation aligned with spaces. The model types it all with spaces and adds
    an ``else:``: it measures from a tab-led line, so it takes tabs (the file's majority,
    spaces, wrote ``    else:`` among tab lines: an IndentationError, exit 0)."""
    file = ["def a():", "    return 1", "", "", "def legacy(x):", "\tif x:",
            "\t\ty = [1,", "             2]", "\t\treturn y", "\treturn 0", "", "",
            "def c():", "    return 3"]
    search = _spaced(file[4:10])
    replace = [*search[:5], "    else:", "        return 0"]
    assert _landed(file, search, replace) == (*file[4:9], "\telse:", "\t\treturn 0")


def test_a_new_line_under_a_space_led_line_of_a_mixed_region_takes_spaces() -> None:
    """QA s48 helper-162 #4: a tab-indented Go file whose usage text, a raw string, is
    indented with spaces. A line the model adds to the text, measured from a space-led
    line, is spaces (it came out ``\\t-q  quiet``: the program's output changed)."""
    file = ["package main", "", "const usage = `Usage:", "  tool [flags]",
            "    -v  verbose", "`", "", "func main() {", "\tif true {",
            "\t\tfmt.Println(usage)", "\t}", "}"]
    search = _spaced(file[2:])
    replace = [*search[:2], "    -q  quiet", *search[2:]]
    assert _landed(file, search, replace) == (*file[2:4], "    -q  quiet", *file[4:])


def test_a_new_recipe_line_under_a_new_target_takes_the_tab_its_depth_has_in_the_edit() -> None:
    """QA s48 helper-164 #2: a Makefile whose long SRCS continuation is aligned with spaces
    (the whole file: more lines led by spaces) and whose recipes are tabs. The model types
    four spaces for the tab everywhere and adds a target with a recipe line: measured from
    a line not indented, it takes the tab the model's "    gcc" line stands for (it came
    out in spaces: make stops at "missing separator")."""
    file = ["SRCS = a.c \\", *[f"       f{n}.c \\" for n in range(20)], "       z.c", "",
            "all: build", "", "build:", "\tgcc -o out $(SRCS)", "", "clean:", "\trm -rf out"]
    search = _spaced(file[21:27])
    replace = ["       z.c \\", "       y.c", "", "all: build", "", "lint:", "    flake8", "",
               "build:", "    gcc -o out $(SRCS)"]
    assert _landed(file, search, replace) == (
        "       z.c \\", "       y.c", "", "all: build", "", "lint:", "\tflake8", "",
        "build:", "\tgcc -o out $(SRCS)")


def test_a_new_block_in_a_mixed_region_agrees_with_its_first_line() -> None:
    """QA s48 helper-165 #1: a new function between two module lines of a region that
    holds a tab-indented function and a space-indented one: its ``if`` took a tab (from
    one), its body eight spaces (from the other), a TabError. Each new line measures from
    the new line above it: the block is one style."""
    file = ["def f():", "\ta = 1", "\treturn a", "x = 0", "y = 0", "def g():",
            "    if True:", "        return 2"]
    search = _spaced(file)
    replace = [*search[:4], "def h(y):", "    if y:", "        return 4", *search[4:]]
    got = _landed(file, search, replace)
    new = got[4:7]
    assert new[0] == "def h(y):"
    assert {line[:1] for line in new[1:]} in ({"\t"}, {" "}), new
    compile("\n".join(got) + "\n", "m.py", "exec")


def test_lines_at_one_depth_the_file_indents_both_ways_take_the_files_style() -> None:
    """QA s48 helper-165 #2: a Makefile's variable continuation is indented four spaces
    and its recipes a tab; the model types four spaces for both, and a new target's recipe
    line, nearer the continuation, came out in spaces (make: missing separator)."""
    file = ["clean:", "\trm -f app", "\trm -f *.o", "", "install:", "\tcp app /usr/bin",
            "\tchmod +x /usr/bin/app", "", "SRCS = a.c \\", "    b.c", "", "all:",
            "\tgcc -o app $(SRCS)"]
    search = _spaced(file[8:])
    replace = [*search[:3], "test:", "    ./run-tests", "", *search[3:]]
    assert _landed(file, search, replace)[4] == "\t./run-tests"


def test_a_new_block_at_the_top_of_a_body_takes_the_bodys_indentation() -> None:
    """QA s48 helper-167 #4: a space-indented f0 and a tab-indented f1 in one region; an
    if added at the top of f1's body, measured from ``def f1(a):`` (not indented), came out
    in spaces (the lines at that depth disagree: the whole file's style) above f1's tabs,
    a TabError. The line the edit left alone right below it, at its depth, decides."""
    file = ["def f0(a):", "    a = a + 6", "    return a", "x0 = 0", "def f1(a):",
            "\ta = a + 5", "\ta = a + 6", "\treturn a", "def f2(a):", "    return a"]
    search = ["    return a", "x0 = 0", "def f1(a):", "    a = a + 5"]
    replace = [*search[:3], "    if a:", "        a = 2", "    a = a + 5"]
    got = _landed(file, search, replace)
    assert got[3:5] == ("\tif a:", "\t\ta = 2")


def test_a_body_added_under_the_def_a_search_ends_with_takes_the_bodys_spaces() -> None:
    """QA fuzz (tabs and spaces per function), seed 1 #1: the SEARCH ends with ``def
    f1(a):`` under a tab-indented f0 and the REPLACE adds f1's first lines. f1's body,
    below the region, is indented with spaces: the new lines came out in the region's
    tabs, a TabError. The lines beyond the region's edge, the rest of the block, decide."""
    file = ["def f0(a):", "\tif a > 4:", "\t\ta = a + 8", "\treturn a", "def f1(a):",
            "    a = a + 9", "    return a"]
    search = _spaced(file[1:5])
    replace = [*search, "    for i in range(2):", "        a += i"]
    got = _landed(file, search, replace)
    assert got == (*file[1:5], "    for i in range(2):", "        a += i")


def test_lines_added_above_an_unindented_first_line_take_the_block_above() -> None:
    """QA fuzz seed 1 #143: the SEARCH starts with ``def f3(a):`` (tab-indented) and the
    REPLACE adds lines above it, the end of f2's body, which is indented with spaces."""
    file = ["def f2(a):", "    a = a + 8", "    return a", "def f3(a):", "\tif a > 0:",
            "\t\ta = a + 6", "\treturn a"]
    search = _spaced(file[3:6])
    replace = ["    for i in range(2):", "        a += i", *search]
    got = _landed(file, search, replace)
    assert got == ("    for i in range(2):", "        a += i", *file[3:6])


def test_a_new_function_whose_body_runs_on_below_the_region_takes_its_style() -> None:
    """QA fuzz seed 3 #276: a region mixing a tab-indented f1 and a space-indented f2; a
    new ``def g`` after f2's first lines takes the rest of f2's body as its own. The
    lines at its depth disagree (tabs in f1, spaces in f2): the whole file's tabs came
    out above the spaces below, an IndentationError (the file mostly tabs)."""
    file = ["def f0(a):", "\ta = a + 1", "\ta = a + 2", "\ta = a + 3", "\treturn a",
            "def f1(a):", "\ta = a + 5", "\treturn a", "def f2(a):", "    a = a + 6",
            "    if a > 8:", "        a = a + 1", "    return a"]
    search = _spaced(file[6:10])
    replace = [*search, "def g(a):", "    if a:", "        return 1", "    return 0"]
    got = _landed(file, search, replace)
    assert got == (*file[6:10], "def g(a):", "    if a:", "        return 1", "    return 0")



def _function(name: str, body: list[int], unit: str) -> list[str]:
    """``def name(a):`` and a body: 0 a statement, 1 an ``if`` with one line under it."""
    out = [f"def {name}(a):"]
    for n, kind in enumerate(body):
        out.append(unit + (f"if a > {n}:" if kind else f"a = a + {n}"))
        if kind:
            out.append(unit * 2 + f"a = a - {n}")
    return [*out, unit + "return a"]


_BODY = st.lists(st.integers(0, 1), min_size=1, max_size=5)
_NEW = st.sampled_from([["    b = 1"], ["    for i in range(2):", "        a += i"],
                        ["    if a:", "        a = 2", "    b = 3"]])


@given(_BODY, _BODY, st.sampled_from(["\t", "    ", "  "]), st.booleans(),
       st.integers(1, 4), _NEW)
@settings(max_examples=200, deadline=None)
def test_lines_added_at_a_regions_edge_join_the_block_beyond_it(
        edited: list[int], other: list[int], other_unit: str, below: bool, size: int,
        new: list[str]) -> None:
    """A tab-indented function and a neighbour indented with tabs, four spaces or two;
    the model types four spaces for a tab. New lines under a ``def`` the SEARCH ends with
    (the neighbour's, below the region) or above the ``def`` it starts with (ending the
    neighbour's body, above it) belong to the neighbour's block: the file as written
    parses as the model means it, or the edit is held (it came out in the region's tabs,
    a TabError, where the neighbour's were spaces)."""
    tabbed = _function("f", edited, "\t")
    beside = _function("g", other, other_unit)
    file = [*tabbed, *beside] if below else [*beside, *tabbed]
    at = len(tabbed) if below else len(beside)  # the neighbour's def / the tabbed def
    start, end = (max(at - size, 1), at + 1) if below else (at, at + 1 + size)
    search = _spaced(file[start:end])
    replace = [*search, *new] if below else [*new, *search]
    result = match_edit(file, search, replace)
    if result.status is not Status.APPLIED:
        return  # held: not wrong
    got = [*file[: result.start], *result.new_lines, *file[result.end :]]
    meant = _spaced([*file[:start], *replace, *file[end:]])
    assert ast.dump(ast.parse("\n".join(got) + "\n")) == ast.dump(
        ast.parse("\n".join(meant) + "\n")), got


def test_a_body_added_under_a_def_whose_body_is_two_spaces_is_held() -> None:
    """The block below the region is indented by two spaces; the model typed four for
    each of the region's tabs, and four under ``def f1(a):``: whether it means one level
    or two of the file's, nothing in the edit tells. Held, with the lines to add (it came
    out in tabs, a TabError; in four spaces it would be an IndentationError)."""
    file = ["def f0(a):", "\ta = a + 8", "\treturn a", "def f1(a):", "  a = a + 9",
            "  if a:", "    return a", "  return 0"]
    search = _spaced(file[1:4])
    result = match_edit(file, search, [*search, "    b = 1"])
    assert result.status is Status.REFUSED, result
    assert result.rule == INDENT_UNKNOWN
    assert "file line 5" in result.hint
    assert "'    '" in result.hint


def test_lines_added_above_a_def_ending_a_two_space_body_are_held() -> None:
    """The same above the region: the lines added before ``def f1(a):`` end f0's body,
    indented by two spaces, and the model's four are not its first level."""
    file = ["def f0(a):", "  a = a + 8", "  return a", "def f1(a):", "\ta = a + 9",
            "\treturn a"]
    search = _spaced(file[3:5])
    result = match_edit(file, search, ["    b = 1", *search])
    assert result.status is Status.REFUSED, result
    assert result.rule == INDENT_UNKNOWN


def test_an_elided_piece_or_a_placed_region_at_such_an_edge_is_held_too() -> None:
    """The hold reaches the cascade from an elided SEARCH's piece and from a region the
    reviewer placed by hand, with the same rule and the new line it is about."""
    file = ["def f0(a):", "\ta = a + 8", "\ta = a + 1", "\ta = a + 2", "\treturn a",
            "def f1(a):", "  a = a + 9", "  if a:", "    return a", "  return 0"]
    typed = _spaced(file)
    search = [typed[0], typed[1], "    ...", typed[4], typed[5]]
    elided = match_edit(file, search, [*search, "    b = 1"])
    assert (elided.status, elided.rule) == (Status.REFUSED, INDENT_UNKNOWN)
    assert "piece 2" in elided.hint
    assert "'b = 1'" in elided.hint
    placed = placed_match(file, typed[1:6], [*typed[1:6], "    b = 1"], (2, 6), file[1:6])
    assert placed is not None
    assert (placed.status, placed.rule) == (Status.REFUSED, INDENT_UNKNOWN)


def test_an_edge_block_in_the_regions_own_style_is_left_to_the_edits_scale() -> None:
    """The block beyond the region indented as the region's rendering writes it (spaces
    by spaces): nothing to settle, the new line keeps the columns the edit shows. An edit
    shifted by a column whose new last line has a line of another depth under it was held
    (indent-unknown), where every line typed one column deeper says exactly what is meant
    (the matcher's slip property found both shapes)."""
    for beyond, new in (("  x", " fresh()"), (" x", "  fresh()")):
        file = ["", "x", "", "", "x", beyond]
        search, replace = file[1:5], ["x", "x", new]
        intended = match_edit(file, search, replace)
        assert intended.status is Status.APPLIED
        shifted = match_edit(file, [" " + line if line else line for line in search],
                             [" " + line for line in replace])
        assert shifted.status is Status.APPLIED, shifted.hint
        assert shifted.new_lines == intended.new_lines == ("x", "x", new)


def _held(result: object) -> bool:
    return getattr(result, "rule", None) == INDENT_UNKNOWN


def test_a_line_added_above_a_def_under_a_long_block_is_held_not_put_in_its_if() -> None:
    """The block above runs 17 lines to its top (QA s49 helper-177 01): its first level was
    out of sight, the model's columns were copied and ``b = 1`` landed in f0's ``if``,
    exit 0. Read to its top (up to 400 lines), its first level ('  ') is not the model's:
    held."""
    file = (["def f0(a):"] + ["  a = a + 1"] * 17 + ["  if a:", "    a = 2", "def f1(a):",
                                                   "\treturn a"])
    result = match_edit(file, ["def f1(a):", "    return a"],
                        ["    b = 1", "def f1(a):", "    return a"])
    assert _held(result), result


def test_a_function_of_another_width_above_is_checked_at_another_scale() -> None:
    """All spaces, f0 by two, f1 by four, the model typing two (QA 01b): the scale read off
    f1 (two for four) put ``b = 1`` at four, in f0's ``if``. Held."""
    file = (["def f0(a):"] + ["  a = a + 1"] * 3 + ["  if a:", "    a = 2", "def f1(a):",
                                                  "    return a"])
    result = match_edit(file, ["def f1(a):", "  return a"],
                        ["  b = 1", "def f1(a):", "  return a"])
    assert _held(result), result


def test_the_models_first_level_is_not_read_off_a_parameter_line() -> None:
    """``  b):`` continues ``def f1(a,``: read as the model's first level (2, the block's
    own), the check passed and ``b = 1`` went in at four, in the ``if`` (QA 07). Held;
    and a Google-style file (two for blocks, four for a hanging indent) is written (08)."""
    file = ["def f0(a):", "  if a:", "    a = 2", "def f1(a,", "  b):", "\treturn a"]
    result = match_edit(file, ["def f1(a,", "  b):", "    return a"],
                        ["    b = 1", "def f1(a,", "  b):", "    return a"])
    assert _held(result), result
    google = ["def f0(a):", "  if a:", "    a = 2", "  return a", "def f1(", "    a,",
              "    b):", "  if a:", "    return b", "  return a"]
    search = ["def f1(", "        a,", "        b):", "    if a:", "        return b"]
    result = match_edit(google, search, ["    a = 3", *search])
    assert result.status is Status.APPLIED, result.hint
    assert result.new_lines[0] == "  a = 3"


def test_a_comment_at_column_0_ends_no_block() -> None:
    """Commented-out code at column 0 inside a tab body (QA 02): read as the edge of a
    block, a line added under it was held. Written with the body's tabs."""
    file = ["def f0(a):", "\tif a:", "\t\ta = 1", "# a = 5", "\t\ta = 2", "\treturn a"]
    result = match_edit(file, ["        a = 1", "# a = 5"],
                        ["        a = 1", "# a = 5", "        b = 3"])
    assert result.status is Status.APPLIED, result.hint
    assert result.new_lines == ("\t\ta = 1", "# a = 5", "\t\tb = 3")


def test_a_makefiles_two_tab_recipes_take_a_new_one_tab_line() -> None:
    """Recipes indented by two tabs (CPython's config Makefiles; QA 03): a new recipe line
    typed at one level was held for the block below having no line at one tab. Any line
    opening with a tab is a recipe line."""
    file = ["CC = cc", "", "all: build", "\t\t@echo building", "\t\t$(CC) -o x x.c", "",
            "test: all", "\t\t./x --test", "\t\t./x --bench"]
    result = match_edit(file, ["        $(CC) -o x x.c", "", "test: all"],
                        ["        $(CC) -o x x.c", "", "test: all", "    @echo testing"])
    assert result.status is Status.APPLIED, result.hint
    assert result.new_lines[-1] == "\t@echo testing"


def test_a_comment_at_a_regions_edge_keeps_the_edge_checked() -> None:
    """A comment above a def (QA s49 helper-181 01) or under it (02), at column 0, left out
    of the block's top but counted among the lines the edit leaves alone: the new line
    above it was no edge line, and ``b = 1`` went into f0's ``if`` (below: an
    IndentationError), exit 0. Both held."""
    file = ["def f0(a):", "  if a:", "    a = 2", "# helpers", "def f1(a):", "    if a:",
            "        return a"]
    search = ["# helpers", "def f1(a):", "  if a:", "    return a"]
    assert _held(match_edit(file, search, ["  b = 1", *search]))
    file = ["def f0(a):", "\tif a:", "\t\treturn a", "def f1(a):", "# note", "  if a:",
            "    a = 2", "  return a"]
    search = ["def f0(a):", "    if a:", "        return a", "def f1(a):", "# note"]
    assert _held(match_edit(file, search, [*search, "    b = 1"]))


def test_an_edit_whose_columns_are_the_files_still_checks_a_block_of_another_width() -> None:
    """f0 by two above f1 by four, the model typing f1 as it is but one line a column off
    (scale 1, QA s49 helper-181 03): ``    b = 1`` added above f1 went into f0's ``if``."""
    file = ["def f0(a):", "  if a:", "    a = 2", "def f1(a):", "    if a:",
            "        return a", "    return 0"]
    search = ["def f1(a):", "    if a:", "       return a", "    return 0"]
    assert _held(match_edit(file, search, ["    b = 1", *search]))


def test_a_bracket_in_a_comment_does_not_close_a_parameter_list() -> None:
    """``def f1(a,  # x)``: the comment's ``)`` closed the count, ``  b):`` was read as
    the model's first level again (QA s49 helper-181 04b)."""
    file = ["def f0(a):", "  if a:", "    a = 2", "def f1(a,  # x)", "  b):", "\treturn a"]
    search = ["def f1(a,  # x)", "  b):", "    return a"]
    assert _held(match_edit(file, search, ["    b = 1", *search]))


F0_IF = ["def f0(a):", "  if a:", "    a = 2"]


@pytest.mark.parametrize("middle", [
    ["x = n // 2 + g(", "  b)"],  # Python's // is no comment (QA s49 helper-182 01)
    ['x = """', ":(", '"""', "y = g(", "  b)"],  # a ( inside a docstring (02)
    ["# helper"],  # a comment the model types indented (03)
], ids=["floor-division", "bracket-in-a-string", "comment-typed-indented"])
def test_what_the_first_level_cannot_be_read_off_is_held(middle: list[str]) -> None:
    """The block above is f0 by two ending in an if, f1 is by tabs, the model types four
    and adds ``b = 1`` above: its first level read off a continuation line or a comment
    put it into f0's if (exit 0). Held."""
    file = [*F0_IF, *middle, "def f1(a):", "\treturn a"]
    typed = ["    # helper"] if middle == ["# helper"] else middle
    search = [*typed, "def f1(a):", "    return a"]
    assert _held(match_edit(file, search, ["    b = 1", *search]))


def test_a_one_line_docstring_leaves_the_first_level_readable() -> None:
    """f0 by four ending in an if, f1 by two with a one-line docstring, the model by four
    adding a line for f0's if (QA s49 helper-183 W01): a line holding a triple quote made
    the level unreadable, the new line's own level was taken for it and ``b = 0`` came out
    after the if, exit 0. A balanced docstring is counted as any line: held; and where
    the file is consistent, written (H01)."""
    file = ["def f0(a):", "    a = 1", "    if a:", "        a = 2", "def f1(a):",
            '  """Doc."""', "  return a"]
    search = ["def f1(a):", '    """Doc."""', "    return a"]
    assert _held(match_edit(file, search, ["        b = 0", *search]))
    consistent = ["def f0(a):", "    a = 1", "    if a:", "        a = 2", "def f1(a):",
                  '    """Doc."""', "    return a"]
    typed = ["def f1(a):", '  """Doc."""', "  return a"]
    result = match_edit(consistent, typed, ["    b = 0", *typed])
    assert result.status is Status.APPLIED, result.hint
    assert result.new_lines[0] == "        b = 0"


def test_no_level_is_guessed_off_a_continuation_typed_deeper() -> None:
    """SEARCH's only indented line continues a call, typed by eight where the file has
    four (QA s49 helper-185 #2): the level guessed from the steps read eight and the scale
    one half passed the check: two lines by two and four, an IndentationError, exit 0.
    Held; and a line continued by a backslash is no level either."""
    file = ["def f0(a):", "    a = 1", "X = g(1,", "    2)"]
    search = ["X = g(1,", "        2)"]
    assert _held(match_edit(file, search, ["    b0 = 0", "        b1 = 1", *search]))
    file = ["def f0(a):", "  if a:", "    a = 2", "Q = 1 + \\", "    2", "def f1(a):",
            "\treturn a"]
    search = ["Q = 1 + \\", "    2", "def f1(a):", "    return a"]
    assert _held(match_edit(file, search, ["    b = 0", *search]))


def test_no_level_is_read_off_a_dicts_next_line() -> None:
    """A dict opened on a line and continued on the next, typed by eight where the file has
    four: the brace was not counted, the continuation read as the model's first level, and
    the lines above landed at two and four (an IndentationError, exit 0). Held; a brace
    opening a block still leaves its body's lines a level to read."""
    file = ["def f0(a):", "    a = 1", "X = {1:", "    2}"]
    search = ["X = {1:", "        2}"]
    assert _held(match_edit(file, search, ["    b0 = 0", "        b1 = 1", *search]))
    js = ["function f0(a) {", "    a = 1;", "}", "function f1(a) {", "    return a;", "}"]
    typed = ["function f1(a) {", "  return a;", "}"]
    result = match_edit(js, typed, ["  b = 0;", *typed])
    assert result.status is Status.APPLIED, result.hint
    assert result.new_lines[0] == "    b = 0;"


@pytest.mark.parametrize("middle", [
    ["R = g(", "  **{", "    'k': 1,", "  },", "  b=2)"],
    ["ITEMS = [", "  {'a': 1},", "  {'b': 2},", "]"],
    ["OK = (x in {1, 2}", "  or y)"],
    ["R = dict(a or {},", "  b=1)"],
    ["R = g(a if c else {1: 2},", "  b)"],
    ["R = g((T){1, 2},", "  b)"],
], ids=["star-star", "list-of-dicts", "in-set", "or-dict", "else-dict", "compound"])
def test_a_brace_inside_brackets_closes_only_itself(middle: list[str]) -> None:
    """Every ``}`` taken off the count closed the bracket around it (QA s50 helper-193
    T1-2): the lines after read as the model's first level, ``b = 1`` went into f0's
    ``if``, exit 0. Held."""
    file = ["def f0(a):", "  if a:", "    a = 2", *middle, "def f1(a):", "\treturn a"]
    search = [*middle, "def f1(a):", "    return a"]
    assert _held(match_edit(file, search, ["    b = 1", *search]))


def test_a_list_of_dicts_shows_no_level() -> None:
    """The dicts of a list typed by eight for the file's four (QA s50 helper-193 T1-1): the
    lines added above landed at two and four, an IndentationError, exit 0. Held; and a
    comment or a preprocessor line holding braces leaves the level readable."""
    file = ["def f0(a):", "    a = 1", "", "", "ITEMS = [", "    {'a': 1},", "    {'b': 2},", "]"]
    search = ["ITEMS = [", "        {'a': 1},", "        {'b': 2},", "]"]
    assert _held(match_edit(file, search, ["    if a:", "        a = 2", "", "", *search]))
    folds = ["# {{{ helpers", "def f0(a):", "    if a:", "        a = 2", "# }}}",
             "def f1(a):", "    return a"]
    typed = ["# }}}", "def f1(a):", "  return a"]
    result = match_edit(folds, typed, ["  b = 0", *typed])
    assert result.status is Status.APPLIED, result.hint
    assert result.new_lines[0] == "    b = 0"  # (f0's body, one level: as typed)


def test_rust_attributes_comments_and_python_value_braces() -> None:
    """QA s50 helper-195: a multi-line #[derive( read as a comment line (its ( dropped, the
    next line read as the model's level: b() at four in a body by two, exit 0); a brace
    after ``or``, ``|`` or ``else`` read as a block's (b = 1 in the if above, exit 0). Both
    held; a trailing comment's balanced brackets leave the level readable (held for
    nothing by the stack's first reading)."""
    rust = ["fn f0(a: i32) {", "  if a > 0 {", "    a;", "  }", "}", "#[derive(", "  Debug,",
            ")]", "struct S;", "fn f1(a: i32) -> i32 {", "\ta", "}"]
    search = ["}", "#[derive(", "  Debug,", ")]", "struct S;", "fn f1(a: i32) -> i32 {",
              "    a", "}"]
    assert _held(match_edit(rust, search, ["    b();", *search]))
    for head in ("X = a or {", "X = BASE | {", "X = y if c else {"):
        middle = [head, "  'k': 1,", "}"]
        file = ["def f0(a):", "  if a:", "    a = 2", *middle, "def f1(a):", "\treturn a"]
        typed = [*middle, "def f1(a):", "    return a"]
        assert _held(match_edit(file, typed, ["    b = 1", *typed])), head
    file = ["def f0(a):", "    a = 1", "    if a:", "        a = 2", "TIMEOUT = 30  # s (opt)",
            "def f1(a):", "    return a"]
    typed = ["TIMEOUT = 30  # s (opt)", "def f1(a):", "  return a"]
    result = match_edit(file, typed, ["  b = 1", *typed])
    assert result.status is Status.APPLIED, result.hint
    assert result.new_lines[0] == "    b = 1"


def test_a_python_comment_opening_with_a_bracket_is_no_rust_attribute() -> None:
    """``#[1]: see (section 2`` is a comment (QA s50 helper-196: read as an attribute, its
    open ( made every line after a continuation and the edge was held)."""
    file = ["def f0(a):", "  if a:", "    a = 2", "#[1]: see the docs (section 2",
            "def f1(a):", "  return a"]
    typed = ["#[1]: see the docs (section 2", "def f1(a):", "    return a"]
    result = match_edit(file, typed, ["    b = 1", *typed])
    assert result.status is Status.APPLIED, result.hint
    assert result.new_lines[0] == "  b = 1"
