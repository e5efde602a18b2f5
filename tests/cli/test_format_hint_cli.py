"""A File Ops session read with the wrong --format suggests the format it looks like."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.shell.review import Review

REPO = Path(__file__).resolve().parents[2]
TOUR = REPO / "sample_sessions" / "workshop-tour"


def test_check_with_the_wrong_format_suggests_the_right_one(
        capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", str(TOUR), "--format", "aider"])
    err = capsys.readouterr().err
    assert "looks like fileops" in err
    assert "try --format fileops" in err


def test_review_with_the_wrong_format_says_so(tmp_path: Path) -> None:
    with Review.open(TOUR, dry_run=True, format="aider") as review:
        assert any("try --format fileops" in p for p in review.state_problems)
    with Review.open(TOUR, dry_run=True) as review:
        assert not any("--format" in p for p in review.state_problems)
