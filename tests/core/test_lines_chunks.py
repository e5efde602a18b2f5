"""The chunked line store against a plain tuple model: splices, look-ups, equality, the
exact scan, and FileState's text round trip (CRLF, BOM, no final newline) through it.

Chunk sizes are shrunk (1 to 5 lines) so that a few dozen lines span many chunks, and
the look-up threshold with them, so every path (scanned chunks, chunks with a set, a
range across chunks, merged and split chunks) is taken by small examples.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from unittest import mock

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.match.cascade import match_edit
from reviewtui.core.match.exact import _scan, find_exact, found_elsewhere
from reviewtui.core.model import chunks as chunks_module
from reviewtui.core.model.chunks import ChunkedLines
from reviewtui.core.model.filestate import FileState

# Few distinct lines, so that look-ups hit, repeat and overlap.
words = st.sampled_from(["a", "b", "c", "", "  d", "e e"])
line_lists = st.lists(words, max_size=40)
sizes = st.integers(1, 5)


@st.composite
def splices(draw: st.DrawFn, length: int) -> tuple[int, int, list[str]]:
    start = draw(st.integers(0, length))
    end = draw(st.integers(start, length))
    return start, end, draw(st.lists(words, max_size=12))


@contextmanager
def small_chunks(size: int) -> Iterator[None]:
    """FileState builds its stores with the default size: shrink it for the test."""
    with mock.patch.object(chunks_module, "CHUNK", size), \
            mock.patch.object(chunks_module, "LOOKUP_FROM", 2):
        yield


def check_against(store: ChunkedLines, model: Sequence[str], size: int) -> None:
    """Everything a reader can ask agrees with the tuple, and the chunks are sound."""
    model = tuple(model)
    assert len(store) == len(model)
    assert tuple(store) == model
    assert store.as_tuple() == model
    assert tuple(reversed(store)) == model[::-1]
    assert [store[i] for i in range(-len(model), len(model))] == [
        model[i] for i in range(-len(model), len(model))]
    for bad in (len(model), -len(model) - 1):
        with pytest.raises(IndexError):
            store[bad]
    for lo in range(-2, len(model) + 2, 3):
        for hi in range(lo, len(model) + 3, 4):
            assert store[lo:hi] == model[lo:hi]
    assert store[::2] == model[::2]
    assert store.joined("\n") == "\n".join(model)
    pieces = [len(chunk.lines) for chunk in store.chunks]
    assert sum(pieces) == len(model)
    assert all(0 < n <= 2 * size for n in pieces)
    if len(pieces) > 1:  # no trail of tiny chunks
        assert all(n >= max(size // 4, 1) for n in pieces)


def check_lookups(store: ChunkedLines, model: Sequence[str]) -> None:
    model = tuple(model)
    # Asked three times: the first scans each chunk, later ones use the chunk's set.
    for _ in range(3):
        for word in ("a", "b", "", "  d", "missing"):
            for lo, hi in ((0, len(model)), (1, len(model) - 1), (3, 7), (5, 2)):
                want = [i for i in range(max(lo, 0), min(hi, len(model))) if model[i] == word]
                assert list(store.positions(word, lo, hi)) == want
            assert (word in store) == (word in model)
            assert store.count(word) == model.count(word)
            for start in (0, 2, -3):
                try:
                    want_at: int | None = model.index(word, start)
                except ValueError:
                    want_at = None
                if want_at is None:
                    with pytest.raises(ValueError, match="not in the lines"):
                        store.index(word, start)
                else:
                    assert store.index(word, start) == want_at


@pytest.mark.slow
@settings(max_examples=300)
@given(data=st.data(), base=line_lists, size=sizes)
def test_splices_match_a_tuple_model(data: st.DataObject, base: list[str], size: int) -> None:
    store = ChunkedLines.from_lines(base, size)
    model = tuple(base)
    check_against(store, model, size)
    with mock.patch.object(chunks_module, "LOOKUP_FROM", 2):
        for _ in range(data.draw(st.integers(1, 6))):
            start, end, new = data.draw(splices(len(model)))
            before = store
            store = store.splice(start, end, new)
            model = model[:start] + tuple(new) + model[end:]
            check_against(store, model, size)
            check_lookups(store, model)
            # The version before is untouched; the new one copied only the chunks around
            # the range (the two at its ends, a neighbour it merged with) plus the new lines.
            assert len(before) == len(model) - len(new) + (end - start)
            copied = sum(len(c.lines) for c in store.chunks if c not in before.chunks)
            assert copied <= len(new) + 6 * size


@given(data=st.data(), base=line_lists, size=sizes)
def test_a_splice_outside_the_lines_is_refused(data: st.DataObject, base: list[str],
                                               size: int) -> None:
    store = ChunkedLines.from_lines(base, size)
    start = data.draw(st.integers(-3, len(base) + 3))
    end = data.draw(st.integers(-3, len(base) + 3))
    if 0 <= start <= end <= len(base):
        assert tuple(store.splice(start, end, ["x"])) == (*base[:start], "x", *base[end:])
    else:
        with pytest.raises(IndexError, match="outside"):
            store.splice(start, end, ["x"])


@settings(max_examples=300)
@given(data=st.data(), base=line_lists, size=sizes)
def test_equality_is_equality_of_the_lines(data: st.DataObject, base: list[str],
                                           size: int) -> None:
    """Versions that share chunks, versions built apart, and plain sequences."""
    root = ChunkedLines.from_lines(base, size)
    versions = [root]
    models = [tuple(base)]
    for _ in range(4):
        pick = data.draw(st.integers(0, len(versions) - 1))
        start, end, new = data.draw(splices(len(models[pick])))
        versions.append(versions[pick].splice(start, end, new))
        models.append(models[pick][:start] + tuple(new) + models[pick][end:])
    # The same lines rebuilt with another chunk size share nothing with the rest.
    versions.append(ChunkedLines.from_lines(models[-1], size + 1))
    models.append(models[-1])
    for left, left_model in zip(versions, models, strict=True):
        assert (left == left_model)
        assert (left == list(left_model))
        for right, right_model in zip(versions, models, strict=True):
            assert (left == right) == (left_model == right_model)
    with pytest.raises(TypeError):
        hash(root)


def test_an_edit_copies_only_the_chunks_it_touches() -> None:
    lines = [f"line {n}" for n in range(10_000)]
    store = ChunkedLines.from_lines(lines)
    edited = store.splice(5_000, 5_001, ["changed"])
    shared = sum(chunk in store.chunks for chunk in edited.chunks)
    assert len(store.chunks) == len(edited.chunks) > 20
    assert shared == len(store.chunks) - 1  # one chunk copied, every other one shared
    assert edited[5_000] == "changed"
    assert edited[4_999] is lines[4_999]
    assert store[5_000] == "line 5000"


@settings(max_examples=200)
@given(data=st.data(), base=line_lists, size=sizes,
       search=st.lists(words, min_size=1, max_size=4))
def test_found_elsewhere_is_an_exact_match_at_another_start(
        data: st.DataObject, base: list[str], size: int, search: list[str]) -> None:
    """The early-stopping question the twin check asks, on chunked and plain lines."""
    if data.draw(st.booleans()) and len(base) > 2:
        at = data.draw(st.integers(0, len(base) - 1))
        search = base[at : at + len(search)]
    model = tuple(base)
    lo = data.draw(st.integers(0, len(model)))
    hi = data.draw(st.integers(lo, len(model)))
    at = data.draw(st.integers(-1, len(model)))
    want = any(start != at for start in _scan(model, search, lo, hi))
    with mock.patch.object(chunks_module, "LOOKUP_FROM", 2):
        for lines in (ChunkedLines.from_lines(base, size), model, list(model)):
            assert found_elsewhere(lines, search, lo, hi, at) == want


@settings(max_examples=400)
@given(data=st.data(), base=line_lists, size=sizes,
       search=st.lists(words, min_size=1, max_size=4))
def test_the_exact_scan_finds_what_the_tuple_scan_finds(
        data: st.DataObject, base: list[str], size: int, search: list[str]) -> None:
    """Every start, overlapping ones too, within any window, before and after edits."""
    if data.draw(st.booleans()) and len(base) > 2:  # a search taken from the file: a hit
        at = data.draw(st.integers(0, len(base) - 1))
        search = base[at : at + len(search)]
    store = ChunkedLines.from_lines(base, size)
    model = tuple(base)
    with mock.patch.object(chunks_module, "LOOKUP_FROM", 2):
        for _ in range(3):
            lo = data.draw(st.integers(0, len(model)))
            hi = data.draw(st.integers(lo, len(model)))
            for _ in range(2):  # the second time the chunks have their sets
                assert find_exact(store, search, lo, hi) == _scan(model, search, lo, hi)
                assert find_exact(store, search, 0, len(model)) == _scan(
                    model, search, 0, len(model))
            start, end, new = data.draw(splices(len(model)))
            store = store.splice(start, end, new)
            model = model[:start] + tuple(new) + model[end:]


@given(data=st.data(), base=st.lists(words, min_size=1, max_size=40), size=sizes)
def test_the_cascade_lands_the_same_on_chunks_and_on_a_tuple(
        data: st.DataObject, base: list[str], size: int) -> None:
    at = data.draw(st.integers(0, len(base) - 1))
    search = base[at : at + data.draw(st.integers(1, 3))]
    replace = data.draw(st.lists(words, max_size=3))
    store = ChunkedLines.from_lines(base, size)
    assert match_edit(store, search, replace) == match_edit(tuple(base), search, replace)


# --- FileState through the store --------------------------------------------------------

texts = st.lists(st.sampled_from(["a", "b", "", "x y"]), max_size=30)


def read_back(text: str, ending: str) -> tuple[str, ...]:
    """The lines of a text with one line ending: the model's own reading."""
    parts = text.split(ending)
    if parts[-1] == "":
        parts.pop()
    return tuple(parts)


@settings(max_examples=300)
@given(data=st.data(), lines=texts, size=sizes, newline=st.sampled_from(["\n", "\r\n"]),
       final=st.booleans(), bom=st.booleans())
def test_file_versions_round_trip_their_text(
        data: st.DataObject, lines: list[str], size: int, newline: str, final: bool,
        bom: bool) -> None:
    """A clean file (one line ending, BOM or not, final newline or not) edited through the
    store reads back exactly as the model says: lines, text, bytes, line count, fields."""
    text = newline.join(lines) + (newline if final and lines else "")
    raw = (b"\xef\xbb\xbf" if bom else b"") + text.encode()
    with small_chunks(size):
        state = FileState.from_bytes(raw)
        model = tuple(FileState.from_bytes(raw).lines)
        assert state.line_store == model
        for _ in range(data.draw(st.integers(1, 5))):
            start, end, new = data.draw(splices(len(model)))
            edited = state.splice(start, end, new)
            model = model[:start] + tuple(new) + model[end:]
            keep_final = state.final_newline or not state.data.removeprefix(b"\xef\xbb\xbf")
            ending = state.newline
            want = ending.join(model) + (ending if keep_final and model else "")
            model = read_back(want, ending)  # a last empty line needs its newline
            assert edited.line_count == len(model)
            assert edited.line_store == model
            assert edited.lines == model
            assert edited.text == want
            assert edited.data == (b"\xef\xbb\xbf" if state.bom else b"") + want.encode()
            fresh = FileState.from_bytes(edited.data)
            for field in ("bom", "eol", "newline", "final_newline", "binary", "lines"):
                assert getattr(edited, field) == getattr(fresh, field), field
            assert edited == fresh
            assert fresh == edited
            assert hash(edited) == hash(fresh)
            state = edited


@settings(max_examples=200)
@given(data=st.data(), lines=texts, size=sizes)
def test_file_versions_are_equal_exactly_when_their_bytes_are(
        data: st.DataObject, lines: list[str], size: int) -> None:
    raw = ("\n".join(lines) + "\n").encode()
    with small_chunks(size):
        base = FileState.from_bytes(raw)
        versions = [base]
        for _ in range(4):
            pick = versions[data.draw(st.integers(0, len(versions) - 1))]
            start, end, new = data.draw(splices(pick.line_count))
            versions.append(pick.splice(start, end, new))
        # An edit and its undo: the original lines again, through other chunks.
        if base.line_count:
            there = base.splice(0, 1, ["changed"])
            versions.append(there.splice(0, 1, [base.lines[0]]))
        for left in versions:
            for right in versions:
                assert (left == right) == (left.data == right.data)


def test_a_long_file_edited_many_times_keeps_a_bounded_number_of_chunks() -> None:
    state = FileState.from_bytes(b"".join(b"line %d\n" % n for n in range(5_000)))
    for n in range(2_000):  # deletions and insertions all over the file
        at = (n * 7_919) % max(state.line_count - 3, 1)
        state = state.splice(at, at + (n % 3), ["new"] * (n % 4))
    pieces = [len(chunk.lines) for chunk in state.line_store.chunks]
    assert all(chunks_module.CHUNK // 4 <= n <= 2 * chunks_module.CHUNK for n in pieces)
    assert state.line_count == sum(pieces)


def test_a_very_long_file_gets_larger_chunks_and_keeps_them() -> None:
    """Past ~8,000 lines the chunks grow as the square root of the file, so that neither
    the row of chunks nor the chunk an edit copies gets long."""
    store = ChunkedLines.from_lines([f"line {n}" for n in range(50_000)])
    size = chunks_module.chunk_size(50_000)
    assert size > chunks_module.CHUNK
    assert 50 <= len(store.chunks) <= 100
    for n in range(300):
        at = (n * 7_919) % (len(store) - 5)
        store = store.splice(at, at + n % 5, ["x"] * (n % 7))
    assert all(size // 4 <= len(chunk.lines) <= 2 * size for chunk in store.chunks)
    assert chunks_module.chunk_size(1_000) == chunks_module.CHUNK


# --- the engine on a long file -----------------------------------------------------------

@settings(max_examples=25, deadline=None)
@given(data=st.data(), crlf=st.booleans())
def test_edits_to_a_long_file_land_exactly_where_a_plain_list_says(
        data: st.DataObject, crlf: bool) -> None:
    """Whole sessions of SEARCH/REPLACE edits on a 3,000-line file (a dozen chunks, their
    look-ups in use) against a list of lines edited by hand; an edit whose SEARCH is in
    two places leaves the file byte for byte as it was."""
    from reviewtui.core.engine import evaluate_session
    from reviewtui.core.model.tree import Tree
    from reviewtui.core.protocol.session import parse_session

    newline = "\r\n" if crlf else "\n"
    model = [f"line {n} = {n * 7 % 13}" for n in range(3_000)]
    base = FileState.from_bytes((newline.join(model) + newline).encode())
    assert len(base.line_store.chunks) >= chunks_module.LOOKUP_FROM
    turns = []
    for number in range(data.draw(st.integers(1, 8))):
        at = data.draw(st.integers(0, len(model) - 3))
        width = data.draw(st.integers(1, 3))
        search = model[at : at + width]
        replace = [f"edit {number} line {k}" for k in range(data.draw(st.integers(0, 3)))]
        turns.append((search, replace))
        model[at : at + width] = replace
    ambiguous = data.draw(st.booleans())
    if ambiguous:  # the first two lines pasted again at the end, then searched for
        model += model[:2]
        turns.append((model[-2:], ["never"]))
    parts = []
    for number, (search, replace) in enumerate(turns, 1):
        parts.append(f"## Turn {number}\n> edit\n\n--- File: big.txt ---\n<<<<<<< SEARCH\n"
                     + "".join(line + "\n" for line in search) + "=======\n"
                     + "".join(line + "\n" for line in replace) + ">>>>>>> REPLACE\n")
    if ambiguous:  # the paste happens as an edit of its own, before the ambiguous one
        paste = turns[-1][0]
        last_lines = model[-4:-2]
        parts.insert(len(parts) - 1, (
            f"## Turn {len(turns)}b\n> paste\n\n--- File: big.txt ---\n<<<<<<< SEARCH\n"
            + "".join(line + "\n" for line in last_lines) + "=======\n"
            + "".join(line + "\n" for line in [*last_lines, *paste]) + ">>>>>>> REPLACE\n"))
    session = parse_session("\n".join(parts), "s.md")
    run = evaluate_session(session, Tree.from_files({"big.txt": base}))
    statuses = [str(r.outcome.status) for t in run.turns for r in t.results]
    want = ["applied"] * (len(turns) - ambiguous) + (["applied", "ambiguous"] if ambiguous
                                                     else [])
    assert statuses == want
    final = run.states[-1].tree.get("big.txt")
    assert final is not None
    assert final.data == (newline.join(model) + newline).encode()
