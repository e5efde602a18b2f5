"""A failed edit's diagnosis is worked out when it is read, and is then exactly what the
eager engine gives (issue 13: the stale check of each edit a reject makes fail cost a
reject ~20 ms each).

The shortcut (``core/model/deferred.py``, ``file_edits._match_deferred``): the cascade
runs without the diagnosis; the outcome's status, lines, states and cursor are taken from
that run, and its candidates, message and hint from a second, full run when first read.
Differential: sessions evaluated and re-evaluated under random decisions, with the
outcomes read only after every later update (so a diagnosis that read the run as it is
now, not as it was, would differ), against runs with the deferral switched off.
"""

from __future__ import annotations

import copy
import pickle
from collections.abc import Iterator

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_engine_incremental import base_files, file_blocks, keys_of, make_tree, sessions
from test_engine_incremental import session_text as command_sessions
from test_engine_reject_reuse import session_text as edit_sessions

from reviewtui.core.engine import Decision, Policy, evaluate_session
from reviewtui.core.engine import turn_steps as session_module
from reviewtui.core.engine.decisions import OpKey
from reviewtui.core.engine.file_edits import FileContext
from reviewtui.core.engine.results import OpResult
from reviewtui.core.model.deferred import DeferredOutcome, deferred
from reviewtui.core.model.outcome import Candidate, Diagnosis, Outcome, Status
from reviewtui.core.model.records import Session
from reviewtui.core.model.tree import Tree
from reviewtui.core.protocol.session import parse_session
from reviewtui.core.record import replace

FIELDS = [spec.name for spec in Outcome.__record_fields__]  # type: ignore[attr-defined]

# Lines one word apart, so a SEARCH with a changed middle line lands near (NEEDS_REVIEW,
# with a stale note when an earlier version has it verbatim).
LINES = ["alpha beta gamma delta", "alpha beta gamma omega", "alpha beta gamma delta",
         "one", "two"]
near_sessions = sessions(st.lists(file_blocks(["a.txt", "b.txt"], LINES, whole_one_in=5,
                                              max_edits=2),
                                  min_size=1, max_size=2).map("".join),
                         min_turns=2, max_turns=8)
near_files = st.dictionaries(
    st.sampled_from(["a.txt", "b.txt"]),
    st.lists(st.sampled_from(LINES), min_size=3, max_size=8).map(
        lambda ls: "\n".join(ls) + "\n"),
    min_size=1)

decision = st.sampled_from([Decision.reject(), Decision.accept(), Decision.accept(force=True),
                            Decision()])


def eager_run(session: Session, base: Tree, policy: Policy,
              decisions: dict[OpKey, Decision]) -> list[OpResult]:
    """The results of a run whose edits are diagnosed as they are evaluated."""
    def eager_context(**fields: object) -> FileContext:
        return FileContext(**{**fields, "defer": False})  # type: ignore[arg-type]

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(session_module, "FileContext", eager_context)
        run = evaluate_session(session, base, policy=policy, decisions=decisions)
        results = [result for turn in run.turns for result in turn.results]
    assert not any(isinstance(r.outcome, DeferredOutcome) for r in results)
    return results


def assert_explained_as_eager(got: list[OpResult], want: list[OpResult]) -> None:
    assert len(got) == len(want)
    for mine, theirs in zip(got, want, strict=True):
        outcome = mine.outcome
        if isinstance(outcome, DeferredOutcome):
            # What the engine read before the diagnosis: the quick run's, and the full's.
            quick = {name: getattr(outcome, name) for name in FIELDS
                     if name not in ("candidates", "message", "hint")}
            full = outcome.explained()
            assert quick == {name: getattr(full, name) for name in quick}
        assert mine == theirs
        assert [getattr(outcome, n) for n in FIELDS] == [getattr(theirs.outcome, n)
                                                         for n in FIELDS]


def steps(session: Session, data: st.DataObject) -> Iterator[dict[OpKey, Decision]]:
    keys = keys_of(session)
    decisions: dict[OpKey, Decision] = {}
    for _ in range(data.draw(st.integers(1, 5))):
        decisions = dict(decisions)
        choice = data.draw(decision)
        key = data.draw(st.sampled_from(keys))
        if choice == Decision():
            decisions.pop(key, None)
        else:
            decisions[key] = choice
        yield decisions


@pytest.mark.slow
@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(case=st.one_of(st.tuples(edit_sessions, base_files),
                      st.tuples(command_sessions, base_files),
                      st.tuples(near_sessions, near_files)),
       pending_joins=st.booleans(), data=st.data())
def test_deferred_diagnoses_read_late_equal_the_eager_engine(
        case: tuple[str, dict[str, str]], pending_joins: bool, data: st.DataObject) -> None:
    text, files = case
    session = parse_session(text)
    if not keys_of(session):
        return
    base = make_tree(files)
    policy = Policy.headless() if pending_joins else Policy.decided_only()
    run = evaluate_session(session, base, policy=policy)
    # Every step's results, unread until the run has moved on (and re-evaluated).
    seen: list[tuple[dict[OpKey, Decision], list[OpResult]]] = [
        ({}, [r for turn in run.turns for r in turn.results])]
    for decisions in steps(session, data):
        run.update(decisions)
        seen.append((decisions, [r for turn in run.turns for r in turn.results]))
    for decisions, results in reversed(seen):
        assert_explained_as_eager(results, eager_run(session, base, policy, decisions))


def test_a_failed_edit_is_diagnosed_only_when_read_and_says_it_is_stale() -> None:
    session = parse_session(
        "## Turn 1\n--- File: a.txt ---\n<<<<<<< SEARCH\nold line\n=======\nnew line\n"
        ">>>>>>> REPLACE\n"
        "## Turn 2\n--- File: a.txt ---\n<<<<<<< SEARCH\nold line\n=======\nother line\n"
        ">>>>>>> REPLACE\n")
    base = make_tree({"a.txt": "first\nold line\nlast\n"})
    run = evaluate_session(session, base, policy=Policy.headless())
    outcome = run.turns[1].results[0].outcome
    assert isinstance(outcome, DeferredOutcome)
    assert outcome.status is Status.NOT_FOUND
    assert outcome._full is None  # nothing read it yet
    run.update({(1, 0): Decision.accept()})  # the run moves on; the outcome keeps its view
    assert "probably stale" in outcome.hint
    assert outcome.explained() is outcome.explained()
    eager = eager_run(session, base, Policy.headless(), {})[1].outcome
    assert outcome == eager
    assert eager == outcome
    assert hash(outcome) == hash(eager)


def test_a_deferred_outcome_behaves_as_the_plain_outcome() -> None:
    calls: list[int] = []
    full = Outcome(Status.NOT_FOUND, message="SEARCH not found", hint="no match; closest",
                   candidates=(Candidate(1, 2, 0.5, Diagnosis.CONTENT_DIFFERS),), path="a")

    def explain() -> Outcome:
        calls.append(1)
        return full

    lazy = deferred(Outcome(Status.NOT_FOUND, path="a"), explain)
    assert lazy.status is Status.NOT_FOUND
    assert lazy.path == "a"
    assert not calls  # reading the status explains nothing
    assert lazy.candidates == full.candidates
    assert lazy == full
    assert full == lazy
    assert lazy != replace(full, hint="other")
    assert replace(full, hint="other") != lazy
    assert len(calls) == 1
    changed = replace(lazy, path="b")
    assert type(changed) is Outcome
    assert changed == replace(full, path="b")
    for twin in (copy.copy(lazy), copy.deepcopy(lazy), pickle.loads(pickle.dumps(lazy))):
        assert type(twin) is Outcome
        assert twin == full
    assert repr(lazy).replace("DeferredOutcome", "Outcome") == repr(full)
    assert lazy.to_json() == full.to_json()
