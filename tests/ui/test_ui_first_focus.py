"""The review screen's first focus goes to the operations, with no stop on the turns.

Textual focuses a resumed screen's ``AUTO_FOCUS`` before the screen's ``on_mount``; with
the app's default (``*``) that was the turn list, and ``on_mount`` then moved it to the
operations: a Focus and a Blur, both lists restyled and the key bar built twice (once
for the turn list's keys) at every start. The screen's ``AUTO_FOCUS`` names the
operations, so the start focuses them once and builds the bar once, for their keys.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Footer
from textual.widgets._footer import FooterKey
from uikit import open_app, screen_of

from reviewtui.ui.widgets.lists import OpList

SIZE = (120, 40)

pytestmark = pytest.mark.anyio


async def test_the_start_focuses_the_operations_once_and_builds_the_bar_once(
        tour: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    focused: list[str] = []
    builds: list[tuple[str, ...]] = []
    set_focus = Screen.set_focus
    compose = Footer.compose

    def spy_focus(self: Screen[Any], widget: Widget | None, *args: Any, **kwargs: Any) -> None:
        set_focus(self, widget, *args, **kwargs)
        if self.focused is not None and (not focused or focused[-1] != self.focused.id):
            focused.append(str(self.focused.id))

    def spy_compose(self: Footer) -> Any:
        widgets = list(compose(self))
        if widgets:
            builds.append(tuple(w.action for w in widgets if isinstance(w, FooterKey)))
        yield from widgets

    monkeypatch.setattr(Screen, "set_focus", spy_focus)
    monkeypatch.setattr(Footer, "compose", spy_compose)
    app = open_app(*tour)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        assert isinstance(screen.focused, OpList)
        assert focused == ["ops"]
        assert len(builds) == 1
        # The one build is the bar on screen: the operations' keys, not the turn list's.
        bar = screen.query_one(Footer)
        assert tuple(key.action for key in bar.query(FooterKey)) == builds[0]
