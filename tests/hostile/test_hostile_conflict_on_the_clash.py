"""Property: a conflict is never hidden, and the decision that made one is on it.

A conflict names the operations that clash (QA pass s29, helper-90 F1: it named every
decided operation of the path, so a move's conflict sat on an edit written long before,
and an ``:undo`` that clashed read accepted). Narrowing it must never hide one. Hypothesis
drives edits, moves and an undo of one file against outside writes to both of its names;
after every step:

* every operation a conflict names reads CONFLICT;
* a path in conflict with decided operations on it names at least one;
* an accept (or reject) that brings a new conflict on a path it acts on is named by it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diskkit import Cmd, Ed, assert_conflicts_shown, make_project, write_session
from reviewtui.core.engine import Decision, OpKey, OpResult
from reviewtui.core.errors import DecisionRefused
from reviewtui.core.review.plan import op_path
from reviewtui.shell.review import Review

FILES = {"calc.py": "a = 1\nb = 2\nc = 3\n", "app.py": "import calc\n"}
TURNS = [
    [Ed("calc.py", "a = 1", "a = 10")],
    [Ed("calc.py", "c = 3", "c = 30")],
    [Cmd(":mv calc.py pricing.py"), Ed("app.py", "import calc", "import pricing")],
    [Ed("pricing.py", "b = 2", "b = 20")],
    [Cmd(":undo")],
]
KEYS: list[OpKey] = [(1, 0), (2, 0), (3, 0), (3, 1), (4, 0), (5, 0)]
steps = st.lists(st.one_of(
    st.tuples(st.just("decide"), st.sampled_from(KEYS), st.sampled_from(["accept", "reject"])),
    st.tuples(st.just("undo")),
    st.tuples(st.just("write"), st.sampled_from(["calc.py", "pricing.py"]),
              st.sampled_from([b"a = 1\nb = 2\nc = 3\n# kept\n", b"z = 0\n",
                               b"a = 10\nb = 2\nc = 3\n"])),
), min_size=1, max_size=9)


def _paths(result: OpResult) -> set[str]:
    found = {path for change in result.outcome.changes for path in change if path}
    path = op_path(result)
    return found | {path} if path else found


def _check(review: Review, decided: OpKey | None, before: set[str]) -> None:
    assert_conflicts_shown(review)
    decisions = review._folded.decisions()
    for path, conflict in review.conflicts.items():
        if (decided is not None and path not in before and decided in decisions
                and path in _paths(review.result(decided))):
            assert decided in conflict.ops, f"{decided} made {path}'s conflict"


EXAMPLES = int(os.environ.get("REVIEWTUI_PROPERTY_EXAMPLES", "60"))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(steps)
def test_a_conflict_is_on_the_decision_that_made_it(plan: list[tuple[Any, ...]]) -> None:
    with tempfile.TemporaryDirectory() as base:
        session = write_session(Path(base) / "session", TURNS)
        root = make_project(Path(base) / "proj", dict(FILES))
        review = Review.open(session, root, persist=False)
        try:
            for step in plan:
                before = set(review.conflicts)
                decided = None
                if step[0] == "decide":
                    decided = step[1]
                    try:
                        review.decide(decided, Decision.accept() if step[2] == "accept"
                                      else Decision.reject())
                    except DecisionRefused:
                        decided = None
                elif step[0] == "undo":
                    review.undo()
                else:
                    target = root / step[1]
                    if not target.exists():
                        continue
                    target.write_bytes(step[2])
                    review.outside_changed([step[1]])
                _check(review, decided, before)
        finally:
            review.close()
