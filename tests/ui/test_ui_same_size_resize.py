"""A Resize to the size the workbench already has is not sent on to its screens.

Textual's App keeps every Resize it is sent, also one to the size it has (which it
otherwise ignores), and sends it to the screens at its next idle: each start (the
terminal driver reports the size the app was just laid out at) laid the review screen
out a second time. ``ReviewApp.on_resize`` stops such an event; a real change of size,
and a change back, reach the screens and their widgets as before.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual import events
from textual.geometry import Size
from textual.screen import Screen
from uikit import open_app, screen_of, until

from reviewtui.ui.widgets.op_detail import OpDetail

pytestmark = pytest.mark.anyio


async def test_only_a_new_size_reaches_the_screens(tour: tuple[Path, Path],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    resized: list[tuple[str, Size]] = []
    real = Screen._screen_resized

    def spy(self: Screen[Any], size: Size) -> None:
        resized.append((type(self).__name__, size))
        real(self, size)

    monkeypatch.setattr(Screen, "_screen_resized", spy)
    app = open_app(*tour)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        at_start = [size for name, size in resized if name == "MainScreen"]
        assert at_start == [Size(120, 40)]  # laid out once, at its first resume
        resized.clear()
        for _ in range(3):  # the size it has: nothing for the screens to do
            app.post_message(events.Resize(Size(120, 40), Size(120, 40)))
            await pilot.pause()
        await pilot.pause(0.05)  # past Textual's resize timer and an idle
        assert resized == []
        await pilot.resize_terminal(90, 30)
        await until(pilot, lambda: ("MainScreen", Size(90, 30)) in resized
                    and screen.query_one(OpDetail).size.width < 90)
        assert ("MainScreen", Size(90, 30)) in resized
        assert screen.size == Size(90, 30)
        width = screen.query_one(OpDetail).size.width
        assert 0 < width < 90
        resized.clear()
        await pilot.resize_terminal(120, 40)  # back: a change again
        await until(pilot, lambda: ("MainScreen", Size(120, 40)) in resized
                    and screen.query_one(OpDetail).size.width > width)
        assert ("MainScreen", Size(120, 40)) in resized
        assert screen.size == Size(120, 40)
        assert screen.query_one(OpDetail).size.width > width
