"""``export --output`` never replaces what it reads or reviews, and makes no folders.

``--output ws/session.md`` replaced the session being exported with its own report, and
``--output root/greeter/core.py`` a project file with the patch; ``--output newdir/sub/x``
made the missing folders wherever the path said (found by helper-73, 2026-12-04). Each is
refused with a usage error (exit 2) that names the rule, and the file stays as it was."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.core.engine import Decision
from reviewtui.shell.review import Review

TOUR = Path(__file__).resolve().parents[2] / "sample_sessions" / "workshop-tour"


@pytest.fixture
def tour(tmp_path: Path) -> tuple[Path, Path]:
    session = tmp_path / "ws"
    shutil.copytree(TOUR, session)
    root = tmp_path / "root"
    shutil.copytree(TOUR / "base", root)
    return session, root


def _export(session: Path, root: Path, output: Path, *extra: str) -> int:
    return main(["export", str(session), "--root", str(root), "--format", "markdown",
                 "--output", str(output), *extra])


@pytest.mark.parametrize(("where", "says"), [
    ("ws/session.md", "is the session being exported"),
    ("ws/base/README.md", "inside the session's base/"),
    ("root/greeter/core.py", "a file of the project the session changes"),
    ("missing/sub/x.md", "does not exist"),
    ("root", "is a folder"),
])
def test_what_the_export_reads_is_never_its_output(
        tour: tuple[Path, Path], tmp_path: Path, capsys: pytest.CaptureFixture[str],
        where: str, says: str) -> None:
    session, root = tour
    target = tmp_path / where
    before = target.read_bytes() if target.is_file() else None
    assert _export(session, root, target) == 2
    err = capsys.readouterr().err
    assert says in err
    assert "[output]" in err
    if before is not None:
        assert target.read_bytes() == before
    assert not (tmp_path / "missing").exists()


def test_the_review_state_is_never_the_output(tour: tuple[Path, Path],
                                              capsys: pytest.CaptureFixture[str]) -> None:
    session, root = tour
    state = session / "review.json"
    with Review.open(session, root, state_path=state) as review:
        review.decide((1, 0), Decision.accept())
    saved = state.read_bytes()
    assert _export(session, root, state, "--state", str(state)) == 2
    assert "is the review's state" in capsys.readouterr().err
    assert state.read_bytes() == saved


@pytest.mark.parametrize("what", ["mark", "blob", "default"])
def test_the_states_mark_blobs_and_default_state_are_never_the_output(
        tour: tuple[Path, Path], capsys: pytest.CaptureFixture[str], what: str) -> None:
    """QA s53 helper-221: ``--output`` overwrote the state's ``.written`` mark, and the
    state beside the session before any existed (the next command then said the state
    was corrupt)."""
    from reviewtui.shell.statemark import mark_path
    from reviewtui.shell.statepath import blob_dir_for

    session, root = tour
    state = session / "review.json"
    with Review.open(session, root, state_path=state) as review:
        review.decide((1, 0), Decision.accept())
    target = {"mark": mark_path(state), "blob": blob_dir_for(state) / "x.md",
              "default": session / "session.md.review.json"}[what]
    before = target.read_bytes() if target.is_file() else None
    assert _export(session, root, target, "--state", str(state)) == 2
    assert "is the review's state" in capsys.readouterr().err
    assert (target.read_bytes() if target.is_file() else None) == before


def test_a_new_file_beside_the_session_or_in_the_root_is_written(
        tour: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    session, root = tour
    for target in (session / "report.md", root / "review-report.md"):
        assert _export(session, root, target) == 0
        assert target.read_text().startswith("#")
    capsys.readouterr()


@pytest.mark.parametrize("name", ["state-key", ".state-key.1.ab", "chat.md-0123.review.json"])
def test_reviewtuis_own_state_folder_is_never_the_output(
        tour: tuple[Path, Path], capsys: pytest.CaptureFixture[str], name: str) -> None:
    """QA s53 helper-225: a transcript's state (kept there), the state's seal key and the
    temp-name key were overwritten."""
    from reviewtui.shell.userkey import state_home

    session, root = tour
    target = state_home() / name
    before = target.read_bytes() if target.is_file() else None
    assert _export(session, root, target) == 2
    assert "reviewtui's own state folder" in capsys.readouterr().err
    assert (target.read_bytes() if target.is_file() else None) == before
