"""Shared helpers for the UI tests: temporary copies of sessions and apps opened on them."""

from __future__ import annotations

import contextlib
import shutil
from collections.abc import Callable
from pathlib import Path
from typing import Any

from textual.pilot import Pilot

from reviewtui.core.engine import PENDING, Decision, OpKey
from reviewtui.core.engine.opstate import OpState
from reviewtui.core.errors import DecisionRefused
from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.screens.main import MainScreen
from reviewtui.ui.screens.tree import TreeScreen

REPO = Path(__file__).resolve().parents[2]
TOUR = REPO / "sample_sessions" / "workshop-tour"
GALLERY = REPO / "tests" / "fixtures" / "gallery"
BLOCKS = REPO / "tests" / "fixtures" / "blocks"
DIAGNOSTICS = REPO / "tests" / "fixtures" / "diagnostics"


def copy_session(source: Path, tmp_path: Path) -> tuple[Path, Path]:
    """(session folder without base/, project root copied from base/) under ``tmp_path``."""
    session = tmp_path / "session"
    shutil.copytree(source, session, ignore=shutil.ignore_patterns("base"))
    root = tmp_path / "root"
    shutil.copytree(source / "base", root)
    return session, root


def open_app(session: Path, root: Path, *, dry_run: bool = False,
             present: bool = False) -> ReviewApp:
    review = Review.open(session, root, dry_run=dry_run)
    return ReviewApp(review, watch=False, present=present)


def screen_of(app: ReviewApp) -> MainScreen:
    """The review screen, also while a modal (help, edit, picker) is above it."""
    for screen in reversed(app.screen_stack):
        if isinstance(screen, MainScreen):
            return screen
    raise AssertionError("no review screen")


def state_at(app: ReviewApp, turn_pos: int, op_pos: int) -> OpState:
    screen = screen_of(app)
    result = screen.result(turn_pos, op_pos)
    assert result is not None
    return screen.state_of(result)


async def steady_cursors(pilot: Pilot[Any]) -> None:
    """Stop every text cursor on the active screen from blinking, drawn, before a picture.

    A blinking cursor is hidden half of each second, so a snapshot taken on a loaded machine
    can catch it either way. A TextArea also caches its lines without the focus in the
    key: one drawn before it took focus keeps its missing cursor once blinking is off, so
    the cache is dropped and the area redrawn."""
    from textual.widgets import Input, TextArea

    await pilot.pause()
    for widget in pilot.app.screen.query("Input, TextArea"):
        if isinstance(widget, (Input, TextArea)):
            widget.cursor_blink = False
        if isinstance(widget, TextArea):
            widget.notify_style_update()
            widget.refresh()
    await pilot.pause()


async def until(pilot: Pilot[Any], ready: Callable[[], bool], seconds: float = 5.0) -> None:
    """Pauses until ``ready()`` holds or ``seconds`` pass (the caller asserts after): a
    resize or a first detail reaches the screen in a later pass, on a loaded machine
    after the first pause."""
    for _ in range(int(seconds / 0.025)):
        if ready():
            return
        await pilot.pause(0.025)


async def findings_in(pilot: Pilot[Any], screen: MainScreen) -> None:
    """Until lint's findings are in. Lint starts once the background evaluation is done,
    which can be after a wait for the workers has returned: a picture of the findings
    panel taken before then shows an empty panel."""
    for _ in range(400):
        if screen.findings:
            break
        await pilot.pause(0.025)
        await pilot.app.workers.wait_for_complete()
    assert screen.findings, "lint found nothing in a session the picture shows findings of"


def two_edit_session(tmp_path: Path, *, second_search: str) -> tuple[Path, Path]:
    """(session folder, root) of a two-turn File Ops session over ``a.py`` holding ``x = 1``:
    turn 1 turns it into ``x = 2``; turn 2 replaces ``second_search`` (``x = 2``: on top of
    turn 1; ``x = 1``: against the base) with ``x = 3`` or ``x = 5``."""
    on_top = second_search == "x = 2"
    text = (
        "# Session: " + ("chained" if on_top else "diverged") + "\n\n"
        "## Turn 1\n> One.\n\n--- File: a.py ---\n"
        "<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n\n"
        "## Turn 2\n> " + ("Two, on top of one." if on_top else "Two, against the base.")
        + "\n\n--- File: a.py ---\n"
        f"<<<<<<< SEARCH\n{second_search}\n=======\n{'x = 3' if on_top else 'x = 5'}\n"
        ">>>>>>> REPLACE\n")
    session = tmp_path / "session"
    session.mkdir()
    (session / "session.md").write_text(text)
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("x = 1\n")
    return session, root


def status_counts(app: ReviewApp) -> dict[str, int]:
    """The status line's non-zero counts (pending, accepted, rejected, failed)."""
    import re

    from reviewtui.ui.widgets.status_line import StatusLine

    line = str(screen_of(app).query_one(StatusLine).render())
    found = dict(re.findall(r"\b(pending|accepted|rejected|failed) (\d+)", line))
    assert set(found) == {"pending", "accepted", "rejected", "failed"}, line
    return {label: int(n) for label, n in found.items() if int(n)}


# The status line's four counts; stats and the exports name forced and edited apart.
_COUNT_GROUP = {"accepted": "accepted", "forced": "accepted", "edited": "accepted",
                "rejected": "rejected", "failed": "failed", "pending": "pending"}


def grouped_counts(by_decision: dict[str, int]) -> dict[str, int]:
    """Counts by decision as stats and the exports name them, in the status line's four."""
    out: dict[str, int] = {}
    for label, count in by_decision.items():
        out[_COUNT_GROUP[label]] = out.get(_COUNT_GROUP[label], 0) + count
    return out


def review_step(review: Review, step: str, pick: Callable[[], OpKey]) -> bool:
    """One step of a random walk over a review: "accept" (a refused accept changes
    nothing), "reject" or "pending" of the operation ``pick`` gives (asked only for
    those), "undo", "redo". False for any other step: the caller's own."""
    if step == "accept":
        with contextlib.suppress(DecisionRefused):
            review.decide(pick(), Decision.accept())
    elif step in ("reject", "pending"):
        review.decide(pick(), Decision.reject() if step == "reject" else PENDING)
    elif step in ("undo", "redo"):
        (review.undo if step == "undo" else review.redo)()
    else:
        return False
    return True


async def opened_tree(app: ReviewApp, pilot: Pilot[Any], path: str | None = None) -> TreeScreen:
    """``t`` on the review screen: the tree screen it opens (showing ``path``, if given)."""
    await pilot.press("t")
    await pilot.pause()
    tree = app.screen
    assert isinstance(tree, TreeScreen)
    if path is not None:
        tree.show_file([row for row, _what in tree.rows].index(path))
        await pilot.pause()
    return tree
