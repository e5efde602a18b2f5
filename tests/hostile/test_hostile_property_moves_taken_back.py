"""Property: moves accepted, written, then taken back never lose a file (README, "Nothing is
lost": a file is never removed before whatever replaces it is written; a move is written
whole or not at all, taken back too).

Hypothesis writes a session of ``:mv`` commands (and new files made at paths a move left)
that swap, chain and move out of a path twice, accepts them (one by one or at once), lets
the user make a file or add a line to one outside, and takes the moves back (``u``, ``n``,
a restore of checkpoint 0). Every original file is then still on disk, at its path or
held at the other end of its move, and so is the user's change; once the user deletes a
file they made, still (the move back written whole, or still held). Found by
QA s47 helper-154: a swap through a temp name (H4) and a path moved out of twice (H5) lost
the original file on a restore or ``u``.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path
from typing import Any

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from diskkit import Cmd, Full, Op, assert_conflicts_shown, make_project, tree_bytes, write_session
from reviewtui.core.engine import Decision
from reviewtui.shell.review import Review

START = {"a.py": b"A original\n", "b.py": b"B original\n", "c.py": b"C original\n"}
PATHS = ["a.py", "b.py", "c.py", "d.py", "tmp.py"]
MINE = b"# the user's\n"


@st.composite
def sessions(draw: st.DrawFn) -> list[list[Op]]:
    """1-4 turns, each of 1-3 moves from a path that holds a file to one that holds none
    (commands are read first in a turn), or one new file at a path that holds none."""
    there = set(START)
    turns: list[list[Op]] = []
    for made in range(draw(st.integers(1, 4))):
        empty = [path for path in PATHS if path not in there]
        if not empty:
            break
        if turns and draw(st.integers(0, 3)) == 0:
            new = draw(st.sampled_from(empty))
            turns.append([Full(new, f"made {made}\n")])
            there.add(new)
            continue
        ops: list[Op] = []
        for _op in range(draw(st.integers(1, 3))):
            old = draw(st.sampled_from(sorted(there)))
            new = draw(st.sampled_from([path for path in PATHS if path not in there]))
            ops.append(Cmd(f":mv {old} {new}"))
            there.discard(old)
            there.add(new)
        turns.append(ops)
    return turns


def _original_on_disk(root: Path) -> None:
    held = tree_bytes(root).values()
    for path, data in START.items():
        assert any(now.startswith(data) for now in held), (
            f"{path}'s file is on disk nowhere: {tree_bytes(root)}")


def _take_back(review: Review, how: str, keys: list[Any], each: bool) -> None:
    if how == "restore":
        review.restore(0)
    elif how == "u":
        for _key in keys if each else keys[:1]:
            review.undo()
    else:
        for key in reversed(keys):
            review.decide(key, Decision.reject())


EXAMPLES = int(os.environ.get("REVIEWTUI_PROPERTY_EXAMPLES", "150"))


@settings(max_examples=EXAMPLES, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(sessions(), st.booleans(), st.sampled_from(PATHS), st.sampled_from(["u", "n", "restore"]))
def test_moves_taken_back_lose_no_file(session: list[list[Op]], each: bool, mine: str,
                                       how: str) -> None:
    with tempfile.TemporaryDirectory() as base:
        root = make_project(Path(base) / "proj", dict(START))
        review = Review.open(write_session(Path(base) / "s", session), root, persist=False)
        try:
            keys = [(turn.index, pos) for turn in review.display.session.turns
                    for pos in range(len(turn.reply.ops))]
            if each:
                for key in keys:
                    review.decide(key, Decision.accept())
            else:
                review.decide_many([(key, Decision.accept()) for key in keys])
            target = root / mine
            made = not target.exists()
            # (A new file where a move of the session goes makes its accept stop landing:
            # that is the revert of accepts no longer landing, not a move taken back.)
            assume(not made or f" {mine}" not in "".join(
                op.text[op.text.index(" ", 4):] for turn in session for op in turn
                if isinstance(op, Cmd)))
            target.write_bytes(MINE if made else target.read_bytes() + MINE)
            review.outside_changed([mine])
            _take_back(review, how, keys, each)
            _original_on_disk(root)
            assert (root / mine).read_bytes().endswith(MINE)
            assert_conflicts_shown(review)
            if made:  # the user's own file goes: the move back is written, whole or not
                target.unlink()
                review.outside_changed([mine])
                _original_on_disk(root)
                assert_conflicts_shown(review)
        finally:
            review.close()
