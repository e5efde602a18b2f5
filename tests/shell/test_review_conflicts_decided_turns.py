"""The replay's conflicts are computed from the draft's decided turns only (issue 13: a
step in a 50,000-operation session); they equal the conflicts computed from every turn
on disk, through random decisions, undos, redos, restores and outside changes."""

from __future__ import annotations

from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_review_incremental import KEYS, take_step, write_project

from reviewtui.core.engine import Decision
from reviewtui.core.review.plan import compute_conflicts, deleted_message
from reviewtui.shell.outside import still_on_disk
from reviewtui.shell.replay import conflicts_in
from reviewtui.shell.review import Review

step = st.one_of(
    st.tuples(st.just("decide"), st.sampled_from(KEYS),
              st.sampled_from([Decision.accept(), Decision.accept(), Decision.reject(),
                               Decision()])),
    st.tuples(st.just("undo"), st.none(), st.none()),
    st.tuples(st.just("redo"), st.none(), st.none()),
    st.tuples(st.just("restore"), st.integers(0, 3), st.none()),
    st.tuples(st.just("outside"), st.sampled_from(["a.txt", "b.txt", "d/c.txt", "e.txt"]),
              st.sampled_from(["zero\n", "one\nTWO\nthree\nfour\n", "one\nTOO\nthree\nfour\n",
                               "one\nzwei\nthree\n", "2\n3\n", None])),
)


@settings(max_examples=60, deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(steps=st.lists(step, min_size=2, max_size=10))
def test_conflicts_from_decided_turns_equal_all_turns(tmp_path_factory: object,
                                                      steps: list) -> None:  # type: ignore[type-arg]
    session, root = write_project(Path(tmp_path_factory.mktemp("conf")))  # type: ignore[attr-defined]
    with Review.open(session, root, persist=False) as review:
        run_steps(review, root, steps)


def run_steps(review: Review, root: Path, steps: list) -> None:  # type: ignore[type-arg]
    """Each step, then the conflicts from the decided turns against those from all."""
    for kind, arg, value in steps:
        assert take_step(review, root, kind, arg, value)
        records = review._records
        on_disk = review.evaluation.turns_on_disk(review._folded.pin)
        tree = review._target()
        every = still_on_disk(review, compute_conflicts(
            review.draft.turns[:on_disk], tree, records, review._unwritable,
            lambda path, records=records: deleted_message(path, records.get(path))))
        assert conflicts_in(review, tree) == every
        assert review.conflicts == every


def test_an_outside_edit_conflict_names_its_decided_operation(tmp_path: Path) -> None:
    session, root = write_project(tmp_path)
    with Review.open(session, root, persist=False) as review:
        run_steps(review, root, [
            ("decide", (1, 0), Decision.accept()),
            ("outside", "a.txt", "one\nTWO\nthree\nfour\n"),
            ("decide", (2, 0), Decision.accept()),
            ("outside", "a.txt", "one\nTOO\nthree\nfour\n"),
            ("undo", None, None),
        ])
        # The undone accept's change is still on disk: it is named too (still_on_disk).
        assert [(c.kind.value, c.ops) for c in review.conflicts.values()] == [
            ("outside-edit", ((1, 0), (2, 0)))]
