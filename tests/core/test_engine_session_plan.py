"""The session's plan (core/engine/session_plan.py): built a few turns at a time it is the
plan built whole, and the review's two runs share one.

The oracle is written here from the plan's definition (execution order from
``core/engine/order.py``, paths normalised as the engine does), not from the module's
own loop: a chunked build that drops, repeats or reorders a turn, or a path index built
from a partial plan, fails here.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_engine_incremental import base_files, decision, keys_of, make_tree, session_text

from reviewtui.core.engine.decisions import Decision, OpKey
from reviewtui.core.engine.file_edits import normalize_or_none
from reviewtui.core.engine.order import ancestors, execution_order
from reviewtui.core.engine.results import Rules
from reviewtui.core.engine.session_plan import SessionPlan
from reviewtui.core.model.records import ConsoleCommand, Session
from reviewtui.core.protocol.session import parse_session
from reviewtui.shell.evaluation import Evaluation


def expected(session: Session) -> tuple[list[list[tuple[int, str | None]]],
                                        list[tuple[frozenset[str], frozenset[str]]],
                                        list[int], dict[int, int]]:
    steps: list[list[tuple[int, str | None]]] = []
    touch: list[tuple[frozenset[str], frozenset[str]]] = []
    commands: list[int] = []
    for at, turn in enumerate(session.turns):
        row = []
        names: set[str] = set()
        dirs: set[str] = set()
        for pos, op in execution_order(turn):
            path = None if isinstance(op, ConsoleCommand) else normalize_or_none(op.path)
            row.append((pos, path))
            if path:
                names.add(path)
                dirs.update(ancestors(path))
        steps.append(row)
        touch.append((frozenset(names), frozenset(dirs)))
        if any(isinstance(op, ConsoleCommand) for op in turn.reply.ops):
            commands.append(at)
    positions = {turn.index: at for at, turn in enumerate(session.turns)}
    return steps, touch, commands, positions


def assert_plan(plan: SessionPlan, session: Session) -> None:
    steps, touch, commands, positions = expected(session)
    assert [[(s.pos, s.path) for s in row] for row in plan.steps] == steps
    assert all(s.op is session.turns[at].reply.ops[s.pos]
               for at, row in enumerate(plan.steps) for s in row)
    assert all(s.above == (ancestors(s.path) if s.path else ())
               for row in plan.steps for s in row)
    assert plan.touch == touch
    assert plan.commands == commands
    assert plan.positions == positions
    for path in {p for names, _ in touch for p in names}:
        assert plan.touches.names[path] == [at for at, (names, _) in enumerate(touch)
                                            if path in names]


@settings(max_examples=150, deadline=None)
@given(text=session_text, chunks=st.lists(st.integers(0, 4), min_size=1, max_size=12))
def test_a_plan_built_in_chunks_is_the_plan_built_whole(text: str, chunks: list[int]) -> None:
    session = parse_session(text)
    plan = SessionPlan(session)
    assert not plan.ready
    calls = 0
    for size in chunks:
        calls += 1
        if not plan.build_some(size):
            break
    for _ in range(len(session.turns) + 2):  # on to the end, one turn at a time
        if not plan.build_some(1):
            break
        calls += 1
    assert plan.ready
    # Each call builds at least one turn: the chunks cannot stall.
    assert calls <= len(session.turns) + 1 + len(chunks)
    assert plan.build_some(3) is False  # nothing left
    assert_plan(plan, session)
    whole = SessionPlan(session)
    assert_plan(whole, session)  # read directly: built whole on first use
    assert not whole.build_some(1)  # (built whole by the reads above)


@settings(max_examples=60, deadline=None)
@given(text=session_text, files=base_files, split=st.integers(0, 5),
       choices=st.lists(st.tuples(st.integers(0, 30), decision), max_size=4))
def test_both_runs_share_one_plan_built_half_then_used(
        text: str, files: dict[str, str], split: int,
        choices: list[tuple[int, Decision]]) -> None:
    """A plan left half built by the background (build_some) and then needed whole by a
    decision gives the runs exactly what a fresh plan gives, and both runs read it."""
    session = parse_session(text)
    evaluation = Evaluation(session, make_tree(files), Rules())
    assert evaluation.draft.plan is evaluation.display.plan
    evaluation.start(make_tree(files), Rules(), {})
    evaluation.display.plan.build_some(split)
    keys = keys_of(session)
    decisions: dict[OpKey, Decision] = {}
    for at, choice in choices:
        if keys:
            decisions[keys[at % len(keys)]] = choice
    evaluation.display.update(decisions)
    evaluation.draft.update(decisions)
    assert evaluation.draft.plan is evaluation.display.plan
    assert_plan(evaluation.display.plan, session)
    fresh = Evaluation(session, make_tree(files), Rules())
    fresh.start(make_tree(files), Rules(), decisions)
    for mine, theirs in ((evaluation.display, fresh.display), (evaluation.draft, fresh.draft)):
        assert [t.results for t in mine.turns] == [t.results for t in theirs.turns]
        assert [s.tree for s in mine.states] == [s.tree for s in theirs.states]
