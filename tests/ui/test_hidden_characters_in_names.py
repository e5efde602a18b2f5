"""A file name or a session's path with a control or hidden character shows that
character as a picture, as the diffs do, never as nothing: the app's last filter drops
control characters before the terminal (``ui/control_filter.py``), so without the picture
``config<ZWSP>.py`` and ``config.py`` would look the same in the tree screen, and a
refused operation's header would not show which character made it refused."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.widgets import OptionList

from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.opview import build_view, op_title
from reviewtui.ui.screens.tree import TreeScreen
from reviewtui.ui.widgets.lists import op_row_title

SIZE = (120, 36)
ESC_NAME = "title\x1b]0;PWNED\x07.txt"  # an OSC title sequence and BEL in a file name
HIDDEN_NAME = "config\u200b.py"  # a zero-width space: "config.py" to the eye
BIDI_NAME = "notes\u202etxt.md"  # a right-to-left override

pytestmark = pytest.mark.anyio


def _project(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "root"
    root.mkdir()
    (root / "config.py").write_text("real = 1\n")
    for name in (ESC_NAME, HIDDEN_NAME, BIDI_NAME):
        (root / name).write_text("x = 1\n")
    session = tmp_path / "s.md"
    session.write_text("## Turn 1\n> go\n\n--- File: config.py ---\n<<<<<<< SEARCH\n"
                       "real = 1\n=======\nreal = 2\n>>>>>>> REPLACE\n\n"
                       f"--- File: {HIDDEN_NAME} ---\n<<<<<<< SEARCH\nx = 1\n=======\n"
                       "x = 2\n>>>>>>> REPLACE\n")
    return root, session


async def test_the_tree_screen_shows_hidden_characters_as_pictures(tmp_path: Path) -> None:
    root, session = _project(tmp_path)
    review = Review.open(session, root, dry_run=True, first_frame=True)
    app = ReviewApp(review, watch=False)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            await pilot.press("t")
            await pilot.pause()
            tree = app.screen
            assert isinstance(tree, TreeScreen)
            files = tree.query_one("#tree-files", OptionList)
            shown = [str(files.get_option_at_index(i).prompt) for i in range(files.option_count)]
            names = [text[2:] for text in shown]  # (after the mark and its space)
            # Each name distinct on screen, none equal to another file's name, and the
            # characters pictured in place (the ESC and BEL of the title sequence too).
            assert "config.py" in names
            assert "config⍰.py" in names
            assert "title␛]0;PWNED␇.txt" in names
            assert "notes⍰txt.md" in names
            assert len(set(names)) == len(names) == 4
            assert not any(ch in name for name in names for ch in "\x1b\x07\u200b\u202e")
            # The label over the file's diff too.
            tree.show_file(names.index("title␛]0;PWNED␇.txt"))
            await pilot.pause()
            label = str(tree.query_one("#tree-label").render())
            assert label.startswith("title␛]0;PWNED␇.txt — ")
            await pilot.press("escape")
    finally:
        review.close()


def test_operation_titles_picture_the_characters_of_their_path(tmp_path: Path) -> None:
    root, session = _project(tmp_path)
    with Review.open(session, root, dry_run=True) as review:
        ops = [r.op for t in review.display.turns for r in t.results]
        titles = [op_title(op) for op in ops]
        rows = [op_row_title(op) for op in ops]
        views = [build_view(r) for t in review.display.turns for r in t.results]
    assert titles == ["config.py · Edit 1", "config⍰.py · Edit 1"]
    # The message under the title names the path too.
    assert views[1].explanation.plain.startswith("matched config⍰.py lines 1-1")
    assert rows == ["Edit 1 · config.py", "Edit 1 · config⍰.py"]


async def test_outside_change_notices_picture_the_characters(tmp_path: Path) -> None:
    from reviewtui.shell.replay_report import ReplayReport

    root, session = _project(tmp_path)
    review = Review.open(session, root, dry_run=True, first_frame=True)
    app = ReviewApp(review, watch=False)
    try:
        async with app.run_test(size=SIZE) as pilot:
            await pilot.pause()
            # What a batch of outside changes reports (paths from the disk).
            app.screen._report(ReplayReport(conflicts=[HIDDEN_NAME], rebased=[ESC_NAME],
                                             reverted=[((1, 0), f"{BIDI_NAME}: gone")]))
            await pilot.pause()
            said = [n.message for n in app._notifications]
            assert "conflict: config⍰.py changed on disk; nothing written there" in said
            assert "rebased over an outside change: title␛]0;PWNED␇.txt" in said
            assert "notes⍰txt.md: gone" in said
    finally:
        review.close()
