"""Pilot tests: every review control, checked on the screen's state and on the disk."""

from __future__ import annotations

from pathlib import Path

import pytest
from uikit import open_app, screen_of, state_at

from reviewtui.core.engine.opstate import OpState
from reviewtui.ui.messages import FilesChanged
from reviewtui.ui.screens.main import MainScreen

SIZE = (120, 40)

pytestmark = pytest.mark.anyio


GREETING = "greeter/core.py"
ORIGINAL_LINE = 'return f"Helo, {name}!"'
FIXED_LINE = 'return f"Hello, {name}!"'


async def test_accept_writes_and_moves_to_next_undecided(tour: tuple[Path, Path]) -> None:
    session, root = tour
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        assert (screen.turn_pos, screen.op_pos) == (0, 0)
        await pilot.press("y")
        await pilot.pause()
        assert FIXED_LINE in (root / GREETING).read_text()
        assert state_at(app, 0, 0) is OpState.ACCEPTED
        assert (screen.turn_pos, screen.op_pos) == (1, 0)  # next undecided


async def test_reject_restores_and_undo_redo_are_exact(tour: tuple[Path, Path]) -> None:
    session, root = tour
    original = (root / GREETING).read_bytes()
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("y")
        await pilot.pause()
        assert (root / GREETING).read_bytes() != original
        await pilot.press("u")
        await pilot.pause()
        assert (root / GREETING).read_bytes() == original
        assert state_at(app, 0, 0) is OpState.PENDING
        await pilot.press("U")
        await pilot.pause()
        assert FIXED_LINE in (root / GREETING).read_text()
        screen_of(app).select(0, 0)
        await pilot.press("n")
        await pilot.pause()
        assert (root / GREETING).read_bytes() == original
        assert state_at(app, 0, 0) is OpState.REJECTED


async def test_edit_in_place_writes_the_edited_text(tour: tuple[Path, Path]) -> None:
    session, root = tour
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("e")
        await pilot.pause()
        from textual.widgets import TextArea

        area = app.screen.query_one(TextArea)
        assert area.text == '    return f"Hello, {name}!"'
        area.text = '    return f"Greetings, {name}!"'
        await pilot.press("ctrl+s")
        await pilot.pause()
        assert 'return f"Greetings, {name}!"' in (root / GREETING).read_text()
        assert state_at(app, 0, 0) is OpState.EDITED


async def test_edit_cancel_changes_nothing(tour: tuple[Path, Path]) -> None:
    session, root = tour
    original = (root / GREETING).read_bytes()
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("e")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert (root / GREETING).read_bytes() == original
        assert state_at(app, 0, 0) is OpState.PENDING


async def test_scrubbing_writes_nothing(tour: tuple[Path, Path]) -> None:
    session, root = tour
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await pilot.press("full_stop", "full_stop", "full_stop")
        await pilot.pause()
        assert screen.checkpoint == 4
        assert screen.turn_pos == 3
        await pilot.press("comma")
        await pilot.pause()
        assert screen.checkpoint == 3
    after = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert after == before


async def test_accept_turn_asks_then_accepts_every_clean_op(tour: tuple[Path, Path]) -> None:
    session, root = tour
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen_of(app).select(1, 0)
        await pilot.press("A")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert [state_at(app, 1, n) for n in range(4)] == [OpState.ACCEPTED] * 4
        assert (root / "greeter/greeting.py").exists()
        assert not (root / GREETING).exists()
        assert "greeter.greeting" in (root / "greeter/cli.py").read_text()


async def test_accept_and_reject_rest_of_file(tour: tuple[Path, Path]) -> None:
    session, root = tour
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen_of(app).select(2, 0)  # turn 3: two edits of greeter/cli.py
        await pilot.press("d")
        await pilot.pause()
        assert [state_at(app, 2, n) for n in range(2)] == [OpState.REJECTED] * 2
        screen_of(app).select(2, 0)
        await pilot.press("a")
        await pilot.pause()
        # `a` changes only undecided operations: the second edit stays rejected.
        assert [state_at(app, 2, n) for n in range(2)] == [OpState.ACCEPTED, OpState.REJECTED]
        screen_of(app).select(2, 1)
        await pilot.press("u", "u")
        await pilot.pause()
        screen_of(app).select(2, 0)
        await pilot.press("a")
        await pilot.pause()
        assert [state_at(app, 2, n) for n in range(2)] == [OpState.ACCEPTED] * 2
        assert "--shout" in (root / "greeter/cli.py").read_text()


async def test_restore_checkpoint_writes_it(tour: tuple[Path, Path]) -> None:
    session, root = tour
    original = (root / GREETING).read_bytes()
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("y")  # turn 1 accepted: the typo fix is on disk
        await pilot.pause()
        screen = screen_of(app)
        screen.go_checkpoint(0)
        await pilot.press("ctrl+t")
        await pilot.pause()
        await pilot.press("y")
        await pilot.pause()
        assert (root / GREETING).read_bytes() == original


async def test_force_accepts_a_duplicate_line_refusal(gallery: tuple[Path, Path]) -> None:
    session, root = gallery
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen_of(app).select(2, 3)
        assert state_at(app, 2, 3) is OpState.REFUSED
        await pilot.press("y")  # a plain accept does not land a refusal
        await pilot.pause()
        assert (root / "app.py").read_text().count("def load(path):") == 1
        screen_of(app).select(2, 3)
        await pilot.press("F")
        await pilot.pause()
        assert state_at(app, 2, 3) is OpState.FORCED
        assert (root / "app.py").read_text().count("def load(path):") == 2


async def test_path_refusal_cannot_be_forced(gallery: tuple[Path, Path]) -> None:
    session, root = gallery
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen_of(app).select(2, 0)
        await pilot.press("F")
        await pilot.pause()
        assert state_at(app, 2, 0) is OpState.REFUSED
        assert not (root.parent / "outside.py").exists()


async def test_outside_change_over_an_edit_is_kept_then_conflicts_on_reject(
    tour: tuple[Path, Path],
) -> None:
    session, root = tour
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("y")
        await pilot.pause()
        target = root / GREETING
        edited = target.read_text().replace(FIXED_LINE, 'return f"Howdy, {name}!"')
        target.write_text(edited)
        app.post_message(FilesChanged(frozenset({GREETING})))
        await pilot.pause()
        # The reviewer's later edit of the same line is kept on top of the accepted one...
        assert target.read_text() == edited
        assert state_at(app, 0, 0) is OpState.ACCEPTED
        # ...and rejecting the model's edit underneath it cannot be done cleanly.
        screen_of(app).select(0, 0)
        await pilot.press("n")
        await pilot.pause()
        screen_of(app).select(0, 0)
        await pilot.pause()
        assert state_at(app, 0, 0) is OpState.CONFLICT
        assert target.read_text() == edited  # the outside bytes survive
        from textual.widgets import Static

        explain = app.screen.query_one("#op-explain", Static)
        assert "changed on disk" in str(explain.render())


async def test_navigation_keys(tour: tuple[Path, Path]) -> None:
    session, root = tour
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await pilot.press("J")
        assert (screen.turn_pos, screen.op_pos) == (1, 0)
        await pilot.press("j", "j")
        assert (screen.turn_pos, screen.op_pos) == (1, 2)
        await pilot.press("k")
        assert (screen.turn_pos, screen.op_pos) == (1, 1)
        await pilot.press("K", "K")
        assert (screen.turn_pos, screen.op_pos) == (0, 0)
        await pilot.press("right_curly_bracket")
        assert (screen.turn_pos, screen.op_pos) == (1, 1)  # next file, past the :mv
        await pilot.press("right_curly_bracket")
        assert (screen.turn_pos, screen.op_pos) == (1, 2)
        await pilot.press("left_curly_bracket")
        assert (screen.turn_pos, screen.op_pos) == (1, 1)
        screen.select(2, 0)
        await pilot.press("g")
        await pilot.pause()
        await pilot.press("2", "enter")
        await pilot.pause()
        assert (screen.turn_pos, screen.op_pos) == (2, 1)


async def test_view_toggles_and_panels(gallery: tuple[Path, Path]) -> None:
    session, root = gallery
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        from reviewtui.ui.widgets.op_detail import OpDetail

        detail = screen.query_one(OpDetail)
        await pilot.press("V")
        assert detail.mode == "unified"
        await pilot.press("V", "W")
        assert (detail.mode, detail.ignore_whitespace) == ("split", True)
        await pilot.press("plus")
        assert detail.context == 6
        await pilot.press("minus", "minus")
        assert detail.context == 0
        screen.select(1, 0)  # not found: three candidates
        await pilot.press("c")
        assert detail.pane_index == 1
        await pilot.press("f")
        await pilot.pause()
        from reviewtui.ui.widgets.findings import FindingsPanel

        assert screen.query_one(FindingsPanel).display
        await pilot.press("escape")
        screen.query_one("#ops").focus()
        await pilot.press("r")
        await pilot.pause()
        assert type(app.screen).__name__ == "RawReplyScreen"
        await pilot.press("escape")
        await pilot.press("question_mark")
        await pilot.pause()
        assert type(app.screen).__name__ == "HelpScreen"
        await pilot.press("escape")
        await pilot.press("T")
        await pilot.pause()
        assert type(app.screen).__name__ == "CheckpointPicker"
        await pilot.press("home", "down", "down", "enter")
        await pilot.pause()
        assert screen.checkpoint == 2


async def test_narrow_terminal_switches_to_unified(tour: tuple[Path, Path]) -> None:
    session, root = tour
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=(80, 24)) as pilot:
        await pilot.pause()
        from reviewtui.ui.widgets.op_detail import OpDetail

        assert screen_of(app).query_one(OpDetail).effective_mode == "unified"


async def test_quit_saves_and_resume_restores_selection(tour: tuple[Path, Path]) -> None:
    session, root = tour
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("y")
        await pilot.pause()
        screen_of(app).select(2, 1)
        await pilot.press("q")
        await pilot.pause()
    assert app.return_code == 0 or app.return_code is None
    again = open_app(session, root)
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(again)
        assert (screen.turn_pos, screen.op_pos) == (2, 1)
        assert state_at(again, 0, 0) is OpState.ACCEPTED


async def test_tree_at_a_checkpoint_is_read_only(tour: tuple[Path, Path]) -> None:
    session, root = tour
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen_of(app).go_checkpoint(2)
        await pilot.press("t")
        await pilot.pause()
        from reviewtui.ui.screens.tree import TreeScreen

        tree = app.screen
        assert isinstance(tree, TreeScreen)
        rows = dict(tree.rows)
        assert rows["greeter/greeting.py"] == "added"  # turn 2 moved core.py here
        assert rows["greeter/core.py"] == "removed"
        assert rows["README.md"] == "same"
        await pilot.press("full_stop", "full_stop")
        await pilot.pause()
        assert tree.checkpoint == 4
        assert dict(tree.rows)["CHANGELOG.md"] == "added"
        await pilot.press("d")  # the decided draft: nothing decided, nothing changed
        await pilot.pause()
        assert all(what == "same" for _, what in tree.rows)
        await pilot.press("escape")
        await pilot.pause()
        assert screen_of(app).checkpoint == 4
    after = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    assert after == before


async def test_status_line_names_an_imported_format(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "notes.txt").write_text("alpha\n")
    patch = tmp_path / "change.patch"
    patch.write_text("*** Begin Patch\n*** Update File: notes.txt\n@@\n-alpha\n+beta\n"
                     "*** End Patch\n")
    app = open_app(patch, root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        from reviewtui.ui.widgets.status_line import StatusLine

        status = str(screen_of(app).query_one(StatusLine).render())
        assert status.startswith("apply_patch")
        await pilot.press("y")
        await pilot.pause()
        assert (root / "notes.txt").read_text() == "beta\n"


async def test_a_huge_hunk_says_it_skipped_word_highlighting(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "big.txt").write_text("".join(f"x{i} = {i}\n" for i in range(3000)))
    session = tmp_path / "s.md"
    body = "\n".join(f"y{i} = {i * 2}" for i in range(3000))
    session.write_text(f"## Turn 1\n> rewrite\n\n--- File: big.txt ---\n```\n{body}\n```\n")
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        from textual.widgets import Static

        label = str(screen_of(app).query_one("#pane-label", Static).render())
        assert "intra-line highlighting skipped: hunk of 3,000 lines" in label


async def test_hashline_toggle_shows_line_ids(tour: tuple[Path, Path]) -> None:
    from reviewtui.core.text.hashline import line_id
    from reviewtui.ui.widgets.diff_view import DiffView

    session, root = tour
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = screen_of(app).query_one(DiffView)
        rendered = "\n".join(view.render_line(y).text for y in range(12))
        assert " 8 -" in rendered
        await pilot.press("H")
        await pilot.pause()
        rendered = "\n".join(view.render_line(y).text for y in range(12))
        old = '    return f"Helo, {name}!"'
        assert f"{line_id(8, old)} -" in rendered
        await pilot.press("r")
        await pilot.pause()
        await pilot.press("H")
        await pilot.pause()
        from textual.widgets import Static

        raw = str(app.screen.query_one("#raw-text", Static).render())
        assert line_id(15, (session / "session.md").read_text().split("\n")[14]) in raw


async def test_accept_turn_leaves_syntax_breaking_ops_pending(tmp_path: Path) -> None:
    from uikit import REPO, copy_session

    session, root = copy_session(REPO / "tests" / "fixtures" / "diagnostics", tmp_path)
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("A")
        await pilot.pause()
        from textual.widgets import Static

        question = "\n".join(str(s.render()) for s in app.screen.query(Static))
        assert "Accept 1 pending operation of turn 1" in question
        assert "1 more would introduce a syntax error" in question
        await pilot.press("y")
        await pilot.pause()
        assert state_at(app, 0, 0) is OpState.PENDING  # app.py: breaks the syntax
        assert state_at(app, 0, 1) is OpState.ACCEPTED  # settings.json


async def test_lines_with_an_introduced_syntax_error_are_marked_in_the_diff(
    tmp_path: Path,
) -> None:
    from uikit import REPO, copy_session

    from reviewtui.ui.widgets.diff_view import DiffView

    session, root = copy_session(REPO / "tests" / "fixtures" / "diagnostics", tmp_path)
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        view = screen_of(app).query_one(DiffView)
        assert view.marks == frozenset({11})
        rendered = [view.render_line(y).text for y in range(view.virtual_size.height)]
        right = [line.split("│", 1)[1] for line in rendered if "│" in line]
        assert any(side.lstrip().startswith("11!") for side in right)
        assert not any(side.lstrip().startswith("12!") for side in right)
        await pilot.press("j")  # settings.json: nothing to mark
        await pilot.pause()
        assert view.marks == frozenset()
