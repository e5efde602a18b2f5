"""Where a review's state goes by default: beside the session, or under
$XDG_STATE_HOME/reviewtui/ for a single transcript file or an unwritable folder."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.shell.review import Review

REPO = Path(__file__).resolve().parents[2]
CLAUDE = REPO / "tests" / "fixtures" / "importers" / "claude"
TOUR = REPO / "sample_sessions" / "workshop-tour"


@pytest.fixture
def state_home(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    home = tmp_path / "state-home"
    monkeypatch.setenv("XDG_STATE_HOME", str(home))
    return home


def test_a_single_transcript_keeps_its_state_under_xdg_state_home(
        tmp_path: Path, state_home: Path) -> None:
    downloads = tmp_path / "downloads"
    downloads.mkdir()
    transcript = downloads / "session.claude.jsonl"
    shutil.copy(CLAUDE / "session.claude.jsonl", transcript)
    root = tmp_path / "root"
    shutil.copytree(CLAUDE / "base", root)
    with Review.open(transcript, root) as review:
        assert review.state_path is not None
        assert review.state_path.parent == state_home / "reviewtui"
        assert review.state_path.name.startswith("session.claude.jsonl-")
        assert any(p.startswith("review state kept in ") for p in review.state_problems)
    assert sorted(p.name for p in downloads.iterdir()) == ["session.claude.jsonl"]
    assert any(state_home.rglob("*.review.json"))
    with Review.open(transcript, root) as review:  # found again on reopen
        assert review.state_path is not None
        assert review.state_path.parent == state_home / "reviewtui"


def test_an_unwritable_session_folder_keeps_its_state_under_xdg_state_home(
        tmp_path: Path, state_home: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    session = tmp_path / "session"
    shutil.copytree(TOUR, session, ignore=shutil.ignore_patterns("base"))
    root = tmp_path / "root"
    shutil.copytree(TOUR / "base", root)
    # Tests may run as root, which can write anywhere: the check itself is replaced.
    real = os.access
    monkeypatch.setattr(os, "access",
                        lambda path, mode: Path(path) != session and real(path, mode))
    with Review.open(session, root) as review:
        assert review.state_path is not None
        assert review.state_path.parent == state_home / "reviewtui"
        assert any("not writable" in p for p in review.state_problems)
    # nothing of the review's beside the session: the state's mark and blobs are with it
    assert not list(session.glob("*.review*"))
    assert {p.name.removeprefix(review.state_path.name) for p in review.state_path.parent.glob(
        review.state_path.name + "*")} == {"", ".written"}


def test_a_session_folder_keeps_its_state_beside_the_session(
        tmp_path: Path, state_home: Path) -> None:
    session = tmp_path / "session"
    shutil.copytree(TOUR, session, ignore=shutil.ignore_patterns("base"))
    root = tmp_path / "root"
    shutil.copytree(TOUR / "base", root)
    with Review.open(session, root) as review:
        assert review.state_path == session / "session.md.review.json"
        assert not any("review state kept" in p for p in review.state_problems)
    assert not state_home.exists()


def test_the_reviews_own_files_inside_the_root_are_its_rules(tmp_path: Path) -> None:
    """Rules.own (QA s47 helper-147 M1): the session, its state (given, and the default one
    beside the session), the mark and the blob folder, those inside the root only."""
    from reviewtui.shell.statepath import review_files

    root = tmp_path / "root"
    (root / "logs").mkdir(parents=True)
    own = review_files(root, root / "logs" / "s.md", root / "st" / "r.json")
    assert own == {
        "logs/s.md": "the session file",
        "logs/s.md.review.json": "the review state",
        "logs/s.md.review.json.written": "the review state's .written mark",
        "logs/s.md.review.blobs": "the review state's blob folder",
        "st/r.json": "the review state",
        "st/r.json.written": "the review state's .written mark",
        "st/r.blobs": "the review state's blob folder",
    }
    assert review_files(root, tmp_path / "s.md", None) == {}
    assert review_files(root, tmp_path / "s.md", tmp_path / "elsewhere.json") == {}


def test_a_review_opened_in_place_knows_its_own_files(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("A\n")
    session = root / "s.md"
    session.write_text("## Turn 1\n--- File: a.py ---\n```\nB\n```\n\n### Changed files:\n"
                       "- a.py\n")
    with Review.open(session, root) as review:
        assert set(review.rules.own) == {"s.md", "s.md.review.json",
                                         "s.md.review.json.written", "s.md.review.blobs"}


def test_the_files_a_review_keeps_beside_a_session_are_ignored_by_git_here(
        tmp_path: Path, state_home: Path) -> None:
    """A sample session reviewed in this checkout left its state's ``.written`` mark
    untracked in ``git status``: .gitignore named the state and its blob folder only."""
    checkout = tmp_path / "checkout"
    session = checkout / "sample_sessions" / "refactor-multi-turn"
    shutil.copytree(REPO / "sample_sessions" / "refactor-multi-turn", session)
    shutil.copy(REPO / ".gitignore", checkout / ".gitignore")
    subprocess.run(["git", "init", "-q", str(checkout)], check=True)
    before = set(session.iterdir())
    root = tmp_path / "root"
    shutil.copytree(session / "base", root)
    state = session / "session.md.review.json"
    assert main(["apply", str(session / "session.md"), "--root", str(root), "--yes",
                 "--state", str(state)]) == 0
    with Review.open(session / "session.md", root) as review:  # as the workbench opens it
        assert review.state_path == state
    kept = sorted(p.name for p in set(session.iterdir()) - before)
    assert kept == ["session.md.review.blobs", "session.md.review.json",
                    "session.md.review.json.written"]
    status = subprocess.run(["git", "-C", str(checkout), "status", "--porcelain",
                             "--untracked-files=all", "--", "sample_sessions"],
                            check=True, capture_output=True, text=True).stdout
    assert ".review" not in status, status
