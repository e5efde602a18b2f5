"""FileState's whole-file scans done the cheap way give what the plain way gives: the
"clean" test (every "\\r" ends a line) looks for a "\\r" instead of counting them in an LF
file, a version made by an edit gives its text without decoding its bytes again, and the
decoded text is remembered by the bytes object, not its content."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.model.filestate import UTF8_BOM, FileState, _decode

PIECES = st.sampled_from(["a", "b c", "\r", "\n", "\r\n", "\x00", "\ufeff", "é", "", "  "])
TEXTS = st.lists(PIECES, max_size=30).map("".join)


def _clean_by_counting(state: FileState) -> bool:
    """The test as written before: both counts, whatever the line ending."""
    data = state.data
    body = data[len(UTF8_BOM):] if state.bom else data
    crs = data.count(b"\r\n") if state.newline == "\r\n" else 0
    return (not state.binary and state.eol != "mixed" and b"\x00" not in data
            and data.count(b"\r") == crs and not body.startswith(UTF8_BOM))


@settings(max_examples=300, deadline=None)
@given(TEXTS, st.booleans())
def test_clean_as_counting_says(text: str, bom: bool) -> None:
    state = FileState.from_bytes((UTF8_BOM if bom else b"") + text.encode("utf-8"))
    assert state._is_clean() is _clean_by_counting(state)


@settings(max_examples=200, deadline=None)
@given(st.lists(st.sampled_from(["x = 1", "", "  y", "é", "z\tw"]), min_size=1, max_size=40),
       st.sampled_from(["\n", "\r\n"]), st.booleans(), st.booleans(),
       st.lists(st.tuples(st.integers(0, 45), st.integers(0, 3),
                          st.lists(st.sampled_from(["new", "", "ü"]), max_size=3)),
                max_size=4),
       st.booleans())
def test_an_edited_versions_text_is_its_bytes_decoded(
        lines: list[str], newline: str, bom: bool, final: bool,
        edits: list[tuple[int, int, list[str]]], text_first: bool) -> None:
    data = (UTF8_BOM if bom else b"") + (newline.join(lines) + (newline if final else "")
                                          ).encode("utf-8")
    state = FileState.from_bytes(data)
    plain = state  # the same edits the plain way: the whole list through with_lines
    for at, width, new in edits:
        at = min(at, state.line_count)
        end = min(at + width, state.line_count)
        state = state.splice(at, end, new)
        plain = plain.with_lines([*plain.lines[:at], *new, *plain.lines[end:]])
    if text_first:
        text = state.text
        raw = state.data
    else:
        raw = state.data
        text = state.text
    assert text == raw.removeprefix(UTF8_BOM if state.bom else b"").decode("utf-8")
    assert text == FileState.from_bytes(raw).text
    assert state.text == text  # asked again: the same text
    assert text == plain.text


def test_the_decoded_text_is_remembered_for_the_same_bytes_object_alone() -> None:
    data = b"ab\ncd\n" * 3
    copy = bytes(bytearray(data))
    assert copy is not data
    first = _decode(data, False)
    assert _decode(data, False) is first
    assert _decode(copy, False) == first
    assert _decode(UTF8_BOM + data, True) == first
    marked = UTF8_BOM + data
    assert _decode(marked, False) == "\ufeff" + first  # the same object, read without BOM
    assert _decode(marked, True) == first
