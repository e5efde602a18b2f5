"""Review.open for the workbench's first frame (issue 13): the collector is off while the
first evaluation's records are made, frozen after, and on again whatever happens."""

from __future__ import annotations

import gc
from pathlib import Path

import pytest

from reviewtui.shell import resume
from reviewtui.shell.review import Review


def test_opening_for_the_first_frame_runs_no_collection(
        line_turns: tuple[Path, Path], walks: list[int],
        monkeypatch: pytest.MonkeyPatch) -> None:
    session, root = line_turns
    during: list[tuple[int, int]] = []  # walks seen at the start and end of resume
    real = resume.resume

    def watched(review: Review, *, first_frame: bool = False) -> None:
        start = len(walks)
        real(review, first_frame=first_frame)
        during.append((start, len(walks)))

    monkeypatch.setattr(resume, "resume", watched)
    frozen = gc.get_freeze_count()
    review = Review.open(session, root, dry_run=True, first_frame=True)
    assert gc.isenabled()
    [(start, end)] = during
    assert end == start  # the first evaluation was not walked meanwhile
    assert gc.get_freeze_count() > frozen  # nor will it be: it is frozen
    assert review.evaluated_turns == 1
    review.close()


def test_the_collector_comes_back_when_opening_fails(line_turns: tuple[Path, Path],
                                                     walks: list[int],
                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    session, root = line_turns

    def broken(review: Review, *, first_frame: bool = False) -> None:
        assert not gc.isenabled()
        raise RuntimeError("resume failed")

    monkeypatch.setattr(resume, "resume", broken)
    with pytest.raises(RuntimeError, match="resume failed"):
        Review.open(session, root, first_frame=True)
    assert gc.isenabled()


def test_a_headless_open_leaves_the_collector_alone(line_turns: tuple[Path, Path],
                                                    walks: list[int]) -> None:
    session, root = line_turns
    gc.disable()
    try:
        with Review.open(session, root, dry_run=True, first_frame=True):
            assert not gc.isenabled()  # off it was, off it stays
    finally:
        gc.enable()
    with Review.open(session, root, dry_run=True) as review:
        assert review.evaluation_complete
    assert gc.isenabled()
