"""Line ranges, windows and batches: pure application and through the engine."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from reviewtui.core.engine import evaluate_session
from reviewtui.core.importers import import_session
from reviewtui.core.model.edit_shapes import (
    Batch,
    BatchAction,
    BatchOp,
    LineRange,
    Window,
    apply_batch,
    apply_line_range,
    apply_window,
    content_revision,
)
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.text.hashline import LineRef, line_id, parse_ref

LINES = ["def f():", "    a = 1", "    b = 2", "    return a + b", "", "x = f()"]


def _r(n: int) -> LineRef:
    return LineRef(n)


def test_line_range_replaces_exactly_those_lines() -> None:
    result = apply_line_range(LINES, LineRange(_r(2), _r(3)), ["    a = b = 1"])
    assert result.status is Status.APPLIED
    assert (result.start, result.end, result.method) == (1, 3, "line-range")


def test_line_range_by_ids_and_a_stale_id() -> None:
    first, last = parse_ref(line_id(2, LINES[1])), parse_ref(line_id(3, LINES[2]))
    assert first is not None
    assert last is not None
    ok = apply_line_range(LINES, LineRange(first, last), ["    c = 3"])
    assert ok.status is Status.APPLIED
    assert ok.method == "hashline"
    stale = apply_line_range(LINES, LineRange(LineRef(3, first.tag), last), ["z"])
    assert stale.status is Status.REFUSED
    assert stale.rule == "stale-line-id"
    assert line_id(3, LINES[2]) in stale.hint


def test_line_range_guard_refuses_a_pasted_neighbour() -> None:
    result = apply_line_range(LINES, LineRange(_r(2), _r(2)), ["def f():", "    a = 5"])
    assert result.status is Status.REFUSED
    assert result.rule == "duplicate-line"


def test_window_finds_the_target_only_inside() -> None:
    lines = ["x = 1", "y = 2", "x = 1", "z = 3"]
    result = apply_window(lines, Window(_r(2), _r(4)), ["x = 1"], ["x = 9"])
    assert result.status is Status.APPLIED
    assert result.start == 2
    both = apply_window(lines, Window(_r(1), _r(4)), ["x = 1"], ["x = 9"])
    assert both.status is Status.AMBIGUOUS
    every = apply_window(lines, Window(_r(1), _r(4), allow_multiple=True), ["x = 1"], ["x = 9"])
    assert every.status is Status.APPLIED
    assert every.new_lines == ("x = 9", "y = 2", "x = 9")


def test_a_window_that_cuts_the_match_in_half_is_not_found_and_says_where() -> None:
    result = apply_window(LINES, Window(_r(3), _r(6)), ["    a = 1", "    b = 2"], ["    a = 2"])
    assert result.status is Status.NOT_FOUND
    assert "2-3" in result.hint


def test_batch_conflicts_name_both_operations() -> None:
    overlap = Batch((BatchOp(BatchAction.REPLACE, _r(2), _r(3), ("a",)),
                     BatchOp(BatchAction.DELETE, _r(3), _r(4))))
    result = apply_batch(LINES, overlap)
    assert result.rule == "batch-conflict"
    assert "operation 1" in result.hint
    assert "operation 2" in result.hint
    same = Batch((BatchOp(BatchAction.INSERT_AFTER, _r(2), _r(2), ("p",)),
                  BatchOp(BatchAction.INSERT_BEFORE, _r(3), _r(3), ("q",))))
    result = apply_batch(LINES, same)
    assert result.rule == "batch-conflict"
    assert "same place" in result.hint


def test_batch_guard_covers_every_insert() -> None:
    batch = Batch((BatchOp(BatchAction.INSERT_AFTER, _r(1), _r(1), ("    a = 1",)),))
    assert apply_batch(LINES, batch).rule == "duplicate-line"
    closing = Batch((BatchOp(BatchAction.INSERT_AFTER, _r(2), _r(2), (")",)),))
    assert apply_batch(["f(", ")", "x"], closing).status is Status.APPLIED


def _by_hand(lines: list[str], ops: list[BatchOp]) -> list[str]:
    out = list(lines)
    for op in sorted(ops, key=lambda o: o.first.number, reverse=True):
        at = op.first.number - 1
        if op.action is BatchAction.INSERT_AFTER:
            out[at + 1 : at + 1] = op.content
        else:
            out[at : op.last.number] = [] if op.action is BatchAction.DELETE else op.content
    return out


@given(st.data())
def test_batch_equals_applying_bottom_up_by_hand(data: st.DataObject) -> None:
    lines = [f"line {k}" for k in range(30)]
    ops: list[BatchOp] = []
    k = 1
    while k <= 30:
        k += data.draw(st.integers(1, 4))
        if k > 30:
            break
        action = data.draw(st.sampled_from([BatchAction.REPLACE, BatchAction.DELETE,
                                            BatchAction.INSERT_AFTER]))
        size = 1 if action is BatchAction.INSERT_AFTER else data.draw(st.integers(1, 2))
        last = min(k + size - 1, 30)
        content = tuple(f"new {k}.{n}" for n in range(data.draw(st.integers(1, 2))))
        ops.append(BatchOp(action, _r(k), _r(last), content))
        k = last + 1
    if not ops:
        return
    result = apply_batch(lines, Batch(tuple(ops)))
    assert result.status is Status.APPLIED
    spliced = [*lines[: result.start], *result.new_lines, *lines[result.end :]]
    assert spliced == _by_hand(lines, ops)


def _run(jsonl: str, text: str) -> list[tuple[Status, str]]:
    session = import_session(jsonl, "calls.jsonl")
    run = evaluate_session(session, Tree.from_files({"a.py": FileState.from_text(text)}))
    return [(r.outcome.status, r.outcome.rule) for t in run.turns for r in t.results]


def test_engine_refuses_a_stale_revision_naming_expected_and_actual() -> None:
    text = "\n".join(LINES) + "\n"
    rev = content_revision(text.encode())
    ok = ('{"tool": "line_replace", "path": "a.py", "from": 2, "to": 2, '
          f'"expectedRevision": "{rev}", "content": "    a = 5"}}')
    assert _run(ok, text) == [(Status.APPLIED, "")]
    session = import_session(ok.replace(rev, "deadbeef"), "calls.jsonl")
    run = evaluate_session(session, Tree.from_files({"a.py": FileState.from_text(text)}))
    outcome = run.turns[0].results[0].outcome
    assert outcome.rule == "stale-revision"
    assert "deadbeef" in outcome.message
    assert rev in outcome.message


def test_engine_refuses_numbers_shifted_by_an_earlier_edit_of_the_turn() -> None:
    text = "\n".join(LINES) + "\n"
    calls = ('{"tool": "insert", "path": "a.py", "line": 1, "content": "    z = 0"}\n'
             '{"tool": "line_replace", "path": "a.py", "from": 3, "to": 3, "content": "    b = 7"}')
    assert _run(calls, text) == [(Status.APPLIED, ""), (Status.REFUSED, "shifted-lines")]
