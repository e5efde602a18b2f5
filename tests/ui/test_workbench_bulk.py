"""Issue 15: decisions are never lost to a key. Bulk keys change only undecided
operations and are one undo step; the cursor follows what changed. Checked on the
screen's state and on the disk."""

from __future__ import annotations

from pathlib import Path

import pytest
from uikit import REPO, copy_session, open_app, screen_of, state_at

from reviewtui.core.engine.opstate import OpState
from reviewtui.core.model.records import Edit
from reviewtui.ui.app import ReviewApp

SIZE = (120, 40)
REFACTOR = REPO / "sample_sessions" / "refactor-multi-turn"
TURN4 = 3  # position of turn 4: two edits each of totals.py, text.py, cli.py, test_totals.py

pytestmark = pytest.mark.anyio


@pytest.fixture
def refactor(tmp_path: Path) -> tuple[Path, Path]:
    return copy_session(REFACTOR, tmp_path)


def _replace_of(app: ReviewApp, turn_pos: int, op_pos: int) -> str:
    result = screen_of(app).result(turn_pos, op_pos)
    assert result is not None
    assert isinstance(result.op, Edit)
    return "\n".join(result.op.replace_lines)


async def test_accept_file_leaves_an_earlier_rejection(refactor: tuple[Path, Path]) -> None:
    session, root = refactor
    original = (root / "invoicer/totals.py").read_text()
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        screen.select(TURN4, 1)
        await pilot.press("n")
        await pilot.pause()
        screen.select(TURN4, 0)
        log_before = len(screen.review._log)
        await pilot.press("a")
        await pilot.pause()
        assert state_at(app, TURN4, 0) is OpState.ACCEPTED
        assert state_at(app, TURN4, 1) is OpState.REJECTED  # not overwritten by `a`
        assert len(screen.review._log) == log_before + 1  # one entry
        text = (root / "invoicer/totals.py").read_text()
        assert text != original
        assert _replace_of(app, TURN4, 1) not in text


async def test_reject_file_leaves_an_earlier_acceptance(refactor: tuple[Path, Path]) -> None:
    session, root = refactor
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        screen.select(TURN4, 1)
        await pilot.press("y")
        await pilot.pause()
        screen.select(TURN4, 0)
        await pilot.press("d")
        await pilot.pause()
        assert state_at(app, TURN4, 0) is OpState.REJECTED
        assert state_at(app, TURN4, 1) is OpState.ACCEPTED
        assert _replace_of(app, TURN4, 1).strip() in (root / "invoicer/totals.py").read_text()


async def test_one_undo_reverts_accept_turn_whole(refactor: tuple[Path, Path]) -> None:
    session, root = refactor
    before = {p: p.read_bytes() for p in root.rglob("*") if p.is_file()}
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        screen.select(TURN4, 5)
        await pilot.press("A")
        await pilot.pause()
        await pilot.press("y")  # the confirmation
        await pilot.pause()
        assert all(state_at(app, TURN4, n) is OpState.ACCEPTED for n in range(8))
        assert (root / "invoicer/totals.py").read_bytes() != before[root / "invoicer/totals.py"]
        await pilot.press("u")
        await pilot.pause()
        assert all(state_at(app, TURN4, n) is OpState.PENDING for n in range(8))
        assert not screen.review.can_undo
        assert {p: p.read_bytes() for p in root.rglob("*") if p.is_file()} == before
        assert (screen.turn_pos, screen.op_pos) == (TURN4, 0)  # what changed
        await pilot.press("U")
        await pilot.pause()
        assert all(state_at(app, TURN4, n) is OpState.ACCEPTED for n in range(8))
        assert (screen.turn_pos, screen.op_pos) == (TURN4, 0)


async def test_undo_puts_the_cursor_on_the_changed_operation(
        refactor: tuple[Path, Path]) -> None:
    session, root = refactor
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        screen.select(TURN4, 6)
        await pilot.press("y")
        await pilot.pause()
        screen.select(1, 0)
        await pilot.press("u")
        await pilot.pause()
        assert (screen.turn_pos, screen.op_pos) == (TURN4, 6)
        assert state_at(app, TURN4, 6) is OpState.PENDING


async def test_decision_moves_to_an_earlier_undecided_op_of_the_turn(
        refactor: tuple[Path, Path]) -> None:
    session, root = refactor
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        screen.select(TURN4, 3)
        await pilot.press("y")
        await pilot.pause()
        assert (screen.turn_pos, screen.op_pos) == (TURN4, 0)


async def test_file_jumps_are_symmetric(refactor: tuple[Path, Path]) -> None:
    session, root = refactor
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        screen.select(TURN4, 5)  # second edit of cli.py
        await pilot.press("left_curly_bracket")
        assert (screen.turn_pos, screen.op_pos) == (TURN4, 2)  # first edit of text.py
        await pilot.press("right_curly_bracket")
        assert (screen.turn_pos, screen.op_pos) == (TURN4, 4)  # first edit of cli.py
        await pilot.press("left_curly_bracket")
        assert (screen.turn_pos, screen.op_pos) == (TURN4, 2)


async def test_j_and_k_move_the_focused_turn_list(refactor: tuple[Path, Path]) -> None:
    session, root = refactor
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        screen.query_one("#turns").focus()
        await pilot.press("j", "j")
        await pilot.pause()
        assert screen.turn_pos == 2
        await pilot.press("k")
        await pilot.pause()
        assert screen.turn_pos == 1


async def test_j_and_k_move_the_tree_file_list(refactor: tuple[Path, Path]) -> None:
    from textual.widgets import OptionList

    session, root = refactor
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen_of(app).select(TURN4, 0)
        await pilot.press("t")
        await pilot.pause()
        files = app.screen.query_one("#tree-files", OptionList)
        assert files.highlighted == 0
        await pilot.press("j", "j")
        assert files.highlighted == 2
        await pilot.press("k")
        assert files.highlighted == 1


EMPTY_TURN = """\
# Session: an empty turn

## Turn 1
> Greet.

--- File: a.py ---
<<<<<<< SEARCH
x = 1
=======
x = 2
>>>>>>> REPLACE

--- File: b.py ---
<<<<<<< SEARCH
z = 1
=======
z = 2
>>>>>>> REPLACE

## Turn 2
> Just explain, please.

Nothing to change here.

## Turn 3
> Greet again.

--- File: a.py ---
<<<<<<< SEARCH
y = 1
=======
y = 2
>>>>>>> REPLACE
"""


async def test_next_op_from_a_turn_without_operations_goes_forward(tmp_path: Path) -> None:
    session = tmp_path / "session"
    (session / "base").mkdir(parents=True)
    (session / "session.md").write_text(EMPTY_TURN)
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("x = 1\ny = 1\n")
    (root / "b.py").write_text("z = 1\n")
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        screen.select(1, 0)
        await pilot.press("J")
        assert (screen.turn_pos, screen.op_pos) == (2, 0)
        screen.select(1, 0)
        await pilot.press("K")
        assert (screen.turn_pos, screen.op_pos) == (0, 1)
