"""The decided draft's turn index counts a turn as decided as soon as any of its operations
has an entry in the decisions, even an explicit "pending" one.

Found by tests/core/test_engine_incremental.py after the draft began skipping undecided
turns (core/engine/decided.py): an entry set to pending changes no value, so ``update``
left it out of the keys that changed, and the index never counted its turn. A later
accept of that operation changed a value but not the entry's presence, so the turn
stayed "undecided", and the draft kept its old result and checkpoint. The run then
disagreed with a full evaluation, and with the disk.
"""

from __future__ import annotations

from reviewtui.core.engine import Decision, Policy, evaluate_session
from reviewtui.core.engine.decisions import OpKey, Verdict
from reviewtui.core.engine.session import SessionRun
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.protocol.session import parse_session

SESSION = ("## Turn 1\n> go\n\n--- File: a.txt ---\n```\none\n```\n"
           "## Turn 2\n> go\n\n--- File: b.txt ---\n```\ntwo\n```\n")
PENDING = Decision(Verdict.PENDING)


def _tree(files: dict[str, str]) -> Tree:
    return Tree.from_files({p: FileState.from_bytes(t.encode()) for p, t in files.items()})


def _same_as_full(run: SessionRun, base: Tree, decisions: dict[OpKey, Decision]) -> None:
    full = evaluate_session(run.session, base, policy=Policy.decided_only(),
                            decisions=decisions)
    assert [t.results for t in run.turns] == [t.results for t in full.turns]
    assert [tuple(t.ledger) for t in run.turns] == [tuple(t.ledger) for t in full.turns]
    assert [s.tree for s in run.states] == [s.tree for s in full.states]
    assert [s.tree.revision for s in run.states] == [s.tree.revision for s in full.states]


def test_an_accept_after_an_explicit_pending_entry_lands_in_the_draft() -> None:
    session = parse_session(SESSION)
    base = _tree({})
    run = evaluate_session(session, base, policy=Policy.decided_only())
    assert run.decided_turns() == []  # the index is counted here, then kept up to date
    decisions: dict[OpKey, Decision] = {}
    for step in (PENDING, Decision.accept()):
        decisions[(1, 0)] = step
        run.update(dict(decisions))
        _same_as_full(run, base, decisions)
    assert run.states[-1].tree.get("a.txt") is not None  # the accepted file is in the draft
    base = base.apply({"a.txt": FileState.from_bytes(b"one\n")})
    run.rebase(base)
    _same_as_full(run, base, decisions)


def test_an_entry_that_goes_while_pending_leaves_its_turn_undecided() -> None:
    session = parse_session(SESSION)
    base = _tree({"a.txt": "zero\n"})
    run = evaluate_session(session, base, policy=Policy.decided_only())
    assert run.decided_turns() == []
    decisions: dict[OpKey, Decision] = {(2, 0): PENDING}
    run.update(dict(decisions))
    del decisions[(2, 0)]  # gone, still "pending" by value
    run.update(dict(decisions))
    decisions[(1, 0)] = Decision.accept()
    run.update(dict(decisions))
    _same_as_full(run, base, decisions)
    assert [len(t.results) for t in run.decided_turns()] == [1]  # turn 1 alone
