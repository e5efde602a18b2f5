"""A key read together with the one that opened a screen (``t t``, ``t .``, ``s enter``: a
fast typist, a paste, keys a terminal sends at once) ran the new screen's binding before
its widgets were mounted, or dismissed it under its own ``on_mount``: ``NoMatches`` ended
the app with a traceback (QA). The review screen now hands such a key on to the screen
that opened, once it is drawn (main_cursor.py), so it does what it says there; and a
screen's own keys are live only once it is mounted (screens/ready.py).

``burst`` posts the keys to the app with nothing awaited between them, as the terminal
driver does when they arrive together (``pilot.press`` waits for the app to be idle after
each key, which hides the race)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.pilot import Pilot
from uikit import open_app, screen_of, state_at

from reviewtui.core.engine.opstate import OpState
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.screens.dialogs import CheckpointPicker
from reviewtui.ui.screens.edit import EditScreen
from reviewtui.ui.screens.hunks import HunkScreen, SplitSource
from reviewtui.ui.screens.raw import RawReplyScreen
from reviewtui.ui.screens.search import SearchScreen
from reviewtui.ui.screens.tree import TreeScreen
from reviewtui.ui.widgets.block_picker import BlockPicker

SIZE = (120, 36)

pytestmark = pytest.mark.anyio


async def burst(app: ReviewApp, pilot: Pilot[Any], *keys: str) -> None:
    """``keys`` arriving together; then wait for the app to settle."""
    for key in keys:  # (a printable key carries its character, as the driver sends it)
        app.post_message(events.Key(key, key if len(key) == 1 else None))
    await pilot.pause()
    await pilot.pause()


def live_keys(app: ReviewApp) -> bool:
    """Whether every binding of the screen shown is live (the footer draws it so)."""
    return all(enabled for (_node, _binding, enabled, _tip)
               in app.screen.active_bindings.values())


def stack(app: ReviewApp) -> list[type]:
    """The screens above Textual's default one, bottom first."""
    return [type(screen) for screen in app.screen_stack[1:]]


@pytest.mark.parametrize("key", ["t", "escape", "full_stop", "comma", "d"])
async def test_a_key_read_with_t_acts_on_the_tree_screen_once_drawn(
        tour: tuple[Path, Path], key: str) -> None:
    session, root = tour
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        main = screen_of(app)
        start = main.checkpoint
        await burst(app, pilot, "t", key)
        assert app.is_running
        if key in ("t", "escape"):  # opened, then closed: back where it was
            assert stack(app) == [type(main)]
            assert main.checkpoint == start
            return
        tree = app.screen
        assert isinstance(tree, TreeScreen)
        assert stack(app) == [type(main), TreeScreen]
        last = len(tree.run.states) - 1
        if key == "d":
            assert (tree.checkpoint, tree.decided) == (start, True)
        else:
            step = 1 if key == "full_stop" else -1
            assert (tree.checkpoint, tree.decided) == (max(0, min(last, start + step)), False)
        assert tree.rows  # drawn: the files of that checkpoint are listed
        assert tree.query_one("#tree-files").has_focus
        assert live_keys(app)  # the footer shows its keys live
        await pilot.press("t")
        await pilot.pause()
        assert app.screen is main


async def test_t_three_times_at_once_opens_closes_and_opens(tour: tuple[Path, Path]) -> None:
    session, root = tour
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        main = screen_of(app)
        await burst(app, pilot, "t", "t", "t")
        assert app.is_running
        tree = app.screen
        assert isinstance(tree, TreeScreen)
        assert stack(app) == [type(main), TreeScreen]
        assert tree.rows
        await pilot.press("t")
        await pilot.pause()
        assert app.screen is main


@pytest.mark.parametrize(("keys", "state"), [
    (("enter",), OpState.ACCEPTED),  # every block taken: a plain accept
    (("a", "enter"), OpState.ACCEPTED),
    (("space", "enter"), OpState.EDITED),  # the first block left out
    (("escape",), OpState.PENDING),
])
async def test_keys_read_with_s_act_on_the_split_screen_once_drawn(
        blocks: tuple[Path, Path], keys: tuple[str, ...], state: OpState) -> None:
    session, root = blocks
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        main = screen_of(app)
        await burst(app, pilot, "s", *keys)
        assert app.is_running
        assert stack(app) == [type(main)]
        assert state_at(app, 0, 0) is state


async def test_a_key_read_with_s_leaves_the_split_screen_drawn(
        blocks: tuple[Path, Path]) -> None:
    session, root = blocks
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        main = screen_of(app)
        await burst(app, pilot, "s", "space")
        assert app.is_running
        split = app.screen
        assert isinstance(split, HunkScreen)
        assert stack(app) == [type(main), HunkScreen]
        picker = split.query_one(BlockPicker)
        assert picker.has_focus
        assert [picker.block_state(n) for n in range(3)] == ["none", "all", "all"]
        assert state_at(app, 0, 0) is OpState.PENDING
        assert live_keys(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is main


@pytest.mark.parametrize(("opener", "key", "kind"), [
    ("T", "escape", None),
    ("T", "down", CheckpointPicker),
    ("slash", "escape", None),
    ("slash", "down", SearchScreen),
    ("r", "H", RawReplyScreen),
    ("r", "r", None),
    ("colon", "escape", None),
    ("question_mark", "question_mark", None),
    ("S", "S", None),
])
async def test_a_key_read_with_the_one_opening_a_screen_acts_there(
        tour: tuple[Path, Path], opener: str, key: str, kind: type | None) -> None:
    session, root = tour
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        main = screen_of(app)
        here = (main.turn_pos, main.op_pos)
        await burst(app, pilot, opener, key)
        assert app.is_running
        assert (main.turn_pos, main.op_pos) == here
        if kind is None:  # opened, then closed
            assert stack(app) == [type(main)]
            return
        shown = app.screen
        assert stack(app) == [type(main), kind]
        if isinstance(shown, RawReplyScreen):
            assert shown.hashed
        if isinstance(shown, CheckpointPicker):
            assert shown.highlighted_entry == main.checkpoint + 1  # down: the next one
        assert live_keys(app)
        await pilot.press("escape")
        await pilot.pause()
        assert app.screen is main


async def test_a_priority_key_before_the_screen_is_mounted_is_ignored(
        tour: tuple[Path, Path]) -> None:
    """A key the app reads for a screen pushed a moment before (its priority bindings are
    looked up at once) does nothing until the screen is mounted."""
    session, root = tour
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        main = screen_of(app)
        results: list[str | None] = []
        editor = EditScreen("x = 1", path="a.py")
        app.push_screen(editor, results.append)
        assert not editor.is_mounted
        assert editor.check_action("apply", ()) is False
        await burst(app, pilot, "ctrl+s")
        assert app.is_running
        assert app.screen is editor
        assert results == []
        assert editor.check_action("apply", ()) is True
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert app.screen is main
        assert results == ["x = 1"]


@pytest.mark.parametrize("kind", [TreeScreen, HunkScreen, CheckpointPicker, SearchScreen,
                                  EditScreen])
async def test_a_screen_closed_before_it_is_mounted_is_left_alone(
        tour: tuple[Path, Path], kind: type) -> None:
    """Its on_mount finds it off the stack, its widgets going: it draws nothing."""
    session, root = tour
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        main = screen_of(app)
        screens = {
            TreeScreen: lambda: TreeScreen(main.review, main.checkpoint),
            HunkScreen: lambda: HunkScreen(SplitSource("a.py", ("a",), ("b",), "old", "new")),
            CheckpointPicker: lambda: CheckpointPicker([(1, "go", [])], 1),
            SearchScreen: lambda: SearchScreen(list(main.session_turns), {}, (0, 0),
                                               reply_to=main),
            EditScreen: lambda: EditScreen("x = 1", path="a.py"),
        }
        app.push_screen(screens[kind]())
        app.pop_screen()
        await pilot.pause()
        await pilot.pause()
        assert app.is_running
        assert app.screen is main


async def _pressed_and_read_at_once(tour: tuple[Path, Path], keys: tuple[str, ...]
                                    ) -> tuple[tuple[int, list[tuple[Any, ...]]], ...]:
    """The review after ``keys`` pressed one by one, and after the same keys read at once
    (each a fresh workbench): (its checkpoint at the start, then at the end; its decisions:
    key, verdict, reason) for each."""
    results = []
    for together in (False, True):
        session, root = tour
        app = open_app(session, root, dry_run=True)
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            start = screen_of(app).checkpoint
            if together:
                await burst(app, pilot, *keys)
            else:
                for key in keys:
                    await pilot.press(key)
            for _ in range(4):
                await pilot.pause()
            await app.jobs.wait_idle()
            main = screen_of(app)
            assert stack(app) == [type(main)]
            results.append((start, main.checkpoint, sorted(
                (key, str(choice.verdict.value), choice.reason)
                for key, choice in main.review.decisions.items())))
    return tuple(results)


@pytest.mark.parametrize(("keys", "decided"), [
    (("T", "down", "enter", "n"), "rejected"),
    (("T", "enter", "y"), "accepted"),
    (("T", "t", "3", "enter", "y"), "accepted"),  # (the filter typed, then Enter)
    (("T", "4", "enter", "y"), "accepted"),
])
async def test_keys_read_with_the_pickers_enter_act_on_the_review(
        tour: tuple[Path, Path], keys: tuple[str, ...], decided: str) -> None:
    """Enter chose the checkpoint through the filter's Submitted message, which came after
    the keys read with it: ``T down enter n`` went to checkpoint 1 with ``n`` typed into
    the dying filter, nothing decided (s53). Now as the same keys pressed one by one: the
    checkpoint chosen, and the key after Enter decides there."""
    one_by_one, at_once = await _pressed_and_read_at_once(tour, keys)
    assert one_by_one == at_once
    start, checkpoint, decisions = at_once
    assert checkpoint != start or "down" not in keys  # (down moved the choice)
    if "3" in keys or "4" in keys:
        assert checkpoint == (3 if "3" in keys else 4)
    assert [verdict for _key, verdict, _reason in decisions] == [decided]


async def test_keys_read_with_a_prompts_enter_act_on_the_review(
        tour: tuple[Path, Path]) -> None:
    """``N`` (reject with a reason), the reason, Enter and the next key at once: the key
    after Enter was typed into the prompt before its Submitted message closed it."""
    keys = ("N", "w", "h", "y", "enter", "down", "y")
    one_by_one, at_once = await _pressed_and_read_at_once(tour, keys)
    assert one_by_one == at_once
    assert [(verdict, reason) for _key, verdict, reason in at_once[2]] == [
        ("rejected", "why"), ("accepted", "")]
