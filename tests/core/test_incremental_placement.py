"""Incremental re-evaluation and the reviewer's own kinds of accept.

A plain accept of an operation whose outcome is already known can be patched into the run
without evaluating anything; a placement (or a rewritten SEARCH) changes the outcome
itself, so it must be evaluated: the run must agree with a fresh evaluation.
"""

from __future__ import annotations

from reviewtui.core.engine import Decision, Policy, evaluate_session
from reviewtui.core.importers import import_session
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.tree import FileState, Tree

SESSION = """# Session: t

## Turn 1
> r

--- File: a.txt ---
<<<<<<< SEARCH
x = 1
=======
x = 2
>>>>>>> REPLACE

### Changed files:
- a.txt
"""


def _run() -> tuple[object, Tree]:
    session = import_session(SESSION, "s.md")
    base = Tree.from_files({"a.txt": FileState.from_bytes(b"x = 1\ny = 0\nx = 1\n")})
    return session, base


def test_a_placement_on_an_ambiguous_edit_is_evaluated_incrementally_as_in_full() -> None:
    session, base = _run()
    run = evaluate_session(session, base, policy=Policy.headless())  # type: ignore[arg-type]
    assert run.turns[0].results[0].outcome.status is Status.AMBIGUOUS
    for decision in (Decision.place((3, 3), ("x = 1",)),
                     Decision(Decision.accept().verdict, search=("y = 0", "x = 1"))):
        run.update({(1, 0): decision})
        fresh = evaluate_session(session, base, policy=Policy.headless(),  # type: ignore[arg-type]
                                 decisions={(1, 0): decision})
        assert run.turns[0].results[0] == fresh.turns[0].results[0]
        assert run.states[-1].tree.get("a.txt") == fresh.states[-1].tree.get("a.txt")
        assert run.turns[0].results[0].landed
