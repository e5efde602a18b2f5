"""The decided-only run skips a turn nobody decided in whole (issue 13: the draft of a
50,000-operation session before the first frame); the result is what evaluating each of
its operations gives - checked against the per-operation path on random sessions and
decisions."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_engine_incremental import (
    assert_same,
    base_files,
    decision,
    keys_of,
    make_tree,
    session_text,
)

from reviewtui.core.engine import Decision, Policy, evaluate_session
from reviewtui.core.engine.session import SessionRun
from reviewtui.core.model.outcome import Status
from reviewtui.core.protocol.session import parse_session


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(session_text, base_files, st.data())
def test_skipped_turns_equal_per_operation_evaluation(text: str, files: dict[str, str],
                                                      data: st.DataObject) -> None:
    session = parse_session(text)
    base = make_tree(files)
    keys = keys_of(session)
    chosen = data.draw(st.lists(st.sampled_from(keys), max_size=len(keys), unique=True)
                       if keys else st.just([]))
    decisions: dict[tuple[int, int], Decision] = {
        key: data.draw(decision) for key in chosen}
    fast = evaluate_session(session, base, policy=Policy.decided_only(), decisions=decisions)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(SessionRun, "_decided_in", lambda self, turn: True)
        slow = evaluate_session(session, base, policy=Policy.decided_only(),
                                decisions=decisions)
    assert_same(fast, slow)


def test_an_undecided_turn_is_skipped_whole() -> None:
    session = parse_session("## Turn 1\n> go\n\n--- File: a.txt ---\n<<<<<<< SEARCH\none\n"
                            "=======\ntwo\n>>>>>>> REPLACE\n```console\n:rm b.txt\n```\n")
    base = make_tree({"a.txt": "one\n", "b.txt": "x\n"})
    run = evaluate_session(session, base, policy=Policy.decided_only())
    [turn] = run.turns
    assert [r.outcome.status for r in turn.results] == [Status.SKIPPED, Status.SKIPPED]
    assert [r.landed for r in turn.results] == [False, False]
    assert turn.ledger == ()
    assert run.states[-1].tree == base
    # Under the headless policy the same turn is evaluated: its edit lands.
    display = evaluate_session(session, base, policy=Policy.headless())
    assert display.turns[0].results[0].outcome.status is Status.APPLIED
