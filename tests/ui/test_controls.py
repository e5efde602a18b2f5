"""Pilot tests for the review controls beyond accept/reject: split (s, v), search (/),
the command palette (ctrl+p, :), the user's keymap and $EDITOR (E), checked on disk."""

from __future__ import annotations

import io
from pathlib import Path

import pytest
from rich.console import Console
from textual.binding import Binding
from textual.command import CommandPalette
from textual.message import Message
from textual.notifications import Notification, Notify
from textual.widgets import Input, Label, Static
from uikit import open_app, screen_of, state_at

from reviewtui.core.engine.opstate import OpState
from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.commands import screen_commands
from reviewtui.ui.screens.help import HelpScreen, bindings_table
from reviewtui.ui.screens.hunks import HunkScreen
from reviewtui.ui.screens.main import MainScreen
from reviewtui.ui.screens.search import SearchScreen
from reviewtui.ui.widgets.block_picker import BlockPicker
from reviewtui.ui.widgets.status_line import StatusLine

SIZE = (120, 40)

pytestmark = pytest.mark.anyio

CALC = """\
\"\"\"A tiny calculator.\"\"\"


def mul(a, b):
    return a * b


def add(a, b):
    return a + b


def sub(a, b):
    return a - b
"""


@pytest.fixture(autouse=True)
def no_user_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Every test reads its own (empty) user config, never the developer's."""
    config = tmp_path / "config"
    config.mkdir()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    return config


class Notes:
    """Collects the notifications an app shows (a ``message_hook``)."""

    def __init__(self) -> None:
        self.shown: list[Notification] = []

    @property
    def messages(self) -> list[str]:
        return [notification.message for notification in self.shown]

    def __call__(self, message: Message) -> None:
        if isinstance(message, Notify):
            self.shown.append(message.notification)


# --- s: split into change blocks -------------------------------------------------------


async def test_split_takes_only_the_chosen_blocks(blocks: tuple[Path, Path]) -> None:
    session, root = blocks
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, HunkScreen)
        picker = app.screen.query_one(BlockPicker)
        assert len(picker.blocks) == 3
        assert [picker.block_state(n) for n in range(3)] == ["all"] * 3
        await pilot.press("space")  # leave the first block (mul's signature and body) out
        await pilot.press("down", "down", "space", "space")  # the third: out, then back in
        assert [picker.block_state(n) for n in range(3)] == ["none", "all", "all"]
        await pilot.press("enter")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert (root / "calc.py").read_text() == CALC.replace(
            "    return a + b", "    # plain addition\n    return a + b").replace(
            "def sub(a, b):", "def sub(a: int, b: int) -> int:")
        assert state_at(app, 0, 0) is OpState.EDITED


async def test_split_line_selection_takes_only_the_selected_lines(
    blocks: tuple[Path, Path],
) -> None:
    session, root = blocks
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await pilot.pause()
        picker = app.screen.query_one(BlockPicker)
        # Block 1 is "- def mul(a, b):", "+ def mul(a: int, ...", "- return a * b",
        # "+ return int(a * b)". v selects the first line: only it is taken.
        await pilot.press("v")
        assert picker.line_mode
        assert picker.chosen_lines(0) == {0}
        # Move to the third line (the choice stays), start a new selection, extend it.
        await pilot.press("down", "down")
        assert picker.chosen_lines(0) == {0}
        await pilot.press("v", "shift+down")
        assert picker.chosen_lines(0) == {2, 3}
        assert picker.block_state(0) == "some"
        await pilot.press("escape")  # back to blocks, the choice kept
        assert not picker.line_mode
        assert isinstance(app.screen, HunkScreen)
        await pilot.press("down", "space")  # leave out the comment (block 2)
        await pilot.press("enter")
        await pilot.pause()
        text = (root / "calc.py").read_text()
        # mul keeps its signature, takes the new body; add is untouched; sub is typed.
        assert text == CALC.replace("    return a * b", "    return int(a * b)").replace(
            "def sub(a, b):", "def sub(a: int, b: int) -> int:")
        assert state_at(app, 0, 0) is OpState.EDITED


async def test_split_space_in_line_mode_toggles_single_lines(blocks: tuple[Path, Path]) -> None:
    session, root = blocks
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await pilot.pause()
        picker = app.screen.query_one(BlockPicker)
        await pilot.press("v", "shift+down")  # take only mul's new signature...
        assert picker.chosen_lines(0) == {0, 1}
        await pilot.press("down", "down", "space")  # ...and add the new body's line only
        assert picker.chosen_lines(0) == {0, 1, 3}
        await pilot.press("enter")
        await pilot.pause()
        text = (root / "calc.py").read_text()
        # The old body line is not removed (not taken), the new one is added after it.
        assert "def mul(a: int, b: int) -> int:\n    return a * b\n    return int(a * b)\n" in text


async def test_split_by_mouse(blocks: tuple[Path, Path]) -> None:
    session, root = blocks
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await pilot.pause()
        picker = app.screen.query_one(BlockPicker)
        await pilot.click(BlockPicker, offset=(10, 0))  # block 1's header: leave it out
        assert picker.block_state(0) == "none"
        await pilot.click(BlockPicker, offset=(10, 4))  # its 4th line: take that line only
        assert picker.line_mode
        assert picker.chosen_lines(0) == {3}
        await pilot.click(BlockPicker, offset=(10, 8))  # block 2's header: leave it out
        assert (picker.block_cursor, picker.line_mode) == (1, False)
        assert picker.block_state(1) == "none"


async def test_split_all_accepts_none_rejects_escape_cancels(blocks: tuple[Path, Path]) -> None:
    session, root = blocks
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("s")
        await pilot.pause()
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert state_at(app, 0, 0) is OpState.PENDING
        await pilot.press("s")
        await pilot.pause()
        await pilot.press("n", "enter")
        await pilot.pause()
        assert state_at(app, 0, 0) is OpState.REJECTED
        assert (root / "calc.py").read_text() == CALC
        screen_of(app).select(0, 0)
        await pilot.press("s")
        await pilot.pause()
        await pilot.press("n", "a", "enter")
        await pilot.pause()
        assert state_at(app, 0, 0) is OpState.ACCEPTED
        assert "def mul(a: int, b: int) -> int:\n    return int(a * b)\n" in (
            root / "calc.py").read_text()


async def test_split_a_full_file_of_an_existing_file(blocks: tuple[Path, Path]) -> None:
    session, root = blocks
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen_of(app).select(1, 0)
        await pilot.press("s")
        await pilot.pause()
        picker = app.screen.query_one(BlockPicker)
        assert [[(line.side.value, line.text) for line in b.lines] for b in picker.blocks] == [
            [("-", "beta"), ("+", "BETA")], [("+", "zeta")]]
        await pilot.press("space", "enter")  # keep beta, add zeta
        await pilot.pause()
        assert (root / "notes.txt").read_text() == "alpha\nbeta\ngamma\ndelta\nepsilon\nzeta\n"
        assert state_at(app, 1, 0) is OpState.EDITED


async def test_split_of_a_console_command_says_why_not(tour: tuple[Path, Path]) -> None:
    session, root = tour
    notes = Notes()
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE, message_hook=notes) as pilot:
        screen_of(app).select(1, 0)  # :mv
        await pilot.press("s")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert any("only edits and full files" in m for m in notes.messages)


# --- /: search -------------------------------------------------------------------------


@pytest.mark.slow
async def test_search_moves_between_matches_and_counts_them(tour: tuple[Path, Path]) -> None:
    session, root = tour
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        await pilot.press("slash")
        await pilot.pause()
        assert isinstance(app.screen, SearchScreen)
        # "greeting" (any case) is in the :mv, the three import edits and the changelog.
        await pilot.press(*"GREETING")
        await pilot.pause()
        count = app.screen.query_one("#search-count", Label)
        assert str(count.render()) == "5 matches"
        await pilot.press("enter")
        assert (screen.turn_pos, screen.op_pos) == (1, 0)
        assert str(count.render()) == "match 1 of 5"
        await pilot.press("enter", "enter")
        assert (screen.turn_pos, screen.op_pos) == (1, 2)
        assert str(count.render()) == "match 3 of 5"
        assert "/GREETING: match 3 of 5" in str(screen.query_one(StatusLine).render())
        await pilot.press("shift+enter")
        assert (screen.turn_pos, screen.op_pos) == (1, 1)
        await pilot.press("up", "up")  # previous, wrapping to the changelog
        assert (screen.turn_pos, screen.op_pos) == (3, 1)
        assert str(count.render()) == "match 5 of 5"
        await pilot.press("f3")  # next wraps to the first
        assert (screen.turn_pos, screen.op_pos) == (1, 0)
        await pilot.press("escape")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert (screen.turn_pos, screen.op_pos) == (1, 0)
        await pilot.press("slash")  # the last query is offered again
        await pilot.pause()
        assert app.screen.query_one(Input).value == "GREETING"


async def test_search_without_a_match_notifies(tour: tuple[Path, Path]) -> None:
    session, root = tour
    notes = Notes()
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE, message_hook=notes) as pilot:
        screen = screen_of(app)
        await pilot.press("slash", *"nowhere-to-be-found", "enter")
        await pilot.pause()
        assert (screen.turn_pos, screen.op_pos) == (0, 0)
        assert any("no operation contains" in m for m in notes.messages)


# --- ctrl+p / : the command palette ---------------------------------------------------


async def test_palette_lists_every_screen_action(tour: tuple[Path, Path]) -> None:
    session, root = tour
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        commands = list(screen_commands(screen))
        actions = {binding.action for _, _, binding in commands}
        expected = {b.action for b in MainScreen.BINDINGS
                    if not b.action.startswith("app.command_palette")}
        assert actions == expected
        names = {name for name, _, _ in commands}
        assert {"Accept", "Split", "Search", "Split/unified"} <= names


async def test_palette_leaves_out_what_the_row_cannot_do(tour: tuple[Path, Path]) -> None:
    """QA pass s28 (helper-89 F8): on a console command the palette offered Edit (e),
    which did nothing and said nothing there; on an edit it is offered."""
    from reviewtui.core.model.records import ConsoleCommand
    from reviewtui.ui.commands import ReviewCommands

    session, root = tour
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        screen.review.finish_evaluation()
        results = [r for t in screen.review.display.turns for r in t.results]
        command = next(r.key for r in results if isinstance(r.op, ConsoleCommand))
        edit = next(r.key for r in results if not isinstance(r.op, ConsoleCommand))
        offered = {}
        for key in (command, edit):
            assert screen.select_key(key)
            await pilot.pause()
            names = [name for name, _, _ in ReviewCommands(screen)._commands()]
            offered[key] = names
        assert "Edit" not in offered[command]
        assert "Edit" in offered[edit]
        assert "Accept" in offered[command]


async def test_palette_asks_check_action_as_a_key_press_does(
        tour: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch) -> None:
    """An action with parameters (``checkpoint(1)``) is checked by its name and
    parameters, as Textual checks a key press: turned off there, it is not offered."""
    from reviewtui.ui.commands import ReviewCommands

    session, root = tour
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        asked: list[tuple[str, tuple[object, ...]]] = []
        stock = screen.check_action

        def check(action: str, parameters: tuple[object, ...]) -> bool | None:
            asked.append((action, parameters))
            return False if (action, parameters) == ("checkpoint", (1,)) else stock(
                action, parameters)

        monkeypatch.setattr(screen, "check_action", check)
        names = [name for name, _, _ in ReviewCommands(screen)._commands()]
        assert "Next cp" not in names
        assert {"Prev cp", "Accept"} <= set(names)
        assert ("checkpoint", (-1,)) in asked
        before = screen.checkpoint
        await pilot.press("full_stop")  # the key is turned off too
        await pilot.pause()
        assert screen.checkpoint == before


@pytest.mark.parametrize("opener", ["ctrl+p", "colon"])
async def test_palette_runs_the_chosen_action(tour: tuple[Path, Path], opener: str) -> None:
    session, root = tour
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press(opener)
        await pilot.pause()
        assert CommandPalette.is_open(app)
        await pilot.press(*"Reject")
        for _ in range(5):  # the palette gathers hits in a worker
            await pilot.pause(0.1)
        await pilot.press("enter")
        await pilot.pause()
        await pilot.pause()
        assert not CommandPalette.is_open(app)
        assert state_at(app, 0, 0) is OpState.REJECTED


# --- the user's keymap ----------------------------------------------------------------


def help_keys(app: ReviewApp) -> dict[str, str]:
    """binding id -> keys, as the help screen's table shows them."""
    out = io.StringIO()
    table = bindings_table(screen_of(app).BINDINGS, app)
    Console(width=200, file=out, color_system=None).print(table)
    shown: dict[str, str] = {}
    for line in out.getvalue().splitlines():
        parts = line.split()
        if len(parts) >= 2:
            shown[parts[-1]] = parts[0]
    return shown


async def test_keymap_from_the_user_config(tour: tuple[Path, Path], no_user_config: Path) -> None:
    config = no_user_config / "reviewtui" / "config.toml"
    config.parent.mkdir()
    config.write_text('[keys]\naccept = "o"\n')
    session, root = tour
    original = (root / "greeter/core.py").read_text()
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        await pilot.press("y")  # no longer bound
        await pilot.pause()
        assert (root / "greeter/core.py").read_text() == original
        await pilot.press("o")
        await pilot.pause()
        assert 'return f"Hello, {name}!"' in (root / "greeter/core.py").read_text()
        assert state_at(app, 0, 0) is OpState.ACCEPTED
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        shown = help_keys(app)
        assert shown["accept"] == "o"
        assert shown["reject"] == "n"


@pytest.mark.parametrize("width", [40, 60, 70, 120])
async def test_the_help_fits_the_terminal(tour: tuple[Path, Path], width: int) -> None:
    """QA pass s28 (helper-89 F11): below 80 columns the help ran off the right edge,
    its border and the id column (what a remap needs) cut."""
    from textual.containers import VerticalScroll

    session, root = tour
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=(width, 30)) as pilot:
        await pilot.press("question_mark")
        await pilot.pause()
        assert isinstance(app.screen, HelpScreen)
        box = app.screen.query_one(VerticalScroll)
        assert box.region.width == min(80, width)
        assert box.region.right <= width
        # Inside it, every id is whole at the end of its row (the action text wraps).
        table = app.screen.query(Static).last()
        out = io.StringIO()
        Console(file=out, width=table.content_region.width, color_system=None).print(
            bindings_table(screen_of(app).BINDINGS, app))
        last_words = {line.split()[-1] for line in out.getvalue().splitlines() if line.strip()}
        ids = {b.id for b in screen_of(app).BINDINGS if isinstance(b, Binding) and b.id}
        assert ids <= last_words, ids - last_words


@pytest.mark.parametrize(("text", "said"), [
    ("[keys\naccept = ", "cannot read user config"),
    ("[keys]\naccept = 1\n", "[keys] maps binding ids to key strings"),
    ("keys = [1, 2]\n", "[keys] maps binding ids to key strings"),
])
async def test_a_malformed_user_config_is_a_notification(
    tour: tuple[Path, Path], no_user_config: Path, text: str, said: str,
) -> None:
    app, notes = _with_user_config(tour, no_user_config, text)
    async with app.run_test(size=SIZE, message_hook=notes) as pilot:
        await pilot.pause()
        (shown,) = [n for n in notes.shown if said in n.message]
        assert shown.severity == "error"
        assert not shown.markup  # "[keys]" is shown as written, not read as a style
        assert isinstance(app.screen, MainScreen)
        await pilot.press("y")  # the default keys still work
        await pilot.pause()
        assert state_at(app, 0, 0) is OpState.ACCEPTED


@pytest.mark.parametrize(("text", "said"), [
    ('[keys]\naccept = "q"\n', "[keys] 'q' is both accept's and quit's key"),
    ('[keys]\nacept = "z"\n', "[keys] acept: no key of the review screen has that id"),
])
async def test_a_remap_that_takes_a_key_or_names_no_binding_is_said(
    tour: tuple[Path, Path], no_user_config: Path, text: str, said: str,
) -> None:
    """QA s45 helper-137 #5: ``accept = "q"`` took q from quit without a word (q then
    accepted and wrote); a mistyped id was taken silently too."""
    app, notes = _with_user_config(tour, no_user_config, text)
    async with app.run_test(size=SIZE, message_hook=notes) as pilot:
        await pilot.pause()
        (shown,) = [n for n in notes.shown if said in n.message]
        assert shown.severity == "warning"


def _with_user_config(tour: tuple[Path, Path], no_user_config: Path,
                      text: str) -> tuple[ReviewApp, Notes]:
    """The tour's workbench under a user config.toml of ``text``, and its notices."""
    config = no_user_config / "reviewtui" / "config.toml"
    config.parent.mkdir()
    config.write_text(text)
    session, root = tour
    return open_app(session, root), Notes()


# --- E: $EDITOR ------------------------------------------------------------------------


def editor_script(tmp_path: Path, body: str) -> Path:
    script = tmp_path / "fake-editor"
    script.write_text("#!/bin/sh\n" + body)
    script.chmod(0o755)
    return script


async def test_external_editor_writes_the_edited_text(tour: tuple[Path, Path], tmp_path: Path,
                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    script = editor_script(tmp_path, "sed -i 's/Hello/Greetings/' \"$1\"\n")
    monkeypatch.delenv("VISUAL", raising=False)
    monkeypatch.setenv("EDITOR", str(script))
    session, root = tour
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.press("E")
        await pilot.pause()
        assert 'return f"Greetings, {name}!"' in (root / "greeter/core.py").read_text()
        assert state_at(app, 0, 0) is OpState.EDITED


@pytest.mark.parametrize(("body", "said"), [
    ("exit 3\n", "exited with status 3"),
    ("true\n", "changed nothing"),
])
async def test_external_editor_that_fails_changes_nothing(
    tour: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, body: str,
    said: str,
) -> None:
    monkeypatch.setenv("VISUAL", str(editor_script(tmp_path, body)))
    session, root = tour
    original = (root / "greeter/core.py").read_bytes()
    notes = Notes()
    app = open_app(session, root)
    async with app.run_test(size=SIZE, message_hook=notes) as pilot:
        await pilot.press("E")
        await pilot.pause()
        assert (root / "greeter/core.py").read_bytes() == original
        assert state_at(app, 0, 0) is OpState.PENDING
        assert any(said in m for m in notes.messages)


async def test_missing_external_editor_is_a_notification(
    tour: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("VISUAL", str(tmp_path / "no-such-editor"))
    session, root = tour
    notes = Notes()
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE, message_hook=notes) as pilot:
        await pilot.press("E")
        await pilot.pause()
        assert isinstance(app.screen, MainScreen)
        assert any("cannot run the editor" in m for m in notes.messages)


async def test_palette_exports_write_beside_the_scratch_copy(tmp_path: Path) -> None:
    from reviewtui.ui.app import ReviewApp

    tour = Path(__file__).resolve().parents[2] / "sample_sessions" / "workshop-tour"
    review = Review.open(tour, dry_run=True)  # a scratch copy of base/
    app = ReviewApp(review, watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        from reviewtui.ui.commands import extra_commands

        names = [name for name, _, _ in extra_commands(app.screen)]
        assert names == ["Export: patch", "Export: markdown", "Export: json", "Export: fileops"]
        await pilot.press("y")  # accept turn 1's edit: the export is what was accepted
        await pilot.pause()
        await app.screen.run_action("export('patch')")
        await pilot.pause()
    target = review.root.with_name(review.root.name + ".export.patch")
    try:
        text = target.read_text()
        assert "diff --git a/greeter/core.py b/greeter/core.py" in text
        assert '+    return f"Hello, {name}!"' in text
        assert "greeting.py" not in text  # turn 2's move was not accepted
        assert not any(p.name.endswith(".export.patch") for p in tour.rglob("*"))
    finally:
        target.unlink(missing_ok=True)
