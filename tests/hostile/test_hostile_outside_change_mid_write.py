"""Threat: someone changes a file while reviewtui writes a batch, and the change is lost.

Replay used to read (guard) every path first and then write them all, so a file changed
while an earlier one was being written was replaced without a conflict. Each file is now
compared with what the review expects right before its own rename: a per-file
compare-and-swap whose mismatch becomes the usual rebase or conflict.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from disk_threat_kit import Arena

from diskkit import Cmd, Ed, make_project, write_session
from reviewtui.core.engine import Decision
from reviewtui.core.model.outcome import Status
from reviewtui.shell.review import MSG_REBASED, Review

B_TEXT = "b1\nb2\nb3\n"


def _while_writing(monkeypatch: pytest.MonkeyPatch, name: str,
                   action: Callable[[], object]) -> list[bool]:
    """Run ``action`` once, when the rename that writes file ``name`` is about to happen."""
    real_replace = os.replace
    fired: list[bool] = []

    def replace(src: Any, dst: Any, **kwargs: Any) -> None:
        if not fired and os.fsdecode(dst).endswith(name):
            fired.append(True)
            action()
        real_replace(src, dst, **kwargs)

    monkeypatch.setattr(os, "replace", replace)
    return fired


def _open(arena: Arena, turns: list[list[Any]]) -> Review:
    make_project(arena.root, {"a.txt": "a1\n", "b.txt": B_TEXT})
    session = write_session(arena.work, turns)
    return Review.open(session, arena.root, state_path=arena.work / "s.review.json")


def test_a_change_made_while_another_file_is_written_is_rebased_over(
    arena: Arena, monkeypatch: pytest.MonkeyPatch
) -> None:
    review = _open(arena, [[Ed("a.txt", "a1", "A1"), Ed("b.txt", "b1", "B1")]])
    b = arena.root / "b.txt"
    try:
        fired = _while_writing(monkeypatch, "a.txt",
                               lambda: b.write_bytes(b"b1\nb2\nb3 changed outside\n"))
        report = review.decide_many([((1, 0), Decision.accept()), ((1, 1), Decision.accept())])
        assert fired
        assert (arena.root / "a.txt").read_bytes() == b"A1\n"
        # The outside change survives, with the accepted edit on top of it.
        assert b.read_bytes() == b"B1\nb2\nb3 changed outside\n"
        assert "b.txt" in report.rebased
        assert ("b.txt", MSG_REBASED) in report.events
    finally:
        review.close()


def test_a_change_the_accepted_edit_cannot_follow_becomes_a_conflict(
    arena: Arena, monkeypatch: pytest.MonkeyPatch
) -> None:
    review = _open(arena, [[Ed("a.txt", "a1", "A1"), Ed("b.txt", "b1", "B1")]])
    b = arena.root / "b.txt"
    try:
        _while_writing(monkeypatch, "a.txt", lambda: b.write_bytes(b"rewritten outside\n"))
        report = review.decide_many([((1, 0), Decision.accept()), ((1, 1), Decision.accept())])
        assert b.read_bytes() == b"rewritten outside\n"  # kept exactly as it is
        assert report.conflicts == ["b.txt"]
        assert review.outcome((1, 1)).status is Status.CONFLICT
    finally:
        review.close()


def test_a_file_changed_before_its_removal_is_not_removed_unseen(
    arena: Arena, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The removal is compared too: the outside content becomes the base the accepted
    ``:rm`` is judged on (and kept in the review state), never deleted unseen."""
    review = _open(arena, [[Cmd(":rm b.txt"), Ed("a.txt", "a1", "A1")]])
    b = arena.root / "b.txt"
    try:
        _while_writing(monkeypatch, "a.txt", lambda: b.write_bytes(b"changed outside\n"))
        report = review.decide_many([((1, 0), Decision.accept()), ((1, 1), Decision.accept())])
        assert "b.txt" in report.outside
        base = review.base.get("b.txt")
        assert base is not None
        assert base.data == b"changed outside\n"
    finally:
        review.close()


def test_each_file_is_compared_right_before_its_own_rename(
    arena: Arena, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Many files in one batch: a change to any later one is never overwritten."""
    files = {f"f{i:02}.txt": f"line {i}\n" for i in range(12)}
    make_project(arena.root, files)
    session = write_session(arena.work, [[Ed(p, t.strip(), t.strip() + " edited")
                                          for p, t in files.items()]])
    review = Review.open(session, arena.root, state_path=arena.work / "s.review.json")
    try:
        victim = arena.root / "f09.txt"
        _while_writing(monkeypatch, "f02.txt", lambda: victim.write_bytes(b"mine now\n"))
        report = review.decide_many([((1, i), Decision.accept()) for i in range(12)])
        assert victim.read_bytes() == b"mine now\n"
        assert report.conflicts == ["f09.txt"]
        assert (arena.root / "f10.txt").read_bytes() == b"line 10 edited\n"
        assert Path(arena.root / "f02.txt").read_bytes() == b"line 2 edited\n"
    finally:
        review.close()
