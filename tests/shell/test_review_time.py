"""The reviewer's time per decision: measured, saved with the decision, shown in the stats."""

from __future__ import annotations

import shutil
from pathlib import Path

from reviewtui.core.engine import Decision
from reviewtui.core.review.stats import session_stats, stats_lines
from reviewtui.shell.export import accepted_from_review
from reviewtui.shell.review import Review
from reviewtui.shell.state import read_time_spent

TOUR = Path(__file__).resolve().parents[2] / "sample_sessions" / "workshop-tour"


class Clock:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def test_time_per_decision_is_saved_and_counted(tmp_path: Path) -> None:
    root = tmp_path / "root"
    shutil.copytree(TOUR / "base", root)
    state = tmp_path / "review.json"
    clock = Clock()
    with Review.open(TOUR, root, state_path=state) as review:
        review.clock = clock
        review._since = clock()  # the test's clock starts now
        clock.now += 12.0
        review.decide((1, 0), Decision.accept())
        clock.now += 30.0
        review.decide_many([((2, 1), Decision.accept()), ((2, 2), Decision.reject())])
        clock.now += 5.0
        review.undo()  # time on an undo is not counted against the next decision
        clock.now += 4.0
        review.decide((3, 0), Decision.accept())
        spent = review.time_spent()
        assert spent == {(1, 0): 12.0, (2, 1): 15.0, (2, 2): 15.0, (3, 0): 4.0}
        stats = session_stats(accepted_from_review(review), spent)
    assert read_time_spent(state) == spent  # saved with the decisions
    assert stats.total.review_seconds == 46.0
    assert stats.total.timed == 4
    assert [t.review_seconds for t in stats.turns[:3]] == [12.0, 30.0, 4.0]
    text = "\n".join(stats_lines([stats]))
    assert "review time" in text
    assert "46s over 4 decisions (~12s each)" in text


def test_no_state_means_no_timing(tmp_path: Path) -> None:
    assert read_time_spent(tmp_path / "missing.json") == {}
    (tmp_path / "bad.json").write_text("{not json")
    assert read_time_spent(tmp_path / "bad.json") == {}
