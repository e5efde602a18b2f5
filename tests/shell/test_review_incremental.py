"""Review's runs, changed incrementally by decisions, undo, redo and outside changes,
equal runs evaluated from scratch; the disk holds the decided draft."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reviewtui.core.engine import Decision, Policy, evaluate_session
from reviewtui.core.engine.session import SessionRun
from reviewtui.shell.review import Review

FILES = {"a.txt": "one\ntwo\nthree\n", "b.txt": "four\nfive\n", "d/c.txt": "six\n"}
SESSION = """\
## Turn 1
> go

--- File: a.txt ---
<<<<<<< SEARCH
two
=======
TWO
>>>>>>> REPLACE
--- File: b.txt ---
<<<<<<< SEARCH
four
=======
FOUR
>>>>>>> REPLACE

## Turn 2
> go

--- File: a.txt ---
<<<<<<< SEARCH
TWO
=======
2
>>>>>>> REPLACE
--- File: d/c.txt ---
```
seven
```

## Turn 3
> go

```console
:mv b.txt e.txt
```
--- File: a.txt ---
<<<<<<< SEARCH
three
=======
3
>>>>>>> REPLACE
--- File: e.txt ---
<<<<<<< SEARCH
five
=======
5
>>>>>>> REPLACE
"""
KEYS = [(1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1), (3, 2)]

step = st.one_of(
    st.tuples(st.just("decide"), st.sampled_from(KEYS),
              st.sampled_from([Decision.accept(), Decision.reject(), Decision()])),
    st.tuples(st.just("undo"), st.none(), st.none()),
    st.tuples(st.just("redo"), st.none(), st.none()),
    st.tuples(st.just("outside"), st.sampled_from(["a.txt", "b.txt", "d/c.txt"]),
              st.sampled_from(["zero\n", "one\ntwo\nthree\nfour\n"])),
)


def same_run(got: SessionRun, want: SessionRun) -> None:
    assert [t.results for t in got.turns] == [t.results for t in want.turns]
    assert [t.ledger for t in got.turns] == [t.ledger for t in want.turns]
    assert [s.tree for s in got.states] == [s.tree for s in want.states]
    assert [s.tree.revision for s in got.states] == [s.tree.revision for s in want.states]


@settings(max_examples=25, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(steps=st.lists(step, min_size=1, max_size=6))
def test_review_runs_equal_fresh_runs(tmp_path_factory: object, steps: list) -> None:  # type: ignore[type-arg]
    session, root = write_project(Path(tmp_path_factory.mktemp("inc")))  # type: ignore[attr-defined]
    with Review.open(session, root, persist=False) as review:
        for kind, arg, value in steps:
            assert take_step(review, root, kind, arg, value)
            decisions = review.decisions
            for run, policy in ((review.display, Policy.headless()),
                                (review.draft, Policy.decided_only())):
                fresh = evaluate_session(review.session, review.base, rules=review.rules,
                                         policy=policy, decisions=decisions)
                same_run(run, fresh)


def write_project(work: Path) -> tuple[Path, Path]:
    """The session file (``SESSION``) and the project root (``FILES``) under ``work``."""
    root = work / "root"
    for path, text in FILES.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    session = work / "s.md"
    session.write_text(SESSION)
    return session, root


def take_step(review: Review, root: Path, kind: str, arg: object, value: object) -> bool:
    """One step of the properties here: ``decide`` (``arg`` the key, ``value`` the
    decision), ``undo``, ``redo``, ``restore`` (``arg`` the checkpoint) or ``outside``
    (``value`` the text written to ``arg``, None: deleted). False: not one of them."""
    if kind == "decide":
        review.decide_many([(arg, value)], skip_unappliable=True)  # type: ignore[list-item]
    elif kind == "undo":
        review.undo()
    elif kind == "redo":
        review.redo()
    elif kind == "restore":
        review.restore(min(int(arg), review.checkpoint_count - 1))  # type: ignore[call-overload]
    elif kind == "outside":
        target = root / str(arg)
        if value is None:
            target.unlink(missing_ok=True)
        else:
            target.write_text(str(value))
        review.outside_changed([str(arg)])
    else:
        return False
    return True
