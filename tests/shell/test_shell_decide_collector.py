"""A decision is evaluated with the collector paused (``Review._evaluate_from``,
``loader.gc_paused``): at 50,000 operations the collector's walks over the thousands of
records a decision replaces were 20-40% of its time. Nothing is frozen after it: in the
workbench a freeze would also take in the screen's objects of the moment, whose cycles
would then never be freed (a leak of hundreds of objects a key)."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from reviewtui.core.engine import Decision
from reviewtui.shell.evaluation import Evaluation
from reviewtui.shell.review import Review

SESSION = """\
## Turn 1
> go

--- File: a.txt ---
<<<<<<< SEARCH
two
=======
TWO
>>>>>>> REPLACE

## Turn 2
> go

--- File: a.txt ---
<<<<<<< SEARCH
TWO
=======
2
>>>>>>> REPLACE
"""


@pytest.mark.usefixtures("collector_on")
def test_decisions_undo_and_redo_evaluate_with_the_collector_paused(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("one\ntwo\n")
    session = tmp_path / "session.md"
    session.write_text(SESSION)
    seen: list[bool] = []
    update = Evaluation.update

    def watched(self: Evaluation, *args: object, **kwargs: object) -> None:
        seen.append(gc.isenabled())
        update(self, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(Evaluation, "update", watched)
    with Review.open(session, root, persist=False) as review:
        review.decide((1, 0), Decision.reject("no"))
        assert review.result((2, 0)).outcome.status.value == "not_found"
        freezes: list[bool] = []
        monkeypatch.setattr(gc, "freeze", lambda: freezes.append(True))
        review.undo()
        review.redo()
        review.decide((2, 0), Decision.reject("no"))
        assert freezes == []  # decisions freeze nothing
        assert gc.isenabled()
    assert seen
    assert not any(seen)
    assert (root / "a.txt").read_text() == "one\ntwo\n"
