"""Incremental re-evaluation gives exactly what a full evaluation gives.

Random sessions (edits, full files, structural commands over a few small files), random
sequences of decisions, undos and outside changes of the base: after each step the run
changed through :meth:`SessionRun.update` / :meth:`SessionRun.rebase` must equal a run
evaluated from scratch - outcomes, checkpoints (content and revision), undo stacks,
removed-file stores and the ledger.
"""

from __future__ import annotations

from collections.abc import Sequence

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reviewtui.core.engine import Decision, Policy, evaluate_session
from reviewtui.core.engine.decisions import OpKey
from reviewtui.core.engine.session import SessionRun
from reviewtui.core.model.records import Session
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.protocol.session import parse_session

PATHS = ["a.txt", "b.txt", "d/c.txt", "d"]
WORDS = ["one", "two", "three", "two", "four"]

line = st.sampled_from(WORDS)


def file_blocks(paths: Sequence[str], words: Sequence[str] = WORDS, *, whole_one_in: int = 2,
                max_edits: int = 2) -> st.SearchStrategy[str]:
    """One ``--- File:`` block on one of ``paths``, lines made of ``words``: a whole file
    one time in ``whole_one_in``, else 1 to ``max_edits`` SEARCH/REPLACE edits (the
    engine's property tests share it, each with its own paths)."""
    # Every strategy is built here once, not at each draw: hypothesis validates a new
    # strategy object when it is first drawn from, which cost more than the drawing.
    word = st.sampled_from(list(words))
    some = st.lists(word, min_size=1, max_size=3)
    maybe_none = st.lists(word, max_size=3)
    path_of = st.sampled_from(list(paths))
    whole = st.integers(0, whole_one_in - 1)
    edit_count = st.integers(1, max_edits)

    @st.composite
    def block(draw: st.DrawFn) -> str:
        path = draw(path_of)
        if draw(whole) == 0:
            body = "\n".join(draw(some))
            # (a blank line after it, as models write: a header right after a bare closing
            # fence is held as a sample's, core/protocol/cut.py)
            return f"--- File: {path} ---\n```\n{body}\n```\n\n"
        edits = []
        for _ in range(draw(edit_count)):
            search = "\n".join(draw(some))
            replace = "\n".join(draw(maybe_none))
            replace_part = f"{replace}\n" if replace else ""
            edits.append(f"<<<<<<< SEARCH\n{search}\n=======\n{replace_part}>>>>>>> REPLACE\n")
        return f"--- File: {path} ---\n" + "".join(edits)

    return block()


def sessions(turns: st.SearchStrategy[str], *, min_turns: int = 1,
             max_turns: int = 6) -> st.SearchStrategy[str]:
    """A File Ops session of ``turns`` (each a reply's body), numbered from 1."""
    return st.lists(turns, min_size=min_turns, max_size=max_turns).map(
        lambda bodies: "".join(f"## Turn {i}\n> go\n\n{body}"
                               for i, body in enumerate(bodies, 1)))


command = st.one_of(
    st.builds(lambda a, b: f":mv {a} {b}", st.sampled_from(PATHS), st.sampled_from(PATHS)),
    st.builds(lambda a: f":rm {a}", st.sampled_from(PATHS)),
    st.just(":undo"),
    st.builds(lambda a: f":unrm {a}", st.sampled_from(PATHS)),
)


turn_blocks = st.lists(file_blocks(PATHS), min_size=1, max_size=3)
turn_commands = st.lists(command, max_size=2)
one_in_four = st.integers(0, 3)


@st.composite
def turn(draw: st.DrawFn) -> str:
    blocks = draw(turn_blocks)
    commands = draw(turn_commands) if draw(one_in_four) == 0 else []
    text = "".join(blocks)
    if commands:
        text += "```console\n" + "\n".join(commands) + "\n```\n"
    return text


session_text = sessions(turn())


base_files = st.dictionaries(
    st.sampled_from(["a.txt", "b.txt", "d/c.txt"]),
    st.lists(line, min_size=1, max_size=5).map(lambda ls: "\n".join(ls) + "\n"),
)

decision = st.sampled_from([
    Decision(), Decision.accept(), Decision.accept(force=True), Decision.reject(),
    Decision.edit(("four", "one")),
])


def make_tree(files: dict[str, str]) -> Tree:
    return Tree.from_files({p: FileState.from_bytes(t.encode()) for p, t in files.items()})


def assert_same(inc: SessionRun, full: SessionRun) -> None:
    assert len(inc.turns) == len(full.turns)
    for got, want in zip(inc.turns, full.turns, strict=True):
        assert got.results == want.results
        assert got.ledger == want.ledger
    assert len(inc.states) == len(full.states)
    for got_state, want_state in zip(inc.states, full.states, strict=True):
        assert got_state.tree == want_state.tree
        assert got_state.tree.revision == want_state.tree.revision
        for path, state in want_state.tree.items():
            mine = got_state.tree.get(path)
            assert mine is not None
            assert mine.revision == state.revision
        assert got_state.undo_stack == want_state.undo_stack
        assert dict(got_state.removed) == dict(want_state.removed)
    assert inc.moved == full.moved


def keys_of(session: Session) -> list[OpKey]:
    return [(t.index, pos) for t in session.turns for pos in range(len(t.reply.ops))]


@pytest.mark.slow
@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=session_text, files=base_files, pending_joins=st.booleans(),
       data=st.data())
def test_incremental_equals_full(text: str, files: dict[str, str], pending_joins: bool,
                                 data: st.DataObject) -> None:
    session = parse_session(text)
    keys = keys_of(session)
    policy = Policy.headless() if pending_joins else Policy.decided_only()
    base = make_tree(files)
    run = evaluate_session(session, base, policy=policy)
    decisions: dict[OpKey, Decision] = {}
    history: list[dict[OpKey, Decision]] = []
    for _ in range(data.draw(st.integers(1, 6))):
        step = data.draw(st.sampled_from(["decide", "decide", "undo", "base"]))
        if step == "undo" and history:
            decisions = history.pop()
        elif step == "base":
            changed = dict(files)
            changed.update(data.draw(base_files))
            for gone in data.draw(st.lists(st.sampled_from(sorted(files) or ["a.txt"]))):
                changed.pop(gone, None)
            files = changed
            base = make_tree(files) if data.draw(st.booleans()) else base.apply(
                {p: FileState.from_bytes(t.encode()) for p, t in files.items()}
                | {p: None for p in base.paths() if p not in files})
            run.rebase(base)
        elif keys:
            history.append(dict(decisions))
            for key in data.draw(st.lists(st.sampled_from(keys), min_size=1, max_size=3)):
                decisions[key] = data.draw(decision)
        run.update(decisions)
        assert_same(run, evaluate_session(session, base, policy=policy, decisions=decisions))
        draft = SessionRun(session, run.base, policy=Policy.decided_only())
        draft.decisions = dict(decisions)
        if draft.adopt(run):  # no pending operation landed in run: the same evaluation
            assert_same(draft, evaluate_session(session, base, policy=Policy.decided_only(),
                                                decisions=decisions))
        # Partly: what the other policy treats otherwise is evaluated again, with what
        # it affects; either way round (the workbench opens its draft from its display).
        other = Policy.headless() if not pending_joins else Policy.decided_only()
        mirror = SessionRun(session, run.base, policy=other)
        mirror.decisions = dict(decisions)
        assert mirror.adopt(run, partial=True)
        assert_same(mirror, evaluate_session(session, base, policy=other, decisions=decisions))


@settings(max_examples=100, deadline=None)
@given(text=session_text, files=base_files, data=st.data())
def test_single_decide_equals_full(text: str, files: dict[str, str],
                                   data: st.DataObject) -> None:
    session = parse_session(text)
    keys = keys_of(session)
    base = make_tree(files)
    run = evaluate_session(session, base, policy=Policy.headless())
    for key in data.draw(st.lists(st.sampled_from(keys), max_size=4)) if keys else []:
        choice = data.draw(decision)
        run.decide(key, choice)
        full = evaluate_session(session, base, policy=Policy.headless(),
                                decisions=run.decisions)
        assert_same(run, full)


def alternating(count: int) -> str:
    """Turns 1..count, odd ones editing a.txt and even ones b.txt, each edit landing (over
    :data:`ALTERNATING_BASE`)."""
    turns = []
    for i in range(1, count + 1):
        path = "a.txt" if i % 2 else "b.txt"
        turns.append(f"## Turn {i}\n--- File: {path} ---\n<<<<<<< SEARCH\nx{i}\n=======\n"
                     f"x{i + 2}\n>>>>>>> REPLACE\n")
    return "".join(turns)


ALTERNATING_BASE = {"a.txt": "x1\n", "b.txt": "x2\n"}


def count_file_ops(run: SessionRun) -> list[OpKey]:
    """The keys of the file operations ``run`` evaluates from now on, in order."""
    calls: list[OpKey] = []
    original = run._file_op

    def counting(*args, **kwargs):  # type: ignore[no-untyped-def]
        calls.append(args[1])
        return original(*args, **kwargs)

    run._file_op = counting  # type: ignore[method-assign]
    return calls


def test_a_decision_late_in_a_long_session_evaluates_only_its_file() -> None:
    session = parse_session(alternating(40))
    base = make_tree(ALTERNATING_BASE)
    run = evaluate_session(session, base, policy=Policy.headless())
    calls = count_file_ops(run)
    decisions = {(21, 0): Decision.reject()}
    run.update(decisions)
    assert calls
    assert all(turn % 2 == 1 and turn >= 21 for turn, _ in calls)
    assert len(calls) == 10  # turns 21, 23, ..., 39: a.txt only
    assert_same(run, evaluate_session(session, base, policy=Policy.headless(),
                                      decisions=decisions))
