"""Snapshots of issue 15's workbench (SVGs under snapshots/test_workbench_snapshots/):
wrapping, the hidden side panel, the request block, an ambiguous edit being placed, the
reject-with-reason dialog and the pinned status line. Each committed SVG was looked at
as a PNG. Dry-run apps on temporary copies; the user config folder is a fresh one
(tests/ui/conftest.py)."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot
from uikit import GALLERY, REPO, TOUR, copy_session, open_app, steady_cursors

from reviewtui.ui.app import ReviewApp
from reviewtui.ui.screens.main import MainScreen

SnapCompare = Callable[..., bool]
REFACTOR = REPO / "sample_sessions" / "refactor-multi-turn"


def _app(source: Path, tmp_path: Path, *, dry_run: bool = True) -> ReviewApp:
    return open_app(*copy_session(source, tmp_path), dry_run=dry_run)


def _long_line_app(tmp_path: Path) -> ReviewApp:
    words = " ".join(f"w{n:03d}" for n in range(44))
    line = f"    message = '{words}'"
    changed = line.replace("w040", "CHANGED")
    session = tmp_path / "long"
    (session / "base").mkdir(parents=True)
    (session / "session.md").write_text(
        "# Session: a long line\n\n## Turn 1\n> Rename one word near the end of a long line."
        "\n\n--- File: long.py ---\n"
        f"<<<<<<< SEARCH\n{line}\n=======\n{changed}\n>>>>>>> REPLACE\n")
    root = tmp_path / "root"
    root.mkdir()
    (root / "long.py").write_text(f"def greet():\n{line}\n    return message\n")
    return open_app(session, root, dry_run=True)


def _select(turn_pos: int, op_pos: int, *keys: str) -> Callable[[Pilot[Any]], Any]:
    async def run_before(pilot: Pilot[Any]) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, MainScreen)
        screen.select(turn_pos, op_pos)
        await pilot.pause()
        for key in keys:
            await pilot.press(key)
            await pilot.pause()
        await steady_cursors(pilot)

    return run_before


def test_wrap_long_changed_line_100x30(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(_long_line_app(tmp_path), terminal_size=(100, 30),
                        run_before=_select(0, 0))


def test_hidden_side_panel(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(_app(REFACTOR, tmp_path), terminal_size=(120, 36),
                        run_before=_select(3, 2, "b"))


def test_request_block(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(_app(REFACTOR, tmp_path), terminal_size=(140, 40),
                        run_before=_select(3, 0))


def test_ambiguous_edit_placed(snap_compare: SnapCompare, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await _select(1, 1, "c", "y")(pilot)
        screen = pilot.app.screen
        assert isinstance(screen, MainScreen)
        screen.select(1, 1)  # back on it: applied, "placed by reviewer at lines 29-30"
        await pilot.pause()

    assert snap_compare(_app(GALLERY, tmp_path), terminal_size=(120, 40),
                        run_before=run_before)


def test_reject_reason_dialog(snap_compare: SnapCompare, tmp_path: Path) -> None:
    assert snap_compare(_app(TOUR, tmp_path), terminal_size=(100, 30),
                        run_before=_select(0, 0, "N"))


def test_pinned_status_line(snap_compare: SnapCompare, tmp_path: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        screen = pilot.app.screen
        assert isinstance(screen, MainScreen)
        await pilot.press("y")
        await pilot.pause()
        screen.go_checkpoint(0)
        await pilot.press("ctrl+t")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        screen.select(1, 1)
        await pilot.pause()
        pilot.app.clear_notifications()
        await pilot.pause()

    assert snap_compare(_app(TOUR, tmp_path, dry_run=False), terminal_size=(120, 36),
                        run_before=run_before)
