"""``FileState.text_unkept`` (what lint reads of every version): the very text, and no
copy of the bytes kept on a version made by an edit (lint over a 50,000-operation session
kept ~700 MB of them)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from reviewtui.core.model.filestate import FileState

line = st.sampled_from(["", "x = 1", "  y", "é", "a\tb", "z\r"])


@given(st.lists(line, max_size=12), st.sampled_from(["\n", "\r\n"]), st.booleans(),
       st.lists(line, max_size=4), st.data())
def test_the_text_without_keeping_the_bytes(lines: list[str], newline: str, final: bool,
                                            new: list[str], data: st.DataObject) -> None:
    text = newline.join(lines) + (newline if final and lines else "")
    base = FileState.from_bytes(text.encode())
    start = data.draw(st.integers(0, len(base.lines)))
    end = data.draw(st.integers(start, len(base.lines)))
    edited = base.splice(start, end, new)
    seen = edited.text_unkept()
    kept = edited._data  # what reading it left on the version
    assert seen == edited.text
    if kept is None:
        assert edited._data is not None  # (.text keeps them: the difference tested)
    assert base.text_unkept() == base.text


def test_a_spliced_version_keeps_no_bytes() -> None:
    base = FileState.from_bytes("".join(f"line {n}\n" for n in range(5000)).encode())
    edited = base.splice(10, 11, ["changed"])
    assert edited._data is None
    assert edited.text_unkept() == base.text.replace("line 10\n", "changed\n")
    assert edited._data is None


def test_a_binary_file_has_no_text() -> None:
    assert FileState.from_bytes(b"\x00\x01").text_unkept() is None
