"""The process test_crash.py kills: kept apart from the test module so that a child
imports only reviewtui (which its fork server has already imported), not pytest.

Unpickling the child's target imports the module that defines it. Defined in
test_crash.py, each child imported pytest and the test module first, ~0.1 s of CPU: a
kill meant to land in opening the review landed in that import instead.
"""

from __future__ import annotations

import json  # noqa: F401
import time
from multiprocessing.connection import Connection
from pathlib import Path

# What a first Review.open and decision import on their way, imported here so the fork
# server holds them too: a kill lands in opening the review, not in an import.
import reviewtui.core.protocol.session
import reviewtui.shell.write_batch  # noqa: F401
from reviewtui.core.engine import Decision
from reviewtui.shell import state
from reviewtui.shell.review import Review


def verdict_of(turn: int, pos: int) -> str:
    """The decision the child makes on an operation (and the test expects)."""
    return "accepted" if (turn * 31 + pos) % 5 else "rejected"


def child(session: str, root: str, order: str, out: Connection) -> None:
    """The killed process: decide in ``order``, one message after each saved decision.
    Its log goes to segment blobs every 1 KB instead of 64 KB: kills land while a segment
    is written and named too (the parent, which imports this module, keeps the default)."""
    state.SEAL_BYTES = 1024
    review = Review.open(session, Path(root))
    out.send_bytes(b"ready")
    for item in order.split(","):
        turn, pos = (int(x) for x in item.split(":"))
        if (turn, pos) in review.decisions:
            continue
        verdict = verdict_of(turn, pos)
        decision = Decision.accept() if verdict == "accepted" else Decision.reject()
        review.decide((turn, pos), decision)
        # One short message is one write(2) below PIPE_BUF: whole or absent when killed.
        out.send_bytes(f"saved {turn} {pos} {verdict}".encode())
    out.send_bytes(b"done")
    # Wait to be killed: a child that exits by itself would make the kill count flaky.
    time.sleep(3600)
