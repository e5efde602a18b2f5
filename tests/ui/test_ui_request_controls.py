"""An agent's intent holding an ESC sequence is shown with the control characters' own
pictures in the turn list, as the diffs show them, never dropped (the terminal would
have been handed nothing, and the text looked like plain ``[31mansi[0m``: QA pass s32,
F15) and never passed through."""

from __future__ import annotations

from reviewtui.core.engine.opstate import OpState
from reviewtui.ui.widgets.lists import turn_prompt

ESCAPED = "\x1b[31mansi\x1b[0m bell\x07"


def test_a_turn_row_shows_control_characters_as_pictures() -> None:
    row = turn_prompt(3, f"{ESCAPED}\nsecond line", [OpState.PENDING]).plain
    assert "\u241b[31mansi\u241b[0m bell\u2407" in row
    assert "\x1b" not in row
    assert "\x07" not in row
    assert "second line" not in row  # (the row shows the first line)


def test_a_whole_request_keeps_its_line_breaks_and_shows_the_rest() -> None:
    """What the request block and the presenter show (every line of it)."""
    from reviewtui.ui.widgets.diff_render import sanitize_text

    shown = sanitize_text(f"{ESCAPED}\nsecond line")
    assert shown == "\u241b[31mansi\u241b[0m bell\u2407\nsecond line"
