"""A row the operations list does not hold yet is no crash (QA pass 84a repro-1).

In a live review an outside change and a newly read operation can come together: the
redraw after the outside change asked the list for the new operation's row before the
SessionGrew message had added it (``OptionDoesNotExist``, and the workbench quit).
"""

from __future__ import annotations

from pathlib import Path

import pytest
from rich.text import Text
from uikit import open_app, screen_of

from reviewtui.ui.widgets.lists import OpList

pytestmark = pytest.mark.anyio


async def test_updating_a_row_past_the_list_changes_nothing(tour: tuple[Path, Path]) -> None:
    session, root = tour
    app = open_app(session, root)
    async with app.run_test(size=(120, 36)) as pilot:
        ops = screen_of(app).query_one("#ops", OpList)
        count = ops.option_count
        first = ops.get_option_at_index(0).prompt
        ops.update_op(count, Text("an operation read in a moment ago"))
        await pilot.pause()
        assert ops.option_count == count
        assert ops.get_option_at_index(0).prompt == first
        ops.update_op(0, Text("the first row, redrawn"))
        assert str(ops.get_option_at_index(0).prompt) == "the first row, redrawn"
