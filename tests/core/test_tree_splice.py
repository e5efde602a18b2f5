"""FileState.splice: a version made by an edit shares lines with the one before, builds
its bytes lazily, and is field for field what from_bytes makes of those bytes."""

from __future__ import annotations

import pickle

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reviewtui.core.model.tree import FileState, Tree

chars = st.sampled_from(["a", "b", " ", "\r", "\n", "\x00", "\ufeff", "é", "\t", ""])
line = st.lists(chars, max_size=5).map("".join)
plain_line = line.filter(lambda text: "\n" not in text)
base_bytes = st.lists(st.sampled_from([b"x", b"\r\n", b"\n", b"\xef\xbb\xbf", b"y\r", b"z"]),
                      max_size=10).map(b"".join)
FIELDS = ("data", "bom", "eol", "newline", "final_newline", "mode", "binary", "lines", "text")


def _same_as_from_bytes(state: FileState) -> None:
    want = FileState.from_bytes(state.data, mode=state.mode)
    assert [getattr(state, f) for f in FIELDS] == [getattr(want, f) for f in FIELDS]


@given(base=base_bytes, edits=st.lists(
    st.tuples(st.integers(0, 12), st.integers(0, 3), st.lists(line, max_size=3),
              st.none() | st.booleans()), max_size=4))
def test_splice_equals_with_lines_and_from_bytes(
        base: bytes, edits: list[tuple[int, int, list[str], bool | None]]) -> None:
    state = FileState.from_bytes(base, mode=0o755)
    if state.binary:
        return
    for start, width, new, final in edits:
        start = min(start, len(state.lines))
        end = min(start + width, len(state.lines))
        spliced = [*state.lines[:start], *new, *state.lines[end:]]
        try:
            expected = state.with_lines(spliced, final_newline=final, span=(start, end))
        except ValueError:
            with pytest.raises(ValueError, match="newline|binary"):
                state.splice(start, end, new, final_newline=final)
            return
        got = state.splice(start, end, new, final_newline=final)
        assert got.data == expected.data
        assert (got == expected)
        assert (expected == got)
        assert hash(got) == hash(expected)
        _same_as_from_bytes(got)
        assert got.revision == (state.revision if got is state else state.revision + 1)
        state = got


@given(a=base_bytes, b=base_bytes, new=st.lists(plain_line, max_size=3))
def test_equality_is_equality_of_bytes_and_mode(a: bytes, b: bytes, new: list[str]) -> None:
    x = FileState.from_bytes(a)
    y = FileState.from_bytes(b)
    if x.binary or y.binary:
        return
    # Versions made by edits (their bytes not built yet) against the plain ones.
    x2 = x.splice(0, min(1, len(x.lines)), new)
    y2 = y.splice(0, min(1, len(y.lines)), new)
    for left in (x, x2):
        for right in (y, y2):
            fresh_l = FileState.from_bytes(left.data)
            fresh_r = FileState.from_bytes(right.data)
            assert (left == right) == (fresh_l.data == fresh_r.data)


def test_an_edit_shares_the_unchanged_lines_and_builds_no_bytes() -> None:
    base = FileState.from_bytes(b"".join(b"line %d\n" % i for i in range(1000)))
    edited = base.splice(500, 501, ["changed"])
    assert edited._data is None  # nothing built yet
    assert edited.lines[0] is base.lines[0]
    assert edited.lines[999] is base.lines[999]
    tree = Tree.from_files({"f": base}).set("f", edited)
    assert tree.get("f") is edited
    assert edited._data is None
    assert edited.data.count(b"\n") == 1000
    assert b"changed\n" in edited.data


def test_a_built_version_pickles_and_stays_immutable() -> None:
    edited = FileState.from_bytes(b"a\r\nb\r\n", mode=0o600).splice(1, 2, ["c"])
    again = pickle.loads(pickle.dumps(edited))
    assert again == edited
    assert again.data == b"a\r\nc\r\n"
    assert again.mode == 0o600
    with pytest.raises(AttributeError):
        edited.mode = 0o644  # type: ignore[misc]
