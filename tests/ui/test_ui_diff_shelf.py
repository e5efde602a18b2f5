"""A diff shown again gets back the lines drawn for it (``ui/widgets/diff_shelf.py``),
and only when everything they are drawn from is the same: the texts, the rows, the
marks, the fold labels, the gutter, the highlighted lines and the palette. Otherwise it
is drawn anew. What is on screen must always be what a redraw from scratch gives."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from pathlib import Path

import pytest
from textual.app import App, ComposeResult
from textual.cache import LRUCache
from textual.pilot import Pilot
from textual.strip import Strip
from uikit import TOUR, copy_session, open_app, screen_of

from reviewtui.core.engine import Verdict
from reviewtui.core.text.diff import build_diff
from reviewtui.ui.highlight import clear_cache
from reviewtui.ui.widgets.diff_shelf import StripShelf, shelf_key
from reviewtui.ui.widgets.diff_view import DiffMode, DiffView

BEFORE = [f"value_{n} = compute({n})" for n in range(1, 41)]
AFTER = [*BEFORE[:19], "value_20 = compute(20, strict=True)", *BEFORE[20:]]
OTHER = [*BEFORE[:4], "value_5 = 'five'", *BEFORE[5:]]


class DiffApp(App[None]):
    def compose(self) -> ComposeResult:
        yield DiffView()


def run(scenario: Callable[[DiffView, Pilot[None]], Awaitable[None]]) -> None:
    async def main() -> None:
        app = DiffApp()
        async with app.run_test(size=(100, 30)) as pilot:
            await scenario(app.query_one(DiffView), pilot)

    asyncio.run(main())


def show(view: DiffView, before: list[str], after: list[str], *,
         marks: frozenset[int] = frozenset(), folds: dict[int, str] | None = None,
         mode: DiffMode = "split") -> None:
    """As OpDetail._show_model does it."""
    view.shelve()
    view.set_marks(marks)
    view.set_fold_context(folds or {})
    view.set_diff(build_diff(before, after), path="values.py", before_text="\n".join(before),
                  after_text="\n".join(after), mode=mode)
    view.unshelve()


def drawn(view: DiffView) -> list[tuple[str, tuple[object, ...]]]:
    return [_plain(view.render_line(y)) for y in range(view.scrollable_content_region.height)]


def fresh(view: DiffView) -> list[tuple[str, tuple[object, ...]]]:
    view._cache.clear()  # noqa: SLF001
    return drawn(view)


def _plain(strip: Strip) -> tuple[str, tuple[object, ...]]:
    return strip.text, tuple(seg.style for seg in strip)


def test_a_diff_shown_again_gets_its_lines_back() -> None:
    async def scenario(view: DiffView, pilot: Pilot[None]) -> None:
        show(view, BEFORE, AFTER)
        await pilot.pause()
        first = drawn(view)
        lines = view._cache  # noqa: SLF001
        assert len(lines)
        show(view, BEFORE, OTHER)
        await pilot.pause()
        assert view._cache is not lines  # noqa: SLF001
        assert drawn(view) != first
        show(view, BEFORE, AFTER)
        assert view._cache is lines  # noqa: SLF001  (kept, not drawn again)
        assert drawn(view) == first == fresh(view)

    run(scenario)


@pytest.mark.parametrize("change", ["marks", "folds", "highlight", "theme", "mode"])
def test_anything_the_lines_are_drawn_from_changed_draws_them_anew(change: str) -> None:
    async def scenario(view: DiffView, pilot: Pilot[None]) -> None:
        show(view, BEFORE, AFTER)
        await pilot.pause()
        lines = view._cache  # noqa: SLF001
        assert len(lines)
        show(view, BEFORE, OTHER)
        await pilot.pause()
        marks: frozenset[int] = frozenset()
        folds: dict[int, str] = {}
        mode: DiffMode = "split"
        if change == "marks":
            marks = frozenset({20})
        elif change == "folds":
            folds = {0: "def compute(n):"}
        elif change == "highlight":
            clear_cache()  # the lines are highlighted again: new objects
        elif change == "theme":
            view.app.theme = "textual-light"
            await pilot.pause()
        else:
            mode = "unified"
        show(view, BEFORE, AFTER, marks=marks, folds=folds, mode=mode)
        await pilot.pause()
        assert view._cache is not lines  # noqa: SLF001
        assert drawn(view) == fresh(view)
        if change == "marks":
            assert any("20!" in text for text, _ in drawn(view))

    run(scenario)


def test_the_shelf_keeps_a_few_and_gives_each_back_once() -> None:
    shelf = StripShelf(size=2)
    models = [build_diff(BEFORE, after) for after in (AFTER, OTHER, BEFORE)]
    looks = (object(),)

    def key(n: int, looks: tuple[object, ...] = looks) -> object:
        return shelf_key(models[n], "split", "values.py", "a", str(n), frozenset(), {}, 2,
                         False, looks)

    caches = []
    for n in range(3):
        cache: LRUCache[tuple[int, int, int, str, bool, bool, int], Strip] = LRUCache(8)
        cache[(0, 0, 1, "split", False, True, 0)] = Strip.blank(1)
        caches.append(cache)
        shelf.put(key(n), cache)  # type: ignore[arg-type]
    assert shelf.take(key(0)) is None  # the oldest went
    assert shelf.take(key(1, (object(),))) is None  # same values, other looks
    assert shelf.take(key(1)) is caches[1]
    assert shelf.take(key(1)) is None  # given back once
    assert shelf.take(key(2)) is caches[2]
    shelf.put(key(0), LRUCache(8))  # nothing drawn: nothing kept
    assert shelf.take(key(0)) is None
    assert shelf_key(None, "split", "", "", "", frozenset(), {}, 1, False, ()) is None


@pytest.mark.anyio
async def test_undo_shows_the_operation_as_drawn_before(tmp_path: Path) -> None:
    session, root = copy_session(TOUR, tmp_path)
    app = open_app(session, root)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        turn_pos = next(tp for tp, turn in enumerate(screen.review.display.turns)
                        if len(turn.results) >= 2)
        screen.select(turn_pos, 0)
        await app.workers.wait_for_complete()
        await pilot.pause()
        view = screen.query_one(DiffView)
        before = drawn(view)
        first = screen.current()
        assert first is not None
        await pilot.press("y")
        await app.jobs.wait_idle()
        await pilot.pause()
        assert screen.review.result(first.key).decision.verdict is Verdict.ACCEPTED
        assert screen.op_pos == 1
        assert drawn(view) == fresh(view)
        await pilot.press("u")
        await app.jobs.wait_idle()
        await pilot.pause()
        assert screen.review.result(first.key).decision.verdict is Verdict.PENDING
        assert screen.op_pos == 0
        assert drawn(view) == before == fresh(view)
