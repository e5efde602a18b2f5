"""Threat: text from a session, a project or the disk is read as Textual/Rich markup.

A check command with ``[$surface on $surface]`` hid a second command in the trust dialog,
and ``[/x]`` crashed the workbench (exit code 0). Every screen and dialog is opened here
with markup-laden requests, paths, edit text, reasons and commands; each must show the text
literally (read back from the rendered screen) and the app must not crash.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from textual.pilot import Pilot
from textual.widget import Widget

from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp

pytestmark = pytest.mark.anyio

SIZE = (220, 60)

# Markup that would hide text, close a tag never opened, run an action or link elsewhere.
HIDE = "[$surface on $surface]HIDDEN"
CLOSE = "[/x]"
BOLD = "[b]B[/b]"
CLICK = "[@click=app.quit]Q[/]"
LINK = "[link=http://evil.example]L[/link]"

REQUEST = f"ask {BOLD} {CLOSE} {HIDE}-REQ {CLICK} {LINK}"
# A name cannot hold "/": "[/x/]" spans directories and still closes a tag never opened.
PY_PATH = "src/[b]x[$surface on $surface]H.py"
MD_PATH = "docs/[/x/]y.md"
BIN_PATH = "assets/[/x/]logo.bin"
EDIT_TEXT = f'x = "{BOLD} {CLOSE} {HIDE}-EDIT"'
REASON = f"why {BOLD} {CLOSE} {HIDE}-WHY"
COMMAND = f"true {HIDE}-CMD {CLOSE} {{path}}"
TITLE = f"Title {BOLD} {CLOSE}"

SESSION = f"""\
# Session: {TITLE}

## Turn 1
> {REQUEST}

--- File: {PY_PATH} ---
<<<<<<< SEARCH
x = 1
=======
{EDIT_TEXT}
>>>>>>> REPLACE

--- File: {MD_PATH} ---
{CLOSE} new doc {CLICK}

### Changed files:
- {PY_PATH}
- {MD_PATH}
- other{CLOSE}.txt

## Turn 2
> second {CLOSE} {HIDE}-TWO

--- File: {PY_PATH} ---
<<<<<<< SEARCH
y = 2
=======
y = "{CLOSE} {HIDE}-SECOND"
>>>>>>> REPLACE
"""


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture
def markup_project(arena: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    """(session file, project root): everything from outside is markup-laden."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(arena.work / "xdg"))
    root: Path = arena.root
    (root / PY_PATH).parent.mkdir(parents=True)
    (root / PY_PATH).write_text("x = 1\ny = 2\n")
    (root / BIN_PATH).parent.mkdir(parents=True)
    (root / BIN_PATH).write_bytes(b"\x00\x01binary")
    session: Path = arena.work / "session.md"
    session.write_text(SESSION)
    return session, root


def screen_text(pilot: Pilot[Any]) -> str:
    """What the terminal shows for the active screen, as plain text."""
    compositor = pilot.app.screen._compositor
    return "\n".join(strip.text for strip in compositor.render_strips())


def widget_texts(pilot: Pilot[Any]) -> str:
    """Every widget's rendered plain text (also what scrolled or was cut off screen)."""
    parts: list[str] = []
    for widget in pilot.app.screen.walk_children(Widget):
        try:
            rendered = widget.render()
        except Exception:  # widgets built on the line API render nothing here
            continue
        plain = getattr(rendered, "plain", None)
        parts.append(plain if isinstance(plain, str) else str(rendered))
    return "\n".join(parts)


_FRAME = str.maketrans("", "", " \n\t│█▀▄▔▁╭╮╰╯─▌▐")


def assert_literal(shown: str, *needles: str) -> None:
    """Each needle appears as written (wrapping, padding and frames aside)."""
    squashed = shown.translate(_FRAME)
    for needle in needles:
        assert needle.translate(_FRAME) in squashed, f"{needle!r} not shown literally in:\n{shown}"


@asynccontextmanager
async def workbench(session: Path, root: Path, *, present: bool = False,
                    notes: list[str] | None = None,
                    dry_run: bool = True) -> AsyncIterator[Pilot[Any]]:
    review = Review.open(session, root, dry_run=dry_run)
    app = ReviewApp(review, watch=False, present=present)

    def hook(message: object) -> None:
        if notes is not None and type(message).__name__ == "Notify":
            note = message.notification  # type: ignore[attr-defined]
            # A notification read as markup shows outside text wrongly (or crashes).
            notes.append(note.message if not note.markup else f"MARKUP: {note.message}")

    try:
        async with app.run_test(size=SIZE, message_hook=hook) as pilot:
            await pilot.pause()
            yield pilot
            assert app.is_running, "the app quit (a markup action ran?)"
    finally:
        review.close()
    assert app.return_code in (None, 0)


async def _settle(pilot: Pilot[Any]) -> None:
    await pilot.pause()
    await pilot.pause()


async def _type(pilot: Pilot[Any], text: str) -> None:
    """Put ``text`` in the active dialog's input, as if typed."""
    from textual.widgets import Input

    field = pilot.app.screen.query_one(Input)
    field.value = text
    field.cursor_position = len(text)
    await _settle(pilot)


async def _past_trust(pilot: Pilot[Any]) -> None:
    """Answer the trust question with No (it comes first on an untrusted config)."""
    if type(pilot.app.screen).__name__ == "TrustScreen":
        await pilot.press("n")
        await _settle(pilot)


async def test_trust_dialog_shows_the_command_literally(
    markup_project: tuple[Path, Path],
) -> None:
    session, root = markup_project
    (root / "reviewtui.toml").write_text(f"[checks]\n\"*.py\" = {json.dumps(COMMAND)}\n")
    async with workbench(session, root) as pilot:
        assert type(pilot.app.screen).__name__ == "TrustScreen"
        shown = screen_text(pilot)
        assert_literal(shown, f"{HIDE}-CMD {CLOSE}")
        await pilot.press("n")
        await _settle(pilot)


async def test_main_screen_shows_request_paths_and_edit_literally(
    markup_project: tuple[Path, Path],
) -> None:
    session, root = markup_project
    async with workbench(session, root) as pilot:
        await _past_trust(pilot)
        shown = screen_text(pilot)
        assert_literal(shown, f"ask {BOLD} {CLOSE} [$sur", PY_PATH, f"{HIDE}-EDIT")
        await pilot.press("j")  # the second operation: a new file under a markup path
        await _settle(pilot)
        assert_literal(screen_text(pilot), MD_PATH, f"{CLOSE} new doc")


async def test_reject_reason_dialog_and_the_reason_shown_after(
    markup_project: tuple[Path, Path],
) -> None:
    session, root = markup_project
    async with workbench(session, root) as pilot:
        await _past_trust(pilot)
        await pilot.press("N")
        await _settle(pilot)
        await _type(pilot, REASON)
        await pilot.press("enter")
        await _settle(pilot)
        await pilot.press("k")  # back to the rejected operation
        await _settle(pilot)
        assert_literal(widget_texts(pilot), f"rejected by the reviewer: {REASON}")


@pytest.mark.slow
async def test_raw_tree_stats_help_and_findings(markup_project: tuple[Path, Path]) -> None:
    session, root = markup_project
    async with workbench(session, root) as pilot:
        await _past_trust(pilot)
        await pilot.press("f")  # findings: the footer names a file nothing touches
        await _settle(pilot)
        assert_literal(screen_text(pilot), f"other{CLOSE}.txt")
        await pilot.press("f")
        await _settle(pilot)

        await pilot.press("r")
        await _settle(pilot)
        assert_literal(screen_text(pilot), f"ask {BOLD} {CLOSE} {HIDE}-REQ", EDIT_TEXT)
        await pilot.press("escape")
        await _settle(pilot)

        await pilot.press("t")
        await _settle(pilot)
        assert_literal(screen_text(pilot), PY_PATH)
        screen: Any = pilot.app.screen
        binary = next(n for n, (path, _) in enumerate(screen.rows) if path == BIN_PATH)
        screen.query_one("#tree-files").highlighted = binary  # its label is the bare path
        await _settle(pilot)
        assert_literal(screen_text(pilot), BIN_PATH)
        await pilot.press("escape")
        await _settle(pilot)

        await pilot.press("S")
        for _ in range(10):
            await _settle(pilot)
            if "counting" not in screen_text(pilot):
                break
        assert_literal(screen_text(pilot), TITLE)
        await pilot.press("escape")
        await _settle(pilot)

        await pilot.press("question_mark")
        await _settle(pilot)
        assert_literal(screen_text(pilot), "reviewtui keys")
        await pilot.press("escape")
        await _settle(pilot)


@pytest.mark.slow
async def test_search_goto_picker_split_and_restore_dialogs(
    markup_project: tuple[Path, Path],
) -> None:
    session, root = markup_project
    notes: list[str] = []
    async with workbench(session, root, notes=notes) as pilot:
        await _past_trust(pilot)
        await pilot.press("slash")
        await _settle(pilot)
        await _type(pilot, f"nothing{CLOSE}{HIDE}")
        await pilot.press("enter")
        await _settle(pilot)
        assert [note for note in notes if note.startswith(f"no operation contains 'nothing{CLOSE}")]
        assert_literal(screen_text(pilot), f"nothing{CLOSE}{HIDE}")
        await pilot.press("escape")
        await _settle(pilot)

        await pilot.press("g")
        await _settle(pilot)
        await _type(pilot, CLOSE)
        await pilot.press("enter")
        await _settle(pilot)
        if pilot.app.screen is not pilot.app.screen_stack[1]:
            await pilot.press("escape")
            await _settle(pilot)

        await pilot.press("T")  # the checkpoint picker lists the requests
        await _settle(pilot)
        assert_literal(screen_text(pilot), f"ask {BOLD} {CLOSE} {HIDE}-REQ",
                       f"second {CLOSE} {HIDE}-TWO")
        await pilot.press("escape")
        await _settle(pilot)

        await pilot.press("s")  # split the edit into its change blocks
        await _settle(pilot)
        assert_literal(screen_text(pilot), PY_PATH, f"{HIDE}-EDIT")
        await pilot.press("escape")
        await _settle(pilot)

        await pilot.press("y", "y")  # accept both operations of turn 1
        await _settle(pilot)
        await pilot.press("full_stop")
        await _settle(pilot)
        await pilot.press("ctrl+t")  # restore preview: names the files it rewrites
        await _settle(pilot)
        shown = screen_text(pilot)
        if type(pilot.app.screen).__name__ == "ConfirmScreen":
            assert_literal(shown, PY_PATH)
            await pilot.press("n")
            await _settle(pilot)


async def test_presenter_narration(markup_project: tuple[Path, Path]) -> None:
    session, root = markup_project
    async with workbench(session, root, present=True) as pilot:
        await _past_trust(pilot)
        assert_literal(screen_text(pilot), f"ask {BOLD} {CLOSE} {HIDE}-REQ", PY_PATH)


async def test_edit_in_place_names_the_path_literally(
    markup_project: tuple[Path, Path],
) -> None:
    session, root = markup_project
    async with workbench(session, root) as pilot:
        await pilot.press("e")
        await _settle(pilot)
        assert_literal(screen_text(pilot), f"Editing the replacement for {PY_PATH}")
        await pilot.press("escape")
        await _settle(pilot)


async def test_outside_change_notifications_name_paths_literally(
    markup_project: tuple[Path, Path],
) -> None:
    session, root = markup_project
    notes: list[str] = []
    async with workbench(session, root, notes=notes, dry_run=False) as pilot:
        # Someone else changes the file the watcher has not reported yet; accepting then
        # finds it changed and rebases (or conflicts), saying so with the path.
        (root / PY_PATH).write_text("x = 1\ny = 3\n")
        await pilot.press("y")
        await _settle(pilot)
        said = [note for note in notes if PY_PATH in note]
        assert said, notes
        assert not [note for note in said if note.startswith("MARKUP: ")], said
