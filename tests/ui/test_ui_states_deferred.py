"""States while the display's later turns are still being re-evaluated after a change.

With a turn in focus (the workbench), a change re-evaluates the display at once only
around it (``Review.focus_on``, ``shell/evaluation.py`` ``AHEAD``); the screen's states keep
the later turns' states from before, marked stale (``stale_from``), and the background's
steps bring them up to date (``review_states(review, known)``). Random walks of decisions,
undos, redos and outside changes, with a random focus and a window of one turn so that
small sessions stop short: at every step the stale part is exactly what was shown before,
and once caught up -- at once, in steps, or only when the next change finishes the walk
-- everything equals a computation from scratch.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from functools import partial
from pathlib import Path

import pytest
from test_ui_states_kept_ops import _two_files
from test_workbench_states_incremental import _diverged
from uikit import copy_session, review_step

from reviewtui.core.engine import Decision
from reviewtui.shell import evaluation
from reviewtui.shell.review import Review
from reviewtui.ui.screens.review_states import ReviewStates, review_states

STEPS = ("accept", "reject", "reject", "undo", "redo", "outside")


def _fresh(review: Review) -> ReviewStates:
    """The states computed from scratch (the display is whole here)."""
    assert review.evaluation_complete
    return review_states(review)


def walk(source: Path, tmp_path: Path, seed: int) -> tuple[int, int]:
    """(steps checked, steps that stopped short)."""
    session, root = copy_session(source, tmp_path / f"s{seed}")
    rng = random.Random(seed)
    checked = stopped = 0
    with Review.open(session, root) as review:
        numbers = [turn.index for turn in review.session.turns]
        states = review_states(review)
        keys = [r.key for turn in review.display.turns for r in turn.results]
        for _ in range(20):
            review.focus_on(rng.choice(numbers))
            step = rng.choice(STEPS)
            if not review_step(review, step, partial(rng.choice, keys)):  # outside
                written = sorted({p for turn in review.display.turns for r in turn.results
                                  if isinstance(p := getattr(r.op, "path", None), str)
                                  and (root / p).is_file()})
                path = rng.choice(written)
                (root / path).write_bytes(b"outside\n" + (root / path).read_bytes())
                review.outside_changed([path])
            after = review_states(review, before=states)
            if after.stale_from is not None:
                stopped += 1
                cut = after.stale_from
                assert cut == review.evaluated_turns < len(numbers)
                assert after.turns[cut:] == states.turns[cut:]  # as shown before
                assert len(after.turns) == len(numbers)
                # The counts and marks still add up over what is shown.
                assert sum(after.counts.values()) == sum(len(t) for t in after.turns)
                how = rng.choice(["steps", "at once", "later"])
                if how == "steps":  # as the background does, a few turns at a time
                    while not review.evaluation_complete:
                        review.evaluation.step(0.0)
                        after = review_states(review, after)
                elif how == "at once":
                    review.finish_evaluation()
                    after = review_states(review, after)
            if after.stale_from is None:
                fresh = _fresh(review)
                assert after == fresh, step
                assert after.basis == fresh.basis
            # else left waiting: the next change finishes the walk first, then its states
            # are computed from these (stale ones included) and checked
            states = after
            checked += 1
        review.finish_evaluation()
        assert review_states(review, states) == review_states(review)
    return checked, stopped


@pytest.mark.parametrize("make", [_diverged, lambda tmp: _two_files(tmp, 10)],
                         ids=["diverged", "two files"])
def test_stale_states_are_kept_and_caught_up_to_the_full_ones(
        make: Callable[[Path], Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # (sessions without console commands: a change before one is evaluated whole)
    monkeypatch.setattr(evaluation, "AHEAD", 0)
    source = make(tmp_path)
    total = [walk(source, tmp_path, seed) for seed in range(6)]
    assert sum(checked for checked, _ in total) == 120
    assert sum(stopped for _, stopped in total) >= 20  # the walks did stop short


def test_a_stale_turn_whose_operation_left_a_conflict_is_computed_again(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A change can take an operation of a later turn into or out of a conflict without
    changing its result: while that turn waits, its old state stays; once evaluated, it
    must be computed again although its result is the very same object."""
    from reviewtui.core.engine.opstate import OpState
    from reviewtui.core.record import replace

    monkeypatch.setattr(evaluation, "AHEAD", 0)
    session, root = copy_session(_two_files(tmp_path, 10), tmp_path / "copy")
    with Review.open(session, root) as review:
        review.focus_on(1)
        shown = review_states(review)
        # As if turn 8's b.py operation had been shown in conflict before the change.
        b_result = review.display.turns[7].results[1]
        held = b_result.key
        turns = list(shown.turns)
        turns[7] = [turns[7][0], OpState.CONFLICT]
        before = replace(shown, turns=turns, conflicted=frozenset({held}))
        review.decide(review.display.turns[0].results[0].key, Decision.reject())
        assert review.evaluated_turns < 8  # turn 8 waits
        after = review_states(review, before=before)
        assert after.stale_from == review.evaluated_turns
        assert after.turns[7][1] is OpState.CONFLICT  # as shown, for now
        review.finish_evaluation()
        # The very same result: only the conflict set says its state must be made again.
        assert review.display.turns[7].results[1] is b_result
        caught = review_states(review, after)
        assert caught.turns[7][1] is OpState.PENDING
        assert caught == review_states(review)
