"""FileState.with_lines' fast path gives field for field what from_bytes gives."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from reviewtui.core.model.tree import FileState

chars = st.sampled_from(["a", "b", " ", "\r", "\x00", "\ufeff", "é", "\t"])
line = st.lists(chars, max_size=6).map("".join)


@given(base=st.lists(st.sampled_from([b"x", b"\r\n", b"\n", b"\xef\xbb\xbf", b"y\r"]),
                     max_size=8).map(b"".join),
       new=st.lists(line, max_size=6), final=st.none() | st.booleans())
def test_with_lines_equals_from_bytes(base: bytes, new: list[str], final: bool | None) -> None:
    state = FileState.from_bytes(base, mode=0o755)
    if state.binary:
        return
    try:
        got = state.with_lines(new, final_newline=final)
    except ValueError:
        return
    want = FileState.from_bytes(got.data, mode=0o755)
    fields = ("data", "bom", "eol", "newline", "final_newline", "mode", "binary")
    assert [getattr(got, f) for f in fields] == [getattr(want, f) for f in fields]
    if got is not state:
        assert got.revision == state.revision + 1
