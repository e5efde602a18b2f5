"""An accept recorded while the disk was pinned before its turn, never written, goes back
to pending when its file changes outside and is taken from disk as its new original: the
new file may already hold its change, reworked (QA s34: restore over files put outside
at a later version appended an httpx fixture's first version after its reworked copy).
Accepted again, it lands on the file as it is now. (Following a pin into a new original
by a line diff: tests/core/test_engine_lineage.py.)"""

from __future__ import annotations

from pathlib import Path

from reviewtui.core.engine import Decision
from reviewtui.shell.review import Review

BASE = "def a():\n    return 0\n\n\ndef b():\n    return 1\n"


def _session(tmp_path: Path, edits: list[tuple[str, str]]) -> tuple[Path, Path]:
    root = tmp_path / "root"
    root.mkdir()
    (root / "m.py").write_text(BASE)
    (root / "other.py").write_text("x = 1\n")
    turns = "".join(
        f"## Turn {n}\n> step {n}\n\n--- File: m.py ---\nEdit 1\n<<<<<<< SEARCH\n{search}\n"
        f"=======\n{replace}\n>>>>>>> REPLACE\n\n### Changed files:\n- m.py\n\n"
        for n, (search, replace) in enumerate(edits, 1))
    session = tmp_path / "session.md"
    session.write_text(turns)
    return session, root


def test_an_accept_follows_its_line_into_a_new_original_or_does_not_land(
        tmp_path: Path) -> None:
    session, root = _session(tmp_path, [("x = 1", "x = 2"), ("    return 1", "    return 10")])
    (root / "m.py").write_text(BASE)
    with Review.open(session, root) as review:
        review.restore(0)  # pinned before both turns: accepts are recorded, not written
        review.decide((2, 0), Decision.accept())
        assert (root / "m.py").read_text() == BASE
        # Outside, the user adds a line on top: b()'s return is line 7 now, the same line.
        (root / "m.py").write_text("import os\n" + BASE)
        review.outside_changed(["m.py"])
        # Taken back, as the file changed before it was written (pinned).
        assert (2, 0) not in review.decisions
        review.decide((2, 0), Decision.accept())
        review.restore(review.checkpoint_count - 1)
        assert (root / "m.py").read_text() == "import os\n" + BASE.replace("return 1",
                                                                          "return 10")



def test_an_accept_brought_back_after_the_change_is_kept_on_reopening(tmp_path: Path) -> None:
    """QA s43 helper-131 (older): the accept taken back on the outside change, then
    brought back with u; reopened, the file as the review last saw it, the accept was
    taken back again, said to be for a change "while the review was closed"."""
    session, root = _session(tmp_path, [("x = 1", "x = 2"), ("    return 1", "    return 10")])
    with Review.open(session, root) as review:
        review.restore(0)
        review.decide((2, 0), Decision.accept())
        (root / "m.py").write_text("import os\n" + BASE)
        review.outside_changed(["m.py"])
        assert (2, 0) not in review.decisions
        review.undo()  # the take-back undone: the reviewer keeps the accept
        assert review.decisions[(2, 0)].verdict.name == "ACCEPTED"
    with Review.open(session, root) as review:
        assert review.state_problems == []
        assert review.decisions[(2, 0)].verdict.name == "ACCEPTED"
        assert (root / "m.py").read_text() == "import os\n" + BASE  # (pinned: not written)
        review.restore(review.checkpoint_count - 1)
    assert (root / "m.py").read_text() == "import os\n" + BASE.replace("return 1",
                                                                       "return 10")


def test_the_same_when_the_file_changes_while_the_review_is_closed(tmp_path: Path) -> None:
    """QA s34 helper-98 p51: the file the pinned accept is for was never written by the
    review (no record of it), so reopening read the new file as its original and the
    accept landed again beside its reworked copy. Reopened, it goes back to pending and
    says so."""
    session, root = _session(tmp_path, [("    return 0", "    return 0\n\n\ndef c():\n"
                                                          "    return 2")])
    # Turn 1 of its own edits another file: m.py is never written by the review.
    session.write_text("## Turn 1\n> other\n\n--- File: other.py ---\nEdit 1\n<<<<<<< SEARCH\n"
                       "x = 1\n=======\nx = 2\n>>>>>>> REPLACE\n\n### Changed files:\n"
                       "- other.py\n\n" + session.read_text().replace("## Turn 1", "## Turn 2"))
    with Review.open(session, root) as review:
        review.decide((1, 0), Decision.accept())
        review.restore(0)
        review.decide((2, 0), Decision.accept())  # recorded, not written
    reworked = BASE.replace("    return 0\n", "    return 0\n\n\ndef c():\n    return 22\n")
    (root / "m.py").write_text(reworked)  # a later version of it, put there meanwhile
    with Review.open(session, root) as review:
        assert (2, 0) not in review.decisions
        assert any("turn 2, operation 1 (m.py, Edit 1): the saved accept was made while the "
                   "disk was pinned before it" in p for p in review.state_problems), (
            review.state_problems)
        review.restore(review.checkpoint_count - 1)
    assert (root / "m.py").read_text() == reworked
