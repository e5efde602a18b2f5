"""DiffView in a headless app: what it renders, the messages it posts, big and tiny sizes."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

from pygments.token import Keyword, String  # type: ignore[import-untyped]
from rich.style import Style
from textual.app import App, ComposeResult
from textual.message import Message
from textual.pilot import Pilot
from textual.strip import Strip

from reviewtui.core.text.diff import DiffModel, RowKind, build_diff, unified_rows
from reviewtui.ui.highlight import PLAIN, THEME, cached_lines, clear_cache, highlight_lines
from reviewtui.ui.widgets.diff_view import SYNC_HIGHLIGHT_CHARS, DiffMode, DiffView

BEFORE = [f"value_{n} = compute({n})" for n in range(1, 41)]
AFTER = list(BEFORE)
AFTER[19] = "value_20 = compute(20, strict=True)"  # line 20 changes
AFTER.insert(30, "extra = 'new'")  # after line 30


class DiffApp(App[None]):
    def compose(self) -> ComposeResult:
        yield DiffView()


Scenario = Callable[[DiffApp, DiffView, Pilot[None]], Awaitable[None]]


def run(scenario: Scenario, size: tuple[int, int] = (120, 40),
        messages: list[Message] | None = None) -> None:
    async def main() -> None:
        app = DiffApp()
        hook = messages.append if messages is not None else None
        async with app.run_test(size=size, message_hook=hook) as pilot:
            view = app.query_one(DiffView)
            await scenario(app, view, pilot)

    asyncio.run(main())


def show(view: DiffView, before: list[str], after: list[str], *, path: str = "values.py",
         before_start: int = 1, after_start: int = 1, mode: DiffMode = "split",
         expanded: frozenset[int] = frozenset()) -> DiffModel:
    model = build_diff(before, after, before_start=before_start, after_start=after_start,
                       expanded=expanded)
    view.set_diff(model, path=path, before_text="\n".join(before),
                  after_text="\n".join(after), mode=mode)
    return model


def screen(view: DiffView) -> list[str]:
    return [view.render_line(y).text for y in range(view.scrollable_content_region.height)]


def posted(messages: list[Message], kind: type[Message]) -> list[Message]:
    """Each message of ``kind`` once (the hook sees it again at every node it bubbles to)."""
    return list({id(m): m for m in messages if isinstance(m, kind)}.values())


def style_of(strip: Strip, text: str) -> Style:
    """The style of the first segment containing ``text``."""
    for segment in strip:
        if text in segment.text:
            assert segment.style is not None
            return segment.style
    raise AssertionError(f"{text!r} not in {strip.text!r}")


# --- highlighting (pure) -------------------------------------------------------------


def test_highlighting_keeps_one_entry_per_line_and_every_character() -> None:
    text = 'def f():\n    """doc\n    more"""\r\n\n    return 1  # done\x0c\nx = "a\rb"'
    lines = highlight_lines("module.py", text)
    assert ["".join(piece for _, piece in line) for line in lines] == text.split("\n")
    # The docstring's second line is still a string: the text was lexed as a whole.
    assert lines[2][0][0] == THEME[String.Doc]
    assert lines[3] == ()
    assert cached_lines("module.py", text) is lines
    assert highlight_lines("module.py", text) is lines


def test_unknown_file_types_are_plain() -> None:
    lines = highlight_lines("notes.unknown-extension", "a = 1\nb")
    assert lines == (((PLAIN, "a = 1"),), ((PLAIN, "b"),))


# --- the widget ----------------------------------------------------------------------


def test_split_mode_shows_numbers_markers_and_folds() -> None:
    async def scenario(app: DiffApp, view: DiffView, pilot: Pilot[None]) -> None:
        show(view, BEFORE, AFTER)
        await pilot.pause()
        lines = screen(view)
        assert "⋯ 16 unchanged lines (x expands) ⋯" in lines[0]
        assert lines[1].startswith("17   value_17 = compute(17)")
        change = lines[4]
        left, right = change.split("│")
        assert left.startswith("20 - value_20 = compute(20)")
        assert right.startswith("20 + value_20 = compute(20, strict=True)")
        assert len(change) == view.scrollable_content_region.width
        added = next(line for line in lines if "extra = 'new'" in line)
        assert added.split("│")[0].strip() == ""
        assert added.split("│")[1].startswith("31 + extra = 'new'")
        assert "⋯ 7 unchanged lines (x expands) ⋯" in lines[len(view.rows) - 1]
        assert lines[len(view.rows)].strip() == ""

    run(scenario)


def test_changed_words_and_rows_are_tinted() -> None:
    async def scenario(app: DiffApp, view: DiffView, pilot: Pilot[None]) -> None:
        show(view, BEFORE, AFTER)
        await pilot.pause()
        view.blur()
        strip = view.render_line(4)
        word = view.get_component_rich_style("diff-view--added-word").bgcolor
        row = view.get_component_rich_style("diff-view--added").bgcolor
        removed = view.get_component_rich_style("diff-view--removed").bgcolor
        assert style_of(strip, "strict").bgcolor == word
        assert style_of(strip, "+").bgcolor == row
        assert style_of(strip, "-").bgcolor == removed
        assert word != row
        context = view.render_line(1)
        assert style_of(context, "value_17").bgcolor == view.rich_style.bgcolor

    run(scenario)


def test_syntax_colours_follow_the_real_line_numbers() -> None:
    before = ["def load(path):", "    name = 'config'", "    return name"]
    after = ["def load(path):", "    name = 'settings'", "    return name"]

    async def scenario(app: DiffApp, view: DiffView, pilot: Pilot[None]) -> None:
        show(view, before, after, path="loader.py", before_start=101, after_start=201)
        await pilot.pause()
        first = view.render_line(0)
        assert first.text.startswith("101   def load(path):")
        assert style_of(first, "def").color == THEME[Keyword].color
        change = view.render_line(1)
        assert "102 -     name = 'config'" in change.text
        assert "202 +     name = 'settings'" in change.text
        assert style_of(change, "config").color == THEME[String].color
        assert style_of(change, "settings").color == THEME[String].color

    run(scenario)


def test_texts_that_do_not_match_the_rows_are_shown_plain() -> None:
    async def scenario(app: DiffApp, view: DiffView, pilot: Pilot[None]) -> None:
        model = build_diff(["x = 'a'"], ["x = 'b'"])
        view.set_diff(model, path="x.py", before_text="something else", after_text="")
        await pilot.pause()
        strip = view.render_line(0)
        assert "1 - x = 'a'" in strip.text
        assert style_of(strip, "x").color != THEME[String].color

    run(scenario)


def test_control_characters_and_tabs_are_made_visible() -> None:
    async def scenario(app: DiffApp, view: DiffView, pilot: Pilot[None]) -> None:
        show(view, ["\tcall()\r"], ["\x1b[31mcall()"], path="notes.txt")
        await pilot.pause()
        text = "\n".join(screen(view))
        assert "1 -     call()␍" in text
        assert "1 + ␛[31mcall()" in text

    run(scenario)


def test_clicking_a_collapsed_row_asks_to_expand_it() -> None:
    messages: list[Message] = []

    async def scenario(app: DiffApp, view: DiffView, pilot: Pilot[None]) -> None:
        model = show(view, BEFORE, AFTER)
        await pilot.pause()
        last = len(model.rows) - 1
        assert model.rows[last].kind is RowKind.COLLAPSED
        first_hidden = model.rows[last].left
        assert first_hidden is not None
        assert (first_hidden.number, model.rows[last].hidden) == (34, 7)
        assert await pilot.click(DiffView, offset=(60, last))
        await pilot.pause()
        expand = [m for m in posted(messages, DiffView.ExpandRequested)
                  if isinstance(m, DiffView.ExpandRequested)]
        assert [m.collapsed_index for m in expand] == [model.rows[last].fold]
        assert expand[0].control is view
        assert view.cursor_row == last
        assert view.fold_near_cursor() == model.rows[last].fold
        # The screen rebuilds with the run expanded; the cursor stays on its first line.
        show(view, BEFORE, AFTER, expanded=frozenset({model.rows[last].fold}))
        await pilot.pause()
        row = view.rows[view.cursor_row]
        assert row.kind is RowKind.CONTEXT
        assert row.left is not None
        assert row.left.number == 34
        assert view.rows[-1].left is not None
        assert view.rows[-1].left.number == 40
        # Clicking an ordinary row selects it and asks for nothing.
        assert await pilot.click(DiffView, offset=(10, 2))
        await pilot.pause()
        assert view.cursor_row == 2
        assert len(posted(messages, DiffView.ExpandRequested)) == 1

    run(scenario, messages=messages)


def test_cursor_keys_move_the_row_and_post_row_selected() -> None:
    messages: list[Message] = []

    async def scenario(app: DiffApp, view: DiffView, pilot: Pilot[None]) -> None:
        model = show(view, BEFORE, AFTER)
        view.focus()
        await pilot.pause()
        await pilot.press("down", "down")
        assert view.cursor_row == 2
        selected = [m for m in posted(messages, DiffView.RowSelected)
                    if isinstance(m, DiffView.RowSelected)]
        assert [m.index for m in selected] == [1, 2]
        assert selected[-1].row == model.rows[2]
        await pilot.press("end")
        assert view.cursor_row == len(model.rows) - 1
        await pilot.press("down")
        assert view.cursor_row == len(model.rows) - 1
        await pilot.press("home", "up")
        assert view.cursor_row == 0
        # The focused cursor row shows in the gutter, and only there.
        cursor = view.get_component_rich_style("diff-view--cursor").bgcolor
        await pilot.press("down")
        await pilot.pause()
        assert style_of(view.render_line(1), "17").bgcolor == cursor
        assert style_of(view.render_line(2), "18").bgcolor != cursor

    run(scenario, messages=messages)


def test_switching_modes_keeps_the_cursor_line() -> None:
    async def scenario(app: DiffApp, view: DiffView, pilot: Pilot[None]) -> None:
        model = show(view, BEFORE, AFTER)
        view.focus()
        await pilot.pause()
        view.cursor_row = 6  # the row of line 22 | 22
        assert view.rows[6].left is not None
        assert view.rows[6].left.number == 22
        view.set_mode("unified")
        await pilot.pause()
        assert view.mode == "unified"
        assert view.rows == unified_rows(model)
        row = view.rows[view.cursor_row]
        assert row.left is not None
        assert row.left.number == 22
        lines = screen(view)
        assert lines[4].startswith("20    - value_20 = compute(20)")
        assert lines[5].startswith("   20 + value_20 = compute(20, strict=True)")
        assert lines[1].startswith("17 17   value_17 = compute(17)")
        view.set_mode("split")
        await pilot.pause()
        assert view.rows == model.rows
        assert view.cursor_row == 6

    run(scenario)


def test_unified_mode_scrolls_long_lines_sideways() -> None:
    long_line = "start " + "x" * 200 + " end"

    async def scenario(app: DiffApp, view: DiffView, pilot: Pilot[None]) -> None:
        view.set_wrap(False)  # the default wraps (tests/ui/test_diff_wrap.py)
        show(view, ["a = 1", long_line], ["a = 2", long_line], path="t.txt", mode="unified")
        await pilot.pause()
        assert view.virtual_size.width > view.scrollable_content_region.width
        assert view.max_scroll_x > 0
        view.scroll_to(x=view.max_scroll_x, animate=False, immediate=True)
        await pilot.pause()
        last = view.render_line(2).text
        assert last.startswith("2 2   ")  # the gutter stays put
        assert last.rstrip().endswith("x end")
        # Split mode scrolls both sides together, a cut end marked with "›".
        view.set_mode("split")
        view.scroll_to(x=0, animate=False, immediate=True)
        await pilot.pause()
        assert view.max_scroll_x > 0
        assert view.render_line(1).text.rstrip().endswith("›")

    run(scenario, size=(80, 20))


def test_show_message_replaces_the_diff() -> None:
    async def scenario(app: DiffApp, view: DiffView, pilot: Pilot[None]) -> None:
        show(view, BEFORE, AFTER)
        view.show_message("binary file: not shown")
        await pilot.pause()
        assert view.rows == ()
        assert view.model is None
        assert view.message == "binary file: not shown"
        lines = screen(view)
        assert lines[1].strip() == "binary file: not shown"
        await pilot.press("down", "end")  # nothing to move: no error

    run(scenario)


def test_tiny_widths_never_crash() -> None:
    async def scenario(app: DiffApp, view: DiffView, pilot: Pilot[None]) -> None:
        modes: tuple[DiffMode, ...] = ("split", "unified")
        for mode in modes:
            show(view, BEFORE, AFTER, mode=mode, before_start=9_990)
            await pilot.pause()
            width = view.scrollable_content_region.width
            for y in range(len(view.rows)):
                view.cursor_row = y
                strip = view.render_line(y - view.scroll_offset.y)
                assert strip.cell_length <= max(width, 0)
        view.cursor_row = 0
        if view.scrollable_content_region.width >= 5:
            assert "⋯" in screen(view)[0]

    for size in ((20, 10), (8, 6), (3, 3)):
        run(scenario, size=size)


def test_a_20000_line_diff_mounts_and_scrolls_to_the_end() -> None:
    before = [f"line {n} of the big file" for n in range(1, 20_001)]
    after = [f"line {n} of the big file, changed" if n % 1_000 == 0 else line
             for n, line in enumerate(before, start=1)]

    async def scenario(app: DiffApp, view: DiffView, pilot: Pilot[None]) -> None:
        model = show(view, before, after, path="big.txt", expanded=frozenset(range(100)))
        view.focus()
        await pilot.pause()
        assert len(model.rows) == 20_000
        assert view.virtual_size.height == 20_000
        # First shown, its first change (line 1,000, below 999 expanded lines) is in view.
        assert any("line 1000 of the big file, changed" in line for line in screen(view))
        await pilot.press("home")
        await pilot.pause()
        assert screen(view)[0].startswith("    1   line 1 of the big file")
        await pilot.press("end")
        await pilot.pause()
        assert view.cursor_row == 19_999
        assert view.scroll_offset.y == view.max_scroll_y > 0
        lines = screen(view)
        assert "20000 - line 20000 of the big file" in lines[-1]
        assert "20000 + line 20000 of the big file, changed" in lines[-1]
        await pilot.press("pageup")
        assert view.cursor_row < 19_999
        assert view.scroll_offset.y < view.max_scroll_y

    run(scenario)


def test_big_texts_are_highlighted_in_a_worker() -> None:
    clear_cache()
    before = [f"def handler_{n}(): return 'v{n}'" for n in range(1, 1_500)]
    after = [*before[:-1], "def last(): return 'changed'"]
    assert len("\n".join(before)) > SYNC_HIGHLIGHT_CHARS

    async def scenario(app: DiffApp, view: DiffView, pilot: Pilot[None]) -> None:
        show(view, before, after, path="handlers.py")
        change = next(y for y, row in enumerate(view.rows) if row.kind is RowKind.CHANGE)
        assert style_of(view.render_line(change), "changed").color != THEME[String].color
        await app.workers.wait_for_complete()
        await pilot.pause()
        strip = view.render_line(change)
        assert style_of(strip, "changed").color == THEME[String].color
        assert style_of(strip, "def").color == THEME[Keyword].color

    run(scenario)


def test_characters_that_take_no_cell_are_shown() -> None:
    """A line break JSON leaves raw, a C1 control, a bidirectional override, a zero-width
    space: a changed line holding one looked exactly like the line without it."""
    async def scenario(app: DiffApp, view: DiffView, pilot: Pilot[None]) -> None:
        show(view, ["s = 'ab'", "admin = 1"],
             ["s = 'a\u2028b\x85'", "admin\u200b = 1 \u202e# \u2066x\u2069\ufeff\x9b"],
             path="notes.txt")
        await pilot.pause()
        text = "\n".join(screen(view))
        assert "1 + s = 'a␤b␤'" in text
        assert "2 + admin⍰ = 1 ⍰# ⍰x⍰⍰⍰" in text

    run(scenario)


def test_blanks_that_are_not_spaces_are_shown() -> None:
    """A space made a no-break space, a soft hyphen, a Hangul filler as a JavaScript name:
    each changed line looked like the line before (helper-106 F7)."""
    async def scenario(app: DiffApp, view: DiffView, pilot: Pilot[None]) -> None:
        show(view, ["if x: y()", "config = 1", "const {a} = q"],
             ["if\xa0x: y()", "con\xadfig = 1", "const {a,\u3164} = q"], path="notes.txt")
        await pilot.pause()
        text = "\n".join(screen(view))
        assert "1 + if␣x: y()" in text
        assert "2 + con⍰fig = 1" in text
        assert "3 + const {a,⍰} = q" in text

    run(scenario)


def test_every_character_the_cli_spells_out_has_a_picture() -> None:
    """The workbench and the headless commands hide the same characters: each one
    ``visible`` spells out is drawn as a picture (the tab and newline aside, which the
    diff lays out itself)."""
    import re

    from reviewtui.core.text.visible import HIDDEN
    from reviewtui.ui.widgets.diff_render import sanitize

    hidden = re.compile(HIDDEN)
    spelt = [chr(c) for c in range(0x110000) if hidden.fullmatch(chr(c))]
    assert [c for c in spelt if sanitize(c) == c] == ["\t"]
