"""Whole-text scans skipped when a cheaper scan proves their answer: each shortcut against
the full computation it replaces, on texts made of the characters that matter."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.model.filestate import _line_endings
from reviewtui.core.syntax.pystrings import _add_continued


def _line_endings_slow(data: bytes) -> tuple[str, str]:
    crlf = data.count(b"\r\n")
    lf = data.count(b"\n") - crlf
    dominant = "\r\n" if crlf > lf else "\n"
    if crlf and lf:
        return "mixed", dominant
    return dominant, dominant


def _continued_slow(text: str) -> set[int]:
    """Lines (0-based) whose start follows a backslash right before a line end."""
    lines = text.split("\n")
    return {n + 1 for n, line in enumerate(lines[:-1])
            if line.endswith("\\") or line.endswith("\\\r")}


@settings(max_examples=300)
@given(st.binary().map(lambda b: bytes(b"a\r\n\x00"[x % 4] for x in b)))
def test_line_endings_without_a_carriage_return_need_no_count(data: bytes) -> None:
    assert _line_endings(data) == _line_endings_slow(data)


@settings(max_examples=300)
@given(st.text(alphabet="\\\r\n a"))
def test_continued_lines_without_a_carriage_return_need_one_scan(text: str) -> None:
    found: set[int] = set()
    _add_continued(text, found)
    assert found == _continued_slow(text)
