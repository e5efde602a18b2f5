"""A binary patch, a link or a mode change has no text to edit (QA s36).

An edit decision on a binary file was recorded as "edited", its text dropped unsaid, and
the binary written: the reviewer's edit did nothing they could see. Such an edit is now
refused with the reason, nothing recorded; in the workbench ``e`` and ``E`` say so
before any editor opens.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gitkit import BINARY, five_commits, git, new_repo
from reviewtui.core.engine import Decision
from reviewtui.core.engine.filebytes import NO_TEXT_EDIT
from reviewtui.core.errors import DecisionRefused
from reviewtui.shell.git_sources import open_range
from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.screens.main import MainScreen


def _range_review(tmp_path: Path) -> Review:
    repo = new_repo(tmp_path / "repo")
    base, head = five_commits(repo)
    git(repo, "checkout", "-q", "-b", "review", base)
    source = open_range(f"{base}..{head}", str(repo), keep=True)
    return Review.open(source.session, source.root)


def _key(review: Review, title: str) -> tuple[int, int]:
    return next(r.key for t in review.display.turns for r in t.results
                if getattr(r.op, "path", "") == title)


@pytest.mark.parametrize("path", ["logo.bin", "run.sh"])
def test_an_edit_of_what_has_no_text_is_refused_and_records_nothing(
        tmp_path: Path, path: str) -> None:
    review = _range_review(tmp_path)
    try:
        key = _key(review, path)
        before = (review.root / path).read_bytes() if (review.root / path).exists() else None
        with pytest.raises(DecisionRefused) as refused:
            review.decide(key, Decision.edit(("hello",)))
        assert NO_TEXT_EDIT in str(refused.value)
        assert key not in review.decisions
        now = (review.root / path).read_bytes() if (review.root / path).exists() else None
        assert now == before
        review.decide(key, Decision.accept())  # as it is: written byte for byte
        if path == "logo.bin":
            assert (review.root / path).read_bytes() == BINARY
    finally:
        review.close()


@pytest.mark.anyio
async def test_e_on_a_binary_file_says_why_before_any_editor(tmp_path: Path) -> None:
    review = _range_review(tmp_path)
    app = ReviewApp(review, watch=False)
    try:
        async with app.run_test(size=(120, 40)) as pilot:
            await pilot.pause()
            screen = next(s for s in app.screen_stack if isinstance(s, MainScreen))
            key = _key(review, "logo.bin")
            row = next((tp, opp) for tp, opp, r in screen.iter_results() if r.key == key)
            screen.select(*row)
            await pilot.pause()
            await pilot.press("e")
            await pilot.pause()
            assert app.screen is screen  # no edit screen opened
            assert NO_TEXT_EDIT in [str(n.message) for n in app._notifications]
            assert key not in review.decisions
    finally:
        review.close()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.parametrize("path", ["logo.bin", "run.sh"])
def test_such_an_edit_saved_before_stays_an_accept_on_reopening(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, path: str) -> None:
    """A review saved before the refusal holds the edit: it did what an accept does (the
    engine leaves the text aside), and the disk holds that. Reopened, it stays so: no
    take-back, nothing written (QA s36 helper-106: refused in the engine, the reopening
    wrote run.sh back to 0644 saying nothing was written, and took the new binary for
    the file's original)."""
    import reviewtui.shell.deciding as deciding

    repo = new_repo(tmp_path / "repo")
    base, head = five_commits(repo)
    git(repo, "checkout", "-q", "-b", "review", base)
    source = open_range(f"{base}..{head}", str(repo), keep=True)
    with monkeypatch.context() as old:  # as the code before the refusal decided
        old.setattr(deciding, "takes_no_text", lambda op: False)
        with Review.open(source.session, source.root) as review:
            key = _key(review, path)
            review.decide(key, Decision.edit(("hello",)))
    target = source.root / path
    written = (target.read_bytes(), target.stat().st_mode)
    with Review.open(source.session, source.root) as review:
        assert review.decisions[key].verdict.value == "edited"
        assert review.result(key).landed
        assert review.state_problems == [  # said, not kept from the reviewer
            f"turn {key[0]}, operation {key[1] + 1} ({path}): saved as edited, but a binary "
            "file, a symbolic link or a mode change has no text to edit: it stands as an "
            "accept of the operation as sent, the text unused"]
        assert review.last_report is None or not review.last_report.reverted
    assert (target.read_bytes(), target.stat().st_mode) == written


def test_a_binary_patch_and_a_mode_change_read_pending_not_fuzzy(tmp_path: Path) -> None:
    """Verified by blob id, or set as sent: exact, not "◌ fuzzy", which the README
    defines as an approximate match (QA s36 helper-106)."""
    from reviewtui.core.engine.opstate import OpState, op_state

    review = _range_review(tmp_path)
    try:
        for path in ("logo.bin", "run.sh"):
            assert op_state(review.result(_key(review, path))) is OpState.PENDING, path
    finally:
        review.close()


def test_a_new_link_reads_pending_too(tmp_path: Path) -> None:
    import os

    from gitkit import commit_all
    from reviewtui.core.engine.opstate import OpState, op_state

    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("a\n")
    base = commit_all(repo, "Base")
    os.symlink("a.txt", repo / "to-a")
    head = commit_all(repo, "A link")
    source = open_range(f"{base}..{head}", str(repo), keep=False)
    try:
        with Review.open(source.session, source.root, dry_run=True) as review:
            result = review.result((1, 0))
            assert result.outcome.method == "new-link"
            assert op_state(result) is OpState.PENDING
    finally:
        source.close()
