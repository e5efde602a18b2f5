"""Undoing a plain accept in the display run re-evaluates nothing when the pending
operation lands the same (the reverse of an accept that already lands pending): only
the result's decision changes, and the run equals a full evaluation."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from reviewtui.core.engine import Decision, Policy, evaluate_session
from reviewtui.core.engine.decisions import PENDING, OpKey
from reviewtui.core.engine.session import SessionRun
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.protocol.session import parse_session


def long_session() -> tuple[str, Tree]:
    turns = []
    for i in range(1, 31):
        path = "a.txt" if i % 2 else "b.txt"
        turns.append(f"## Turn {i}\n--- File: {path} ---\n<<<<<<< SEARCH\nx{i}\n=======\n"
                     f"x{i + 2}\n>>>>>>> REPLACE\n")
    base = Tree.from_files({"a.txt": FileState.from_bytes(b"x1\n"),
                            "b.txt": FileState.from_bytes(b"x2\n")})
    return "".join(turns), base


def counted(run: SessionRun) -> list[OpKey]:
    calls: list[OpKey] = []
    original: Callable[..., Any] = run._file_op

    def counting(*args: Any, **kwargs: Any) -> Any:
        calls.append(args[1])
        return original(*args, **kwargs)

    run._file_op = counting  # type: ignore[method-assign]
    return calls


def same(run: SessionRun, full: SessionRun) -> None:
    assert [t.results for t in run.turns] == [t.results for t in full.turns]
    assert [t.ledger for t in run.turns] == [t.ledger for t in full.turns]
    assert [s.tree for s in run.states] == [s.tree for s in full.states]
    assert [s.tree.revision for s in run.states] == [s.tree.revision for s in full.states]


def test_undoing_a_plain_accept_in_the_display_evaluates_nothing() -> None:
    text, base = long_session()
    session = parse_session(text)
    run = evaluate_session(session, base, policy=Policy.headless())
    for accept in (Decision.accept(), Decision.accept(force=True)):
        run.update({(3, 0): accept})
        assert run.turns[2].results[0].decision == accept
        calls = counted(run)
        run.update({})  # the accept undone: the pending edit lands the same
        assert calls == []
        assert run.turns[2].results[0].decision == PENDING
        same(run, evaluate_session(session, base, policy=Policy.headless()))
        del run._file_op


def test_undoing_an_accept_in_the_draft_re_evaluates_its_file() -> None:
    """Pending operations are skipped in the decided-only draft: the undone accept's
    file changes from that turn on."""
    text, base = long_session()
    session = parse_session(text)
    decisions = {(1, 0): Decision.accept(), (3, 0): Decision.accept()}
    draft = evaluate_session(session, base, policy=Policy.decided_only(), decisions=decisions)
    assert draft.final.get("a.txt") == FileState.from_bytes(b"x5\n")
    calls = counted(draft)
    del decisions[(3, 0)]
    draft.update(decisions)
    assert (3, 0) in calls
    assert all(turn % 2 == 1 for turn, _ in calls)  # a.txt only
    assert draft.turns[2].results[0].landed is False
    assert draft.final.get("a.txt") == FileState.from_bytes(b"x3\n")
    same(draft, evaluate_session(session, base, policy=Policy.decided_only(),
                                 decisions=decisions))


def test_undoing_an_edited_accept_re_evaluates_its_file() -> None:
    text, base = long_session()
    session = parse_session(text)
    run = evaluate_session(session, base, policy=Policy.headless(),
                           decisions={(3, 0): Decision.edit(("x99",))})
    calls = counted(run)
    run.update({})
    assert (3, 0) in calls
    assert all(turn % 2 == 1 for turn, _ in calls)  # a.txt only
    same(run, evaluate_session(session, base, policy=Policy.headless()))


def test_a_skipped_turn_of_the_draft_keeps_the_checkpoint_before_it() -> None:
    """Re-evaluating the draft after an undo: a later turn that is all pending changed
    nothing before and changes nothing now; its checkpoint is the one before it (shared,
    as a full evaluation leaves it), not a copy patched with the changed file."""
    text, base = long_session()
    session = parse_session(text)
    decisions = {(1, 0): Decision.accept(), (3, 0): Decision.accept()}
    draft = evaluate_session(session, base, policy=Policy.decided_only(), decisions=decisions)
    del decisions[(3, 0)]
    draft.update(decisions)
    full = evaluate_session(session, base, policy=Policy.decided_only(), decisions=decisions)
    same(draft, full)
    for pos in range(3, len(draft.turns)):  # turns 4.. are pending: skipped in the draft
        assert full.states[pos + 1].tree is full.states[pos].tree
        assert draft.states[pos + 1].tree is draft.states[pos].tree
