"""The review screen's states after a job are computed only for the turns it changed.

Whatever sequence of decisions, undos, redos and outside changes: the states computed
from the ones before (``before=``) equal the states computed from scratch.
"""

from __future__ import annotations

import contextlib
import random
from pathlib import Path

from uikit import GALLERY, TOUR, copy_session

from reviewtui.core.engine import Decision
from reviewtui.core.errors import DecisionRefused
from reviewtui.shell.review import Review
from reviewtui.ui.screens.review_states import review_states

CONFLICTS: list[int] = []  # per step checked, how many operations were in conflict


def walk(source: Path, tmp_path: Path, seed: int) -> int:
    session, root = copy_session(source, tmp_path / f"s{seed}")
    rng = random.Random(seed)
    checked = 0
    with Review.open(session, root) as review:
        states = review_states(review)
        keys = [r.key for turn in review.display.turns for r in turn.results]
        for _ in range(25):
            step = rng.choice(["accept", "accept", "reject", "undo", "redo", "outside"])
            if step == "accept":
                with contextlib.suppress(DecisionRefused):  # a refused accept: no change
                    review.decide(rng.choice(keys), Decision.accept())
            elif step == "reject":
                review.decide(rng.choice(keys), Decision.reject())
            elif step == "undo":
                review.undo()
            elif step == "redo":
                review.redo()
            else:  # an outside change to a file an operation writes
                written = {getattr(r.op, "path", None) for turn in review.display.turns
                           for r in turn.results}
                paths = sorted(p for p in written if isinstance(p, str) and (root / p).is_file())
                path = rng.choice(paths)
                how = rng.choice(["prepend", "overwrite", "delete"])
                if how == "delete":
                    (root / path).unlink()
                else:
                    (root / path).write_bytes(b"outside\n" + (
                        (root / path).read_bytes() if how == "prepend" else b""))
                review.outside_changed([path])
            after = review_states(review, before=states)
            assert after == review_states(review), step
            assert after.basis == review_states(review).basis
            states = after
            checked += 1
            CONFLICTS.append(len(after.conflicted))
    return checked


def test_incremental_states_equal_full_ones_on_the_tour(tmp_path: Path) -> None:
    CONFLICTS.clear()
    assert sum(walk(TOUR, tmp_path, seed) for seed in range(4)) == 100
    # The walk went into conflicts and out of them (the states a conflict overrides).
    assert any(CONFLICTS)
    assert any(a and not b for a, b in zip(CONFLICTS, CONFLICTS[1:], strict=False))


def test_incremental_states_equal_full_ones_on_the_gallery(tmp_path: Path) -> None:
    assert sum(walk(GALLERY, tmp_path, seed) for seed in range(4)) == 100
