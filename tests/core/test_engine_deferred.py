"""A re-evaluation that stops short (``upto``) and goes on later gives exactly what a
full evaluation gives, at every point in between.

The workbench re-evaluates a decision's turn at once and the turns after it between keys
(:meth:`SessionRun.reevaluate`'s ``upto``). Random sessions and decisions from the
incremental oracle's strategies; after each change the run is walked on in random steps
(as the background does), or changed again before it has caught up (any change finishes
the walk first), or asked for a result further on. Whatever the run reads as evaluated
must be a prefix of the full evaluation, and once it is whole, all of it.
"""

from __future__ import annotations

from unittest.mock import patch

from hypothesis import given, settings
from hypothesis import strategies as st
from test_engine_incremental import (
    ALTERNATING_BASE,
    alternating,
    assert_same,
    base_files,
    count_file_ops,
    decision,
    keys_of,
    make_tree,
    session_text,
    sessions,
    turn,
)

from reviewtui.core.engine import Decision, Policy, evaluate_session
from reviewtui.core.engine import session as session_module
from reviewtui.core.engine.decisions import OpKey
from reviewtui.core.engine.session import SessionRun
from reviewtui.core.model.records import Session


def assert_prefix(run: SessionRun, full: SessionRun) -> None:
    """What ``run`` has evaluated is ``full``'s evaluation of the same turns."""
    done = len(run.turns)
    assert len(run.states) == done + 1
    assert len(run.moved) == done + 1
    for got, want in zip(run.turns, full.turns[:done], strict=True):
        assert got.results == want.results
        assert got.ledger == want.ledger
    for got_state, want_state in zip(run.states, full.states[: done + 1], strict=True):
        assert got_state.tree == want_state.tree
        assert got_state.tree.revision == want_state.tree.revision
    assert run.moved == full.moved[: done + 1]


# Longer sessions than the oracle's: a walk that stops short needs turns after the stop.
long_session_text = sessions(turn(), min_turns=2, max_turns=9)


def finish(run: SessionRun) -> None:
    if run.evaluated_upto is not None:
        turns = run.session.turns
        run.evaluate(from_turn=turns[len(run.turns)].index)


@settings(max_examples=150, deadline=None)
@given(text=long_session_text, files=base_files, stretch=st.sampled_from([1, 2, 256]),
       data=st.data())
def test_a_walk_stopped_short_goes_on_to_the_full_evaluation(
        text: str, files: dict[str, str], stretch: int, data: st.DataObject) -> None:
    from reviewtui.core.protocol.session import parse_session

    with patch.object(session_module, "STRETCH", stretch):  # reused stretches cut short too
        walk_and_compare(parse_session(text), files, data)


def walk_and_compare(session: Session, files: dict[str, str], data: st.DataObject) -> None:
    keys = keys_of(session)
    if not keys:
        return
    numbers = [turn.index for turn in session.turns]
    base = make_tree(files)
    run = evaluate_session(session, base, policy=Policy.headless())
    decisions: dict[OpKey, Decision] = {}
    for _ in range(data.draw(st.integers(1, 5))):
        # Often in the turns still waiting for the walk (they must not keep old results).
        waiting = run.evaluated_upto
        later = [key for key in keys if waiting is not None and key[0] > waiting]
        pool = later if later and data.draw(st.booleans()) else keys
        for key in data.draw(st.lists(st.sampled_from(pool), min_size=1, max_size=2)):
            decisions[key] = data.draw(decision)
        # Mostly early stops: the next change then lands in turns still waiting.
        run.update(decisions, upto=data.draw(st.sampled_from(numbers[: len(numbers) // 2 + 1])))
        full = evaluate_session(session, base, policy=Policy.headless(),
                                decisions=decisions)
        assert_prefix(run, full)
        # The background's steps: evaluate on from where the run stands, a few turns at
        # a time; or a result asked for further on; or nothing (the next change settles).
        for _ in range(data.draw(st.integers(0, 3))):
            if run.evaluated_upto is None:
                break
            turns = run.session.turns
            upto = data.draw(st.sampled_from(numbers[len(run.turns):]))
            run.evaluate(from_turn=turns[len(run.turns)].index, upto=upto)
            assert run.evaluated_upto is None or run.evaluated_upto >= upto
            assert_prefix(run, full)
    finish(run)
    assert_same(run, evaluate_session(session, base, policy=Policy.headless(),
                                      decisions=decisions))


@settings(max_examples=100, deadline=None)
@given(text=session_text, files=base_files, more=base_files, data=st.data())
def test_an_outside_change_while_a_walk_waits_settles_it_first(
        text: str, files: dict[str, str], more: dict[str, str], data: st.DataObject) -> None:
    from reviewtui.core.protocol.session import parse_session

    session = parse_session(text)
    keys = keys_of(session)
    if not keys:
        return
    numbers = [turn.index for turn in session.turns]
    run = evaluate_session(session, make_tree(files), policy=Policy.headless())
    decisions = {key: data.draw(decision) for key in data.draw(
        st.lists(st.sampled_from(keys), min_size=1, max_size=3))}
    run.update(decisions, upto=data.draw(st.sampled_from(numbers)))
    base = make_tree(files | more)
    run.rebase(base)
    assert run.evaluated_upto is None  # settled, then rebased whole
    assert_same(run, evaluate_session(session, base, policy=Policy.headless(),
                                      decisions=decisions))


def test_a_decision_in_a_turn_still_waiting_is_not_lost() -> None:
    """The second decision's turn had not been walked yet when it came: the walk is
    finished first, then the decision re-evaluates its turn (else its turn is reused
    with the old decision)."""
    from reviewtui.core.protocol.session import parse_session

    session = parse_session(alternating(5))
    base = make_tree(ALTERNATING_BASE)
    run = evaluate_session(session, base, policy=Policy.headless())
    decisions = {(1, 0): Decision.reject()}
    run.update(decisions, upto=1)
    assert run.evaluated_upto == 1
    decisions[(4, 0)] = Decision.reject()
    run.update(dict(decisions), upto=5)
    assert run.turns[3].results[0].decision == Decision.reject()
    assert_same(run, evaluate_session(session, base, policy=Policy.headless(),
                                      decisions=decisions))


def test_a_reject_late_in_a_long_session_stops_at_its_turn_and_catches_up() -> None:
    from reviewtui.core.protocol.session import parse_session

    session = parse_session(alternating(40))
    base = make_tree(ALTERNATING_BASE)
    run = evaluate_session(session, base, policy=Policy.headless())
    calls = count_file_ops(run)
    decisions = {(21, 0): Decision.reject()}
    run.update(decisions, upto=24)
    assert run.evaluated_upto is not None
    assert 24 <= run.evaluated_upto < 40
    assert calls == [(21, 0), (23, 0)]  # the rest waits
    full = evaluate_session(session, base, policy=Policy.headless(), decisions=decisions)
    assert_prefix(run, full)
    run.evaluate(from_turn=run.evaluated_upto + 1)
    assert run.evaluated_upto is None
    # The walk is over once every turn is evaluated: it holds the old evaluation's lists
    # (and freeing them fell in the next key's time while it was kept).
    assert run._tail is None
    assert calls == [(turn, 0) for turn in range(21, 41, 2)]  # each once, none again
    assert_same(run, full)


@settings(max_examples=150, deadline=None)
@given(numbers=st.lists(st.integers(0, 12), min_size=1, max_size=8),
       asked=st.integers(-1, 14))
def test_turn_positions_by_number_match_a_scan(numbers: list[int], asked: int) -> None:
    """The run finds positions by bisection when the turns' numbers increase (a session's
    do), else by a scan: either way what the scan gives."""
    from reviewtui.core.protocol.session import parse_session
    from reviewtui.core.record import replace

    one = parse_session("## Turn 1\n--- File: a.txt ---\n```\nx\n```\n").turns[0]
    session = parse_session("")
    session = replace(session, turns=tuple(replace(one, index=n) for n in numbers))
    run = SessionRun(session, make_tree({}))
    assert run._count_upto(asked) == sum(1 for n in numbers if n <= asked)
    assert run._first_from(asked) == next(
        (pos for pos, n in enumerate(numbers) if n >= asked), len(numbers))
