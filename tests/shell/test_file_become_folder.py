"""A file the review wrote that becomes a folder while the review is closed (QA s37
helper-112 M4): reopened, the saved record is set aside saying so, and kept in the state
file with the original it names (it was dropped, its blob collected at the next close, and
the message read "a folder on its way is no folder on disk now", the other way round)."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from diskkit import Ed, make_project, write_session
from reviewtui.core.engine import Decision
from reviewtui.shell.review import Review


def test_the_original_of_a_file_made_a_folder_is_kept(tmp_path: Path) -> None:
    root = make_project(tmp_path / "root", {"a": "orig\n", "b": "b\n"})
    session = write_session(tmp_path, [[Ed("a", "orig", "EDITED")]])
    with Review.open(session, root) as review:
        review.decide((1, 0), Decision.accept())
    (root / "a").unlink()
    (root / "a").mkdir()
    (root / "a" / "x").write_text("x\n")
    with Review.open(session, root) as again:
        assert any(problem.endswith("ignored the saved record of a: it is a folder on disk "
                                    "now; the saved record is kept in the state file")
                   for problem in again.state_problems), again.state_problems
    state = json.loads(session.with_name("s.md.review.json").read_text())
    [kept] = [item for item in state["orphaned"] if item.get("path") == "a" and "record" in item]
    original = hashlib.sha256(b"orig\n").hexdigest()
    assert kept["record"]["base"]["sha"] == original
    assert (session.with_name("s.md.review.blobs") / original).read_bytes() == b"orig\n"
    assert (root / "a" / "x").read_text() == "x\n"
