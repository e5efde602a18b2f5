"""Issue 15: failed edits resolved in place. `c` shows each location of an ambiguous
edit, `y` places the edit exactly there: recorded, undoable, kept over a reopen, and
never applied anywhere else once the chosen lines change."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from uikit import open_app, screen_of, state_at

from reviewtui.core.engine import Decision
from reviewtui.core.engine.opstate import OpState
from reviewtui.core.errors import DecisionRefused
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.tree import FileState
from reviewtui.shell.review import Review

SIZE = (120, 40)
AMBIGUOUS = (1, 1)  # gallery turn 2, Edit 2: `item["qty"] = 0` at lines 23-24 and 29-30
MISSED = (1, 0)  # gallery turn 2, Edit 1: SEARCH not found, one close candidate

pytestmark = pytest.mark.anyio


def _qty_lines(root: Path) -> list[str]:
    return [line for line in (root / "app.py").read_text().splitlines() if '"qty"] =' in line]


async def test_ambiguous_edit_placed_at_location_2_survives_reopen(
        gallery: tuple[Path, Path]) -> None:
    session, root = gallery
    original = (root / "app.py").read_text().splitlines()
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen_of(app).select(*AMBIGUOUS)
        await pilot.pause()
        await pilot.press("c")  # location 2 of 2
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert state_at(app, *AMBIGUOUS) is OpState.ACCEPTED
        outcome = screen_of(app).review.outcome((2, 1))
        assert outcome.status is Status.APPLIED
        assert outcome.message == "placed by reviewer at lines 29-30"
    lines = (root / "app.py").read_text().splitlines()
    assert lines[23] == '        item["qty"] = 0'  # location 1 untouched
    assert lines[29] == '        item["qty"] = None'  # location 2 written
    assert lines[:29] == original[:29]
    saved = json.loads(next(session.glob("*.review.json")).read_text())
    item = saved["log"][-1]["items"][0]
    assert item["placement"] == [29, 30]
    assert item["anchor"] == ["    for item in items:", '        item["qty"] = 0']
    with Review.open(session, root) as review:  # reopened: the same placement holds
        assert review.outcome((2, 1)).status is Status.APPLIED
        assert (root / "app.py").read_text().splitlines() == lines


async def test_placement_is_one_undo_step(gallery: tuple[Path, Path]) -> None:
    session, root = gallery
    before = (root / "app.py").read_bytes()
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen_of(app).select(*AMBIGUOUS)
        await pilot.press("y")  # location 1
        await pilot.pause()
        assert _qty_lines(root) == ['        item["qty"] = None', '        item["qty"] = 0']
        await pilot.press("u")
        await pilot.pause()
        assert (root / "app.py").read_bytes() == before
        assert state_at(app, *AMBIGUOUS) is OpState.AMBIGUOUS


def test_a_changed_region_never_takes_the_placement_elsewhere(
        gallery: tuple[Path, Path]) -> None:
    session, root = gallery
    original = (root / "app.py").read_text()
    anchor = tuple(original.splitlines()[28:30])  # what lines 29-30 held when placed
    # The file changed there: the SEARCH is now unique (at lines 23-24), yet the
    # placement named lines 29-30 as they were.
    changed = original.replace('def restock(items):\n    for item in items:\n'
                               '        item["qty"] = 0',
                               'def restock(items):\n    for item in items:\n'
                               '        item["qty"] = 5')
    with Review.open(session, root, dry_run=True) as review:
        assert review.outcome((2, 1)).status is Status.AMBIGUOUS
        review.decide((2, 1), Decision.place((29, 30), anchor))  # lands there, as chosen
        assert review.outcome((2, 1)).status is Status.APPLIED
        # Then the file changes outside: lines 29-30 no longer hold what was chosen.
        (root / "app.py").write_text(changed)
        report = review.outside_changed(["app.py"])
        assert (2, 1) not in review.decisions  # the placement was taken back: pending
        assert [key for key, _ in report.reverted] == [(2, 1)]
        drafted = review.draft.states[-1].tree.get("app.py")
        assert drafted is not None
        assert drafted.data == changed.encode()  # not written at 23-24 either
        # A new placement on text the lines do not hold is refused outright.
        with pytest.raises(DecisionRefused):
            review.decide((2, 1), Decision.place((29, 30), anchor))


async def test_missed_edit_placed_at_its_candidate(gallery: tuple[Path, Path]) -> None:
    session, root = gallery
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        screen.select(*MISSED)
        await pilot.pause()
        assert screen.review.outcome((2, 0)).status is Status.NOT_FOUND
        await pilot.press("y")
        await pilot.pause()
        outcome = screen.review.outcome((2, 0))
        assert outcome.status is Status.APPLIED
        assert outcome.message.startswith("placed by reviewer at lines")
    text = (root / "app.py").read_text()
    assert 'def load(path, strict=True):\n    with open(path, encoding="utf-8") as handle:' in text


def test_fileops_export_carries_the_placement_as_a_unique_edit(
        gallery: tuple[Path, Path]) -> None:
    from reviewtui.core.export import render
    from reviewtui.shell.export import accepted_from_review

    session, root = gallery
    with Review.open(session, root) as review:
        before = review.result((2, 1)).outcome.before_state
        assert isinstance(before, FileState)
        review.decide((2, 1), Decision.place((29, 30), tuple(before.lines[28:30])))
        text = render(accepted_from_review(review), "fileops")
    turn2 = text.split("## Turn 2")[1].split("## Turn 3")[0]
    # What the model should have sent: a SEARCH that is unique, reaching restock().
    assert "<<<<<<< SEARCH\ndef restock(items):" in turn2
    assert '        item["qty"] = None\n>>>>>>> REPLACE' in turn2


async def test_editing_the_search_reruns_the_cascade(gallery: tuple[Path, Path]) -> None:
    from textual.widgets import TextArea

    session, root = gallery
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        screen.select(*MISSED)
        await pilot.pause()
        await pilot.press("ctrl+e")
        await pilot.pause()
        area = app.screen.query_one(TextArea)
        assert area.text == "def load(path, strict):\n    with open(path) as handle:"
        area.text = "def load(path):\n    with open(path) as handle:"  # what the file has
        await pilot.press("ctrl+s")
        await pilot.pause()
        outcome = screen.review.outcome((2, 0))
        assert outcome.status is Status.APPLIED
        assert outcome.method == "exact"
        # The notice names the new landing (it read the outcome before the decision and
        # named other lines: QA pass s32, F15).
        said = [n.message for n in app._notifications if "SEARCH edited" in n.message]
        assert said == [f"SEARCH edited: applied - {outcome.message}"], said
        await pilot.press("u")
        await pilot.pause()
        assert screen.review.outcome((2, 0)).status is Status.NOT_FOUND
        await pilot.press("U")
        await pilot.pause()
    text = (root / "app.py").read_text()
    assert 'def load(path, strict=True):\n    with open(path, encoding="utf-8") as handle:' in text
    saved = json.loads(next(session.glob("*.review.json")).read_text())
    assert saved["log"][-1]["kind"] == "redo"
    searched = [item for entry in saved["log"] if entry["kind"] == "decide"
                for item in entry["items"] if "search" in item]
    assert searched[0]["search"] == ["def load(path):", "    with open(path) as handle:"]
    with Review.open(session, root) as review:  # reopened: the same SEARCH is used
        assert review.outcome((2, 0)).status is Status.APPLIED
