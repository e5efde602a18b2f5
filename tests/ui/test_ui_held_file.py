"""A file another program holds open for writing: the workbench says so and writes nothing
there until it is closed (QA pass 82: repro-3 lost the program's later save; repro-7 never
showed the notice)."""

from __future__ import annotations

from pathlib import Path

import pytest
from uikit import open_app, screen_of, until

from heldkit import held_open
from reviewtui.shell.outside import MSG_BEING_WRITTEN
from reviewtui.ui.messages import FilesChanged
from reviewtui.ui.widgets.op_detail import OpDetail
from reviewtui.ui.widgets.status_line import StatusLine

pytestmark = [pytest.mark.anyio,
              pytest.mark.skipif(not Path("/proc/self/fdinfo").is_dir(),
                                 reason="no /proc: who holds a file open cannot be told here")]

GREETING = "greeter/core.py"


async def test_an_accept_on_a_held_file_waits_says_why_and_lands_on_its_close(
        tour: tuple[Path, Path]) -> None:
    session, root = tour
    target = root / GREETING
    before = target.read_bytes()
    app = open_app(session, root)
    async with app.run_test(size=(120, 40)) as pilot:
        screen = screen_of(app)
        with held_open(target):
            await pilot.press("y")
            await until(pilot, lambda: bool(app.review.held_paths))
            await pilot.pause()
            assert target.read_bytes() == before  # nothing renamed over the open file
            said = [n.message for n in app._notifications]
            assert f"{GREETING}: {MSG_BEING_WRITTEN}" in said
            line = str(screen.query_one(StatusLine).render())
            assert line.startswith("waiting on 1 file open elsewhere"), line
            screen.select(0, 0)  # (y moved on to the next operation)
            await pilot.pause()
            view = screen.query_one(OpDetail).view
            assert view is not None
            assert f"waits until {GREETING} is closed" in view.subtitle
            assert "not written yet" in view.subtitle
        app.post_message(FilesChanged(frozenset({GREETING})))  # as the watcher asks again
        await until(pilot, lambda: target.read_bytes() != before)
        await until(pilot, lambda: "waiting" not in str(screen.query_one(StatusLine).render()))
        assert not app.review.held_paths
        await until(pilot, lambda: "waits until" not in (screen.query_one(OpDetail).view
                                                         or view).subtitle)
        assert app.review.decisions  # the accept stands, and is on disk now


@pytest.mark.parametrize("key", ["q", "ctrl+q"])
async def test_q_with_a_held_file_asks_and_names_it(tour: tuple[Path, Path], key: str) -> None:
    """``q`` while an accept waits on a file held open elsewhere asks first, naming the
    file and when it will be written (QA pass 83 repro-5: it quit without a word, and the
    reviewer left believing the accept was on disk); ``n`` stays, ``y`` quits. Textual's
    ``ctrl+q`` asks the same (QA pass 84c: it quit at once)."""
    from reviewtui.ui.screens.dialogs import ConfirmScreen

    session, root = tour
    target = root / GREETING
    before = target.read_bytes()
    app = open_app(session, root)
    async with app.run_test(size=(120, 40)) as pilot:
        with held_open(target):
            await pilot.press("y")
            await until(pilot, lambda: bool(app.review.held_paths))
            await pilot.press(key)
            assert isinstance(app.screen, ConfirmScreen)
            question = str(app.screen.question)
            assert f"{GREETING} is open for writing in another program" in question
            assert "written when this review is opened again" in question
            await pilot.press("n")
            assert app.is_running
            assert not isinstance(app.screen, ConfirmScreen)
            await pilot.press(key)
            await pilot.press("y")
            await until(pilot, lambda: not app.is_running)
    assert target.read_bytes() == before  # (held until the end: nothing written there)


def test_the_quit_question_says_conflicts_and_held_files_apart() -> None:
    from reviewtui.ui.screens.main import quit_question

    assert quit_question(0, [], resumes=True) is None
    assert quit_question(2, [], resumes=True) == (
        "2 files in conflict, not written. Quit anyway? (decisions are saved)")
    many = quit_question(1, ["a.py", "b.py", "c.py", "d.py", "e.py"], resumes=False)
    assert many == ("1 file in conflict, not written. a.py, b.py, c.py and 2 more are open "
                    "for writing in another program: the accepts there are not written "
                    "yet. Quit anyway? (decisions are saved)")
