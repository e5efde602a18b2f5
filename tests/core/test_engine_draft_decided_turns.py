"""The decided draft re-evaluates only its decided turns (issue 13: a decision in a
50,000-operation session): a turn nobody decided in is all skipped whatever the tree, so
its result and checkpoint are taken as they stand instead of walking it.

Differential: random multi-file sessions, random decisions, undos, redos and outside
changes of the base; after each step both runs (changed incrementally) equal runs
evaluated from scratch, and the decided turns the draft keeps count of are the turns
with a decision.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_engine_incremental import assert_same, file_blocks, keys_of, make_tree, sessions

from reviewtui.core.engine import Decision, Policy, evaluate_session
from reviewtui.core.engine.decisions import OpKey
from reviewtui.core.engine.session import SessionRun
from reviewtui.core.model.records import ConsoleCommand
from reviewtui.core.protocol.session import parse_session

PATHS = ["a.txt", "b.txt", "d/c.txt", "d/e/f.txt", "g/h.txt"]
WORDS = ["one", "two", "three", "two", "four", "five"]

line = st.sampled_from(WORDS)


turn_blocks = st.lists(file_blocks(PATHS, WORDS, whole_one_in=5), min_size=1, max_size=3)
one_in_ten = st.integers(0, 9)
commands = st.sampled_from([":rm a.txt", ":mv b.txt d/b.txt", ":undo"])


@st.composite
def turn(draw: st.DrawFn) -> str:
    text = "".join(draw(turn_blocks))
    if draw(one_in_ten) == 0:  # now and then a command: evaluated whole from it on
        command = draw(commands)
        text += f"```console\n{command}\n```\n"
    return text


session_text = sessions(turn(), max_turns=14)


base_files = st.dictionaries(
    st.sampled_from(["a.txt", "b.txt", "d/c.txt", "d/e/f.txt"]),
    st.lists(line, min_size=1, max_size=6).map(lambda ls: "\n".join(ls) + "\n"),
    min_size=1,
)

decision = st.sampled_from([
    Decision(), Decision.accept(), Decision.accept(), Decision.accept(force=True),
    Decision.reject(), Decision.edit(("five", "one")),
])


def decided_by_hand(run: SessionRun) -> list[int]:
    return [pos for pos, t in enumerate(run.session.turns)
            if any((t.index, p) in run.decisions for p in range(len(t.reply.ops)))]


@pytest.mark.slow
@settings(max_examples=80, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=session_text, files=base_files, data=st.data())
def test_decide_undo_redo_equal_full_evaluation(text: str, files: dict[str, str],
                                                data: st.DataObject) -> None:
    session = parse_session(text)
    keys = keys_of(session)
    base = make_tree(files)
    draft = evaluate_session(session, base, policy=Policy.decided_only())
    display = evaluate_session(session, base, policy=Policy.headless())
    decisions: dict[OpKey, Decision] = {}
    done: list[dict[OpKey, Decision]] = []  # the decisions before each step, for undo
    undone: list[dict[OpKey, Decision]] = []
    for _ in range(data.draw(st.integers(1, 10))):
        kind = data.draw(st.sampled_from(["decide", "decide", "decide", "undo", "redo",
                                          "base"]))
        if kind == "undo" and done:
            undone.append(decisions)
            decisions = done.pop()
        elif kind == "redo" and undone:
            done.append(decisions)
            decisions = undone.pop()
        elif kind == "base":
            files = dict(files) | data.draw(base_files)
            base = make_tree(files)
            draft.rebase(base)
            display.rebase(base)
        elif keys:
            done.append(decisions)
            undone.clear()
            decisions = dict(decisions)
            for key in data.draw(st.lists(st.sampled_from(keys), min_size=1, max_size=3)):
                choice = data.draw(decision)
                if choice == Decision():
                    decisions.pop(key, None)
                else:
                    decisions[key] = choice
        draft.update(decisions)
        display.update(decisions)
        assert_same(draft, evaluate_session(session, base, policy=Policy.decided_only(),
                                            decisions=decisions))
        assert_same(display, evaluate_session(session, base, policy=Policy.headless(),
                                              decisions=decisions))
        assert draft._decided_turns().order == decided_by_hand(draft)
        assert draft.plan.commands == [pos for pos, t in enumerate(session.turns) if any(
            isinstance(op, ConsoleCommand) for op in t.reply.ops)]
        assert [t.index for t in draft.decided_turns()] == [
            session.turns[pos].index for pos in decided_by_hand(draft)]


def counted(run: SessionRun) -> list[int]:
    """The positions of the turns the run re-evaluates (or reuses) one by one."""
    calls: list[int] = []
    original: Callable[..., Any] = run._partial_turn

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[0])
        return original(*args, **kwargs)

    run._partial_turn = counting  # type: ignore[method-assign]
    return calls


def test_a_draft_decision_visits_only_the_decided_turns() -> None:
    turns = []
    for i in range(1, 301):
        path = f"f{i % 3}.txt"
        turns.append(f"## Turn {i}\n--- File: {path} ---\n<<<<<<< SEARCH\nx{i}\n=======\n"
                     f"x{i + 3}\n>>>>>>> REPLACE\n")
    session = parse_session("".join(turns))
    base = make_tree({"f0.txt": "x3\n", "f1.txt": "x1\n", "f2.txt": "x2\n"})
    decisions = {(4, 0): Decision.accept(), (200, 0): Decision.reject(),
                 (250, 0): Decision.accept()}
    run = evaluate_session(session, base, policy=Policy.decided_only(), decisions=decisions)
    calls = counted(run)
    # The changed turn and the decided turns after it (by position): not the turns between.
    for key, visited in (((1, 0), [0, 3, 199, 249]), ((7, 0), [6, 199, 249])):
        decisions = decisions | {key: Decision.accept()}
        calls.clear()
        run.update(decisions)
        assert calls == visited
        assert_same(run, evaluate_session(session, base, policy=Policy.decided_only(),
                                          decisions=decisions))
    calls.clear()
    del decisions[(1, 0)]  # undone: the turn is visited once more, then skipped again
    run.update(decisions)
    assert calls == [0, 3, 6, 199, 249]
    assert_same(run, evaluate_session(session, base, policy=Policy.decided_only(),
                                      decisions=decisions))
    assert [t.index for t in run.decided_turns()] == [4, 7, 200, 250]
    assert [t.index for t in run.decided_turns(upto=199)] == [4, 7]


def test_a_console_command_after_a_decision_still_evaluates_whole() -> None:
    # Moves, removals and the undo stack carry state between turns: from the first
    # affected turn on, a session with a command is evaluated whole (see reevaluate).
    session = parse_session(
        "## Turn 1\n--- File: a.txt ---\n<<<<<<< SEARCH\none\n=======\ntwo\n>>>>>>> REPLACE\n"
        "## Turn 2\n--- File: c.txt ---\n```\nnew\n```\n"
        "## Turn 3\n```console\n:mv a.txt b.txt\n```\n"
        "## Turn 4\n--- File: b.txt ---\n<<<<<<< SEARCH\ntwo\n=======\nthree\n>>>>>>> REPLACE\n")
    base = make_tree({"a.txt": "one\n"})
    for policy in (Policy.headless(), Policy.decided_only()):
        run = evaluate_session(session, base, policy=policy)
        whole: list[int] = []
        original: Callable[..., Any] = run._evaluate_turn

        def counting(turn: Any, *args: Any, original: Callable[..., Any] = original,
                     whole: list[int] = whole) -> Any:
            whole.append(turn.index)
            return original(turn, *args)

        run._evaluate_turn = counting  # type: ignore[method-assign]
        decisions = {(1, 0): Decision.reject(), (4, 0): Decision.accept(force=True)}
        run.update(decisions)
        assert whole == [1, 2, 3, 4]
        assert_same(run, evaluate_session(session, base, policy=policy, decisions=decisions))
