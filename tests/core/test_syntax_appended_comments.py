"""apply's shortcut for Python edits that only add comments at line ends
(``core/syntax/pycomments.py``): what it proves, a whole parse agrees with -- the file after
parses when the file before did, and otherwise stops at the same error on the same line."""

from __future__ import annotations

import re
import symtable
import warnings

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.model.filestate import FileState
from reviewtui.core.syntax.pycomments import (
    _fstring_lines,
    appended_comments,
    edited_lines_parse,
)
from reviewtui.core.syntax.pyregions import edits_parse_alone

# Snippets that put a line's end in every place a comment could land: code, brackets, a
# comment, plain, raw and bytes triple-quoted strings, f-strings with braces open across
# lines (one with an escaped quote before them), backslash continuations (in code and in
# strings), unterminated strings, blocks and their clauses.
SNIPPETS = (
    ("x = 1",), ("def f(a, b):", "    return a + b"), ("y = [a,", "     b]"),
    ('s = """doc', "more text", '"""'), ("b = b'''bytes", "'''"),
    ('f = f"""{', "value", '}"""'), ("g = rf'''{x", "}'''"), ('h = fR"""', "{y", '} text"""'),
    ('e = f"""a\\"""{', "b", '}"""'), ("z = 1 + \\", "    2"), ("t = 'unterminated",),
    ('u = "a\\', 'b"'), ("# a comment",), ("",), ("    ",), ("class C:", "    pass"),
    ('w = f"{x}"',), ('v = r"""raw\\', 'text"""'), ('q = """a\\"""b"""',),
    ("# -*- coding: utf-8 -*-",), ("if x:", "    pass", "else:", "    pass"),
    ("k = {1: 2,", "     }"), ("d = (", "lambda: 0", ")"), ("@dec", "def g():", "    pass"),
    ('m = """a',), ('n = f"""x"""',), ("p = 'it''s'",), ("r = u'''u", "'''  # closed"),
    ("    indented = 1",), ("else:",), ("}",),
)
SUFFIXES = st.one_of(
    st.sampled_from(["  # edit 7", "  # noqa: E501", "  # type: ignore[attr-defined]",
                     "   ", "#", "\t# x", "  # pragma: no cover", "# coding: latin-1",
                     '  # """', "  # '''", "  # \\", " \\", "  # {x}", '  # "']),
    st.text(alphabet=" \t#ax:1[]{}'\"\\\u00e9", max_size=6).map(lambda t: "  #" + t),
    st.text(alphabet=" \t#ax:1{}'\"\\\u00e9", min_size=1, max_size=5),
)


def _first_error(text: str) -> tuple[str, int | None] | None:
    """None when the whole text gets through the parser and the symbol table, else the
    first error's message and line."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            symtable.symtable(text, "<t>", "exec")
    except SyntaxError as err:
        return str(err.msg), err.lineno
    except ValueError as err:
        return str(err), None
    return None


def _edit(lines: list[str], suffixes: dict[int, str]
          ) -> tuple[str, str, list[str], list[str], list[tuple[int, int, int, int]]]:
    old = list(lines)
    new = [line + suffixes.get(at, "") for at, line in enumerate(lines)]
    changes = [(at, at + 1, at, at + 1) for at in sorted(suffixes) if suffixes[at]]
    return "\n".join(old), "\n".join(new), old, new, changes


def _agrees(before: str, after: str, *, same_lines: bool = True) -> bool:
    """No error in ``after`` that ``before`` lacks: it parses, or stops where ``before``
    stopped, with the same message (on the same line, unless lines were added)."""
    was, now = _first_error(before), _first_error(after)
    if now is None or now == was:
        return True
    moved = re.compile(r" \(detected at line \d+\)")  # (lines added move the error)
    if not same_lines and was is not None and moved.sub("", now[0]) == moved.sub("", was[0]):
        return True
    return _was_there(before, after, was, now, moved)


def _was_there(before: str, after: str, was: tuple[str, int | None] | None,
               now: tuple[str, int | None], moved: re.Pattern[str]) -> bool:
    """An error after an earlier one that the edit cleared (the first error only is
    reported): its lines, from it to the end, are the same in both texts (after lines
    added above, at other numbers) and fail alone, as they did before.
    ("t = 'open" twice, a comment "  #'" closing the first string: the second line's
    error was always there.)"""
    if was is None or was[1] is None or now[1] is None:
        return False
    # The same lines from the error to the end, in both (lines added above move them).
    tail = after.split("\n")[now[1] - 1 :]
    lines = before.split("\n")
    if len(tail) > len(lines) - was[1] or lines[len(lines) - len(tail):] != tail:
        return False
    alone = _first_error("\n".join(tail))
    return alone is not None and alone[1] == 1 and moved.sub("", alone[0]) == moved.sub(
        "", now[0])


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(SNIPPETS), min_size=1, max_size=5), st.data())
def test_what_it_proves_a_whole_parse_agrees_with(snippets: list[tuple[str, ...]],
                                                  data: st.DataObject) -> None:
    lines = [line for snippet in snippets for line in snippet]
    picked = data.draw(st.dictionaries(st.integers(0, len(lines) - 1), SUFFIXES, max_size=5))
    before, after, old, new, changes = _edit(lines, picked)
    if appended_comments(before + "\n", [*old, ""], [*new, ""], changes):
        assert _agrees(before + "\n", after + "\n"), (before, after)


def _one(lines: list[str], at: int, suffix: str) -> tuple[str, str, bool]:
    before, after, old, new, changes = _edit(lines, {at: suffix})
    return before, after, appended_comments(before, old, new, changes)


PROVED = {
    "code": (["x = 1", "y = 2"], 0, "  # noqa"),
    "in brackets": (["y = [1,", "     2]"], 0, "  # first"),
    "in a docstring": (['s = """doc', "more", '"""'], 1, "  # not a comment"),
    "in a bytes string": (["b = b'''a", "b", "'''"], 1, " # ascii"),
    "in a comment": (["# note", "x = 1"], 0, " # more"),
    "a plain string after an f-string": (['f = f"""{x}"""', 's = """', "text", '"""'], 2,
                                         "  # c"),
    "blanks alone": (["x = 1"], 0, " \t "),
}
NOT_PROVED = {
    "inside an f-string's braces": (['f = f"""{', "value", '}"""'], 1, "  # c"),
    "inside an rf-string": (["g = rf'''{x", "}'''"], 0, "  # c"),
    "inside an fR-string": (['h = fR"""', "{y", '}"""'], 1, "  # c"),
    "inside an f-string past an escaped quote": (['e = f"""a\\"""{', "b", '}"""'], 1, "  # c"),
    "after a backslash": (["z = 1 + \\", "    2"], 0, "  # c"),
    "below a backslash": (["z = 1 + \\", ""], 1, "# c"),
    "a quote": (['s = """doc', "more", '"""'], 1, '  # """'),
    "a backslash": (['s = """doc', "more", '"""'], 1, "  # \\"),
    "a brace": (["x = 1"], 0, "  # {x}"),
    "non-ASCII": (["b = b'''a", "b", "'''"], 1, " # \u00e9"),
    "an encoding": (["", "x = 1"], 0, "# coding: latin-1"),
    "code": (["x = 1"], 0, "; y = 2"),
}


@pytest.mark.parametrize("name", sorted(PROVED))
def test_a_comment_at_a_line_end_is_proved(name: str) -> None:
    lines, at, suffix = PROVED[name]
    before, after, proved = _one(lines, at, suffix)
    assert proved
    assert _agrees(before, after)
    assert edits_parse_alone(before, after, [(at, at + 1, at, at + 1)])


@pytest.mark.parametrize("name", sorted(NOT_PROVED))
def test_what_may_matter_is_left_to_the_other_checks(name: str) -> None:
    lines, at, suffix = NOT_PROVED[name]
    assert not _one(lines, at, suffix)[2]


def test_a_hash_in_an_fstrings_braces_is_an_error_the_shortcut_never_hides() -> None:
    before, after, proved = _one(['f = f"""{', "value", '}"""'], 1, "  # c")
    assert _first_error(before) is None
    assert _first_error(after) is not None
    assert not proved


def test_a_carriage_return_or_a_changed_line_count_is_not_proved() -> None:
    assert not appended_comments("x = 1\r\n", ["x = 1", ""], ["x = 1  # c", ""],
                                 [(0, 1, 0, 1)])
    assert not appended_comments("x = 1\n", ["x = 1", ""], ["x = 1", "# c", ""],
                                 [(1, 2, 1, 1)])


def test_fstring_lines_from_prefix_to_closing_quote() -> None:
    text = 'a = 1\nf = f"""x\n{y}\n"""\ns = """plain\n"""\ng = Rf\'\'\'z\'\'\'\n'
    assert sorted(_fstring_lines(text)) == [(1, 3), (6, 6)]
    # A backslash inside, or no closing quote: the whole text.
    assert _fstring_lines('f = f"""a\\"""b"""\n') == [(0, len('f = f"""a\\"""b"""\n'))]
    assert _fstring_lines('f = f"""open\n') == [(0, len('f = f"""open\n'))]


@settings(max_examples=250, deadline=None)
@given(st.lists(st.sampled_from(SNIPPETS), min_size=1, max_size=5), st.data())
def test_the_reports_entry_agrees_with_a_whole_parse(snippets: list[tuple[str, ...]],
                                                     data: st.DataObject) -> None:
    """Through FileStates and the engine's steps: comment edits (the line count kept) are
    answered by the shortcut, any other edit (a line added) by the region check."""
    lines = [line for snippet in snippets for line in snippet]
    before = "\n".join(lines) + "\n"
    opening = state = FileState.from_text(before)
    steps, added = [], False
    for at, suffix in data.draw(st.lists(st.tuples(st.integers(0, len(lines) - 1), SUFFIXES),
                                         max_size=4)):
        if data.draw(st.booleans()):
            state = state.splice(at, at + 1, [state.lines[at] + suffix])
            steps.append((at + 1, at + 1, 0))
        else:  # a comment line inserted below: the line count changes
            state = state.splice(at + 1, at + 1, ["# " + suffix.strip(" \t#")])
            steps.append((at + 2, at + 1, 1))
            added = True
    if steps and edited_lines_parse(before, opening, state, steps):
        assert _agrees(before, state.text or "", same_lines=not added), (before, state.text)


def test_a_comment_glued_to_a_continuing_backslash_is_a_new_error_the_tokens_see() -> None:
    """Regression (found by the property above): the token check took ``\\#`` for a
    backslash with its comment dropped, i.e. the line continuation it was before."""
    before = "z = 1 + \\\n    2\n" + "x = 0\n" * 50
    after = before.replace("z = 1 + \\\n", "z = 1 + \\#\n", 1)
    assert _first_error(before) is None
    assert _first_error(after) is not None
    assert not edits_parse_alone(before, after, [(0, 1, 0, 1)], budget=0.0)
    assert not edits_parse_alone(before, after, [(0, 1, 0, 1)])
