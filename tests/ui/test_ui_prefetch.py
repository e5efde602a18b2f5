"""The view of the operation a decision moves to is prepared while the current one is
read (ui/prefetch.py): the right operation, and its caches filled before the key."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st
from uikit import open_app, screen_of

from reviewtui.core.engine.opstate import OpState
from reviewtui.core.model.tree import FileState
from reviewtui.core.review.diagnostics import diagnose_cached
from reviewtui.core.syntax.symbols import ready
from reviewtui.ui import collector
from reviewtui.ui.highlight import cached_lines, clear_cache
from reviewtui.ui.opview import build_view
from reviewtui.ui.screens.review_states import ReviewStates

SIZE = (120, 40)
turn_states = st.lists(st.lists(st.sampled_from(list(OpState)), max_size=4), min_size=1,
                       max_size=6)


@given(turn_states, st.data())
def test_the_operation_prepared_is_where_a_decision_moves_the_cursor(
        turns: list[list[OpState]], data: st.DataObject) -> None:
    places = [(tp, opp) for tp, ops in enumerate(turns) for opp in range(len(ops))]
    if not places:
        return
    tp, opp = data.draw(st.sampled_from(places))
    decided = [list(ops) for ops in turns]
    decided[tp][opp] = OpState.ACCEPTED
    # The screen's own move after the decision (move_to_next_undecided).
    for wrap in (True, False):
        assert (ReviewStates(turns=turns).next_undecided(tp, skip=(tp, opp), wrap=wrap)
                == ReviewStates(turns=decided).next_undecided(tp, wrap=wrap))


@pytest.mark.anyio
async def test_the_next_operations_view_is_ready_before_the_key(
        tour: tuple[Path, Path]) -> None:
    clear_cache()
    app = open_app(*tour)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        screen = screen_of(app)
        screen.select(1, 0)  # a console command; next: an edit of greeter/__init__.py
        await pilot.pause(collector.AFTER_DRAW * 4)  # the prefetch starts a moment after
        await app.workers.wait_for_complete()
        here = (screen.turn_pos, screen.op_pos)
        target = screen.states.next_undecided(screen.turn_pos, skip=here)
        assert target == (1, 1)
        result = screen.result(*target)
        assert result is not None
        assert result.outcome.path == "greeter/__init__.py"
        before = result.outcome.before_state
        after = result.outcome.after_state
        assert isinstance(before, FileState)
        assert isinstance(after, FileState)
        # Parsed for the symbol hints and syntax-checked, before it was ever shown ...
        assert ready("greeter/__init__.py", before.text or "")
        assert ready("greeter/__init__.py", after.text or "")
        assert diagnose_cached(result) is not None
        # ... and its diff's lines highlighted.
        pane = build_view(result).panes[0]
        assert cached_lines(pane.path, "\n".join(pane.before)) is not None
        assert cached_lines(pane.path, "\n".join(pane.after)) is not None
        await pilot.press("y")
        assert (screen.turn_pos, screen.op_pos) == target
