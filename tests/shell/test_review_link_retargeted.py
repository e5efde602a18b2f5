"""A link the review wrote, retargeted outside the workbench (QA s36 helper-108).

The retarget was kept as a text layer over the link's target, and the replay wrote that
layer back as a *regular file of mode 0000* holding the new target: the user's link lost,
and neither an undo nor a reject put it back. A link's target is not merged with another:
the retargeted link is the file's new original, and the operation that made the link,
which no longer lands on it, is taken back.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from reviewtui.core.engine import Decision, Verdict
from reviewtui.shell.review import Review

NEW_LINK = ("diff --git a/m b/m\nnew file mode 120000\nindex 0000000..2e65efe\n--- /dev/null\n"
            "+++ b/m\n@@ -0,0 +1 @@\n+a.txt\n\\ No newline at end of file\n")


def _link(path: Path) -> str:
    assert stat.S_ISLNK(os.lstat(path).st_mode), f"{path} is no link any more"
    return os.readlink(path)


def test_a_retargeted_link_stays_a_link_through_undo_and_reject(
        tmp_path: Path, opened: list[Review]) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("a\n")
    (root / "b.txt").write_text("b\n")
    session = tmp_path / "c.diff"
    session.write_text(NEW_LINK)
    review = Review.open(session, root)
    opened.append(review)
    review.decide((1, 0), Decision.accept())
    assert _link(root / "m") == "a.txt"
    (root / "m").unlink()
    os.symlink("b.txt", root / "m")  # the user retargets it
    report = review.outside_changed(["m"])
    assert _link(root / "m") == "b.txt"
    assert [key for key, _ in report.reverted] == [(1, 0)]
    assert review.decisions.get((1, 0), Decision()).verdict is Verdict.PENDING  # taken back
    review.undo()  # the take-back undone: the accept does not land, nothing is written
    assert _link(root / "m") == "b.txt"
    review.decide((1, 0), Decision.reject())
    assert _link(root / "m") == "b.txt"
    review.outside_changed(["m"])  # the same link seen again: still nothing written
    assert _link(root / "m") == "b.txt"
    assert (root / "a.txt").read_text() == "a\n"
    assert (root / "b.txt").read_text() == "b\n"
