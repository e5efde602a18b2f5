"""An outside change that writes the session's own text again on another line.

QA s43 (helper-133, kept_fuzz seeds 176 and 230, older): the review wrote ``T1-2`` on line
2; the user then wrote ``T1-2`` on line 1 and ``line 2`` on line 3 (kept on top as a
layer). The layer's line diff took the user's ``T1-2`` for the review's, moved up, so
rejecting turn 1 gave ``line 2 / T1-2 / line 2`` (the rejected text still on disk, the
user's line 1 lost) and a later accept of turn 2 put its text on line 1.
"""

from __future__ import annotations

from pathlib import Path

from diskkit import Ed, make_project, write_session
from reviewtui.core.engine import Decision
from reviewtui.shell.review import Review

LINES = "".join(f"line {n}\n" for n in range(1, 13))


def test_a_line_written_again_above_itself_is_not_taken_for_it(tmp_path: Path) -> None:
    session = write_session(tmp_path / "session", [
        [Ed("b.txt", "line 2", "T1-2")], [Ed("b.txt", "line 2", "T2-2")]])
    root = make_project(tmp_path / "proj", {"b.txt": LINES})
    b = root / "b.txt"
    with Review.open(session, root, persist=False) as review:
        review.decide((1, 0), Decision.accept())
        assert b.read_text().splitlines()[:3] == ["line 1", "T1-2", "line 3"]
        b.write_text(b.read_text().replace("line 1\n", "T1-2\n").replace("line 3\n",
                                                                         "line 2\n"))
        review.outside_changed(["b.txt"])
        mine = b.read_text()
        review.decide((1, 0), Decision.reject())
        # Turn 1's line sits between the two lines the user changed: a conflict, the
        # file kept as the user left it (never the rejected text moved onto their line).
        assert sorted(review.conflicts) == ["b.txt"]
        assert b.read_text() == mine
        review.decide((2, 0), Decision.accept())
        assert b.read_text().splitlines()[:3] == ["T1-2", "T2-2", "line 2"]
