"""The status line says where the review state is when it is not beside the session."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from uikit import screen_of

from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.widgets.status_line import StatusLine

REPO = Path(__file__).resolve().parents[2]
CLAUDE = REPO / "tests" / "fixtures" / "importers" / "claude"
TOUR = REPO / "sample_sessions" / "workshop-tour"

pytestmark = pytest.mark.anyio


async def test_a_transcripts_state_location_is_on_the_status_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state-home"))
    transcript = tmp_path / "downloads" / "session.claude.jsonl"
    transcript.parent.mkdir()
    shutil.copy(CLAUDE / "session.claude.jsonl", transcript)
    root = tmp_path / "root"
    shutil.copytree(CLAUDE / "base", root)
    app = ReviewApp(Review.open(transcript, root), watch=False)
    async with app.run_test(size=(220, 40)) as pilot:
        await pilot.pause()
        line = str(screen_of(app).query_one(StatusLine).render())
        # Too long for the line: its folders are cut in the middle, its file name kept.
        assert f"state: {str(tmp_path)[:30]}" in line, line
        assert "…/session.claude.jsonl-" in line, line
        assert line.rstrip().endswith(".review.json"), line
        await pilot.resize_terminal(300, 40)
        status = screen_of(app).query_one(StatusLine)
        for _ in range(20):  # (the resize reaches the line in its own time on a busy machine)
            await pilot.pause(0.05)
            if status.size.width > 250:
                break
        screen_of(app).refresh_status()
        await pilot.pause()
        line = str(status.render())
        assert f"state: {tmp_path / 'state-home' / 'reviewtui'}/session.claude.jsonl-" in line


async def test_a_state_beside_the_session_is_not_mentioned(tmp_path: Path) -> None:
    session = tmp_path / "session"
    shutil.copytree(TOUR, session, ignore=shutil.ignore_patterns("base"))
    root = tmp_path / "root"
    shutil.copytree(TOUR / "base", root)
    app = ReviewApp(Review.open(session, root), watch=False)
    async with app.run_test(size=(220, 40)) as pilot:
        await pilot.pause()
        assert "state:" not in str(screen_of(app).query_one(StatusLine).render())
