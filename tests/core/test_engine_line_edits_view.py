"""Line-addressed edits read an edited version through its shared chunks (no whole tuple)
and a batch copies only the lines it spans: the same results as from a plain tuple and a
copy of the whole file."""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.engine.file_edits import FileContext
from reviewtui.core.engine.line_edits import evaluate_shaped
from reviewtui.core.model import chunks
from reviewtui.core.model.edit_shapes import (
    Batch,
    BatchAction,
    BatchOp,
    LineRange,
    Window,
    apply_batch,
    apply_line_range,
    apply_window,
)
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.records import Edit, Span
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.text.hashline import LineRef

WORDS = ["a = 1", "b = 2", "", "def f():", "    return a", "x", "a = 1"]


def batch_with_a_whole_copy(lines: Sequence[str], batch: Batch) -> tuple[int, int,
                                                                         tuple[str, ...]]:
    """The batch's span and new lines as apply_batch made them before: on a copy of every
    line of the file (what the version that copies the span alone must match)."""
    result = apply_batch(tuple(lines), batch)  # (validation and the guard as it does)
    new = list(lines)
    placed = []
    for op in batch.ops:
        if op.is_insert:
            at = op.first.number - 1
            gap = at if op.action is BatchAction.INSERT_BEFORE else at + 1
            placed.append((gap, gap, op))
        else:
            placed.append((op.first.number - 1, op.last.number, op))
    for start, end, op in sorted(placed, key=lambda p: (p[0], 0 if p[2].is_insert else 1),
                                 reverse=True):
        new[start:end] = [] if op.action is BatchAction.DELETE else op.content
    lo, hi = min(p[0] for p in placed), max(p[1] for p in placed)
    return result.start, result.end, tuple(new[lo : len(new) - (len(lines) - hi)])


ref = st.integers(1, 40).map(LineRef)
op = st.builds(BatchOp, st.sampled_from(list(BatchAction)), ref, ref,
               st.lists(st.sampled_from(WORDS), max_size=3).map(tuple))


@settings(max_examples=300)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=40),
       st.lists(op, min_size=1, max_size=4))
def test_a_batch_copies_its_span_alone_to_the_same_result(
        lines: list[str], ops: list[BatchOp]) -> None:
    batch = Batch(tuple(ops))
    result = apply_batch(tuple(lines), batch)
    if result.status is Status.APPLIED or result.rule == "duplicate-line":
        assert (result.start, result.end, result.new_lines) == batch_with_a_whole_copy(
            lines, batch)


@settings(max_examples=200)
@given(st.lists(st.sampled_from(WORDS), min_size=1, max_size=60), ref, ref,
       st.lists(st.sampled_from(WORDS), max_size=3), st.lists(op, min_size=1, max_size=3))
def test_shapes_read_the_same_through_chunks(lines: list[str], first: LineRef,
                                             last: LineRef, content: list[str],
                                             ops: list[BatchOp]) -> None:
    view = chunks.ChunkedLines.from_lines(lines, size=4)  # many chunks
    plain = tuple(lines)
    shape = LineRange(first, last)
    assert apply_line_range(view, shape, content) == apply_line_range(plain, shape, content)
    window = Window(first, last)
    target = content[:1] or ["a = 1"]
    assert apply_window(view, window, target, content) == apply_window(plain, window, target,
                                                                       content)
    assert apply_batch(view, Batch(tuple(ops))) == apply_batch(plain, Batch(tuple(ops)))


def test_an_edited_version_is_read_through_its_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(chunks, "CHUNK", 4)
    text = "".join(f"x{i} = {i}\n" for i in range(200))
    base = FileState.from_bytes(text.encode())
    edited = base.splice(10, 11, ["x10 = 100"])  # shares chunks with base
    assert edited._lines is None
    span = Span(1, 1)
    edit = Edit(path="m.py", ordinal=1, number=None, search_lines=(),
                replace_lines=("y = 1",), span=span, search_span=span, replace_span=span,
                shape=LineRange(LineRef(50), LineRef(50)))
    outcome, _ = evaluate_shaped(Tree.from_files({"m.py": edited}), edit, FileContext())
    assert outcome.status is Status.APPLIED
    assert edited._lines is None  # no whole tuple of the version was built
    assert edited._data is None  # nor its bytes (no revision asked for)
    again, _ = evaluate_shaped(Tree.from_files({"m.py": FileState.from_bytes(
        edited.data)}), edit, FileContext())
    assert again.after_state == outcome.after_state
