"""The matcher's look for placeholders in REPLACE first asks the joined text whether any
line could be one (``markers.may_hold_placeholder``); when it says no, no line is one,
and the unpaired-placeholder refusal answers as the line-by-line test does."""

from __future__ import annotations

from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.match import elision
from reviewtui.core.match.elision import unpaired_placeholder
from reviewtui.core.text.markers import is_placeholder_at, may_hold_placeholder

LINES = st.sampled_from([
    "x = 1", "def f():", "    pass", "...", "    ...", "# ...", "\u2026", "// \u2026 existing",
    "# rest of the file unchanged", "# Rest Of Code", "// existing code here",
    "/* ... */", "# the other helpers", "print('rest of file unchanged')", "",
    "# keep the same as before", "x = ...  # elided", "\u0130 rest", "return old",
    "# not   shown", "# as   is", "# snip", "  # edit 7", "y = f(a, b)", "[...]",
    "--- omitted ---", "# remaining lines", "else:", "    # previous code",
])
PATHS = st.sampled_from(["", "a.py", "b.yaml", "c.js", "d.md"])


@settings(max_examples=400, deadline=None)
@given(st.lists(LINES, max_size=8), PATHS)
def test_no_line_is_a_placeholder_when_the_text_says_none_can_be(lines: list[str],
                                                                  path: str) -> None:
    if not may_hold_placeholder(lines):
        assert not any(is_placeholder_at(lines, at, path) for at in range(len(lines)))


@settings(max_examples=300, deadline=None)
@given(st.lists(LINES, min_size=1, max_size=6), st.lists(LINES, min_size=1, max_size=6),
       PATHS)
def test_the_refusal_is_as_line_by_line(search: list[str], replace: list[str],
                                        path: str) -> None:
    with_prefilter = unpaired_placeholder(search, replace, path)
    # The same refusal with the prefilter always saying "look": every line tested.
    with patch.object(elision, "may_hold_placeholder", lambda _lines: True):
        line_by_line = unpaired_placeholder(search, replace, path)
    assert with_prefilter == line_by_line


def test_ellipsis_and_cues_make_it_look() -> None:
    assert may_hold_placeholder(["x = 1", "# ..."])
    assert may_hold_placeholder(["\u2026"])
    assert may_hold_placeholder(["# the rest of it"])
    assert not may_hold_placeholder(["x = 1", "  # edit 7", "def f(a):"])
