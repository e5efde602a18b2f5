"""The trust question shows every command before ``y`` can trust them (QA s45 helper-137
#2, older, H): with 41 ``[checks]``, the dialog cut its list at the screen's foot with
its buttons, and ``y`` trusted the file, running commands no one had seen. Now the list
scrolls, the buttons stay below it, and ``y`` before the list's end was on screen scrolls
on and says so instead of trusting."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from textual.message import Message
from textual.notifications import Notify

from reviewtui.shell.review import Review
from reviewtui.shell.trust import is_trusted
from reviewtui.ui.app import ReviewApp

pytestmark = pytest.mark.anyio


def _project(arena: Any) -> Path:
    (arena.root / "a.py").write_text("x = 1\n")
    lines = ["[checks]"] + [f'"*.lint{n}" = "true {n} {{path}}"' for n in range(40)]
    lines.append(f'"*.py" = "touch {arena.root / "RAN"}"')
    (arena.root / "reviewtui.toml").write_text("\n".join(lines) + "\n")
    session = arena.work / "s.md"
    session.write_text("## Turn 1\n> x\n\n--- File: a.py ---\n<<<<<<< SEARCH\nx = 1\n"
                       "=======\nx = 2\n>>>>>>> REPLACE\n")
    return session


@pytest.mark.parametrize("size", [(100, 30), (60, 20)])
async def test_y_trusts_only_once_every_command_was_on_screen(
        arena: Any, monkeypatch: pytest.MonkeyPatch,
        size: tuple[int, int]) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(arena.work / "cfg"))
    monkeypatch.setenv("XDG_STATE_HOME", str(arena.work / "state"))
    session = _project(arena)
    seen: list[str] = []

    def hook(message: Message) -> None:
        if isinstance(message, Notify):
            seen.append(message.notification.message)

    review = Review.open(session, arena.root, dry_run=True)
    app = ReviewApp(review, watch=False)
    try:
        async with app.run_test(size=size, message_hook=hook) as pilot:
            await pilot.pause()
            assert app.screen.__class__.__name__ == "TrustScreen"
            await pilot.press("y")
            await pilot.pause()
            assert app.screen.__class__.__name__ == "TrustScreen"  # not yet
            assert any("read every command first" in note for note in seen), seen
            assert not is_trusted((arena.root / "reviewtui.toml").read_bytes())
            for _ in range(12):  # y again and again (held): it never scrolls
                await pilot.press("y")
            await pilot.pause()
            assert app.screen.__class__.__name__ == "TrustScreen"
            assert not is_trusted((arena.root / "reviewtui.toml").read_bytes())
            await pilot.press("end")
            await pilot.pause()
            await pilot.press("y")
            await pilot.pause()
            assert app.screen.__class__.__name__ != "TrustScreen"
            assert is_trusted((arena.root / "reviewtui.toml").read_bytes())
    finally:
        review.close()
