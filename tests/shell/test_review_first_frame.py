"""Review.open(first_frame=True): only the turns the first frame shows are evaluated at
open; evaluate_step does the rest. Whatever happens in between (decisions, undo, redo,
outside changes, steps), the runs are what a full evaluation gives, as far as they go,
and the disk is what an eagerly opened review writes."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reviewtui.core.engine import Decision, Policy, evaluate_session
from reviewtui.core.engine.session import SessionRun
from reviewtui.shell.review import Review

FILES = {"a.txt": "one\ntwo\nthree\n", "b.txt": "four\nfive\n", "d/c.txt": "six\n"}


def _edit(path: str, old: str, new: str) -> str:
    return f"--- File: {path} ---\n<<<<<<< SEARCH\n{old}\n=======\n{new}\n>>>>>>> REPLACE\n"


SESSION = "".join([
    "## Turn 1\n> go\n\n", _edit("a.txt", "two", "TWO"), _edit("b.txt", "four", "FOUR"),
    "\n## Turn 2\n> go\n\n", _edit("a.txt", "TWO", "2"),
    "--- File: d/c.txt ---\n```\nseven\n```\n",
    "\n## Turn 3\n> go\n\n", "```console\n:mv b.txt e.txt\n```\n", _edit("a.txt", "three", "3"),
    "\n## Turn 4\n> go\n\n", _edit("e.txt", "five", "5"),
    "\n## Turn 5\n> go\n\n", _edit("a.txt", "one", "1"), _edit("d/c.txt", "seven", "7"),
])
KEYS = [(1, 0), (1, 1), (2, 0), (2, 1), (3, 0), (3, 1), (4, 0), (5, 0), (5, 1)]

step = st.one_of(
    st.tuples(st.just("decide"), st.sampled_from(KEYS),
              st.sampled_from([Decision.accept(), Decision.reject(), Decision()])),
    st.tuples(st.just("step"), st.none(), st.none()),
    st.tuples(st.just("undo"), st.none(), st.none()),
    st.tuples(st.just("redo"), st.none(), st.none()),
    st.tuples(st.just("outside"), st.sampled_from(["a.txt", "b.txt", "d/c.txt"]),
              st.sampled_from(["zero\n", "one\ntwo\nthree\nfour\n"])),
)


def make(work: Path, name: str) -> tuple[Path, Path]:
    root = work / name
    for path, text in FILES.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)
    session = work / f"{name}.md"
    session.write_text(SESSION)
    return session, root


def prefix_of(got: SessionRun, want: SessionRun) -> None:
    """``got`` evaluated as far as it goes equals the full evaluation ``want``."""
    n = len(got.turns)
    assert [t.results for t in got.turns] == [t.results for t in want.turns[:n]]
    assert [t.ledger for t in got.turns] == [t.ledger for t in want.turns[:n]]
    assert [s.tree for s in got.states] == [s.tree for s in want.states[: n + 1]]


def files(root: Path) -> dict[str, bytes]:
    return {p.relative_to(root).as_posix(): p.read_bytes()
            for p in sorted(root.rglob("*")) if p.is_file()}


def test_open_evaluates_only_the_first_turn(tmp_path: Path) -> None:
    session, root = make(tmp_path, "root")
    with Review.open(session, root, persist=False, first_frame=True) as review:
        assert review.evaluated_turns == 1
        assert not review.evaluation_complete
        assert review.checkpoint_count == 6  # the draft (what goes on disk) is whole
        counts = []
        while review.evaluate_step(0.0):  # a zero budget still evaluates a turn
            counts.append(review.evaluated_turns)
        # Turn by turn, then the session's plan (session_plan.py: the first decision
        # would build it otherwise), a few turns of it a step, while nothing else waits.
        assert counts[:3] == [2, 3, 4]
        assert counts[3:]
        assert set(counts[3:]) == {5}
        assert review.evaluation.display.plan.ready
        assert review.evaluation.draft.plan is review.evaluation.display.plan
        assert review.evaluated_turns == 5
        assert review.evaluation_complete
        assert review.evaluate_step(0.0) is False


def test_a_decision_evaluates_no_further_than_evaluation_had_got(tmp_path: Path) -> None:
    session, root = make(tmp_path, "root")
    with Review.open(session, root, persist=False, first_frame=True) as review:
        review.evaluate_through(3)  # turn 3 moves a file: its turns re-evaluate whole
        review.decide((3, 1), Decision.accept())
        review.decide((1, 0), Decision.reject())
        assert review.evaluated_turns == 3
        assert (root / "a.txt").read_text() == "one\ntwo\n3\n"


def test_an_outside_change_is_handled_as_after_a_full_evaluation(tmp_path: Path) -> None:
    """Without console commands, the paths later turns name are known unevaluated: an
    outside change to one is a session path's, as it is once everything is evaluated."""
    text = (SESSION.split("\n## Turn 3")[0] + "\n## Turn 3\n> go\n\n"
            + _edit("z.txt", "zed", "ZED"))
    reports = []
    for name, first_frame in (("lazy", True), ("eager", False)):
        session, root = make(tmp_path, name)
        session.write_text(text)
        (root / "z.txt").write_text("zed\n")
        with Review.open(session, root, persist=False, first_frame=first_frame) as review:
            (root / "z.txt").write_text("zed\nmore\n")
            reports.append(review.outside_changed(["z.txt"]).events)
            if first_frame:
                assert review.evaluated_turns == 1  # nothing evaluated for it
            review.decide((3, 0), Decision.accept())
            assert (root / "z.txt").read_text() == "ZED\nmore\n"
    assert reports[0] == reports[1]
    assert [path for path, _ in reports[0]] == ["z.txt"]


def test_a_headless_open_evaluates_everything(tmp_path: Path) -> None:
    session, root = make(tmp_path, "root")
    with Review.open(session, root, persist=False) as review:
        assert review.evaluation_complete
        assert review.evaluated_turns == 5


def test_asking_for_a_later_turn_evaluates_up_to_it(tmp_path: Path) -> None:
    session, root = make(tmp_path, "root")
    with Review.open(session, root, persist=False, first_frame=True) as review:
        assert review.outcome((4, 0)).status.value == "applied"
        assert review.evaluated_turns == 4
        review.evaluate_through(5)
        assert review.evaluation_complete


def test_the_saved_selection_is_evaluated_for_the_first_frame(tmp_path: Path) -> None:
    session, root = make(tmp_path, "root")
    state = tmp_path / "state.json"
    with Review.open(session, root, state_path=state) as review:
        review.ui_state = {"selected": [3, 0], "checkpoint": 3}
        review.save_ui_state()
    with Review.open(session, root, state_path=state, first_frame=True) as review:
        assert review.evaluated_turns == 3


@pytest.mark.parametrize("budget", [0.0, 10.0])
def test_a_decision_before_evaluation_finished_lands_as_after(tmp_path: Path,
                                                              budget: float) -> None:
    lazy_session, lazy_root = make(tmp_path, "lazy")
    eager_session, eager_root = make(tmp_path, "eager")
    with Review.open(lazy_session, lazy_root, persist=False, first_frame=True) as lazy, \
            Review.open(eager_session, eager_root, persist=False) as eager:
        for review in (lazy, eager):
            review.decide_many([((1, 0), Decision.accept()), ((5, 0), Decision.accept())])
        lazy.evaluate_step(budget)
        assert files(lazy_root) == files(eager_root)
        assert files(lazy_root)["a.txt"] == b"1\nTWO\nthree\n"


@settings(max_examples=30, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(steps=st.lists(step, min_size=1, max_size=8))
def test_stepwise_evaluation_equals_a_full_one(tmp_path_factory: pytest.TempPathFactory,
                                               steps: list[tuple[str, object, object]]) -> None:
    work = tmp_path_factory.mktemp("ff")
    lazy_session, lazy_root = make(work, "lazy")
    eager_session, eager_root = make(work, "eager")
    with Review.open(lazy_session, lazy_root, persist=False, first_frame=True) as lazy, \
            Review.open(eager_session, eager_root, persist=False) as eager:
        for kind, arg, value in steps:
            for review, root in ((lazy, lazy_root), (eager, eager_root)):
                if kind == "decide":
                    assert isinstance(arg, tuple)
                    assert isinstance(value, Decision)
                    review.decide_many([(arg, value)], skip_unappliable=True)
                elif kind == "step":
                    review.evaluate_step(0.0)
                elif kind == "undo":
                    review.undo()
                elif kind == "redo":
                    review.redo()
                else:
                    assert isinstance(arg, str)
                    assert isinstance(value, str)
                    (root / arg).write_text(value)
                    review.outside_changed([arg])
            assert lazy.decisions == eager.decisions
            assert files(lazy_root) == files(eager_root)
            fresh = {policy: evaluate_session(lazy.session, lazy.base, rules=lazy.rules,
                                              policy=policy, decisions=lazy.decisions)
                     for policy in (Policy.headless(), Policy.decided_only())}
            prefix_of(lazy.display, fresh[Policy.headless()])
            prefix_of(lazy.draft, fresh[Policy.decided_only()])
            assert len(lazy.draft.turns) == 5
        lazy.finish_evaluation()
        prefix_of(lazy.display, eager.display)
        assert len(lazy.display.turns) == 5
        assert [lazy.outcome(k) for k in KEYS] == [eager.outcome(k) for k in KEYS]
    shutil.rmtree(work)
