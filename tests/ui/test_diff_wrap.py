"""Issue 15: no changed character is ever hidden. Long lines wrap (the default) with a
``↪`` in the gutter; without wrapping they scroll sideways with ``›`` / ``‹`` marks and
the changed words stay in view."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable

import pytest
from textual.app import App, ComposeResult
from textual.pilot import Pilot
from uikit import until

from reviewtui.core.text.diff import build_diff
from reviewtui.ui.widgets.diff_view import CONTINUED, CUT_END, CUT_START, DiffMode, DiffView

LONG = " ".join(f"w{n:03d}" for n in range(60)) + "!"  # 300 characters, all distinct words
CHANGED = LONG.replace("w050", "CHANGED")


class _App(App[None]):
    def compose(self) -> ComposeResult:
        yield DiffView()


Scenario = Callable[[DiffView, Pilot[None]], Awaitable[None]]


def _run(scenario: Scenario, size: tuple[int, int]) -> None:
    async def main() -> None:
        app = _App()
        async with app.run_test(size=size) as pilot:
            await scenario(app.query_one(DiffView), pilot)

    asyncio.run(main())


def _show(view: DiffView, before: list[str], after: list[str], mode: DiffMode) -> None:
    view.set_diff(build_diff(before, after), path="t.txt", before_text="\n".join(before),
                  after_text="\n".join(after), mode=mode)


def _lines(view: DiffView) -> list[str]:
    return [view.render_line(y).text for y in range(view.scrollable_content_region.height)]


def _side_text(lines: list[str], *, right: bool, prefix: int) -> str:
    """The text of one side read back from the screen: every visual line's part after
    the gutter and marker, joined."""
    parts = []
    for line in lines:
        left, _, right_part = line.partition("│")
        # Both sides are equally wide (a spare cell may follow the right one), and the
        # pieces are exactly as wide as their side.
        part = right_part[: len(left)] if right else left
        parts.append(part[prefix:])
    return "".join(parts)


def test_wrap_shows_every_character_of_a_300_character_line_at_80_columns() -> None:
    async def scenario(view: DiffView, pilot: Pilot[None]) -> None:
        _show(view, ["a = 1", LONG], ["a = 2", CHANGED], "split")
        await pilot.pause()
        assert view.wrap
        lines = _lines(view)
        assert view.visual_lines() > len(view.rows)
        prefix = 1 + 1 + 2  # one-digit numbers, a space, the marker
        assert LONG in _side_text(lines[1:], right=False, prefix=prefix)
        assert CHANGED in _side_text(lines[1:], right=True, prefix=prefix)
        assert any(line.lstrip().startswith(CONTINUED) for line in lines)
        assert view.max_scroll_x == 0  # nothing to scroll sideways: it is all there

    _run(scenario, (80, 24))


@pytest.mark.parametrize("width", [80, 81])
def test_a_line_both_sides_hold_wraps_at_the_same_place_on_each(width: int) -> None:
    """An unchanged long line continues on both sides with the same characters, at an odd
    and at an even width (the right side was one cell wider at one of them, and every
    wrapped unchanged line then read one character apart)."""
    async def scenario(view: DiffView, pilot: Pilot[None]) -> None:
        _show(view, [LONG, "a = 1"], [LONG, "a = 2"], "split")
        await pilot.pause()
        lines = _lines(view)
        pieces = [line.partition("│") for line in lines if "│" in line]
        held = [(left, right[: len(left)]) for left, _, right in pieces
                if left.strip() and right.strip()]
        assert len(held) >= 5  # the long line's visual lines, then the changed row
        for left, right in held[:-1]:
            assert left == right
        assert LONG in _side_text(lines, right=True, prefix=1 + 1 + 2)

    _run(scenario, (width, 24))


def test_unified_wrap_shows_every_character() -> None:
    async def scenario(view: DiffView, pilot: Pilot[None]) -> None:
        _show(view, [LONG], [CHANGED], "unified")
        await pilot.pause()
        lines = _lines(view)
        prefix = 2 * 2 + 2
        removed = [line for line in lines if line[:prefix].rstrip().endswith(("-", CONTINUED))]
        text = "".join(line[prefix:].rstrip() for line in lines)
        assert LONG in text
        assert CHANGED in text
        assert removed

    _run(scenario, (80, 24))


def test_no_wrap_marks_the_cut_and_keeps_the_change_in_view() -> None:
    async def scenario(view: DiffView, pilot: Pilot[None]) -> None:
        view.set_wrap(False)
        _show(view, [LONG], [CHANGED], "split")
        await pilot.pause()
        row = view.render_line(0).text
        left, _, right = row.partition("│")
        assert right.rstrip().endswith(CUT_END) or CUT_START in right
        assert "CHANGED" in right  # the changed word, far beyond the cut, is shown
        assert view.visual_lines() == len(view.rows)

    _run(scenario, (100, 24))


def test_wrap_follows_the_width() -> None:
    async def scenario(view: DiffView, pilot: Pilot[None]) -> None:
        _show(view, [LONG], [CHANGED], "unified")
        await pilot.pause()
        narrow, width = view.visual_lines(), view.size.width
        await pilot.resize_terminal(200, 24)
        # The resize reaches the view in a later layout pass (on a loaded machine after
        # the first pause), and its lines are wrapped again when it gets its new width.
        await until(pilot, lambda: view.size.width > width and view.visual_lines() != narrow)
        assert view.size.width > width
        assert view.visual_lines() < narrow

    _run(scenario, (80, 24))
