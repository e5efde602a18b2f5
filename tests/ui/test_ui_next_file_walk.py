"""`{` and `}` walk only the operations they pass, and land where a walk over a list of
every operation of the session lands (the way they worked before)."""

from __future__ import annotations

import pytest
from uikit import open_app, screen_of

from reviewtui.core.model.records import Edit, FullFile
from reviewtui.ui.app import ReviewApp

pytestmark = pytest.mark.anyio


def _by_the_whole_list(app: ReviewApp, delta: int) -> tuple[int, int]:
    """Where the key goes, found as before: over a list of every operation."""
    screen = screen_of(app)
    flat = list(screen.iter_results())
    here = next((i for i, (tp, opp, _) in enumerate(flat)
                 if (tp, opp) == (screen.turn_pos, screen.op_pos)), 0)
    current = getattr(flat[here][2].op, "path", None)

    def path_at(i: int) -> str | None:
        op = flat[i][2].op
        return op.path if isinstance(op, Edit | FullFile) else None

    for i in range(here + delta, len(flat) if delta > 0 else -1, delta):
        path = path_at(i)
        if path is not None and path != current:
            while delta < 0 and i > 0 and path_at(i - 1) == path:
                i -= 1
            return flat[i][0], flat[i][1]
    return screen.turn_pos, screen.op_pos


@pytest.mark.parametrize("fixture", ["tour", "gallery"])
async def test_next_and_previous_file_land_where_the_whole_list_says(
        fixture: str, request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> None:
    session, root = request.getfixturevalue(fixture)
    app = open_app(session, root)
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        places = [(tp, opp) for tp, opp, _ in screen.iter_results()]
        assert len(places) > 5
        # Through the keys, drawn, from a few places...
        for place in places[:2] + places[-2:]:
            for key, delta in (("right_curly_bracket", 1), ("left_curly_bracket", -1)):
                screen.select(*place)
                await pilot.pause()
                expected = _by_the_whole_list(app, delta)
                await pilot.press(key)
                assert (screen.turn_pos, screen.op_pos) == expected, (place, key)
        # ...and the walk itself from every place (drawing each one took seconds).
        landed: list[tuple[int, int]] = []
        monkeypatch.setattr(screen, "select", lambda tp, opp: landed.append((tp, opp)))
        moved = 0
        for place in places:
            for delta in (1, -1):
                screen.turn_pos, screen.op_pos = place
                expected = _by_the_whole_list(app, delta)
                landed.clear()
                screen.action_next_file(delta)
                assert (landed or [place])[-1] == expected, (place, delta)
                moved += expected != place
        assert moved > len(places)  # most keys went somewhere
