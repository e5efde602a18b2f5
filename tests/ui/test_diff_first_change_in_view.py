"""A diff view too short for the context above its first change scrolls down to it.

At 60x20 the demo's diff view held four rows: the fold, then three context lines, and
the change itself sat just below them (found in a real terminal, 2026-12-04). A view
that shows the change unscrolled is left as it is."""

from __future__ import annotations

import pytest
from test_diff_view import BEFORE, DiffApp, DiffView, Pilot, run, screen, show

from reviewtui.core.text.diff import RowKind


@pytest.mark.parametrize(("mode", "height"), [("split", 4), ("unified", 4), ("split", 2)])
def test_a_short_view_shows_the_first_change(mode: str, height: int) -> None:
    after = list(BEFORE)
    after[19] = "value_20 = compute(20, strict=True)"  # rows: a fold, 3 lines, the change

    async def scenario(app: DiffApp, view: DiffView, pilot: Pilot[None]) -> None:
        view.styles.height = height
        await pilot.pause()
        show(view, BEFORE, after, mode=mode)  # type: ignore[arg-type]
        await pilot.pause()
        index = next(i for i, row in enumerate(view._rows)
                     if row.kind not in (RowKind.CONTEXT, RowKind.COLLAPSED))
        assert view._row_top(index) >= height  # it would start below the view
        assert view.cursor_row == index
        shown = screen(view)
        assert any("strict=True" in line for line in shown), shown
        # A third of the view above it keeps some context when there is room for it.
        assert view.scroll_offset.y == view._row_top(index) - height // 3

    run(scenario, size=(100, 20))


def test_a_view_showing_the_change_is_not_moved() -> None:
    after = list(BEFORE)
    after[19] = "value_20 = compute(20, strict=True)"

    async def scenario(app: DiffApp, view: DiffView, pilot: Pilot[None]) -> None:
        show(view, BEFORE, after)
        await pilot.pause()
        assert view.cursor_row == 0
        assert view.scroll_offset.y == 0
        assert any("strict=True" in line for line in screen(view))

    run(scenario, size=(100, 30))
