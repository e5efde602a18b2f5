"""Editing a replacement changes only what the reviewer typed.

Textual's editor splits its text as ``str.splitlines`` does: a form feed (an old source
file's page break), U+2028 or NEL in a line came back from ``e`` then ctrl+s as a line
break, and a lone carriage return did the same through ``E``'s text-mode read. The file
changed where the reviewer changed nothing.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.message import Message
from textual.notifications import Notify
from uikit import open_app, state_at

from reviewtui.core.engine.opstate import OpState
from reviewtui.ui.screens.edit import EditScreen, edits_faithfully

pytestmark = pytest.mark.anyio
SIZE = (120, 40)
REPLACE = ["def f():", "\f", "    return 'a\u2028b'", "x = 1\rcomment"]


def _session(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("def f():\n    return 0\n")
    session = tmp_path / "session.md"
    session.write_text("## Turn 1\n> edit\n\n--- File: a.py ---\nEdit 1\n<<<<<<< SEARCH\n"
                       "def f():\n    return 0\n=======\n" + "\n".join(REPLACE)
                       + "\n>>>>>>> REPLACE\n")
    return session, root


def _notes(seen: list[str]) -> object:
    def hook(message: Message) -> None:
        if isinstance(message, Notify):
            seen.append(message.notification.message)
    return hook


@pytest.mark.parametrize("text", ["a\fb", "x\u2028y", "a\x85b", "a\rb\nc", "\f", "a\n\x1cb"])
def test_text_the_editor_would_change_is_not_edited_in_place(text: str) -> None:
    assert not edits_faithfully(text)
    assert edits_faithfully(text.replace("\f", "").replace("\u2028", "").replace(
        "\x85", "").replace("\r", "").replace("\x1c", ""))


async def test_e_refuses_such_a_replacement_and_e_upper_keeps_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session, root = _session(tmp_path)
    before = (root / "a.py").read_bytes()
    script = tmp_path / "editor.sh"  # changes the first line only, byte for byte elsewhere
    script.write_text("#!/bin/sh\nsed -i 's/^def f/def g/' \"$1\"\n")
    script.chmod(0o755)
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", str(script))
    seen: list[str] = []
    app = open_app(session, root)
    async with app.run_test(size=SIZE, message_hook=_notes(seen)) as pilot:
        await pilot.press("e")
        await pilot.pause()
        assert not isinstance(app.screen, EditScreen)
        assert any("in-place editor would turn" in note for note in seen), seen
        assert state_at(app, 0, 0) is OpState.PENDING
        assert (root / "a.py").read_bytes() == before
        await pilot.press("E")
        await pilot.pause()
        assert state_at(app, 0, 0) is OpState.EDITED
    expected = "\n".join(["def g():", *REPLACE[1:]]) + "\n"
    assert (root / "a.py").read_bytes() == expected.encode()
