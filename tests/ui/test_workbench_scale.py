"""Issue 15 at scale: the statistics screen lists only turns with operations and is
cached per revision; the checkpoint picker filters by request text and turn number and
can hide turns without operations; an empty turn looks the same on the timeline and in
the list."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest
from textual.widgets import Input, OptionList, Static
from uikit import open_app, screen_of

from reviewtui.ui.screens import dialogs
from reviewtui.ui.screens.stats import StatsScreen
from reviewtui.ui.widgets.timeline import Timeline

pytestmark = pytest.mark.anyio
SIZE = (120, 40)


def _session(tmp_path: Path) -> tuple[Path, Path]:
    turns = []
    for n in range(1, 7):
        if n % 2:
            turns.append(f"## Turn {n}\n> Set value {n} in the config.\n\n--- File: a.py ---\n"
                         f"<<<<<<< SEARCH\nv{n} = 0\n=======\nv{n} = {n}\n>>>>>>> REPLACE\n")
        else:
            turns.append(f"## Turn {n}\n> Explain step {n}, no changes.\n\nJust words.\n")
    session = tmp_path / "session"
    (session / "base").mkdir(parents=True)
    (session / "session.md").write_text("# Session: scale\n\n" + "\n".join(turns))
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("".join(f"v{n} = 0\n" for n in range(1, 7)))
    return session, root


async def test_stats_list_turns_with_operations_and_reopen_from_cache(
        tmp_path: Path) -> None:
    app = open_app(*_session(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("S")
        for _ in range(100):
            await pilot.pause(0.05)
            if not app.screen.query("#stats-loading"):
                break
        assert isinstance(app.screen, StatsScreen)
        texts = [str(s.content) for s in app.screen.query(Static)]
        (per_turn,) = [t for t in texts if t.startswith("per turn")]
        # The title, the header, then turns 1, 3 and 5.
        assert [line.split()[0] for line in per_turn.splitlines()[2:]] == ["1", "3", "5"]
        await pilot.press("escape")
        await pilot.pause()
        await pilot.press("S")
        assert not app.screen.query("#stats-loading")  # same revision: at once


async def test_empty_turn_agrees_on_timeline_and_list(tmp_path: Path) -> None:
    app = open_app(*_session(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        marks = screen_of(app).query_one(Timeline).marks
        assert marks[1].state == "empty"
        turns = screen_of(app).query_one("#turns", OptionList)
        assert str(turns.get_option_at_index(1).prompt).startswith("·")


async def test_checkpoint_picker_filters_as_you_type(tmp_path: Path) -> None:
    app = open_app(*_session(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("T")
        await pilot.pause()
        picker = app.screen.query_one(OptionList)
        assert picker.option_count == 7  # checkpoint 0 and six turns
        await pilot.press(*"value")
        await pilot.pause()
        assert picker.option_count == 3
        app.screen.query_one(Input).value = "4"
        await pilot.pause()
        assert [picker.get_option_at_index(i).id for i in range(picker.option_count)] == [
            "cp-4"]
        app.screen.query_one(Input).value = ""
        await pilot.press("ctrl+o")  # only turns with operations
        await pilot.pause()
        assert picker.option_count == 4  # checkpoint 0, turns 1, 3, 5
        await pilot.press("down", "enter")
        await pilot.pause()
        assert screen_of(app).checkpoint == 1


def _listed(picker: OptionList) -> list[str]:
    """The picker's lines: a checkpoint's id, or the words of a line saying how many more."""
    return [option.id or str(option.prompt).split(":")[0]
            for option in (picker.get_option_at_index(n) for n in range(picker.option_count))]


async def test_checkpoint_picker_lists_a_window_and_moves_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Thousands of turns are listed a window at a time (here three checkpoints of seven):
    the window opens around the current checkpoint, says how many lie before and after,
    and moves when the highlight goes past its edge; filtering and enter still work."""
    monkeypatch.setattr(dialogs, "WINDOW", 3)
    app = open_app(*_session(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        screen_of(app).go_checkpoint(4)
        await pilot.pause()
        await pilot.press("T")
        await pilot.pause()
        picker = app.screen.query_one(OptionList)
        assert _listed(picker) == ["… 3 earlier", "cp-3", "cp-4", "cp-5", "… 1 later"]
        assert picker.highlighted == 2  # checkpoint 4, the current one
        await pilot.press("down", "down")  # past the window's last: it moves
        await pilot.pause()
        assert _listed(picker) == ["… 4 earlier", "cp-4", "cp-5", "cp-6"]
        assert picker.get_option_at_index(picker.highlighted or 0).id == "cp-6"
        await pilot.press("home")
        await pilot.pause()
        assert _listed(picker) == ["cp-0", "cp-1", "cp-2", "… 4 later"]
        assert picker.highlighted == 0
        await pilot.press("up")  # already the first: stays
        assert picker.highlighted == 0
        await pilot.press("end")
        await pilot.pause()
        assert _listed(picker) == ["… 4 earlier", "cp-4", "cp-5", "cp-6"]
        await pilot.press(*"value")  # turns 1, 3 and 5: one window, no more lines
        await pilot.pause()
        assert _listed(picker) == ["cp-1", "cp-3", "cp-5"]
        await pilot.press("down", "enter")
        await pilot.pause()
        assert screen_of(app).checkpoint == 3


async def test_enter_on_the_line_saying_how_many_more_goes_nowhere(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(dialogs, "WINDOW", 3)
    app = open_app(*_session(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        before = screen.checkpoint
        await pilot.press("T")
        await pilot.pause()
        picker = app.screen.query_one(OptionList)
        assert _listed(picker)[-1] == "… 4 later"
        picker.highlighted = picker.option_count - 1
        await pilot.press("enter")
        await pilot.pause()
        assert type(app.screen).__name__ == "CheckpointPicker"  # still open
        assert screen.checkpoint == before


async def test_checkpoint_picker_lists_turns_not_evaluated_yet(tmp_path: Path) -> None:
    """While the background evaluation runs, the turns it has not reached are listed too
    (they were left out), marked as evaluating, and ctrl+o does not hide them."""
    app = open_app(*_session(tmp_path))
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        screen.states = replace(screen.states, turns=screen.states.turns[:2])
        await pilot.press("T")
        await pilot.pause()
        picker = app.screen.query_one(OptionList)
        assert _listed(picker) == ["cp-0", "cp-1", "cp-2", "cp-3", "cp-4", "cp-5", "cp-6"]
        assert "evaluating" in str(picker.get_option_at_index(3).prompt)
        assert "evaluating" not in str(picker.get_option_at_index(1).prompt)
        await pilot.press("ctrl+o")  # turn 2 has no operations: hidden; 3 to 6 unknown
        await pilot.pause()
        assert _listed(picker) == ["cp-0", "cp-1", "cp-3", "cp-4", "cp-5", "cp-6"]
