"""An operation on a file changed outside the workbench after the review wrote it says so.

That outside change is kept on top of every replay, and the operation's view shows the
session's version of the file without it: a later near match still read "what the file
has: 0.4.99" after the disk said 0.4.77, and its accept became a conflict with no sign
before (found in a real terminal, 2026-12-04). The note is there before the accept, and
only on the file that holds such a change."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import Static
from uikit import screen_of

from reviewtui.core.engine import Decision
from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.widgets.op_detail import OpDetail

pytestmark = pytest.mark.anyio

SESSION = "".join(
    f"## Turn {n}\n> change {old}\n\n--- File: {path} ---\n<<<<<<< SEARCH\n{old}\n=======\n"
    f"{new}\n>>>>>>> REPLACE\n\n"
    for n, (path, old, new) in enumerate(
        [("a.txt", "one", "ONE"), ("a.txt", "three", "THREE"), ("b.txt", "x", "X")], 1))

NOTE = "was changed outside the workbench after it wrote it"
ONLY_SESSION = "text only that change brought is not found"


async def test_a_kept_outside_change_is_said_on_the_files_operations(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("one\ntwo\nthree\n")
    (root / "b.txt").write_text("x\n")
    session = tmp_path / "s.md"
    session.write_text(SESSION)
    review = Review.open(session, root)
    app = ReviewApp(review, watch=False)

    def explained() -> str:
        detail = app.screen.query_one(OpDetail)
        return str(detail.query_one("#op-explain", Static).render())

    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        review.decide((1, 0), Decision.accept())
        (root / "a.txt").write_text("ONE\ntwo!\nthree\n")  # over what the review wrote
        review.outside_changed(["a.txt"])
        assert "a.txt" not in review.conflicts
        screen.go_checkpoint(2)
        await pilot.pause()
        assert NOTE in explained()
        assert ONLY_SESSION not in explained()  # found: nothing to say about the search
        screen.go_checkpoint(3)  # another file: no note
        await pilot.pause()
        assert NOTE not in explained()
    review.close()


async def test_a_not_found_operation_says_the_change_kept_on_top_is_not_searched(
        tmp_path: Path) -> None:
    """QA s34 helper-99 finding 2: the rest of a file arrived outside after the review
    wrote its first half; an edit of that rest read "not found" under a note that said
    nothing of why. The note now says the session's version alone is searched."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("one\ntwo\n")
    session = tmp_path / "s.md"
    session.write_text(SESSION.replace("three\n=======\nTHREE", "four\n=======\nFOUR"))
    review = Review.open(session, root)
    app = ReviewApp(review, watch=False)
    async with app.run_test(size=(120, 30)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        review.decide((1, 0), Decision.accept())
        with (root / "a.txt").open("a") as rest:
            rest.write("three\nfour\n")
        review.outside_changed(["a.txt"])
        screen.go_checkpoint(2)
        await pilot.pause()
        shown = str(app.screen.query_one(OpDetail).query_one("#op-explain", Static).render())
        assert not review.result((2, 0)).landed
        assert NOTE in shown
        assert ONLY_SESSION in " ".join(shown.split())
    review.close()
