"""The links a review makes are its own: neither its watcher's event for one nor its
reopening takes them for links made outside, which no turn may write a file over.

A range makes a.txt a link, then a file, then a link again. Accepted whole, the review
writes B; the watcher then reported a.txt, the link went into the engine's disk links,
and at every turn without a.txt in its tree the engine took it for a link there: the
turns making a.txt a file were refused and their accepts taken back (QA s40 helper-125
m2 b, older, as an export exit 1; live, the accepts were silently lost)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gitkit import git, link_file_link
from reviewtui.core.engine import Decision, OpKey, Verdict
from reviewtui.core.errors import DecisionRefused
from reviewtui.shell.git_sources import open_range
from reviewtui.shell.review import Review


def _range(tmp_path: Path, at_base: bool) -> tuple[Path, str]:
    repo, commits = link_file_link(tmp_path, at_base=at_base)
    git(repo, "checkout", "-q", "--detach", commits[0])
    return repo, f"{commits[0]}..{commits[-1]}"


def _keys(review: Review) -> list[OpKey]:
    return [result.key for turn in review.display.turns for result in turn.results]


@pytest.mark.parametrize("at_base", [True, False], ids=["a-file-at-a", "new-path"])
def test_the_reviews_own_link_takes_back_no_accept(tmp_path: Path, at_base: bool) -> None:
    repo, spec = _range(tmp_path, at_base)
    source = open_range(spec, str(repo), keep=True)
    review = Review.open(source.session, source.root, dry_run=False)
    try:
        keys = _keys(review)
        review.decide_many([(key, Decision.accept()) for key in keys])
        assert os.readlink(repo / "a.txt") == "k"
        review.outside_changed(["a.txt"])  # the watcher's event for the review's own write
        assert {key: review.decisions[key].verdict for key in keys} == dict.fromkeys(
            keys, Verdict.ACCEPTED)
        assert all(review.result(key).landed for key in keys)
        assert os.readlink(repo / "a.txt") == "k"
    finally:
        review.close()
    again = Review.open(source.session, source.root, dry_run=False)
    try:
        assert again.state_problems == []
        assert {key: again.decisions[key].verdict for key in keys} == dict.fromkeys(
            keys, Verdict.ACCEPTED)
        assert all(again.result(key).landed for key in keys)
    finally:
        again.close()


@pytest.mark.parametrize("closed", [False, True], ids=["while-open", "while-closed"])
@pytest.mark.parametrize("target", ["elsewhere", "k"], ids=["other-target", "the-reviews-target"])
def test_a_link_made_outside_still_stops_a_file_written_there(
        tmp_path: Path, target: str, closed: bool) -> None:
    """The other side: a link put at a.txt outside the workbench while the turn making
    a.txt a file waits is not written over, also one to the very target the review's own
    link had before the review removed it (what the review saw there last is no link),
    and also one put there while the review was closed."""
    repo, spec = _range(tmp_path, True)
    source = open_range(spec, str(repo), keep=True)
    review = Review.open(source.session, source.root, dry_run=False)
    try:
        keys = _keys(review)
        # :rm a.txt, the link, :rm a.txt: a.txt is gone, and the next turn writes a file
        review.decide_many([(key, Decision.accept()) for key in keys[:3]])
        assert not (repo / "a.txt").is_symlink()
        assert not (repo / "a.txt").exists()
        if closed:
            review.close()
            (repo / "a.txt").symlink_to(target)
            review = Review.open(source.session, source.root, dry_run=False)
        else:
            (repo / "a.txt").symlink_to(target)
            review.outside_changed(["a.txt"])
        assert "a.txt is a symbolic link" in review.outcome(keys[3]).message
        with pytest.raises(DecisionRefused, match="a safety rule refuses it"):
            review.decide(keys[3], Decision.accept())
        assert os.readlink(repo / "a.txt") == target
        assert keys[3] not in review.decisions
        assert all(review.decisions[key].verdict == Verdict.ACCEPTED for key in keys[:3])
    finally:
        review.close()

