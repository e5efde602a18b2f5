"""Snapshot tests of the workbench (SVGs under the top-level snapshots/ folder).

Plain ``def`` tests: ``snap_compare`` runs the app itself. Every app is opened in
dry-run mode on a temporary copy, with the watcher off and a fixed theme and size, so
the pictures depend on nothing but the code. Each committed SVG was looked at.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from uikit import (
    BLOCKS,
    DIAGNOSTICS,
    GALLERY,
    TOUR,
    copy_session,
    findings_in,
    open_app,
    steady_cursors,
)

from reviewtui.ui.app import ReviewApp
from reviewtui.ui.screens.main import MainScreen

SnapCompare = Callable[..., bool]


def make_app(source: Path, tmp_path: Path, *, dry_run: bool = True) -> ReviewApp:
    return open_app(*copy_session(source, tmp_path), dry_run=dry_run)


def select(turn_pos: int, op_pos: int) -> Callable[[Pilot[Any]], Any]:
    async def run_before(pilot: Pilot[Any]) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, MainScreen)
        screen.select(turn_pos, op_pos)
        await pilot.pause()

    return run_before


def test_demo_session_on_open(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(make_app(TOUR, tmp_path), terminal_size=(120, 40))


def test_exact_edit(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(make_app(TOUR, tmp_path), terminal_size=(120, 40),
                        run_before=select(2, 1))


def test_fuzzy_edit_with_hint(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(make_app(GALLERY, tmp_path), terminal_size=(120, 40),
                        run_before=select(0, 0))


def test_not_found_with_candidates(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(make_app(GALLERY, tmp_path), terminal_size=(120, 40),
                        run_before=select(1, 0))


def test_ambiguous(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(make_app(GALLERY, tmp_path), terminal_size=(120, 40),
                        run_before=select(1, 1))


def test_needs_review(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(make_app(GALLERY, tmp_path), terminal_size=(120, 40),
                        run_before=select(1, 2))


@pytest.mark.parametrize(("op_pos", "name"), [(0, "path"), (1, "binary"), (3, "duplicate")])
def test_refused(snap_compare: SnapCompare, tmp_path: Path, op_pos: int, name: str) -> None:
    assert snap_compare(make_app(GALLERY, tmp_path), terminal_size=(120, 40),
                        run_before=select(2, op_pos))


def test_console_commands(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(make_app(GALLERY, tmp_path), terminal_size=(120, 40),
                        run_before=select(3, 0))


def test_full_new_file(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(make_app(GALLERY, tmp_path), terminal_size=(120, 40),
                        run_before=select(3, 2))


def test_conflict(snap_compare: SnapCompare, tmp_path: Path) -> None:
    app = make_app(TOUR, tmp_path, dry_run=False)
    root = tmp_path / "root"

    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.press("y")
        await pilot.pause()
        target = root / "greeter" / "core.py"
        target.write_text(target.read_text().replace("Hello", "Howdy"))
        from reviewtui.ui.messages import FilesChanged

        pilot.app.post_message(FilesChanged(frozenset({"greeter/core.py"})))
        await pilot.pause()
        screen = pilot.app.screen
        assert isinstance(screen, MainScreen)
        screen.select(0, 0)
        await pilot.press("n")
        await pilot.pause()
        screen.select(0, 0)
        await pilot.pause()

    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)


def test_edit_in_place_modal(snap_compare: SnapCompare, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        from textual.widgets import TextArea

        await pilot.press("e")
        await pilot.pause()
        # On a loaded machine the editor's focus can land after the first pause, and the
        # cursor is drawn only when focused (and, blinking, only half the time).
        pilot.app.screen.query_one(TextArea).focus()
        await steady_cursors(pilot)

    assert snap_compare(make_app(TOUR, tmp_path), terminal_size=(120, 40),
                        run_before=run_before)


def test_help(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(make_app(TOUR, tmp_path), terminal_size=(120, 40),
                        press=["question_mark"])


@pytest.mark.parametrize("width", [60, 40])
def test_help_narrow(snap_compare: SnapCompare, tmp_path: Path, width: int) -> None:
    """Fits the terminal (QA pass s28 F11); at 40 each id sits under its action, whole."""
    assert snap_compare(make_app(TOUR, tmp_path), terminal_size=(width, 30),
                        press=["question_mark"])


def test_findings_panel(snap_compare: SnapCompare, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, MainScreen)
        await pilot.app.workers.wait_for_complete()
        await findings_in(pilot, screen)
        screen.select(1, 0)
        await pilot.press("f")
        await pilot.pause()

    assert snap_compare(make_app(GALLERY, tmp_path), terminal_size=(120, 40),
                        run_before=run_before)


def test_raw_reply_view(snap_compare: SnapCompare, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.app.workers.wait_for_complete()
        screen = pilot.app.screen
        assert isinstance(screen, MainScreen)
        await findings_in(pilot, screen)
        screen.select(1, 0)
        await pilot.press("r")
        await pilot.pause()

    assert snap_compare(make_app(GALLERY, tmp_path), terminal_size=(120, 40),
                        run_before=run_before)


def test_first_checkpoint(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(make_app(TOUR, tmp_path), terminal_size=(120, 40),
                        press=["comma"])


def test_last_checkpoint(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(make_app(TOUR, tmp_path), terminal_size=(120, 40),
                        press=["full_stop"] * 5)


def test_unified_at_80x24(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(make_app(TOUR, tmp_path), terminal_size=(80, 24))


def test_tiny_60x20(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(make_app(TOUR, tmp_path), terminal_size=(60, 20))




def test_split_hunks_modal(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """Block 1 chosen line by line (the selection on its new body), block 2 taken,
    block 3 left out."""
    keys = ["s", "down", "down", "space", "home", "v", "down", "down", "v", "shift+down"]
    assert snap_compare(make_app(BLOCKS, tmp_path), terminal_size=(120, 40), press=keys)


def test_search_prompt(snap_compare: SnapCompare, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.press("slash")
        await pilot.pause()
        from textual.widgets import Input

        pilot.app.screen.query_one(Input).cursor_blink = False
        await pilot.press(*"greeting", "enter")
        await steady_cursors(pilot)

    assert snap_compare(make_app(TOUR, tmp_path), terminal_size=(120, 40),
                        run_before=run_before)


def test_presenter_mode(snap_compare: SnapCompare, tmp_path: Path) -> None:
    app = make_app(TOUR, tmp_path)
    app.present = True

    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.app.workers.wait_for_complete()
        await pilot.press("pagedown")
        await pilot.pause()

    assert snap_compare(app, terminal_size=(120, 40), run_before=run_before)


def test_tree_at_checkpoint(snap_compare: SnapCompare, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, MainScreen)
        screen.go_checkpoint(4)
        await pilot.press("t")
        await pilot.pause()

    assert snap_compare(make_app(TOUR, tmp_path), terminal_size=(120, 40),
                        run_before=run_before)


def test_syntax_diagnostics_under_the_diff(snap_compare: SnapCompare, tmp_path: Path) -> None:
    """The edit leaves app.py unparsable: a !syntax badge on its row, the error listed."""
    assert snap_compare(make_app(DIAGNOSTICS, tmp_path), terminal_size=(120, 40),
                        run_before=select(0, 0))


def test_statistics_screen(snap_compare: SnapCompare, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.app.workers.wait_for_complete()
        await pilot.press("S")
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    assert snap_compare(make_app(GALLERY, tmp_path), terminal_size=(120, 40),
                        run_before=run_before)
