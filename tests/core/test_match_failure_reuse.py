"""What the looser stages build for a failed edit serves the next failed edit of the same
file version (a diff whose hunks no longer apply: 121 refused hunks on a 28,000-line
``package-lock.json`` took 23 s, 3 s now), and the diagnosis's rare-word votes find a word
where ``\\b{word}\\b`` does, without the regex (a pass of it over the big file for each
refused hunk was most of that)."""

from __future__ import annotations

import itertools
import re

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.match.cascade import match_edit
from reviewtui.core.match.diagnose import _WORD, _whole_words, _window_text
from reviewtui.core.match.index import index_for
from reviewtui.core.model.chunks import ChunkedLines

# Word characters of several kinds (ASCII, accented, Arabic-Indic digit, underscore), the
# word's own pieces, and characters that are not word characters.
_PIECES = ["ab", "abc", "x", "_", "é", "٣", "1", " ", "-", ".", "\n", "\"", "ab_c"]
_WORDS = ["abc", "ab_c", "_ab", "abé"]


def _by_regex(text: str, word: str) -> list[int]:
    return [m.start() for m in re.finditer(rf"\b{re.escape(word)}\b", text)]


def test_every_short_text_gives_the_regex_positions() -> None:
    assert all(_WORD.fullmatch(word) for word in _WORDS)
    for count in range(5):
        for parts in itertools.product(_PIECES, repeat=count):
            text = "".join(parts)
            for word in _WORDS:
                assert list(_whole_words(text, word)) == _by_regex(text, word), (text, word)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(_PIECES), max_size=40).map("".join), st.sampled_from(_WORDS))
def test_longer_texts_give_the_regex_positions(text: str, word: str) -> None:
    assert list(_whole_words(text, word)) == _by_regex(text, word)


def test_a_version_s_window_is_joined_once_and_a_list_never_kept() -> None:
    lines = tuple(f"line {n}" for n in range(10))
    first = _window_text(lines, 2, 8)
    assert first.text == "\n".join(lines[2:8])
    assert first.line_starts() == [0, 7, 14, 21, 28, 35, 42]
    assert _window_text(lines, 2, 8) is first
    assert _window_text(lines, 0, 8) is not first
    mutable = list(lines)
    before = _window_text(mutable, 0, 3)
    mutable[1] = "changed"
    assert _window_text(mutable, 0, 3).text == "line 0\nchanged\nline 2"
    assert before.text == "line 0\nline 1\nline 2"


def test_a_version_s_index_serves_its_next_failed_edit_and_answers_alike() -> None:
    lines = tuple(f"    value_{n} = compute({n})" for n in range(3000))
    stored = ChunkedLines.from_lines(lines, size=64)
    for version in (lines, stored):
        index = index_for(version, 0, len(version))
        assert index_for(version, 0, len(version)) is index
        assert index_for(version, 10, len(version)) is not index
    assert index_for(list(lines), 0, 3000) is not index_for(list(lines), 0, 3000)
    # The same refused edits, on a version seen before and on a fresh copy: same answers.
    edits = [(("    value_7 = compute(8)",), ("    value_7 = 0",)),
             (("    value_x = compute(12)", "    value_13 = compute(13)"), ("gone",)),
             (("nothing like it",), ("x",))]
    for (search, replace), closest in zip(edits, (8, 13, None), strict=True):
        again = match_edit(lines, search, replace)
        fresh = match_edit(tuple(list(lines)), search, replace)
        assert again == fresh
        assert again.status.name == "NOT_FOUND"
        assert (again.candidates[0].start if again.candidates else None) == closest
