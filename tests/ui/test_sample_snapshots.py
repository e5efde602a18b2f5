"""Snapshot tests of the sample sessions in the workbench (SVGs under snapshots/).

Like ``test_snapshots.py``: plain ``def`` tests, each app in dry-run mode on a temporary
copy of the sample, watcher off, 120x40. Each picture shows the operation a sample is
about; every committed SVG was rendered to PNG and looked at.
"""

from __future__ import annotations

import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from uikit import findings_in

from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.screens.main import MainScreen

SAMPLES = Path(__file__).resolve().parents[2] / "sample_sessions"

SnapCompare = Callable[..., bool]


@pytest.fixture
def in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Work in ``tmp_path`` with relative paths: messages that name a file (the
    reviewtui.toml that reserves a path) must not show the random temporary folder."""
    monkeypatch.chdir(tmp_path)
    return tmp_path


def sample_app(name: str, workdir: Path) -> ReviewApp:
    """The sample opened from ``workdir`` (the current folder) in dry-run mode."""
    source = SAMPLES / name
    shutil.copytree(source, workdir / "session",
                    ignore=shutil.ignore_patterns("base", "expected"))
    shutil.copytree(source / "base", workdir / "root", symlinks=True)
    review = Review.open(Path("session"), Path("root"), dry_run=True)
    return ReviewApp(review, watch=False)


def select(turn_pos: int, op_pos: int) -> Callable[[Pilot[Any]], Any]:
    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.app.workers.wait_for_complete()
        screen = pilot.app.screen
        assert isinstance(screen, MainScreen)
        screen.select(turn_pos, op_pos)
        await pilot.pause()
        await pilot.app.workers.wait_for_complete()
        await pilot.pause()

    return run_before


@pytest.mark.parametrize(
    ("name", "turn_pos", "op_pos"),
    [
        pytest.param("validation-message", 0, 0, id="validation-message-one-line-edit"),
        pytest.param("formatter-churn", 0, 0, id="formatter-churn-tabs-spaces"),
        pytest.param("formatter-churn", 2, 0, id="formatter-churn-stale"),
        pytest.param("formatter-churn", 4, 0, id="formatter-churn-closest-candidates"),
        pytest.param("refactor-multi-turn", 1, 0, id="refactor-substring-rename"),
        pytest.param("refactor-multi-turn", 5, 0, id="refactor-undo"),
        pytest.param("failure-gallery", 3, 0, id="failure-gallery-stale"),
        pytest.param("failure-gallery", 5, 0, id="failure-gallery-truncation"),
        pytest.param("failure-gallery", 7, 0, id="failure-gallery-reserved"),
        pytest.param("failure-gallery", 10, 0, id="failure-gallery-missing-need"),
        pytest.param("windows-conventions", 4, 0, id="windows-full-file-keeps-crlf-bom"),
        pytest.param("edit-shapes", 2, 0, id="edit-shapes-stale-line-id"),
        pytest.param("edit-shapes", 6, 0, id="edit-shapes-batch"),
    ],
)
def test_sample(snap_compare: SnapCompare, in_tmp: Path, name: str, turn_pos: int,
                op_pos: int) -> None:
    assert snap_compare(sample_app(name, in_tmp), terminal_size=(120, 40),
                        run_before=select(turn_pos, op_pos))


def test_failure_gallery_prose_finding(snap_compare: SnapCompare, in_tmp: Path) -> None:
    async def run_before(pilot: Pilot[Any]) -> None:
        await pilot.app.workers.wait_for_complete()
        screen = pilot.app.screen
        assert isinstance(screen, MainScreen)
        await findings_in(pilot, screen)  # (lint can start after the wait above)
        screen.select(11, 0)
        await pilot.press("f")
        await pilot.pause()

    assert snap_compare(sample_app("failure-gallery", in_tmp), terminal_size=(120, 40),
                        run_before=run_before)
