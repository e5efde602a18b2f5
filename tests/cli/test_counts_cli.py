"""One definition of "failed": once a review state exists, `stats` and the exports count
a pending operation that fails as failed, as the workbench's status line does (the
decided-only draft never evaluates it)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.core.engine import Decision
from reviewtui.core.engine.opstate import op_state
from reviewtui.shell.review import Review

REPO = Path(__file__).resolve().parents[2]
GALLERY = REPO / "tests" / "fixtures" / "gallery"


@pytest.fixture
def reviewed(tmp_path: Path) -> tuple[Path, Path, int]:
    session = tmp_path / "session"
    shutil.copytree(GALLERY, session, ignore=shutil.ignore_patterns("base"))
    root = tmp_path / "root"
    shutil.copytree(GALLERY / "base", root)
    with Review.open(session, root) as review:
        review.decide((1, 0), Decision.accept())
        failed = sum(op_state(r, review.outcome(r.key).status).failed
                     for turn in review.display.turns for r in turn.results)
    return session, root, failed


def test_stats_counts_failures_as_the_workbench(
        reviewed: tuple[Path, Path, int], capsys: pytest.CaptureFixture[str]) -> None:
    session, root, failed = reviewed
    assert failed == 6
    main(["stats", str(session), "--root", str(root)])
    out = capsys.readouterr().out
    assert f"landed / failed              1 / {failed}" in out


def test_context_export_keeps_failed_operations_once_a_state_exists(
        reviewed: tuple[Path, Path, int], capsys: pytest.CaptureFixture[str]) -> None:
    session, root, _ = reviewed
    main(["export", str(session), "--root", str(root), "--format", "context"])
    out = capsys.readouterr().out
    assert "## Operations that did not apply" in out
    assert "SEARCH matches 2 places in app.py" in out  # the ambiguous edit
