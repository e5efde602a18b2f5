"""The workbench's base (``open``: ``Review.open(first_frame=True, lazy=True)``): the files
the session names are read when the review opens, the rest of the project when first
needed; a session whose commands may reach files they do not name reads it all.

What the reviewer must not see change: outcomes, and how outside changes are told. A
named file changed outside is judged against what it held at opening, as before; a file
nobody has read is taken as refreshed (reading it now would read the change itself).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from diskkit import Cmd, Ed, make_project, write_session
from reviewtui.shell.review import Review

OTHERS = {f"lib/m{i}.py": f"v = {i}\n" for i in range(40)}
FILES = {"a.py": "x = 1\n", "pkg/b.py": "y = 2\n", **OTHERS}


def _open(session: Path, root: Path, *, lazy: bool) -> Review:
    review = Review.open(session, root, dry_run=True, first_frame=True, lazy=lazy)
    review.finish_evaluation()
    return review


def _unread(review: Review) -> set[str]:
    return {path for path, state in review.base.items() if getattr(state, "unread", False)}


def _statuses(review: Review) -> list[str]:
    return [r.outcome.status for t in review.evaluation.display.turns for r in t.results]


def test_the_named_files_are_read_at_opening_and_no_other(tmp_path: Path) -> None:
    root = make_project(tmp_path / "root", FILES)
    session = write_session(tmp_path, [[Ed("a.py", "x = 1", "x = 10")],
                                       [Ed("pkg/b.py", "y = 2", "y = 20")]])
    with _open(session, root, lazy=True) as lazy, _open(session, root, lazy=False) as whole:
        assert _unread(lazy) == set(OTHERS)
        assert _unread(whole) == set()
        assert _statuses(lazy) == _statuses(whole) == ["applied", "applied"]


def test_a_command_that_may_reach_unnamed_files_reads_the_whole_project(
        tmp_path: Path) -> None:
    root = make_project(tmp_path / "root", FILES)
    session = write_session(tmp_path, [[Cmd(":mv lib vendor"), Ed("a.py", "x = 1", "x = 2")]])
    with _open(session, root, lazy=True) as review:
        assert _unread(review) == set()


def test_an_importer_s_commands_name_their_files(tmp_path: Path) -> None:
    """A unified diff's rename and deletion name each file exactly (``literal``)."""
    root = make_project(tmp_path / "root", FILES)
    diff = tmp_path / "change.diff"
    diff.write_text("diff --git a/lib/m1.py b/lib/n1.py\nsimilarity index 100%\n"
                    "rename from lib/m1.py\nrename to lib/n1.py\n"
                    "diff --git a/lib/m2.py b/lib/m2.py\ndeleted file mode 100644\n"
                    "--- a/lib/m2.py\n+++ /dev/null\n@@ -1 +0,0 @@\n-v = 2\n")
    with _open(diff, root, lazy=True) as review:
        assert _unread(review) == set(FILES) - {"lib/m1.py", "lib/m2.py"}
        assert _statuses(review) == ["applied", "applied"]


@pytest.mark.parametrize("lazy", [True, False], ids=["lazy", "whole"])
def test_outside_changes_are_told_as_before(tmp_path: Path, lazy: bool) -> None:
    """An unnamed file changed or removed outside is refreshed; a named one changed
    outside is judged against what it held at opening (here: its edit no longer finds
    its text) - the same reports, read lazily or whole."""
    root = make_project(tmp_path / "root", FILES)
    session = write_session(tmp_path, [[Ed("a.py", "x = 1", "x = 10")]])
    with _open(session, root, lazy=lazy) as review:
        (root / "lib/m3.py").write_text("v = 333\n")
        (root / "lib/m4.py").unlink()
        report = review.outside_changed(["lib/m3.py", "lib/m4.py"])
        assert sorted(report.refreshed) == ["lib/m3.py", "lib/m4.py"]
        state = review.base.get("lib/m3.py")
        assert state is not None
        assert state.data == b"v = 333\n"
        assert "lib/m4.py" not in review.base
        (root / "a.py").write_text("x = 5\n")
        review.outside_changed(["a.py"])
        assert review.base.get("a.py").data == b"x = 5\n"  # type: ignore[union-attr]
        assert _statuses(review) != ["applied"]
