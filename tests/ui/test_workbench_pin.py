"""Issue 15: after ctrl+t the disk stays pinned at the checkpoint, the status line says
so, decisions say "recorded, not written", and P unpins and replays. An outside change
that re-evaluates a pending operation names it."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.message import Message
from textual.notifications import Notify
from uikit import open_app, screen_of

from reviewtui.core.engine import Decision
from reviewtui.ui.messages import FilesChanged
from reviewtui.ui.widgets.status_line import StatusLine

SIZE = (120, 40)
GREETING = "greeter/core.py"

pytestmark = pytest.mark.anyio


class Notes:
    def __init__(self) -> None:
        self.messages: list[str] = []

    def __call__(self, message: Message) -> None:
        if isinstance(message, Notify):
            self.messages.append(str(message.notification.message))


async def test_restore_pins_the_disk_until_unpinned(tour: tuple[Path, Path]) -> None:
    session, root = tour
    original = (root / GREETING).read_bytes()
    notes = Notes()
    app = open_app(session, root)
    async with app.run_test(size=SIZE, message_hook=notes) as pilot:
        screen = screen_of(app)
        await pilot.press("y")  # turn 1's edit: written
        await pilot.pause()
        written = (root / GREETING).read_bytes()
        assert written != original
        screen.go_checkpoint(0)
        await pilot.press("ctrl+t")
        await pilot.pause()
        await pilot.press("y")  # confirm the restore
        await pilot.pause()
        assert (root / GREETING).read_bytes() == original
        status = str(screen.query_one(StatusLine).render())
        assert "disk pinned at checkpoint 0" in status
        screen.select(0, 0)
        await pilot.press("n")  # a decision while pinned
        await pilot.pause()
        await pilot.press("u")
        await pilot.pause()
        assert any(m.startswith("recorded, not written") for m in notes.messages)
        assert (root / GREETING).read_bytes() == original  # still the checkpoint
        await pilot.press("P")
        await pilot.pause()
        assert (root / GREETING).read_bytes() == written  # every decision replayed
        assert "pinned" not in str(screen.query_one(StatusLine).render())
        assert screen.review.disk_checkpoint is None


async def test_a_decision_up_to_the_pinned_checkpoint_says_it_was_written(
        tour: tuple[Path, Path]) -> None:
    """Pinned at checkpoint 1, a reject of turn 1's edit changes that checkpoint, and so
    the disk: the notice says written (it said "recorded, not written": QA pass s31)."""
    session, root = tour
    notes, original = Notes(), (root / GREETING).read_bytes()
    app = open_app(session, root)
    for turn in app.review.session.turns[:2]:  # turn 1's edit and turn 2 (its :mv) written
        app.review.decide_many([((turn.index, pos), Decision.accept())
                                for pos in range(len(turn.reply.ops))], skip_unappliable=True)
    assert not (root / GREETING).exists()
    async with app.run_test(size=SIZE, message_hook=notes) as pilot:
        screen = screen_of(app)
        screen.go_checkpoint(1)
        await pilot.press("ctrl+t")
        await pilot.pause()
        await pilot.press("y")  # confirm the restore: turn 2 taken off the disk
        await pilot.pause()
        assert screen.review.disk_checkpoint == 1
        assert (root / GREETING).read_bytes() != original  # turn 1's edit, as checkpoint 1
        notes.messages.clear()
        screen.select(0, 0)
        await pilot.press("n")
        await pilot.pause()
        assert (root / GREETING).read_bytes() == original  # the checkpoint changed: written
        assert not [m for m in notes.messages if m.startswith("recorded, not written")]
        assert any(m.startswith("written: the disk is pinned at checkpoint 1")
                   for m in notes.messages)


async def test_outside_change_names_the_reevaluated_operation(
        gallery: tuple[Path, Path]) -> None:
    session, root = gallery
    notes = Notes()
    app = open_app(session, root)
    async with app.run_test(size=SIZE, message_hook=notes) as pilot:
        await pilot.pause()
        text = (root / "app.py").read_text().replace(
            'def restock(items):\n    for item in items:\n        item["qty"] = 0',
            'def restock(items):\n    for item in items:\n        item["qty"] = 5')
        (root / "app.py").write_text(text)
        app.post_message(FilesChanged(frozenset({"app.py"})))
        await pilot.pause()
        await pilot.pause()
        named = [m for m in notes.messages if m.startswith("outside change re-evaluated")]
        assert named
        assert "turn 2 Edit 2 · app.py: now applied" in named[0]


async def test_the_same_notice_twice_at_once_is_said_once(tour: tuple[Path, Path]) -> None:
    """One outside deletion reported by two watcher events showed two identical toasts
    (QA pass s31, helper-93 F6): a notice repeated within a second is said once; another
    notice, or another severity, is said."""
    notes = Notes()
    app = open_app(*tour)
    async with app.run_test(size=SIZE, message_hook=notes) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        notes.messages.clear()
        screen.notify("outside change re-evaluated turn 2", severity="warning")
        screen.notify("outside change re-evaluated turn 2", severity="warning")
        screen.notify("outside change re-evaluated turn 2")
        screen.notify("conflict: a.txt changed on disk", severity="warning")
        await pilot.pause()
        assert notes.messages == ["outside change re-evaluated turn 2",
                                  "outside change re-evaluated turn 2",
                                  "conflict: a.txt changed on disk"]
        assert len(app._notifications) == 3  # noqa: SLF001


async def test_the_restore_dialog_names_the_files_it_leaves_in_conflict_first(
        tour: tuple[Path, Path]) -> None:
    """QA s34 F2: the dialog listed the writes, then the conflicts, cut at 20 lines: past
    20 writes no conflict was shown, and nothing counted them. Now they come first and
    the question counts both."""
    from reviewtui.ui.screens.dialogs import ConfirmScreen

    session, root = tour
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await pilot.press("y")  # turn 1's edit: written
        await pilot.pause()
        # The user changes the written line outside: going back leaves it in conflict.
        written = (root / GREETING).read_text()
        (root / GREETING).write_text(written.replace("Hello", "Howdy"))
        screen.review.outside_changed([GREETING])
        screen.go_checkpoint(0)
        await pilot.press("ctrl+t")
        await pilot.pause()
        dialog = app.screen
        assert isinstance(dialog, ConfirmScreen)
        question = str(dialog.question)
        head, first, *_ = question.splitlines()
        assert head.startswith("Restore checkpoint 0 on disk? (")
        assert "1 file left in conflict)" in head, question
        assert first == f"  leave in conflict {GREETING}", question
        await pilot.press("n")
