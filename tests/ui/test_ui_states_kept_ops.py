"""A changed turn's states keep each operation's state whose result is the very same
object (and whose draft reading is the same): a reject re-evaluates one operation of each
later turn naming its file, and the screen's job computed all of that turn's states again.

The states so computed must equal the states computed from scratch; the walks of
``test_workbench_states_incremental`` check that, here over more seeds of the session
where accepts land in the draft and not in the display (seeds 106, 111, 119, 145, 156 and
160 fail when the draft's reading is not compared).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from test_workbench_states_incremental import _diverged, walk
from uikit import copy_session

from reviewtui.core.engine import Decision
from reviewtui.shell.review import Review
from reviewtui.ui.screens import review_states as module
from reviewtui.ui.screens.review_states import review_states


def test_kept_states_equal_full_ones_where_only_the_draft_changes(tmp_path: Path) -> None:
    source = _diverged(tmp_path)
    steps = ("accept", "accept", "reject", "pending", "undo", "redo")
    assert sum(walk(source, tmp_path, seed, steps=steps) for seed in range(100, 165)) == 1625


def _two_files(tmp_path: Path, turns: int) -> Path:
    """Each turn edits a.py and b.py; a reject of turn 1's a.py edit re-evaluates every
    later a.py edit and keeps every b.py result."""
    source = tmp_path / "two"
    (source / "base").mkdir(parents=True)
    (source / "base" / "a.py").write_text("".join(f"a{n} = 0\n" for n in range(turns + 1)))
    (source / "base" / "b.py").write_text("".join(f"b{n} = 0\n" for n in range(turns + 1)))
    body = "# Session: two files\n"
    for n in range(1, turns + 1):
        body += f"\n## Turn {n}\n> Change {n}.\n"
        for name in ("a", "b"):
            body += (f"\n--- File: {name}.py ---\n<<<<<<< SEARCH\n{name}{n} = 0\n=======\n"
                     f"{name}{n} = {n}\n>>>>>>> REPLACE\n")
    (source / "session.md").write_text(body)
    return source


def test_a_reject_computes_the_state_of_the_re_evaluated_operations_only(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    turns = 12
    session, root = copy_session(_two_files(tmp_path, turns), tmp_path / "copy")
    asked: list[object] = []
    real = module.op_state

    def counting(*args: object, **kwargs: object) -> object:
        asked.append(args[0])
        return real(*args, **kwargs)  # type: ignore[arg-type]

    with Review.open(session, root) as review:
        before = review_states(review)
        first = review.display.turns[0].results[0]
        review.decide(first.key, Decision.reject())
        monkeypatch.setattr(module, "op_state", counting)
        after = review_states(review, before=before)
        monkeypatch.undo()
        assert after == review_states(review)
        # Every turn changed (its a.py result is new); the b.py results are the same
        # objects: one state computed per turn, not two.
        changed = [pos for pos, turn in enumerate(review.display.turns)
                   if turn.results is not before.basis[pos].results]
        assert len(changed) == turns
        assert len(asked) == turns
        assert all(getattr(result.op, "path", "") == "a.py" for result in asked)


def test_counts_and_marks_read_the_states_as_their_properties_say() -> None:
    """``_counts`` and ``turn_mark`` look states up in sets; the oracle is the properties
    (``failed``, ``decided``) read one by one, on every list of up to three states."""
    from itertools import product

    from reviewtui.core.engine.opstate import OpState

    for size in range(4):
        for states in product(list(OpState), repeat=size):
            row = list(states)
            failed = sum(1 for s in row if s.failed)
            rejected = sum(1 for s in row if not s.failed and s is OpState.REJECTED)
            accepted = sum(1 for s in row if not s.failed and s is not OpState.REJECTED
                           and s.decided)
            assert module._counts(row) == (size - failed - rejected - accepted, accepted,
                                           rejected, failed)
            mark = ("empty" if not row else "failed" if any(s.failed for s in row)
                    else "decided" if all(s.decided for s in row) else "pending")
            assert module.turn_mark(row) == mark


def test_the_state_sets_are_the_documented_ones() -> None:
    from reviewtui.core.engine.opstate import DECIDED_STATES, FAILED_STATES, OpState

    assert {s for s in OpState if s.decided} == {OpState.ACCEPTED, OpState.FORCED,
                                                 OpState.REJECTED, OpState.EDITED}
    assert {s for s in OpState if s.failed} == {OpState.AMBIGUOUS, OpState.NOT_FOUND,
                                                OpState.REFUSED, OpState.CONFLICT}
    assert DECIDED_STATES.isdisjoint(FAILED_STATES)
