"""After a decision only the rows, states and statuses that changed are touched.

On a 5,000-turn session a key must not walk every turn on the event loop nor copy a
status per operation: these tests check that what the screen shows stays exactly what a
full recomputation would show.
"""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st
from uikit import GALLERY, TOUR, copy_session

from reviewtui.core.engine import Decision
from reviewtui.core.errors import DecisionRefused
from reviewtui.shell.review import Review
from reviewtui.ui.screens.main_cursor import changed_positions
from reviewtui.ui.screens.review_states import ReviewStates, review_states


@given(st.lists(st.integers(0, 3), max_size=12), st.lists(st.integers(0, 3), max_size=12))
def test_changed_positions_are_the_items_not_kept(before_ids: list[int],
                                                  after_ids: list[int]) -> None:
    pool = [[n] for n in range(4)]  # equal lists, told apart by identity only
    before = [pool[n] for n in before_ids]
    after = [pool[n] if n % 2 else [n] for n in after_ids]  # odd: the very list kept
    expected = [pos for pos, item in enumerate(after)
                if pos >= len(before) or before[pos] is not item]
    assert list(changed_positions(before, after)) == expected


def statuses_shown(review: Review) -> dict[tuple[int, int], object]:
    return {(tp, opp): result.outcome.status
            for tp, turn in enumerate(review.display.turns)
            for opp, result in enumerate(turn.results)}


def check_statuses(states: ReviewStates, shown: dict[tuple[int, int], object],
                   review: Review) -> None:
    for (tp, opp), status in shown.items():
        key = review.display.turns[tp].results[opp].key
        assert states.status_at(tp, opp, key) is status
        assert states.status_at(tp, opp, (key[0], key[1] + 1000)) is None  # not its key
    assert states.status_at(len(review.display.turns), 0, (10**6, 0)) is None


def test_status_at_is_the_status_each_operation_had(tmp_path: Path) -> None:
    """The statuses the screen compares an outside change against (``status_at``) are
    those of the results the states were computed from, also after incremental steps."""
    for n, source in enumerate((TOUR, GALLERY)):
        session, root = copy_session(source, tmp_path / f"s{n}")
        rng = random.Random(n)
        with Review.open(session, root) as review:
            states = review_states(review)
            keys = [r.key for turn in review.display.turns for r in turn.results]
            for _ in range(12):
                step = rng.choice(("accept", "reject", "undo", "redo"))
                if step == "accept":
                    with contextlib.suppress(DecisionRefused):
                        review.decide(rng.choice(keys), Decision.accept())
                elif step == "reject":
                    review.decide(rng.choice(keys), Decision.reject())
                elif step == "undo":
                    review.undo()
                else:
                    review.redo()
                shown = statuses_shown(review)
                states = review_states(review, before=states)
                check_statuses(states, shown, review)
