"""apply's syntax report on big Python files: the shortcuts it takes (the jumping string
scan, the report read from the edited lines without the file's text, the symbol-table
walk skipped when no declared name is written in a region) agree with whole parses, and
an error an edit brings in is reported exactly as the whole-file check reports it."""

from __future__ import annotations

import re
from collections.abc import Iterator

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st
from pyregionkit import edited, parses

from reviewtui.core.engine import OpResult, Policy, evaluate_session
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.protocol.session import parse_session
from reviewtui.core.review import diagnostics
from reviewtui.core.review.diagnostics import Diagnostic
from reviewtui.core.review.landed import diagnose_landed
from reviewtui.core.syntax import pyregions
from reviewtui.core.syntax.pyregions import changes_of, edits_parse_alone

# --- the string scan -------------------------------------------------------------------

# The scan before it jumped from trigger to trigger: one pattern over every character.
_OLD_SPANNING = re.compile(
    r"(?:[\x00-\x21\x24-\x26\x28-\U0010ffff]++|#[^\n]*+"
    r'|"(?!"")[^"\\\n]*+(?:\\[^\n][^"\\\n]*+)*+(?!\\\n)"?'
    r"|'(?!'')[^'\\\n]*+(?:\\[^\n][^'\\\n]*+)*+(?!\\\n)'?)*+"
    rf"({pyregions._TOKENS.pattern}|\Z)")


def old_long_strings(text: str, pos: int = 0, line: int = 0) -> Iterator[tuple[int, int]]:
    at = pos
    for found in _OLD_SPANNING.finditer(text, pos):
        start, end = found.span(1)
        newlines = text.count("\n", start, end)
        if newlines:
            line += text.count("\n", at, start)
            at = start
            yield line, newlines


PIECES = ['"""', "'''", '"', "'", "x", "#", "\\", "\\\n", "\n", "\r\n", "\r", " ", '""',
          "''", '""""', "#'''", "'\"\"\"'", 'a = """b', "\\\\", "\\\r\n", "é", "€", "😀",
          'r"""', "f'", "\\'''", '\\"""', "# \\\n", "''''''", "\x00", "\u2028"]


@settings(max_examples=600)
@given(st.lists(st.sampled_from(PIECES), max_size=50).map("".join), st.integers(0, 3))
@example('x = """a\\"""b"""\nc', 0)
@example("# '''\ny = 1 \\\n'''\n", 0)
@example("s = '''\\\n'''", 0)
def test_the_jumping_scan_finds_what_the_scan_of_every_character_found(
        text: str, skip: int) -> None:
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    line = min(skip, len(starts) - 1)
    assert list(pyregions._long_strings(text, starts[line], line)) == list(
        old_long_strings(text, starts[line], line))


def test_a_docstring_with_a_backslash_is_matched_by_the_pattern() -> None:
    text = 'def f():\n    """a \\""" b\n    c"""\n    x = 1\n' + "y = '''\n\n'''\n"
    assert list(pyregions._long_strings(text)) == [(1, 1), (4, 2)]
    assert list(old_long_strings(text)) == [(1, 1), (4, 2)]


# --- the report read from the lines ----------------------------------------------------

FRAGMENTS = [
    "def f(x):", "    return x", "class A:", "    def m(self):", "        pass",
    '"""', "def g(): pass", "x = (", ")", "@dec", "    x = 1", "y = 2", "if y:", "else:",
    "    '''", "global z", "    nonlocal z", "s = '\\", "z = 1 \\", "    y = [", "    ]",
    "'''", "# def c():", '    """doc', "", "\tpass", "f'{'", "q = 1", "global q",
    "    q = 2", "x = 1  # c", "    # note", "y = 'é'", "barry_as_FLUFL = 1", "x = '\r'",
    "g = 1", "global g", "    return g", "def h():", "    global g",
]
line = st.sampled_from(FRAGMENTS)
edit = st.tuples(st.integers(0, 30), st.integers(0, 3), st.lists(line, max_size=3))


def lazily(before: str, after_lines: list[str], steps: list[tuple[int, int, int]],
           final_newline: bool) -> tuple[bool, int]:
    """edits_parse_alone given the lines after and a function for the text; and how many
    times that function ran."""
    calls = []

    def text() -> str:
        calls.append(1)
        return "\n".join(after_lines) + ("\n" if final_newline else "")

    said = edits_parse_alone(before, text, changes_of(steps), budget=1.0,
                             before_lines=before.split("\n")[:-1] if before.endswith("\n")
                             else before.split("\n"),
                             after_lines=after_lines, after_final_newline=final_newline)
    return said, len(calls)


@settings(max_examples=400)
@given(base=st.lists(line, min_size=1, max_size=30), edits=st.lists(edit, min_size=1,
                                                                    max_size=3),
       final_newline=st.booleans())
@example(base=["x = 1", "y = 2", "q = 1"], edits=[(1, 1, ["y = 2  # barry_as_FLUFL"])],
         final_newline=True)
@example(base=["x = 1", "y = 2", "q = 1"], edits=[(1, 1, ["y = 2  # a\rb"])],
         final_newline=False)
# An empty last line without a final newline: the lines alone do not say where the text
# ends ("z = 1 \\" then the end does not parse; the lines once read as if it did).
@example(base=[""], edits=[(0, 0, ["z = 1 \\"])], final_newline=False)
# A final newline lost below every change (its steps account for no line): it was
# reported quiet.
@example(base=["z = 1 \\", ""], edits=[(0, 0, [])], final_newline=False)
def test_the_answer_from_the_lines_is_the_answer_from_the_text(
        base: list[str], edits: list[tuple[int, int, list[str]]], final_newline: bool) -> None:
    if any("\n" in x or "\r" in x for x in base):
        return
    after_lines, steps = edited(base, edits)
    if not after_lines:
        return
    before = "\n".join(base) + "\n"
    after = "\n".join(after_lines) + ("\n" if final_newline else "")
    said, _calls = lazily(before, after_lines, steps, final_newline)
    assert said == edits_parse_alone(before, after, changes_of(steps), budget=1.0)
    if said:
        assert parses(after) or not parses(before)


def test_comment_edits_never_build_the_text() -> None:
    base = [f"x{i} = {i}" for i in range(50)]
    after_lines, steps = edited(base, [(10, 1, ["x10 = 10  # edit"]),
                                       (30, 1, ["x30 = 30  # new", "# more"])])
    assert lazily("\n".join(base) + "\n", after_lines, steps, True) == (True, 0)
    # A code change needs the text (its strings are scanned again around the change).
    after_lines, steps = edited(base, [(10, 1, ["x10 = 11"])])
    assert lazily("\n".join(base) + "\n", after_lines, steps, True) == (True, 1)


def test_a_carriage_return_or_the_future_in_an_edited_line_reads_the_text() -> None:
    base = [f"x{i} = {i}" for i in range(50)]
    for new in ("x10 = 10  # a\rb", "x10 = 10  # barry_as_FLUFL",
                "from __future__ import barry_as_FLUFL  # x"):
        after_lines, steps = edited(base, [(10, 1, [new])])
        said, calls = lazily("\n".join(base) + "\n", after_lines, steps, True)
        assert (said, calls) == (False, 1)  # as from the text: not proved here
        assert not edits_parse_alone("\n".join(base) + "\n", "\n".join(after_lines) + "\n",
                                     changes_of(steps), budget=1.0)


# --- names declared global or nonlocal ---------------------------------------------------

DECLARING = ["global g", "g = 1", "x = g", "def f():", "    global g", "    g = 2",
             "    return g", "    x = 1", "class C:", "    g = 3", "import g", "del g",
             "g: int", "    nonlocal g", "def k():", "    def i():", "        nonlocal g",
             "        g = 1", "x = 1", "y = 2", "for g in x: pass", "(g := 1)"]


@settings(max_examples=500)
@given(base=st.lists(st.sampled_from(DECLARING), max_size=20),
       edits=st.lists(st.tuples(st.integers(0, 20), st.integers(0, 2),
                                st.lists(st.sampled_from(DECLARING), max_size=2)),
                      min_size=1, max_size=3))
@example(base=["x = 1", "y = 2", "global g"], edits=[(0, 1, ["g = 1"])])
@example(base=["x = 1", "y = 2", "x = 1", "y = 2", "global g"], edits=[(2, 1, ["g = 1"])])
@example(base=["def f():", "    x = 1", "    y = 2", "    global g"],
         edits=[(2, 1, ["    g = 1"])])
def test_a_region_that_writes_a_declared_name_is_parsed_with_the_file(
        base: list[str], edits: list[tuple[int, int, list[str]]]) -> None:
    after_lines, steps = edited(base, edits)
    before, after = "\n".join(base) + "\n", "\n".join(after_lines) + "\n"
    if edits_parse_alone(before, after, changes_of(steps), budget=1.0):
        assert parses(after) or not parses(before)


# --- errors the edits bring in, reported as the whole file reports them -------------------

BIG = "".join(f"def f{i}(x):\n    y = x + {i}\n    return y\n\n\n" for i in range(250))


def landed(*pairs: tuple[str, str]) -> list[OpResult]:
    body = "".join(f"<<<<<<< SEARCH\n{a}\n=======\n{b}\n>>>>>>> REPLACE\n" for a, b in pairs)
    tree = Tree.from_files({"m.py": FileState.from_bytes(BIG.encode())})
    run = evaluate_session(parse_session(f"## Turn 1\n--- File: m.py ---\n{body}"), tree,
                           policy=Policy.headless())
    results = [r for t in run.turns for r in t.results]
    assert all(r.landed for r in results)
    return results


# Each breaks f100 (line 501 on), beside harmless edits elsewhere in the same file.
BREAKING = {
    "an indented block": ("    y = x + 100", "      y = x + 100"),
    "a missing block": ("def f100(x):\n    y = x + 100\n    return y",
                        "def f100(x):\ny = x + 100\nreturn y"),
    "an unclosed bracket": ("    y = x + 100", "    y = (x + 100"),
    "a broken string": ("    y = x + 100", '    y = "x + 100'),
    "an unclosed docstring": ("    y = x + 100", '    """y = x + 100'),
    "a tab/space mix": ("    y = x + 100\n    return y", "\ty = x + 100\n        return y"),
}


@pytest.mark.parametrize("kind", sorted(BREAKING))
def test_an_error_an_edit_brings_in_is_reported_as_the_whole_file_reports_it(
        kind: str, monkeypatch: pytest.MonkeyPatch) -> None:
    results = landed(("    y = x + 7", "    y = x + 7  # edit"),
                     ("    y = x + 40", "    y = x + 41"), BREAKING[kind],
                     ("    y = x + 200", "    y = x + 200; z = 1"))
    after = results[-1].outcome.after_state
    assert isinstance(after, FileState)
    assert after.text is not None
    (line, col, message), = diagnostics._python(after.text)
    assert 500 <= line <= 504
    expected = {results[-1].key: (Diagnostic(line, col, message, True, "python"),)}
    assert diagnose_landed(results) == expected
    # The same as the report without any shortcut (each file parsed whole).
    monkeypatch.setattr(pyregions, "edits_parse_alone", lambda *args, **kwargs: False)
    diagnostics._cache.clear()
    assert diagnose_landed(results) == expected


def test_harmless_edits_of_a_big_file_report_nothing() -> None:
    results = landed(("    y = x + 7", "    y = x + 7  # edit"),
                     ("    y = x + 40", "    y = x + 41"),
                     ("    y = x + 200", "    y = x + 200; z = 1"))
    assert diagnose_landed(results) == {}


def test_lines_that_read_the_same_are_trimmed_off_a_change() -> None:
    old = ["a = 1", "b = 2", "c = 3", "d = 4"]
    new = ["a = 1", "b = 20", "c = 3", "d = 4"]
    assert pyregions._trimmed([(0, 3, 0, 3)], old, new) == [(1, 2, 1, 2)]
    grown = ["a = 1", "b = 2", "x = 9", "c = 3", "d = 4"]
    assert pyregions._trimmed([(1, 4, 1, 3)], old, grown) == [(2, 3, 2, 2)]
    # Nothing changed at all: the changes are left as they were (a whole parse decides).
    assert pyregions._trimmed([(0, 2, 0, 2)], old, old) == [(0, 2, 0, 2)]


def continued_reference(text: str) -> set[int]:
    """The lines after a backslash-newline, by the regex the scan had before."""
    inside: set[int] = set()
    line, at = 0, 0
    for found in re.finditer(r"\\\r?\n", text):
        line += text.count("\n", at, found.end())
        at = found.end()
        inside.add(line)
    return inside


@settings(max_examples=400)
@given(st.lists(st.sampled_from(["\\", "\n", "\r", "\r\n", "x", "\\\\", "\\\n", "\\\r\n", "é"]),
                max_size=40).map("".join))
@example("a\\\r\nb\\\nc\\\\\nd")
def test_continued_lines_are_found_by_their_backslashes(text: str) -> None:
    found: set[int] = set()
    pyregions._add_continued(text, found)
    assert found == continued_reference(text)
