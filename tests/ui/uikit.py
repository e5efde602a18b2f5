"""Shared helpers for the UI tests: temporary copies of sessions and apps opened on them."""

from __future__ import annotations

import shutil
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from reviewtui.core.engine.opstate import OpState
from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.screens.main import MainScreen

REPO = Path(__file__).resolve().parents[2]
TOUR = REPO / "sample_sessions" / "workshop-tour"
GALLERY = REPO / "tests" / "fixtures" / "gallery"
BLOCKS = REPO / "tests" / "fixtures" / "blocks"
DIAGNOSTICS = REPO / "tests" / "fixtures" / "diagnostics"


def copy_session(source: Path, tmp_path: Path) -> tuple[Path, Path]:
    """(session folder without base/, project root copied from base/) under ``tmp_path``."""
    session = tmp_path / "session"
    shutil.copytree(source, session, ignore=shutil.ignore_patterns("base"))
    root = tmp_path / "root"
    shutil.copytree(source / "base", root)
    return session, root


def open_app(session: Path, root: Path, *, dry_run: bool = False,
             present: bool = False) -> ReviewApp:
    review = Review.open(session, root, dry_run=dry_run)
    return ReviewApp(review, watch=False, present=present)


def screen_of(app: ReviewApp) -> MainScreen:
    """The review screen, also while a modal (help, edit, picker) is above it."""
    for screen in reversed(app.screen_stack):
        if isinstance(screen, MainScreen):
            return screen
    raise AssertionError("no review screen")


def state_at(app: ReviewApp, turn_pos: int, op_pos: int) -> OpState:
    screen = screen_of(app)
    result = screen.result(turn_pos, op_pos)
    assert result is not None
    return screen.state_of(result)


async def steady_cursors(pilot: Pilot[Any]) -> None:
    """Stop every text cursor on the active screen from blinking, drawn, before a picture.

    A blinking cursor is hidden half of each second, so a snapshot taken on a loaded machine
    can catch it either way. A TextArea also caches its lines without the focus in the
    key: one drawn before it took focus keeps its missing cursor once blinking is off, so
    the cache is dropped and the area redrawn."""
    from textual.widgets import Input, TextArea

    await pilot.pause()
    for widget in pilot.app.screen.query("Input, TextArea"):
        if isinstance(widget, (Input, TextArea)):
            widget.cursor_blink = False
        if isinstance(widget, TextArea):
            widget.notify_style_update()
            widget.refresh()
    await pilot.pause()
