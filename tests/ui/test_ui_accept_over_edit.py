"""``y`` on an operation the reviewer edited accepts the model's text: said, and ``u``
brings the reviewer's text back (QA s44 helper-135 F6: the edit went without a word; it
happened by accident after a reopen, the cursor still on the edited operation)."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.message import Message
from textual.notifications import Notify
from uikit import open_app, state_at, until

from reviewtui.core.engine.opstate import OpState

pytestmark = pytest.mark.anyio


def _notes(seen: list[str]) -> object:
    def hook(message: Message) -> None:
        if isinstance(message, Notify):
            seen.append(message.notification.message)
    return hook


async def test_y_on_an_edited_operation_says_the_edit_is_set_aside(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("x = 0\n")
    session = tmp_path / "session.md"
    session.write_text("## Turn 1\n> edit\n\n--- File: a.py ---\nEdit 1\n<<<<<<< SEARCH\n"
                       "x = 0\n=======\nx = 1\n>>>>>>> REPLACE\n")
    script = tmp_path / "editor.sh"
    script.write_text("#!/bin/sh\nsed -i 's/x = 1/x = 2/' \"$1\"\n")
    script.chmod(0o755)
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", str(script))
    seen: list[str] = []
    app = open_app(session, root)
    async with app.run_test(size=(120, 40), message_hook=_notes(seen)) as pilot:
        await pilot.press("E")
        await until(pilot, lambda: state_at(app, 0, 0) is OpState.EDITED)
        assert (root / "a.py").read_text() == "x = 2\n"
        await pilot.press("y")
        await until(pilot, lambda: state_at(app, 0, 0) is OpState.ACCEPTED)
        await until(pilot, lambda: any("your edit is set aside" in n for n in seen))
        assert (root / "a.py").read_text() == "x = 1\n"
        await pilot.press("u")
        await until(pilot, lambda: state_at(app, 0, 0) is OpState.EDITED)
        assert (root / "a.py").read_text() == "x = 2\n"
        seen.clear()
        await pilot.press("n", "y")  # a plain accept says nothing of the kind
        await until(pilot, lambda: state_at(app, 0, 0) is OpState.ACCEPTED)
        await pilot.pause()
    assert not any("set aside" in note for note in seen), seen
