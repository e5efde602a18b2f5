"""C, C++ and C# read one preprocessor branch at a time (core/syntax/preproc.py) so that code
whose branches are whole apart but not together is not called broken near an edit.

jq d777b657 rewrote a ``case`` of util.c beside ``#ifdef _WIN32 / if (localtime_s(...))
/ #else / if (localtime_r(...) == NULL) / #endif / bp = NULL; else ...``: read whole,
that reads as an ``if`` with no body, and the edit was reported as introducing a missing
``#endif`` (here in code of the same shape).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.review.diagnostics import diagnose_change
from reviewtui.core.syntax.preproc import branch_views, views_or_whole

SPLIT_IF = """\
#include <time.h>

int check(int *bp, struct tm *tm, time_t sse) {
    int state = 0;
    int limit = 10;
#ifdef _WIN32
    if (localtime_s(tm, &sse))
#else
    if (localtime_r(&sse, tm) == NULL)
#endif
        *bp = 0;
    else
        state |= 1;
    return state + limit;
}
"""


def test_the_views_take_one_branch_each() -> None:
    views = branch_views(SPLIT_IF)
    assert views is not None
    (first, held_first), (last, held_last) = views
    lines = SPLIT_IF.split("\n")
    assert len(first.split("\n")) == len(last.split("\n")) == len(lines)
    assert "localtime_s" in first
    assert "localtime_r" not in first
    assert "localtime_r" in last
    assert "localtime_s" not in last
    assert "#ifdef" not in first + last
    assert held_first[6]
    assert not held_first[8]
    assert held_last[8]
    assert not held_last[6]


# The shape of jq d777b657: a case rewritten to declare its limit in each branch.
CASE_BEFORE = """\
#include <time.h>

int parse(const char *bp, struct tm *tm) {
    int state = 0;
    while (*bp) {
        switch (*bp++) {
        case 'o':
            state = 2;
            continue;

#ifndef LIMIT
#define LIMIT 9
#endif
        case 's':
            {
                time_t sse = 0;

                sse = *bp - '0';
                if (sse > LIMIT)
                    continue;
#ifdef _WIN32
                if (localtime_s(tm, &sse))
#else
                if (localtime_r(&sse, tm) == NULL)
#endif
                    bp = 0;
                else
                    state |= 1;
                continue;
            }
        }
    }
    return state;
}
"""
CASE_AFTER = """\
#include <time.h>

int parse(const char *bp, struct tm *tm) {
    int state = 0;
    while (*bp) {
        switch (*bp++) {
        case 'o':
            state = 2;
            continue;

        case 's': {
#ifdef _WIN32
            const time_t LIMIT = 7;
#else
            const time_t LIMIT = 9;
#endif
            time_t sse;

            sse = *bp - '0';
            if (sse > LIMIT)
                continue;
#ifdef _WIN32
            if (localtime_s(tm, &sse))
#else
            if (localtime_r(&sse, tm) == NULL)
#endif
                bp = 0;
            else
                state |= 1;
            continue;
            }
        }
    }
    return state;
}
"""


def test_an_edit_beside_a_split_if_introduces_nothing() -> None:
    assert diagnose_change("util.c", None, CASE_BEFORE)  # read whole, it reads as broken
    found = diagnose_change("util.c", CASE_BEFORE, CASE_AFTER)
    assert found
    assert not any(d.introduced for d in found), found


def test_a_real_break_beside_a_split_if_is_still_introduced() -> None:
    for broken in (CASE_AFTER.replace("state = 2;", "state = 2"),  # a lost ;
                   CASE_AFTER.replace("const time_t LIMIT = 9;", "const time_t LIMIT = ;"),
                   CASE_AFTER.replace("                continue;\n", "", 1),  # still fine
                   CASE_AFTER.replace("    return state;\n}", "    return state;\n")):
        found = diagnose_change("util.c", CASE_BEFORE, broken)
        if broken.count("continue;") < CASE_AFTER.count("continue;"):
            assert not any(d.introduced for d in found), found  # valid: nothing new
        else:
            assert any(d.introduced for d in found), (broken, found)


def test_conditionals_that_do_not_pair_up_have_no_views() -> None:
    assert branch_views("#if A\nx;\n") is None
    assert branch_views("x;\n#endif\n") is None
    assert branch_views("#if A\n#else\n#elif B\n#endif\n") is None
    assert branch_views("int x;\n") is None


# C#: BenchmarkDotNet's OsDetector.cs (commit 9c1aa83f) put an expression-bodied member's
# body in #if/#else, the file's first conditional. Read whole, each branch's ";" ends the
# member early: the grammar reports three errors, all the commit's "fault".
CS_BEFORE = """\
using System;

namespace Demo
{
    internal static class OsDetector
    {
        internal static bool IsWindows() =>
            RuntimeInformation.IsOSPlatform(OSPlatform.Windows);

        internal static int Count(int a) => a + 1;
    }
}
"""
CS_AFTER = CS_BEFORE.replace("""\
            RuntimeInformation.IsOSPlatform(OSPlatform.Windows);
""", """\
#if NET6_0_OR_GREATER
            OperatingSystem.IsWindows();
#else
            RuntimeInformation.IsOSPlatform(OSPlatform.Windows);
#endif
""")


def test_csharp_an_edit_that_adds_the_first_if_introduces_nothing() -> None:
    assert CS_AFTER != CS_BEFORE
    assert any(d.introduced for d in diagnose_change("OsDetector.cs", None, CS_AFTER))
    found = diagnose_change("OsDetector.cs", CS_BEFORE, CS_AFTER)
    assert found  # the misreading is shown, as already there
    assert not any(d.introduced for d in found), found
    # and the edit that takes the #if out again
    assert not any(d.introduced for d in diagnose_change("OsDetector.cs", CS_AFTER, CS_BEFORE))


def test_csharp_an_edit_of_a_split_if_introduces_nothing() -> None:
    for old, new in (("OperatingSystem.IsWindows();",  # a branch rewritten
                      "OperatingSystem.IsWindows() || Other.Check(1);"),
                     ("#else\n", "#elif NETSTANDARD2_0\n            Legacy.IsWindows();\n"
                                 "#else\n")):  # a branch added
        later = CS_AFTER.replace(old, new)
        assert later != CS_AFTER
        found = diagnose_change("OsDetector.cs", CS_AFTER, later)
        assert found
        assert not any(d.introduced for d in found), (new, found)


def test_csharp_a_real_break_beside_a_split_if_is_still_introduced() -> None:
    for before, broken in (
            (CS_BEFORE, CS_AFTER.replace("OperatingSystem.IsWindows();",
                                         "OperatingSystem.IsWindows(;")),  # in a branch
            (CS_AFTER, CS_AFTER.replace("a + 1;", "a + ;")),  # a hidden token's error
            (CS_AFTER, CS_AFTER.replace("#endif\n", "", 1))):  # an #if left open
        found = diagnose_change("OsDetector.cs", before, broken)
        assert any(d.introduced for d in found), (broken, found)


def test_a_text_without_conditionals_is_its_own_two_views() -> None:
    text = "int x;\n# not a directive\n"
    assert views_or_whole(text) == ((text, [True] * 3), (text, [True] * 3))
    assert views_or_whole("#if A\nx;\n") is None  # they do not pair up
    assert views_or_whole(SPLIT_IF) == branch_views(SPLIT_IF)


_LINES = st.sampled_from(["#if A", "#ifdef B", "#elif C", "#else", "#endif", "int x;",
                          "y = 1;", "", "#define M \\", "  2", "  # if D", "#  endif"])


@settings(max_examples=300)
@given(st.lists(_LINES, max_size=30))
def test_a_view_keeps_the_lines_where_they_were(lines: list[str]) -> None:
    text = "\n".join(lines)
    views = branch_views(text)
    if views is None:
        return
    for view, held in views:
        out = view.split("\n")
        assert len(out) == len(lines) == len(held)
        for original, shown, kept in zip(lines, out, held, strict=True):
            assert shown in (original, "")  # a line is itself or empty, never moved
            if shown and not kept:
                raise AssertionError(f"{shown!r} shown but not held")
