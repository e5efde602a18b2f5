"""After a decision only the rows, states and statuses that changed are touched.

On a 5,000-turn session a key must not walk every turn on the event loop nor copy a
status per operation: these tests check that what the screen shows stays exactly what a
full recomputation would show.
"""

from __future__ import annotations

import random
from functools import partial
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from rich.text import Text
from uikit import GALLERY, TOUR, copy_session, open_app, review_step, screen_of, state_at

from reviewtui.core.engine.opstate import OpState
from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.messages import FilesChanged
from reviewtui.ui.screens.main_cursor import changed_positions
from reviewtui.ui.screens.review_states import ReviewStates, review_states
from reviewtui.ui.widgets.lists import OpList, TurnList
from reviewtui.ui.widgets.timeline import Timeline


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
                review_step(review, rng.choice(("accept", "reject", "undo", "redo")),
                            partial(rng.choice, keys))
                shown = statuses_shown(review)
                states = review_states(review, before=states)
                check_statuses(states, shown, review)


def flat_next_op(flat: list[tuple[int, int]], here: tuple[int, int],
                 delta: int) -> tuple[int, int] | None:
    """Where J (``delta`` 1) or K (-1) went when it listed every operation first."""
    if here in flat:
        return flat[max(0, min(len(flat) - 1, flat.index(here) + delta))]
    ahead = [at for at in flat if (at[0] > here[0]) == (delta > 0) and at[0] != here[0]]
    return (ahead[0] if delta > 0 else ahead[-1]) if ahead else None


EMPTY_MIDDLE = """# Session: a turn without operations between two

## Turn 1
> Edit a.

--- File: a.py ---
<<<<<<< SEARCH
x = 1
=======
x = 2
>>>>>>> REPLACE

## Turn 2
> Just talk.

No operations here.

## Turn 3
> Edit a again.

--- File: a.py ---
<<<<<<< SEARCH
y = 1
=======
y = 2
>>>>>>> REPLACE
"""


@pytest.mark.anyio
@pytest.mark.parametrize("source", ["tour", "gallery", "empty-middle"])
async def test_next_and_previous_op_walk_as_the_full_list_did(tmp_path: Path,
                                                              source: str) -> None:
    """J and K from every operation (and from a turn without any) land where a walk
    over the list of every operation landed: across turns, staying at either end."""
    if source == "empty-middle":
        session = tmp_path / "session"
        (session / "base").mkdir(parents=True)
        (session / "session.md").write_text(EMPTY_MIDDLE)
        root = tmp_path / "root"
        root.mkdir()
        (root / "a.py").write_text("x = 1\ny = 1\n")
    else:
        session, root = copy_session(TOUR if source == "tour" else GALLERY, tmp_path)
    app = open_app(session, root)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        flat = [(tp, opp) for tp, opp, _ in screen.iter_results()]
        starts = flat + [(tp, 0) for tp, turn in enumerate(screen.review.display.turns)
                         if not turn.results]
        assert len(starts) > len(flat) or source != "empty-middle"
        for here in starts:
            for delta in (1, -1, 3):
                screen.select(*here)
                expected = flat_next_op(flat, here, delta) or here
                screen.action_next_op(delta)
                assert (screen.turn_pos, screen.op_pos) == expected, (here, delta)


def turn_row(app: ReviewApp, turn_pos: int) -> Text:
    prompt = screen_of(app).query_one("#turns", TurnList).get_option_at_index(turn_pos).prompt
    assert isinstance(prompt, Text)
    return prompt


@pytest.mark.anyio
async def test_rows_and_marks_follow_y_u_and_redo(tour: tuple[Path, Path]) -> None:
    """After y, u and redo the decided turn's row, the operation row and the timeline mark
    show the new state (only they are redrawn: the other rows keep their very prompts,
    the timeline its very marks when no turn's mark changed); the disk follows too."""
    session, root = tour
    app = open_app(session, root)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        timeline = screen.query_one(Timeline)
        turns = screen.review.display.turns
        single = next(tp for tp, turn in enumerate(turns) if len(turn.results) == 1)
        path = root / str(getattr(turns[single].results[0].op, "path", ""))
        original = path.read_bytes()
        others = {tp: turn_row(app, tp) for tp in range(len(turns)) if tp != single}

        async def press(key: str) -> None:
            await pilot.press(key)
            await screen.jobs.wait_idle()
            await pilot.pause()

        for key, decided in (("y", True), ("u", False), ("U", True)):
            screen.select(single, 0)
            await pilot.pause()
            await press(key)
            row = turn_row(app, single).plain
            assert row.startswith("●" if decided else "○"), (key, row)
            assert row.split()[2] == ("1/1" if decided else "0/1"), (key, row)
            assert timeline.marks[single].state == ("decided" if decided else "pending")
            assert (f"●{single + 1}" if decided else f"○{single + 1}") in str(timeline.render())
            assert (path.read_bytes() != original) is decided
            state = state_at(app, single, 0)
            assert state is (OpState.ACCEPTED if decided else OpState.PENDING)
            op_row = screen.query_one("#ops", OpList)
            if screen.turn_pos == single:
                shown = op_row.get_option_at_index(0).prompt
                assert isinstance(shown, Text)
                assert state.label in shown.plain
            assert all(turn_row(app, tp) is kept for tp, kept in others.items())

        several = next(tp for tp, turn in enumerate(turns) if len(turn.results) > 1)
        screen.select(several, 0)
        await pilot.pause()
        marks = timeline.marks
        await press("y")  # the turn stays pending: no mark changes
        assert state_at(app, several, 0) is OpState.ACCEPTED
        assert timeline.marks is marks
        assert turn_row(app, several).plain.split()[2] == f"1/{len(turns[several].results)}"


@pytest.mark.anyio
async def test_the_watchers_report_of_an_own_write_recomputes_no_turn(
        tour: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """The watcher reports the workbench's own writes too: taking such a report in keeps
    every turn's states (the very lists, nothing computed again on the event loop) and
    draws nothing again (it repainted the same screen a frame after every key), and what
    is shown equals a full computation, also after a real outside change."""
    session, root = tour
    app = open_app(session, root)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        path = str(getattr(screen.review.display.turns[0].results[0].op, "path", ""))
        await pilot.press("y")
        await screen.jobs.wait_idle()
        await pilot.pause()
        kept = list(screen.states.turns)
        refreshes: list[object] = []
        refresh = type(screen).refresh_after_decision
        monkeypatch.setattr(type(screen), "refresh_after_decision",
                            lambda self, *a, **k: (refreshes.append(a), refresh(self, *a, **k)))
        app.post_message(FilesChanged(frozenset({path})))  # the write y made
        await pilot.pause()
        await screen.jobs.wait_idle()
        await pilot.pause()
        assert all(now is was for now, was in zip(screen.states.turns, kept, strict=True))
        assert screen.states == review_states(screen.review)
        assert refreshes == []
        (root / path).write_text("changed outside\n")
        app.post_message(FilesChanged(frozenset({path})))
        await pilot.pause()
        await screen.jobs.wait_idle()
        await pilot.pause()
        assert len(refreshes) == 1
        assert screen.states == review_states(screen.review)
