"""Issue 13: no collection while the workbench builds and draws its first frame (the
screen's widgets and thousands of turn rows, each walk visiting them: ~0.1 s at 5,000
turns); the collector is on again once the frame is drawn."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path

import pytest
from uikit import screen_of

from reviewtui.shell.review import Review
from reviewtui.ui import collector
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.screens.main import MainScreen

pytestmark = pytest.mark.anyio


@pytest.fixture
def walks(walks: list[int]) -> Iterator[list[int]]:
    """tests/conftest.py's, and the workbench's collector policy reset after."""
    try:
        yield walks
    finally:
        collector.reset()  # (what it froze stays frozen: see test_ui_collector.py)


async def test_no_collection_from_the_screen_s_mount_to_its_first_frame(
        line_turns: tuple[Path, Path], walks: list[int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    session, root = line_turns
    marks: dict[str, int] = {}
    mount, first_frame = MainScreen.on_mount, MainScreen._first_frame

    def mounted(screen: MainScreen) -> None:
        marks["mount"] = len(walks)
        mount(screen)

    def drawn(screen: MainScreen) -> None:
        marks["frame"] = len(walks)
        first_frame(screen)

    monkeypatch.setattr(MainScreen, "on_mount", mounted)
    monkeypatch.setattr(MainScreen, "_first_frame", drawn)
    review = Review.open(session, root, dry_run=True, first_frame=True)
    app = ReviewApp(review, watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        for _ in range(100):
            if "frame" in marks and not collector.held():
                break
            await pilot.pause(0.01)
        assert screen_of(app).first_frame_at is not None
        assert marks["frame"] == marks["mount"]
        assert not collector.held()
        assert gc.isenabled()
        _ = [[n] for n in range(200)]  # the collector walks again
        assert len(walks) > marks["frame"]
