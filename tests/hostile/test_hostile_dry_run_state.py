"""Promise: ``--dry-run`` never writes. Its decisions were saved to the review state it
was given (``--state``, and always with ``--live``), never on disk, so the state read as a
review killed between saving and writing: the next writer (the workbench, ``restore``, the
MCP server serving an unrelated call) wrote them (QA s46 helper-141 F13). A dry run reads
a state and never saves one.
"""

from __future__ import annotations

from typing import Any

from reviewtui.core.engine import Decision, Verdict
from reviewtui.shell.review import Review


def test_a_dry_runs_decisions_are_neither_written_nor_kept(arena: Any) -> None:
    (arena.root / "m.py").write_text("x = 1\n")
    session = arena.work / "s.md"
    session.write_text("## Turn 1\n> bump\n\n--- File: m.py ---\n<<<<<<< SEARCH\nx = 1\n"
                       "=======\nx = 2\n>>>>>>> REPLACE\n")
    state = arena.work / "st.json"
    with Review.open(session, arena.root, dry_run=True, state_path=state) as review:
        review.decide((1, 0), Decision.accept())
    assert not state.exists()
    with Review.open(session, arena.root, state_path=state) as review:  # the next writer
        assert review.result((1, 0)).decision.verdict is Verdict.PENDING
    assert (arena.root / "m.py").read_text() == "x = 1\n"
    # A state the reviewer saved before is read by a dry run, and left as it was.
    with Review.open(session, arena.root, state_path=state) as review:
        review.decide((1, 0), Decision.reject())
    saved = state.read_bytes()
    with Review.open(session, arena.root, dry_run=True, state_path=state) as review:
        assert review.result((1, 0)).decision.verdict is Verdict.REJECTED
        review.decide((1, 0), Decision.accept())
    assert state.read_bytes() == saved
    assert (arena.root / "m.py").read_text() == "x = 1\n"
