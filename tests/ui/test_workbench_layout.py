"""Issue 15: read every character. Wrapping in the workbench, the side panel, the
request block, operation rows, W's answer, the prompt dialogs, and the layout
remembered in the user config folder."""

from __future__ import annotations

from pathlib import Path

import pytest
from textual.message import Message
from textual.notifications import Notify
from textual.widgets import Input, Static
from uikit import REPO, copy_session, open_app, screen_of, until

from reviewtui.core.model.records import Edit, Span
from reviewtui.shell.userconfig import LAYOUT_DEFAULTS, layout_path, load_layout
from reviewtui.ui.screens.dialogs import PromptScreen
from reviewtui.ui.widgets.diff_view import CONTINUED, DiffView
from reviewtui.ui.widgets.lists import (
    OpList,
    op_row_title,
    op_row_titles,
    shorten_path,
    told_apart,
)
from reviewtui.ui.widgets.op_detail import OpDetail
from reviewtui.ui.widgets.request_block import RequestBlock

pytestmark = pytest.mark.anyio
REFACTOR = REPO / "sample_sessions" / "refactor-multi-turn"


@pytest.fixture(autouse=True)
def own_config(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    config = tmp_path / "config"
    config.mkdir()
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    return config


@pytest.fixture
def refactor(tmp_path: Path) -> tuple[Path, Path]:
    return copy_session(REFACTOR, tmp_path)


def long_line_session(tmp_path: Path, width: int = 300) -> tuple[Path, Path]:
    """One edit changing one word near the end of a ``width``-character line."""
    words = " ".join(f"w{n:03d}" for n in range(width // 5))
    line = f"x = '{words}'"[:width]
    changed = line.replace("w050", "WORD")
    session = tmp_path / "long"
    (session / "base").mkdir(parents=True)
    (session / "session.md").write_text(
        "# Session: a long line\n\n## Turn 1\n> Rename one word.\n\n--- File: long.py ---\n"
        f"<<<<<<< SEARCH\n{line}\n=======\n{changed}\n>>>>>>> REPLACE\n")
    root = tmp_path / "long-root"
    root.mkdir()
    (root / "long.py").write_text(f"a = 1\n{line}\nb = 2\n")
    return session, root


class Notes:
    def __init__(self) -> None:
        self.messages: list[str] = []

    def __call__(self, message: Message) -> None:
        if isinstance(message, Notify):
            self.messages.append(str(message.notification.message))


def _screen_text(view: DiffView) -> list[str]:
    return [view.render_line(y).text for y in range(view.scrollable_content_region.height)]


async def test_wrap_shows_the_whole_changed_line_at_80_columns(tmp_path: Path) -> None:
    session, root = long_line_session(tmp_path)
    changed = (session / "session.md").read_text().split("=======\n")[1].split("\n")[0]
    app = open_app(session, root)
    async with app.run_test(size=(80, 30)) as pilot:
        await pilot.pause()
        view = screen_of(app).query_one(OpDetail).diff_view
        assert view.mode == "unified"  # 80 columns: narrow
        lines = _screen_text(view)
        prefix = 2 * (len(str(3)) + 1) + 2
        added = [line[prefix:] for line in lines
                 if line[:prefix].rstrip().endswith(("+", CONTINUED))]
        joined = "".join(added)
        assert changed in joined  # every character, read back from the screen
        await pilot.press("w")
        await pilot.pause()
        assert not view.wrap
        assert load_layout()["wrap"] is False
        assert any("WORD" in line for line in _screen_text(view))  # the change stays in view


async def test_side_panel_hides_and_the_choice_is_remembered(
        refactor: tuple[Path, Path]) -> None:
    session, root = refactor
    app = open_app(session, root)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = screen_of(app)
        left = screen.query_one("#left")
        detail = screen.query_one(OpDetail)
        assert left.display
        narrow = detail.size.width
        await pilot.press("b")
        await pilot.pause()
        assert not left.display
        assert detail.size.width == 100
        assert detail.size.width > narrow
        await pilot.press("y")  # the review keys still work without the lists
        await pilot.pause()
    assert load_layout()["panel"] is False
    assert layout_path().is_file()
    app = open_app(session, root)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        assert not screen_of(app).query_one("#left").display


async def test_side_panel_width_follows_the_terminal(refactor: tuple[Path, Path]) -> None:
    session, root = refactor
    app = open_app(session, root)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.pause()
        small = screen_of(app).query_one("#left").size.width
        await pilot.resize_terminal(180, 40)
        await until(pilot, lambda: screen_of(app).query_one("#left").size.width > small)
        large = screen_of(app).query_one("#left").size.width
        assert small < 44 < large


async def test_mode_context_and_whitespace_are_remembered(
        refactor: tuple[Path, Path]) -> None:
    session, root = refactor
    app = open_app(session, root)
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.press("V", "plus", "W")
        await pilot.pause()
    layout = load_layout()
    assert layout == {**LAYOUT_DEFAULTS, "mode": "unified", "context": 6, "whitespace": True}
    app = open_app(session, root)
    async with app.run_test(size=(140, 40)) as pilot:
        await pilot.pause()
        detail = screen_of(app).query_one(OpDetail)
        assert (detail.mode, detail.context, detail.ignore_whitespace) == ("unified", 6, True)


async def test_a_broken_layout_file_falls_back_to_defaults(own_config: Path) -> None:
    path = layout_path()
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text('mode = "sideways"\ncontext = 900\nwrap = "yes"\npanel = false\n[x')
    assert load_layout() == LAYOUT_DEFAULTS
    path.write_text('mode = "sideways"\ncontext = 900\nwrap = "yes"\npanel = false\n')
    assert load_layout() == {**LAYOUT_DEFAULTS, "panel": False}


async def test_request_block_shows_the_whole_request(refactor: tuple[Path, Path]) -> None:
    session, root = refactor
    app = open_app(session, root)
    async with app.run_test(size=(140, 40)) as pilot:
        screen = screen_of(app)
        screen.select(3, 0)
        await pilot.pause()
        block = screen.query_one(RequestBlock)
        shown = str(block.query_one(Static).render())
        request = screen.session_turns[3].request.strip()
        assert len(request) > 100
        assert " ".join(request.split()) in " ".join(shown.split())
        await pilot.press("R")
        await pilot.pause()
        assert block.folded
        assert block.size.height == 1


async def test_op_rows_lead_with_the_edit_number(refactor: tuple[Path, Path]) -> None:
    session, root = refactor
    app = open_app(session, root)
    async with app.run_test(size=(100, 30)) as pilot:
        screen = screen_of(app)
        screen.select(3, 2)
        await pilot.pause()
        ops = screen.query_one("#ops", OpList)
        prompt = str(ops.get_option_at_index(2).prompt)
        assert prompt.split(" ", 1)[1].lstrip().startswith("Edit 1 · ")
        assert prompt.endswith("pending")
        assert "text.py" in prompt


def test_paths_shorten_from_the_left() -> None:
    assert shorten_path("invoicer/output/text.py", 40) == "invoicer/output/text.py"
    assert shorten_path("invoicer/output/text.py", 16) == "…/output/text.py"
    assert shorten_path("invoicer/output/text.py", 10) == "…/text.py"
    assert len(shorten_path("a/" * 30 + "name.py", 12)) <= 12


def test_same_named_files_in_sibling_folders_keep_their_rows_apart() -> None:
    """ripgrep's crates/*/Cargo.toml all read "Edit 1 · …/Cargo.toml" in a narrow list
    (found in a real terminal, 2026-12-04): those rows keep the end of their path instead;
    a path that is not shortened alike keeps its folder cut."""
    def edit(path: str) -> Edit:
        return Edit(path=path, ordinal=1, number=None, search_lines=("a",),
                    replace_lines=("b",), span=Span(1, 5), search_span=Span(1, 3),
                    replace_span=Span(3, 5))

    ops = [edit(f"crates/{name}/Cargo.toml") for name in ("ignore", "grep", "printer",
                                                           "searcher")]
    ops.append(edit("invoicer/output/text.py"))
    titles = op_row_titles(ops, 25)
    assert titles == ["Edit 1 · …ignore/Cargo.t…", "Edit 1 · …grep/Cargo.toml",
                      "Edit 1 · …printer/Cargo.…", "Edit 1 · …searcher/Cargo…",
                      "Edit 1 · …/output/text.py"]
    assert [op_row_title(op, 25) for op in ops[:2]] == ["Edit 1 · …/Cargo.toml"] * 2


def test_alike_rows_show_the_folder_that_tells_them_apart_at_any_width() -> None:
    """At 120 columns a row has about 14 cells for its path: by the end of the path
    ripgrep's matcher and searcher crates both read ``…her/Cargo.toml`` and cli reads
    ``…li/Cargo.toml`` (found in a real terminal on ripgrep's history, 2026-12-04). Each
    shows its crate's folder whole, the name (the same in every such row) cut after it."""
    def edit(path: str) -> Edit:
        return Edit(path=path, ordinal=1, number=None, search_lines=("a",),
                    replace_lines=("b",), span=Span(1, 5), search_span=Span(1, 3),
                    replace_span=Span(3, 5))

    crates = ["cli", "globset", "grep", "ignore", "matcher", "pcre2", "printer", "regex",
              "searcher", "core"]
    ops = [edit(f"crates/{name}/Cargo.toml") for name in crates]
    ops += [edit("crates/index/src/lib.rs"), edit("crates/codex/src/lib.rs")]
    for room in (23, 24, 30, 40):
        titles = op_row_titles(ops, room)
        assert len(set(titles)) == len(titles), titles
        assert all(len(title) <= room for title in titles), titles
        for name, title in zip(crates, titles, strict=False):
            assert f"…{name}/" in title or f"/{name}/" in title, (name, title)
    assert op_row_titles(ops, 27)[0] == "Edit 1 · …/cli/Cargo.toml"
    assert op_row_titles(ops, 40)[0] == "Edit 1 · crates/cli/Cargo.toml"  # fits: whole
    # A folder between the one that differs and the name is left out, not the folder.
    assert op_row_titles(ops, 24)[-2:] == ["Edit 1 · …index/…/lib.rs",
                                           "Edit 1 · …codex/…/lib.rs"]
    assert told_apart("cli/Cargo.toml", {"cli/Cargo.toml", "core/Cargo.toml"}, 30) == (
        "cli/Cargo.toml")  # a top folder: nothing left out, no "…"


async def test_whitespace_toggle_says_when_it_changes_nothing(
        tour: tuple[Path, Path]) -> None:
    session, root = tour
    notes = Notes()
    app = open_app(session, root)
    async with app.run_test(size=(120, 40), message_hook=notes) as pilot:
        await pilot.press("W")
        await pilot.pause()
        assert any("no whitespace-only differences here" in m for m in notes.messages)
        label = str(screen_of(app).query_one("#pane-label", Static).render())
        assert "whitespace ignored" in label


async def test_whitespace_toggle_changes_a_whitespace_only_diff(tmp_path: Path) -> None:
    session = tmp_path / "ws"
    (session / "base").mkdir(parents=True)
    (session / "session.md").write_text(
        "# Session: spaces\n\n## Turn 1\n> Reindent.\n\n--- File: w.py ---\n"
        "<<<<<<< SEARCH\nif x:\n  y = 1\n=======\nif x:\n    y = 1\n>>>>>>> REPLACE\n")
    root = tmp_path / "ws-root"
    root.mkdir()
    (root / "w.py").write_text("if x:\n  y = 1\n")
    notes = Notes()
    app = open_app(session, root)
    async with app.run_test(size=(120, 40), message_hook=notes) as pilot:
        view = screen_of(app).query_one(OpDetail).diff_view
        await pilot.pause()
        before = view.rows
        await pilot.press("W")
        await pilot.pause()
        assert view.rows != before
        assert not any("no whitespace-only" in m for m in notes.messages)


@pytest.mark.parametrize("key", ["N", "g"])
async def test_prompt_dialogs_are_readable(tour: tuple[Path, Path], key: str) -> None:
    session, root = tour
    app = open_app(session, root)
    async with app.run_test(size=(100, 30)) as pilot:
        await pilot.press(key)
        await pilot.pause()
        assert isinstance(app.screen, PromptScreen)
        assert app.screen.query_one(Input).size.width >= 40


def test_op_row_title_of_a_full_file() -> None:
    from reviewtui.core.model.records import FullFile, Span

    op = FullFile(path="docs/a/very/deep/folder/README.md", lines=("x",), span=Span(1, 2))
    assert op_row_title(op, 24).startswith("File · …")



