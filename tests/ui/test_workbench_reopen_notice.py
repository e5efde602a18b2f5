"""A reopened review tells what it found on disk: files changed while it was closed.

Found in a real terminal (2026-12-01): after a project folder was put back to a fresh copy
while the review was closed, the workbench showed the saved accept as written, with no
word, while the disk held the original (the reopen keeps such a change as the user's
revert of the review's write). The opening replay's report now reaches the screen.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.message import Message
from textual.notifications import Notify
from uikit import open_app

from reviewtui.core.engine import Decision
from reviewtui.shell.review import Review

pytestmark = pytest.mark.anyio

SESSION = """## Turn 1
--- File: a.txt ---
<<<<<<< SEARCH
two
=======
TWO
>>>>>>> REPLACE

### Changed files:
- a.txt
"""
ORIGINAL = b"one\ntwo\nthree\n"


class Notes:
    def __init__(self) -> None:
        self.messages: list[str] = []

    def __call__(self, message: Message) -> None:
        if isinstance(message, Notify):
            self.messages.append(str(message.notification.message))


def accepted_and_closed(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_bytes(ORIGINAL)
    session = tmp_path / "s.md"
    session.write_text(SESSION)
    with Review.open(session, root) as review:
        review.decide((1, 0), Decision.accept())
    assert (root / "a.txt").read_bytes() == b"one\nTWO\nthree\n"
    return session, root


async def opened_notes(session: Path, root: Path) -> list[str]:
    notes = Notes()
    app = open_app(session, root)
    async with app.run_test(size=(100, 30), message_hook=notes) as pilot:
        await pilot.pause()
    return [m for m in notes.messages if m.startswith("on opening: ")]


async def test_a_file_put_back_while_closed_is_named_on_opening(tmp_path: Path) -> None:
    session, root = accepted_and_closed(tmp_path)
    (root / "a.txt").write_bytes(ORIGINAL)  # a fresh copy of the project, say
    [note] = await opened_notes(session, root)
    # Put back to the original: the accept on it is taken back, and the note says so.
    assert note.startswith("on opening: a.txt: turn 1, operation 1"), note
    assert "put back outside the workbench" in note
    assert "pending again" in note
    assert (root / "a.txt").read_bytes() == ORIGINAL  # the user's revert is kept


async def test_a_reopen_with_nothing_changed_says_nothing(tmp_path: Path) -> None:
    session, root = accepted_and_closed(tmp_path)
    assert await opened_notes(session, root) == []
    assert (root / "a.txt").read_bytes() == b"one\nTWO\nthree\n"
