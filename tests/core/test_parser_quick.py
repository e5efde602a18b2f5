"""The reply parser's shortcut for common file blocks (core/protocol/quick.py) reads every
reply exactly as the general reading does.

Each property parses the same lines twice -- with the shortcut, and with it turned off (it
then gives every block to ``_ReplyParser._file_block``) -- and compares the whole ``Reply``
or ``Session`` records: every block, operation, span, stray run and problem. The replies
are mostly the shortcut's own shape (so it is taken), with near-misses put where it must
give up: inside SEARCH and REPLACE bodies, between edits, after labels, at the end.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.model.records import Edit, FileBlock, Reply, Session, Span
from reviewtui.core.protocol import quick, reply
from reviewtui.core.protocol.reply import parse_reply, split_lines
from reviewtui.core.protocol.session import parse_markdown_session

# Lines that look like grammar from a body, near-misses of it, and plain code.
NEAR = [
    "--- File: x.py ---", "  --- File: y.py ---", "--- File:  ---", "---", "-- File: a ---",
    "- item", "-x", "--", "<<<<<<< SEARCH", " <<<<<<< SEARCH", "<<<<<<<SEARCH", "<<<< SEARCH",
    "<<", "<div>", "=======", "  =======", "====", "======= x", "==", ">>>>>>> REPLACE",
    " >>>>>>> REPLACE", ">>>>>>>REPLACE", ">>> REPLACE", "> quote", ">>",
    "### Changed files:", "  ## changed files", "# comment", "    # indented comment", "#",
    "```", "```console", "~~~", "  ```python", "`x`", "Edit 1", "**Edit 2**", "Edit 3 @ 1-2",
    "Edits", "*args", "Exception()", "Need: a.py", ":rm a.py", "", " ", "\t", "x = 1",
    "    return x", "\u2028", "\x1c", "\u3000x", "\f", "\ufeff",
]
CODE = st.text(alphabet=st.sampled_from(list(" \t#-=<>`~:E*x")), max_size=6)
# The lines the shortcut must give up at, drawn as often as all the near-misses together.
MARKERS = st.sampled_from(["<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE", "```",
                           "--- File: x.py ---", "### Changed files:", "Edit 1"])
BODY_LINE = st.one_of(st.sampled_from(["x = 1", "    y()", "    # keep", "", "pass"]),
                      MARKERS, MARKERS, st.sampled_from(NEAR), CODE)
PLAIN_LINE = st.sampled_from(["x = 1", "    y()", "    # keep", "", "pass", "- a", "# b"])
# A fenced console block ends a file block's content wherever it stands.
CONSOLE = st.sampled_from([["```", ":rm a.py", "```"], ["~~~ sh", "", ":mv a b", "~~~"],
                           ["```console", ":rm a.py"], ["```text", "x", "```"]])
BODY = st.lists(st.one_of(BODY_LINE.map(lambda line: [line]), BODY_LINE.map(lambda line: [line]),
                          CONSOLE), max_size=4).map(
    lambda chunks: [line for chunk in chunks for line in chunk])


# replies()'s choices, each strategy made once (a strategy made at each draw is built
# and validated again every time); the draws are the same.
INTRO = st.lists(st.sampled_from(["Intro.", "", "- note"]), max_size=2)
HEADERS = st.sampled_from(["--- File: a.py ---", "--- File: src/b.py ---",
                           "  --- File: c.py  ---", "--- File:  ---"])
LABELS = st.sampled_from([None, None, "Edit 1", "**Edit 2**", "Edit 3 @ 1-2"])
BODIES = st.sampled_from([st.lists(PLAIN_LINE, max_size=4), BODY, BODY])
ACTIONS = st.sampled_from(["drop", "dup", "insert", "replace"])
UP_TO = {n: st.integers(0, n) for n in (1, 2, 3)}
FILES_IN_REPLY = st.integers(1, 4)


@st.composite
def replies(draw: st.DrawFn) -> list[str]:
    """File blocks of SEARCH/REPLACE edits (mostly well-formed), then a few mutations."""
    lines: list[str] = []
    if draw(st.booleans()):
        lines += draw(INTRO)
    for _ in range(draw(FILES_IN_REPLY)):
        lines.append(draw(HEADERS))
        lines += [""] * draw(UP_TO[1])
        for _ in range(draw(UP_TO[3])):
            label = draw(LABELS)
            if label is not None:
                lines.append(label)
                lines += [""] * draw(UP_TO[1])
            body = draw(BODIES)
            lines += ["<<<<<<< SEARCH", *draw(body), "=======", *draw(body),
                      ">>>>>>> REPLACE"]
            lines += [""] * draw(UP_TO[2])
    if draw(st.booleans()):
        lines += ["### Changed files:", "- a.py", ""]
    for _ in range(draw(UP_TO[3])):
        if not lines:
            break
        i = draw(st.integers(0, len(lines) - 1))
        action = draw(ACTIONS)
        if action == "drop":
            del lines[i]
        elif action == "dup":
            lines.insert(i, lines[i])
        elif action == "insert":
            lines.insert(i, draw(BODY_LINE))
        else:
            lines[i] = draw(BODY_LINE)
    return lines


def _general_only() -> Any:
    """Only the general reading, within the ``with``: the shortcut gives up every block."""
    return patch.object(reply, "quick_blocks", lambda *args: -1)


def _both(read: Callable[[], object]) -> tuple[object, object]:
    """``read()`` with the shortcut, then without it."""
    fast = read()
    with _general_only():
        slow = read()
    return fast, slow


@pytest.mark.slow
@settings(max_examples=500, deadline=None)
@given(replies(), st.data())
def test_replies_read_as_the_general_reading_reads_them(lines: list[str],
                                                        data: st.DataObject) -> None:
    fast, slow = _both(lambda: parse_reply(lines))
    assert fast == slow
    # A slice of a longer list (an importer's reply, a session's turn).
    start = data.draw(st.integers(0, len(lines)))
    end = data.draw(st.integers(start, len(lines)))
    fast, slow = _both(lambda: parse_reply(lines, start, end))
    assert fast == slow


@pytest.mark.slow
@settings(max_examples=200, deadline=None)
@given(st.lists(replies(), min_size=1, max_size=3), st.sampled_from(["\n", "\r\n"]))
def test_sessions_read_as_the_general_reading_reads_them(turns: list[list[str]],
                                                         ending: str) -> None:
    lines = ["# Session: quick", ""]
    for n, turn in enumerate(turns, start=1):
        lines += [f"## Turn {n}", "> edit it", "", *turn]
    text = ending.join(lines) + ending
    fast, slow = _both(lambda: parse_markdown_session(text))
    assert isinstance(fast, Session)
    assert fast == slow


def _taken(lines: list[str]) -> list[int]:
    """The header lines (0-based) the general reading was given."""
    given_up: list[int] = []
    original = reply._ReplyParser._file_block

    def spy(parser: reply._ReplyParser, i: int, end: int, path: str) -> int:
        given_up.append(i)
        return original(parser, i, end, path)

    with patch.object(reply._ReplyParser, "_file_block", spy):
        parse_reply(lines)
    return given_up


COMMON = split_lines("""--- File: a.py ---
<<<<<<< SEARCH
    # keep
    x = 1
=======
    # keep
    x = 2
>>>>>>> REPLACE

Edit 2
<<<<<<< SEARCH
- y
=======
>>>>>>> REPLACE
--- File: src/b.py ---

<<<<<<< SEARCH
=======
z
>>>>>>> REPLACE


### Changed files:
- a.py
""")


def test_the_common_shape_takes_the_shortcut_and_reads_right() -> None:
    assert _taken(COMMON) == []
    parsed = parse_reply(COMMON)
    assert parsed.problems == ()
    assert parsed.stray == ()
    first, second = parsed.blocks
    assert first == FileBlock("a.py", Span(1, 1), Span(1, 14), (
        Edit("a.py", 1, None, ("    # keep", "    x = 1"), ("    # keep", "    x = 2"),
             Span(2, 8), Span(2, 5), Span(5, 8)),
        Edit("a.py", 2, 2, ("- y",), (), Span(10, 14), Span(11, 13), Span(13, 14))))
    assert second == FileBlock("src/b.py", Span(15, 15), Span(15, 20), (
        Edit("src/b.py", 1, None, (), ("z",), Span(17, 20), Span(17, 18), Span(18, 20)),))
    assert parsed.footer is not None
    assert [e.path for e in parsed.footer.entries] == ["a.py"]


@pytest.mark.parametrize(("at", "line"), [
    (2, "--- File: c.py ---"),  # a header inside SEARCH: the edit is left open
    (2, "### Changed files:"),  # a footer inside SEARCH
    (3, "```console"),  # a fence inside SEARCH
    (6, "<<<<<<< SEARCH"),  # a second SEARCH inside REPLACE
    (2, ">>>>>>> REPLACE"),  # REPLACE before the divider
    (8, "stray prose"),  # prose after an edit
    (8, "Edit 5 @ 3-4"),  # a line-range label
    (14, "======="),  # a stray marker
    (6, "======="),  # a second divider: the edit has two readings (QA s47 helper-147 H6)
])
def test_anything_else_is_given_to_the_general_reading(at: int, line: str) -> None:
    lines = [*COMMON[:at], line, *COMMON[at:]]
    assert 0 in _taken(lines)
    fast, slow = _both(lambda: parse_reply(lines))
    assert isinstance(fast, Reply)
    assert fast == slow


def test_an_empty_header_path_is_worded_by_the_general_reading() -> None:
    lines = ["--- File:  ---", "<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE"]
    assert [p.rule for p in parse_reply(lines).problems] == ["header-without-path"]
    assert quick.quick_blocks(lines, reply.line_signature(lines), 0, 0, 4, "", []) == -1


def test_every_near_miss_at_every_place_reads_as_the_general_reading() -> None:
    """Each grammar-like line put in, and put instead, at every line of the common shape
    (what the generated replies reach only by chance, tried one by one)."""
    for line in [*NEAR, "```text", "~~~ sh", ":rm a.py"]:
        for at in range(len(COMMON) + 1):
            for lines in ([*COMMON[:at], line, *COMMON[at:]],
                          [*COMMON[:at], line, *COMMON[at + 1:]]):
                fast = parse_reply(lines)
                with _general_only():
                    assert fast == parse_reply(lines), (at, line)
