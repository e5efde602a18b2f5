"""Patterns outside the File Ops grammar that a crafted line made slow, and their linear
replacements (the grammar's own are in ``test_grammar_linear.py``).

The old pattern is kept here as the oracle: on short generated lines both must give the same
result; the replacement must also read lines far longer than the old pattern could in a test
run (no clock is asserted: a quadratic reading simply would not finish)."""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.text.markers import without_comment_close

# core/text/markers.py before 2026-12-04: searched, quadratic in a run of blanks
# (8,000 spaces and an "x": 1.1 s; 200,000 would take about ten minutes).
OLD_COMMENT_CLOSE = re.compile(r"\s*(?:\*+/\}?|-->)$")

# The characters the pattern reads, a few others, and Unicode blanks.
_ALPHABET = st.sampled_from([" ", "\t", "\n", "\x0b", "\u2003", "\x1c", "*", "/", "}", "-",
                             ">", "<", "!", "a", "x", "#"])
_LINES = st.lists(_ALPHABET, max_size=40).map("".join)
_ENDINGS = st.sampled_from(["", "*/", "**/", "*/}", "-->", "--->", " */", "\t**/}\n", "/",
                            "}", "*", "->", "*/\n", "-->\n\n"])


@settings(max_examples=600, deadline=None)
@given(_LINES, _ENDINGS)
def test_comment_close_is_dropped_as_the_old_pattern_dropped_it(line: str, ending: str) -> None:
    text = line + ending
    assert without_comment_close(text) == OLD_COMMENT_CLOSE.sub("", text, count=1)


def test_comment_close_reads_a_crafted_line_in_linear_time() -> None:
    spaces = " " * 200_000
    assert without_comment_close(spaces + "x") == spaces + "x"
    assert without_comment_close(spaces + "x" + spaces + "**/") == spaces + "x"
    assert without_comment_close("*" * 200_000 + "/") == ""
    assert without_comment_close("<!--" + spaces + "-->") == "<!--"


# core/syntax/pytokens.py before 2026-12-04: a string's prefix (the word before its quote),
# searched: every start in a long run of word characters was tried to the run's end.
OLD_PREFIX = re.compile(r"\w*\Z")
_CODE = st.lists(st.sampled_from(["a", "_", "r", "b", "0", "\u00e9", "\u0663", " ", "\t",
                                  "(", "=", ".", "\n", "'"]), max_size=30).map("".join)


@settings(max_examples=600, deadline=None)
@given(_CODE)
def test_a_string_prefix_is_read_as_the_old_pattern_read_it(chunk: str) -> None:
    from reviewtui.core.syntax.pytokens import _PREFIX

    new, old = _PREFIX.search(chunk), OLD_PREFIX.search(chunk)
    assert new is not None
    assert old is not None
    assert new.span() == old.span()


def test_a_string_prefix_after_a_crafted_word_run_reads_in_linear_time() -> None:
    from reviewtui.core.syntax.pytokens import _PREFIX

    run = "a" * 200_000
    found = _PREFIX.search(run + " " + run + " x=" + "rb")
    assert found is not None
    assert found.group() == "rb"
