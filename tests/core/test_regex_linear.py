"""Patterns outside the File Ops grammar that a crafted line made slow, and their linear
replacements (the grammar's own are in ``test_grammar_linear.py``).

The old pattern is kept here as the oracle: on short lines both must give the same result --
every line of up to a few of the pattern's own pieces, then longer generated mixes -- and the
replacement must also read lines far longer than the old pattern could in a test run (no
clock is asserted: a quadratic reading simply would not finish).

(The short lines are enumerated, not drawn: all of them cost less than a few hundred
generated examples, and a difference between two patterns shows on a short line; the
generated ones, fewer, cover longer mixes.)"""

from __future__ import annotations

import itertools
import re
from collections.abc import Iterator

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.text.markers import without_comment_close

# Whitespace of several kinds (``\s`` reads them all) and the newline where it can occur.
_BLANKS = [" ", " ", "\t", "\x0b", "\x1c", "\x85", "\u2003", "\r"]
_LONG = 200_000


def _reading(m: re.Match[str] | None) -> tuple[tuple[int, int], tuple[str | None, ...]] | None:
    return None if m is None else (m.span(), m.groups())


def _text(pieces: list[str], max_size: int = 24) -> st.SearchStrategy[str]:
    return st.lists(st.sampled_from(pieces), max_size=max_size).map("".join)


def _every(pieces: list[str], most: int = 4) -> Iterator[str]:
    """Every text made of at most ``most`` of ``pieces``, each text once."""
    unique = list(dict.fromkeys(pieces))
    seen: set[str] = set()
    for count in range(most + 1):
        for parts in itertools.product(unique, repeat=count):
            text = "".join(parts)
            if text not in seen:
                seen.add(text)
                yield text


_GENERATED = 150  # longer mixes per property, after every short line


# core/text/markers.py before 2026-12-04: searched, quadratic in a run of blanks
# (8,000 spaces and an "x": 1.1 s; 200,000 would take about ten minutes).
OLD_COMMENT_CLOSE = re.compile(r"\s*(?:\*+/\}?|-->)$")

# The characters the pattern reads, a few others, and Unicode blanks.
_LINE_PIECES = ["\n", "*", "/", "}", "-", ">", "<", "!", "a", "x", "#", *_BLANKS]
_LINES = _text(_LINE_PIECES, 40)
_ENDING_LIST = ["", "*/", "**/", "*/}", "-->", "--->", " */", "\t**/}\n", "/", "}", "*", "->",
                "*/\n", "-->\n\n"]
_ENDINGS = st.sampled_from(_ENDING_LIST)


def _check_comment_close(text: str) -> None:
    assert without_comment_close(text) == OLD_COMMENT_CLOSE.sub("", text, count=1), text


def test_comment_close_is_dropped_as_the_old_pattern_dropped_it_on_every_short_line() -> None:
    for line in _every(_LINE_PIECES, 3):
        for ending in _ENDING_LIST:
            _check_comment_close(line + ending)


@settings(max_examples=_GENERATED, deadline=None)
@given(_LINES, _ENDINGS)
def test_comment_close_is_dropped_as_the_old_pattern_dropped_it(line: str, ending: str) -> None:
    _check_comment_close(line + ending)


def test_comment_close_reads_a_crafted_line_in_linear_time() -> None:
    spaces = " " * _LONG
    assert without_comment_close(spaces + "x") == spaces + "x"
    assert without_comment_close(spaces + "x" + spaces + "**/") == spaces + "x"
    assert without_comment_close("*" * _LONG + "/") == ""
    assert without_comment_close("<!--" + spaces + "-->") == "<!--"


# core/syntax/pytokens.py before 2026-12-04: a string's prefix (the word before its quote),
# searched: every start in a long run of word characters was tried to the run's end.
OLD_PREFIX = re.compile(r"\w*\Z")
_CODE_PIECES = ["a", "_", "r", "b", "0", "\u00e9", "\u0663", " ", "\t", "(", "=", ".", "\n",
                "'"]
_CODE = _text(_CODE_PIECES, 30)


def _check_prefix(chunk: str) -> None:
    from reviewtui.core.syntax.pytokens import _PREFIX

    found = _reading(_PREFIX.search(chunk))
    assert found is not None  # (\w* always matches)
    assert found == _reading(OLD_PREFIX.search(chunk)), chunk


def test_a_string_prefix_is_read_as_the_old_pattern_read_it_on_every_short_chunk() -> None:
    for chunk in _every(_CODE_PIECES):
        _check_prefix(chunk)


@settings(max_examples=_GENERATED, deadline=None)
@given(_CODE)
def test_a_string_prefix_is_read_as_the_old_pattern_read_it(chunk: str) -> None:
    _check_prefix(chunk)


def test_a_string_prefix_after_a_crafted_word_run_reads_in_linear_time() -> None:
    from reviewtui.core.syntax.pytokens import _PREFIX

    run = "a" * _LONG
    found = _PREFIX.search(run + " " + run + " x=" + "rb")
    assert found is not None
    assert found.group() == "rb"


# --- The sweep of bench/redos.py (2026-12-04): each old pattern verbatim, then its test. ---
# core/text/hashline.py: "1", 8,000 spaces and "x" took 0.43 s (the runs around the tag).
# (Since QA pass 84a a line number is ASCII digits: "٣" or a fullwidth "２" is no line 3 or
# 2. The oracle reads that too; "٣" among the pieces checks it.)
OLD_REF = re.compile(r"^\s*(?P<n>[0-9]+)\s*(?::\s*(?P<tag>[0-9A-Fa-f]+))?\s*$")


_REF_PIECES = ["1", "0", "٣", ":", "a", "F", "g", "x", "\n", *_BLANKS]


def _check_ref(text: str) -> None:
    from reviewtui.core.text.hashline import _REF_RE

    assert _reading(_REF_RE.match(text)) == _reading(OLD_REF.match(text)), text


def test_a_line_reference_is_read_as_the_old_pattern_read_it_on_every_short_line() -> None:
    for text in _every(_REF_PIECES):
        _check_ref(text)


@settings(max_examples=_GENERATED, deadline=None)
@given(_text(_REF_PIECES))
def test_a_line_reference_is_read_as_the_old_pattern_read_it(text: str) -> None:
    _check_ref(text)


def test_a_line_reference_reads_a_crafted_line_in_linear_time() -> None:
    from reviewtui.core.text.hashline import _REF_RE, parse_ref

    spaces = " " * _LONG
    assert _REF_RE.match("1" + spaces + "x") is None
    assert _REF_RE.match("1" + spaces + ":" + spaces + "x") is None
    assert str(parse_ref(spaces + "12" + spaces + ":" + spaces + "a3" + spaces)) == "12:a3"


# core/importers/aider_outcomes.py: a name followed by 8,000 spaces and a character took
# 0.39 s (the lazy name tried every end in the run, each reading the rest of it).
OLD_SKIP = re.compile(r"^> Skipping edits to (.+?)\s*$")


_SKIP_HEADS = ["> Skipping edits to ", "> Skipping edits to", "> Skip", ""]
_SKIP_PIECES = ["a", "x", ".", "/", "\n", *_BLANKS]


def _check_skip(line: str) -> None:
    from reviewtui.core.importers.aider_outcomes import SKIP_LINE

    assert _reading(SKIP_LINE.match(line)) == _reading(OLD_SKIP.match(line)), line


def test_a_skipped_file_line_is_read_as_the_old_pattern_read_it_on_every_short_line() -> None:
    for rest in _every(_SKIP_PIECES):
        for head in _SKIP_HEADS:
            _check_skip(head + rest)


@settings(max_examples=_GENERATED, deadline=None)
@given(st.sampled_from(_SKIP_HEADS), _text(_SKIP_PIECES))
def test_a_skipped_file_line_is_read_as_the_old_pattern_read_it(head: str, rest: str) -> None:
    _check_skip(head + rest)


def test_a_skipped_file_line_reads_a_crafted_line_in_linear_time() -> None:
    from reviewtui.core.importers.aider_outcomes import SKIP_LINE

    spaces = " " * _LONG
    found = SKIP_LINE.match("> Skipping edits to a" + spaces + "b" + spaces)
    assert found is not None
    assert found.group(1) == "a" + spaces + "b"
    assert SKIP_LINE.match("> Skipping edits to a" + spaces + "\n" + spaces + "b") is None


def test_a_failed_block_line_reads_a_crafted_line_in_linear_time() -> None:
    from reviewtui.core.importers.aider_outcomes import FAILED_LINE

    spaces = " " * _LONG
    head = "> ## SearchReplaceNoExactMatch: This SEARCH block failed to exactly match lines in "
    found = FAILED_LINE.match(head + "a" + spaces + "b" + spaces)
    assert found is not None
    assert found.group(1) == "a" + spaces + "b"
    assert FAILED_LINE.match(head + "a" + spaces + "\n" + spaces + "b") is None


def test_aiders_dry_run_and_applied_lines_read_a_crafted_line_in_linear_time() -> None:
    from reviewtui.core.importers.aider_outcomes import APPLIED_LINE, DRY_LINE

    spaces = " " * _LONG
    found = DRY_LINE.match("> Did not apply edit to a" + spaces + "b (--dry-run)" + spaces)
    assert found is not None
    assert found.group(1) == "a" + spaces + "b"
    assert DRY_LINE.match("> Did not apply edit to a" + spaces + "b" + spaces) is None
    found = APPLIED_LINE.match("> Applied edit to a" + spaces + "b" + spaces)
    assert found is not None
    assert found.group(1) == "a" + spaces + "b"


def test_a_shell_command_is_read_in_linear_time() -> None:
    from reviewtui.core.importers.claude import _CHANGING_SHELL

    for crafted in ("a=" * _LONG, " " * _LONG + "x", "2>" * _LONG, "find " + "a " * _LONG,
                    ";find " * _LONG, "find -" * _LONG, "sudo " * _LONG):
        assert _CHANGING_SHELL.search(crafted) is None, crafted[:20]
    assert _CHANGING_SHELL.search("x=1 " * _LONG + "rm f") is not None


# core/syntax/symbols.py: substituted, "\s+do" tried every start in a run of blanks
# (8,000 spaces: 0.20 s).
OLD_DO = re.compile(r"\s+do\b.*$")


_DO_PIECES = ["do", "d", "o", "x", "_", "\n", " do", *_BLANKS]


def _check_do(head: str) -> None:
    from reviewtui.core.syntax.symbols import _DO

    assert [m.span() for m in _DO.finditer(head)] == [m.span() for m in OLD_DO.finditer(head)]
    assert _DO.sub("", head) == OLD_DO.sub("", head), head


def test_a_do_block_is_cut_as_the_old_pattern_cut_it_on_every_short_line() -> None:
    for head in _every(_DO_PIECES):
        _check_do(head)


@settings(max_examples=_GENERATED, deadline=None)
@given(_text(_DO_PIECES))
def test_a_do_block_is_cut_as_the_old_pattern_cut_it(head: str) -> None:
    _check_do(head)


def test_a_do_block_reads_a_crafted_line_in_linear_time() -> None:
    from reviewtui.core.syntax.symbols import _DO

    spaces = " " * _LONG
    assert _DO.sub("", "defmodule A" + spaces + "x") == "defmodule A" + spaces + "x"
    assert _DO.sub("", "defmodule A" + spaces + "do" + spaces) == "defmodule A"


# core/syntax/pyregions.py: "class A", 8,000 tabs and "x" took 0.17 s (fullmatch).
OLD_CLASS_HEAD = re.compile(r"[ \t]*class[ \t]+\w+[ \t]*(?:\([^()'\"#\\]*\))?[ \t]*:[ \t]*\r?")


_TABS = st.text(alphabet=st.sampled_from([" ", "\t"]), max_size=3)
# A header's parts in order, each maybe missing or wrong; or any mix of its characters.
_HEADS = ["class A", " class A", "\tclass B_1", "class", "klass A"]
_BASES = ["", "()", "(B)", "(B, C)", "(", "(#)", "(()"]
_COLONS = ["", ":", "x", "::"]
_ENDS = ["", "\r", "\n", "x", "\r\n"]
_MIX_HEADS = ["class A", " class A", "class", ""]
_MIX = [" ", "\t", "(", ")", ":", "\r", "'", "#", "x", ",", "\\", "\n"]
_CLASS_LINES = st.one_of(
    st.tuples(st.sampled_from(_HEADS), _TABS, st.sampled_from(_BASES), _TABS,
              st.sampled_from(_COLONS), _TABS, st.sampled_from(_ENDS)).map("".join),
    st.tuples(st.sampled_from(_MIX_HEADS), _text(_MIX, 12)).map("".join))


def _check_class_head(line: str) -> None:
    from reviewtui.core.syntax.pyregions import _CLASS_HEAD

    assert _reading(_CLASS_HEAD.fullmatch(line)) == _reading(
        OLD_CLASS_HEAD.fullmatch(line)), line


def test_a_class_header_is_read_as_the_old_pattern_read_it_on_every_short_line() -> None:
    tabs = ["", " ", "\t", " \t", "\t\t"]
    for parts in itertools.product(_HEADS, tabs, _BASES, tabs, _COLONS, tabs, _ENDS):
        _check_class_head("".join(parts))
    for rest in _every(_MIX, 4):
        for head in _MIX_HEADS:
            _check_class_head(head + rest)


@settings(max_examples=_GENERATED, deadline=None)
@given(_CLASS_LINES)
def test_a_class_header_is_read_as_the_old_pattern_read_it(line: str) -> None:
    _check_class_head(line)


def test_a_class_header_reads_a_crafted_line_in_linear_time() -> None:
    from reviewtui.core.syntax.pyregions import _CLASS_HEAD

    tabs = "\t" * _LONG
    assert _CLASS_HEAD.fullmatch("class A" + tabs + "x") is None
    assert _CLASS_HEAD.fullmatch("class A" + tabs + "(B)" + tabs + ":" + tabs) is not None


# core/review/diagnostics.py: searched, the leading "\s*" tried every start in a run of
# blanks (8,000: 0.24 s).
OLD_TOML_AT = re.compile(r"\s*\(at line (\d+), column (\d+)\)$")
OLD_TOML_END = re.compile(r"\s*\(at end of document\)$")


_TOML_PIECES = ["(at line 1, column 2)", "(at line ", "1", ", column ", ")", "x", "\n",
                "(at end of document)", "(at end", *_BLANKS]


def _check_toml(message: str) -> None:
    from reviewtui.core.review.diagnostics import TOML_AT, TOML_END

    assert _reading(re.search(TOML_AT, message)) == _reading(OLD_TOML_AT.search(message))
    assert _reading(re.search(TOML_END, message)) == _reading(
        OLD_TOML_END.search(message)), message


def test_a_toml_position_is_read_as_the_old_patterns_read_it_in_every_short_message() -> None:
    for message in _every(_TOML_PIECES):
        _check_toml(message)


@settings(max_examples=_GENERATED, deadline=None)
@given(_text(_TOML_PIECES))
def test_a_toml_position_is_read_as_the_old_patterns_read_it(message: str) -> None:
    _check_toml(message)


def test_a_toml_position_reads_a_crafted_message_in_linear_time() -> None:
    from reviewtui.core.review.diagnostics import TOML_AT, TOML_END

    spaces = " " * _LONG
    assert re.search(TOML_AT, "x" + spaces + "(at line 1, x") is None
    assert re.search(TOML_END, "x" + spaces + "(at end of x") is None
    found = re.search(TOML_AT, "x" + spaces + "(at line 3, column 4)")
    assert found is not None
    assert (found.start(), found.groups()) == (1, ("3", "4"))


# core/protocol/config.py: runs one digit short of the bound, each start scanned to the
# run's end. The property uses a bound of 3 (giant_number's own), the old pattern with it.
_NUMBER_PIECES = ["1", "_", "٣", "x", " ", "\n"]


def _check_giant(text: str, digits: int) -> None:
    from reviewtui.core.protocol.config import giant_number

    old = re.search(rf"[\d_]{{{digits},}}", text)
    assert _reading(giant_number(text, digits)) == _reading(old), (text, digits)


def test_a_giant_number_is_found_where_the_old_pattern_found_it_in_every_short_text() -> None:
    for text in _every(_NUMBER_PIECES, 6):
        for digits in range(1, 5):
            _check_giant(text, digits)


@settings(max_examples=_GENERATED, deadline=None)
@given(_text(_NUMBER_PIECES), st.integers(1, 4))
def test_a_giant_number_is_found_where_the_old_pattern_found_it(text: str, digits: int) -> None:
    _check_giant(text, digits)


def test_a_giant_number_is_found_in_linear_time() -> None:
    from reviewtui.core.protocol.config import giant_number

    short = ("1" * 4_299 + "x") * 50  # old: 50 runs x 4,299 starts x ~2,150 steps
    assert giant_number(short) is None
    found = giant_number(short + "2" * 4_300)
    assert found is not None
    assert found.span() == (len(short), len(short) + 4_300)


# core/importers/aider.py: with re.MULTILINE "^\s*" spanned lines, and every line's start in
# a run of blank lines read the rest of the run (8,000 newlines: 0.37 s). The new pattern's
# match may start later (at the marker's own line); looks_like_aider only asks whether there
# is one, and that is compared.
OLD_MARKER_LINE = re.compile(r"^\s*<{5,9} SEARCH>?\s*$", re.MULTILINE)


_MARKER_PIECES = ["<<<<<", "<", "<<<<<<< SEARCH", " SEARCH", "SEARCH", ">", "x", "\n", "\n",
                  "\u2028", *_BLANKS]


def _check_marker(text: str) -> None:
    from reviewtui.core.importers.aider import MARKER_LINE, looks_like_aider

    new = re.search(MARKER_LINE, text, re.MULTILINE)
    assert (new is not None) == (OLD_MARKER_LINE.search(text) is not None), text
    session = "#### do it\n" + text
    assert looks_like_aider(session) == (OLD_MARKER_LINE.search(session) is not None), text


def test_a_search_marker_line_is_found_where_the_old_pattern_found_one_in_short_texts() -> None:
    for text in _every(_MARKER_PIECES):
        _check_marker(text)


@settings(max_examples=_GENERATED, deadline=None)
@given(_text(_MARKER_PIECES))
def test_a_search_marker_line_is_found_where_the_old_pattern_found_one(text: str) -> None:
    _check_marker(text)


def test_a_search_marker_line_is_looked_for_in_linear_time() -> None:
    from reviewtui.core.importers.aider import looks_like_aider

    blank = "#### do it\n" + " \n" * _LONG
    assert not looks_like_aider(blank + "x")
    assert looks_like_aider(blank + " <<<<<<< SEARCH \n")


# core/agent/outline.py: a line of "<a<a<a..." made every "<a" read to the line's end
# (8,000 characters: 0.39 s). Only whether a line has a match is used, and compared.
OLD_HTML_ID = re.compile(r"<[a-zA-Z][^>]*\bid=\"[^\"]+\"")


_TAG_PIECES = ["<", ">", "a", "<a ", "id=", 'id="x"', '"', " ", "x", "_", "-", "<!", "\n"]


def _check_tag(line: str) -> None:
    from reviewtui.core.agent.outline import HTML_ID

    assert (re.search(HTML_ID, line) is not None) == (
        OLD_HTML_ID.search(line) is not None), line


def test_a_tag_with_an_id_is_found_where_the_old_pattern_found_one_on_every_short_line() -> None:
    for line in _every(_TAG_PIECES):
        _check_tag(line)


@settings(max_examples=_GENERATED, deadline=None)
@given(_text(_TAG_PIECES))
def test_a_tag_with_an_id_is_found_where_the_old_pattern_found_one(line: str) -> None:
    _check_tag(line)


def test_a_tag_with_an_id_is_looked_for_in_linear_time() -> None:
    from reviewtui.core.agent.outline import _PATTERNS

    (pattern,) = _PATTERNS["html"]  # (used when the syntax tree cannot be read)
    crafted = "<a" * (_LONG // 2)
    assert pattern.search(crafted) is None
    assert pattern.search(crafted + ' id="' + "x" * _LONG) is None  # never closed
    assert pattern.search(crafted + '<b id="main">') is not None
