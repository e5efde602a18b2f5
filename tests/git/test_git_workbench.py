"""The workbench on a ``--git`` session: commit subjects as turns, G commits."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path

import pytest

from gitkit import five_commits, git, new_repo
from reviewtui.shell.git_sources import open_range
from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.screens.main import MainScreen

SnapCompare = Callable[..., bool]


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def _range_review(tmp_path: Path, *, dry_run: bool) -> tuple[Path, Review]:
    repo = new_repo(tmp_path / "repo")
    base, head = five_commits(repo)
    git(repo, "checkout", "-q", "-b", "review", base)
    source = open_range(f"{base}..{head}", str(repo), keep=True)
    return repo, Review.open(source.session, source.root, dry_run=dry_run)


def test_git_session_shows_commit_subjects_as_turns(snap_compare: SnapCompare,
                                                    tmp_path: Path) -> None:
    _, review = _range_review(tmp_path, dry_run=True)
    app = ReviewApp(review, watch=False)
    try:
        assert snap_compare(app, terminal_size=(120, 40))
    finally:
        review.close()


@pytest.mark.anyio
async def test_g_commits_the_accepted_turns(tmp_path: Path) -> None:
    repo, review = _range_review(tmp_path, dry_run=False)
    base = git(repo, "rev-parse", "HEAD").strip()
    app = ReviewApp(review, watch=False)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            for _ in range(5):  # the five operations, one after the other
                await pilot.press("y")
                await pilot.pause()
            assert len(review.decisions) == 5
            screen = next(s for s in app.screen_stack if isinstance(s, MainScreen))
            screen.action_commit_turns()
            await pilot.pause()
            await pilot.press("y")
            await app.workers.wait_for_complete()
            await pilot.pause()
            # Asked again, the same commits are not offered (they would be refused once
            # confirmed): HEAD has moved past the review's base, and the notice says so.
            shown = len(app._notifications)
            screen.action_commit_turns()
            await pilot.pause()
            assert app.screen is screen
            notices = [n.message for n in app._notifications][shown:]
            assert any("HEAD moved since the review started" in n for n in notices), notices
    finally:
        review.close()
    subjects = git(repo, "log", "--format=%s", f"{base}..HEAD").splitlines()
    assert subjects == ["Edit the CRLF file", "Add a binary logo", "Make run.sh executable",
                        "Rename old_name.py to new_name.py", "Shout the second note"]
    assert git(repo, "status", "--porcelain") == ""


def test_the_commit_question_shows_a_subject_as_it_is(tmp_path: Path) -> None:
    """The dialog reads no markup: a subject's "[bold]" showed as "\\[bold]" (it was
    escaped for markup); its control characters show as pictures (QA s36 helper-104)."""
    from gitkit import commit_all
    from reviewtui.core.engine import Decision
    from reviewtui.ui.git_commit import commit_question

    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("a\n")
    base = commit_all(repo, "Base")
    (repo / "a.txt").write_text("a\nb\n")
    head = commit_all(repo, "Make [bold]b[/bold] \x1b[2Jappear")
    git(repo, "checkout", "-q", base)
    source = open_range(f"{base}..{head}", str(repo), keep=True)
    with Review.open(source.session, source.root, dry_run=True) as review:
        review.decide((1, 0), Decision.accept())
        question = commit_question(review)
    assert question is not None
    assert "turn 1: Make [bold]b[/bold] \u241b[2Jappear (accepted 1, edited 0, rejected 0)" \
        in question, question
    assert "\\[" not in question
    assert "\x1b" not in question
