"""apply's token check for Python: edits of comments, blank lines and strings' text are
proved without parsing a region (the region budget is 0 below: only the token check can say
yes), and whatever it proves, a whole parse agrees with (properties, on made-up lines and on
real files of the standard library)."""

from __future__ import annotations

import sysconfig
from functools import cache
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyregionkit import edited, parses

from reviewtui.core.syntax.pyregions import _in_strings, changes_of, edits_parse_alone
from reviewtui.core.syntax.pytokens import quiet_changes

BODY = "".join(f"def f{i}(x):\n    y = x + {i}\n    return y\n\n\n" for i in range(60))
DOC = 'def d():\n    """Doc.\n\n    More text.\n    """\n    s = b"""bytes\n    here"""\n'


def _proved_without_regions(before: str, after: str, steps: list[tuple[int, int, int]]) -> bool:
    return edits_parse_alone(before, after, changes_of(steps), budget=0.0)


def _replace_line(text: str, line: str, new: list[str]) -> tuple[str, list[tuple[int, int, int]]]:
    lines = text.split("\n")
    at = lines.index(line)
    after, steps = edited(lines, [(at, 1, new)])
    return "\n".join(after), steps


QUIET = {
    "a comment at a line end": ("    y = x + 7", ["    y = x + 7  # edit"]),
    "a comment line and a blank one": ("    y = x + 7", ["    # why", "", "    y = x + 7"]),
    "blanks at the line end": ("    y = x + 7", ["    y = x + 7   \t"]),
    "a docstring's text": ("    More text.", ["    Other text, 'quoted' # not a comment"]),
    "a bytes string's text, ASCII": ("    here\"\"\"", ['    there"""']),
    "a line removed from a docstring": ("    More text.", []),
}
LOUD = {
    "a backslash before the comment": ("    y = x + 7", ["    y = x + 7 \\  # edit"]),
    "code in place of a comment": ("    y = x + 7", ["    y = x + 7; z = 1"]),
    "a docstring closed early": ("    More text.", ['    More """ text.']),
    "an unknown escape name": ("    More text.", ["    \\N{NO SUCH NAME}"]),
    "non-ASCII in bytes": ("    here\"\"\"", ['    h\u00e9re"""']),
    "a NUL in a comment": ("    y = x + 7", ["    y = x + 7  # \x00"]),
    "a lone surrogate in a comment": ("    y = x + 7", ["    y = x + 7  # \udc80"]),
}


@pytest.mark.parametrize("name", sorted(QUIET))
def test_an_edit_of_what_the_parser_skips_is_proved_alone(name: str) -> None:
    line, new = QUIET[name]
    before = DOC + BODY
    after, steps = _replace_line(before, line, new)
    assert parses(after)
    assert _proved_without_regions(before, after, steps)


@pytest.mark.parametrize("name", sorted(LOUD))
def test_an_edit_the_parser_sees_is_not_proved_by_tokens(name: str) -> None:
    line, new = LOUD[name]
    before = DOC + BODY
    after, steps = _replace_line(before, line, new)
    assert not _proved_without_regions(before, after, steps)


def test_a_comment_in_an_f_string_s_braces_is_code() -> None:
    # The line is text of an f-string; "#" inside its braces is an error (3.11).
    before = 'x = f"""{\n    y\n}"""\n' + BODY
    after, steps = _replace_line(before, "    y", ["    y  # edit"])
    assert parses(before)
    assert not parses(after)
    assert not _proved_without_regions(before, after, steps)


def test_a_blank_line_after_a_backslash_ends_the_statement() -> None:
    before = "x = 1 + \\\n    2\n" + BODY
    lines = before.split("\n")
    after_lines, steps = edited(lines, [(1, 0, [""])])
    after = "\n".join(after_lines)
    assert not parses(after)
    assert not _proved_without_regions(before, after, steps)


def test_a_lone_carriage_return_ends_a_line_for_the_parser() -> None:
    # The tokenizer reads "\r" alone as a newline: the '"""' after it opens a string, and
    # "def g" is its text. The scans read line 1 as one comment; a '"""' added inside the
    # string's text (as a comment, to them) closes it early and leaves one that never ends.
    before = '# c\r"""\ndef g():\n    x = 1\n"""\n' + BODY
    after = before.replace("    x = 1\n", '    y = 2 # """\n')
    assert parses(before)
    assert not parses(after)
    assert not edits_parse_alone(before, after, changes_of([(3, 3, 0)]), budget=1.0)


def test_a_backslash_before_crlf_continues_the_string() -> None:
    # The tokenizer reads "\r\n" as "\n": the string opened on line 1 ends at the first
    # quote of line 2, and what follows is code and a comment. Read with the "\r" as the
    # escaped character, line 2 would be code and a string, and the "(" string text.
    body = BODY.replace("\n", "\r\n")
    before = 's = "a\\\r\nb" + 1 # "\r\n' + body
    after = before.replace('b" + 1 # "\r\n', 'b" + (1 # "\r\n', 1)
    assert parses(before)
    assert not parses(after)
    assert not edits_parse_alone(before, after, changes_of([(2, 2, 0)]), budget=1.0)
    quiet = before.replace('b" + 1 # "\r\n', 'b" + 1 # "  # fine\r\n', 1)
    assert _proved_without_regions(before, quiet, [(2, 2, 0)])


# -- properties ----------------------------------------------------------------------------

# Blocks that parse on their own (and so in any order): continuations, strings of every
# kind spanning lines, comments inside brackets.
BLOCKS = [
    ["x = 1 + \\", "    2"], ['s = """', "text {x} # not", '"""'], ["t = f'''{", "y", "}'''"],
    ["b = b'''", "bytes", "'''"], ["def f(x):", "    return x  # c"],
    ["y = (1,  # c", "     2)"], ["z = 'a\\", "b'"], ["# comment", ""], ["if z:", "    pass"],
    ["r = r'''\\N", "'''"], ["u = '''\\", "'''"], ["w = [", "", "    1,", "]"],
    ["class C:", '    """Doc."""', "    v = 1"], ["q = f'{1}' \\", "    'x'"],
]
blocks = st.lists(st.sampled_from(BLOCKS), max_size=10).map(lambda bs: [x for b in bs for x in b])
SUFFIXES = ["  # edit", " #", "  ", "\t", " \\", "\\", '"', "'", '"""', "'''", " # '''",
            "\\N{BOGUS}", "{", "}", "\u00e9", " # \\", "  #\\", "  # }", "\\x"]
INSERTS = ["", "# note", "    # note", "   ", '"""', "\\", "#", "  # '''", "}"]


@st.composite
def quiet_like(draw: st.DrawFn, base: list[str]) -> list[tuple[int, int, list[str]]]:
    """Edits that often keep the tokens: a suffix on a line (most often one with a quote,
    a backslash, a "#" or a brace), inserted comment or blank lines."""
    edits = []
    marked = [n for n, line in enumerate(base) if any(c in line for c in "\\\"'#{}")]
    for _ in range(draw(st.integers(1, 3))):
        if marked and draw(st.booleans()):
            at = draw(st.sampled_from(marked))
        else:
            at = draw(st.integers(0, max(len(base) - 1, 0)))
        if draw(st.booleans()) and base:
            line = base[min(at, len(base) - 1)]
            edits.append((at, 1, [line + draw(st.sampled_from(SUFFIXES))]))
        else:
            edits.append((at, 0, draw(st.lists(st.sampled_from(INSERTS), max_size=2))))
    return edits


@pytest.mark.slow
@settings(max_examples=400)
@given(data=st.data(), base=blocks, newline=st.sampled_from(["\n", "\r\n"]))
def test_a_yes_from_the_tokens_means_a_whole_parse_finds_nothing_new(
        data: st.DataObject, base: list[str], newline: str) -> None:
    edits = data.draw(quiet_like(base))
    lines, steps = edited(base, edits)
    before, after = newline.join(base) + newline, newline.join(lines) + newline
    assert parses(before)
    if _proved_without_regions(before, after, steps):
        assert parses(after)


@cache
def _stdlib(count: int = 12) -> list[list[str]]:
    """Lines of a few small real modules of this machine's standard library."""
    root = Path(sysconfig.get_paths()["stdlib"])
    out = []
    for path in sorted(root.glob("*.py")):
        text = path.read_text("utf-8", "replace")
        if 150 <= text.count("\n") <= 600 and parses(text):
            out.append(text.split("\n"))
        if len(out) >= count:
            break
    return out


@settings(max_examples=150, deadline=None)
@given(data=st.data(), which=st.integers(0, 11))
def test_on_real_files_a_yes_from_the_tokens_agrees_with_a_whole_parse(
        data: st.DataObject, which: int) -> None:
    files = _stdlib()
    base = files[which % len(files)]
    edits = data.draw(quiet_like(base))
    lines, steps = edited(base, edits)
    before, after = "\n".join(base), "\n".join(lines)
    if _proved_without_regions(before, after, steps):
        assert parses(after)


def test_on_real_files_most_comment_edits_are_proved_by_tokens() -> None:
    # Not a property of soundness: a check that the shortcut is taken at all.
    proved = 0
    for base in _stdlib():
        for at in range(5, len(base), 37):
            lines, steps = edited(base, [(at, 1, [base[at] + "  # edit"])])
            changes = changes_of(steps)
            before = "\n".join(base)
            proved += len(quiet_changes(base, lines, changes, _in_strings(before)))
    assert proved >= 100


CODE = ["    x = 1", "x = (", ")", '    """', "'''", "def g():", "    return 2", "    global q",
        "        nonlocal q", "    y = [", "    ]", "class K:", "if x:", "else:", "    pass",
        "z = 1 \\", "@dec", "    q = [(w := v) for v in r]", "    from m import *"]


@settings(max_examples=150, deadline=None)
@given(data=st.data(), which=st.integers(0, 11))
def test_on_real_files_tokens_and_regions_together_agree_with_a_whole_parse(
        data: st.DataObject, which: int) -> None:
    # Quiet edits mixed with code edits: the regions skip the quiet changes.
    files = _stdlib()
    base = files[which % len(files)]
    edits = data.draw(quiet_like(base))
    for _ in range(data.draw(st.integers(0, 2))):
        at = data.draw(st.integers(0, len(base) - 1))
        edits.append((at, data.draw(st.integers(0, 2)),
                      data.draw(st.lists(st.sampled_from(CODE), max_size=2))))
    lines, steps = edited(base, edits)
    before, after = "\n".join(base), "\n".join(lines)
    if edits_parse_alone(before, after, changes_of(steps), budget=1.0):
        assert parses(after)
