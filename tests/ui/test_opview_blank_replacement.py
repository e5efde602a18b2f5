"""The diff pane of an edit whose replacement is blank lines (QA s44 helper-135 F1).

An edit replacing ``x = 1`` with one empty line: the pane counted the lines it wrote from
the region's text, ``""``, which is also what an edit writing nothing leaves; it took one
line off the right side, so the file's untouched last line showed as removed. Measured
here against the file itself: for a file shorter than the context window the pane holds
both whole versions, and the rows mark no line outside the edit.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.agent.answers import written_lines
from reviewtui.core.engine import evaluate_session
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.protocol.session import parse_session
from reviewtui.core.text.diff import RowKind, build_diff
from reviewtui.ui.opview import build_view


def _result(lines: list[str], at: int, replacement: list[str]):  # type: ignore[no-untyped-def]
    body = "\n".join(replacement)
    text = ("# Session: blank\n\n## Turn 1\n> edit\n\n--- File: f.py ---\nEdit 1\n"
            f"<<<<<<< SEARCH\n{lines[at]}\n=======\n"
            + (f"{body}\n" if replacement else "") + ">>>>>>> REPLACE\n")
    tree = Tree.from_files({"f.py": FileState.from_text("".join(f"{x}\n" for x in lines))})
    (result,) = evaluate_session(parse_session(text), tree).turns[0].results
    assert result.outcome.status is Status.APPLIED
    return result


@pytest.mark.parametrize("replacement", [[""], ["", ""], [], ["z = 0"], ["", "z = 0", ""]],
                         ids=["one-blank", "two-blank", "nothing", "a-line", "blanks-around"])
def test_the_pane_holds_the_file_before_and_after(replacement: list[str]) -> None:
    lines = ["x = 1", "y = 2", "w = 4"]
    result = _result(lines, 0, replacement)
    after = result.outcome.after_state
    assert isinstance(after, FileState)
    (pane,) = build_view(result).panes
    assert pane.before == tuple(lines)
    assert pane.after == after.lines == (*replacement, "y = 2", "w = 4")
    rows = build_diff(pane.before, pane.after).rows
    removed = [row.left.text for row in rows if row.left is not None
               and row.kind in (RowKind.REMOVE, RowKind.CHANGE)]
    assert removed == ["x = 1"]
    assert written_lines(result.outcome) == replacement


@settings(max_examples=60, deadline=None)
@given(size=st.integers(1, 50), data=st.data())
def test_the_right_side_is_the_file_as_the_edit_leaves_it(size: int, data: st.DataObject
                                                          ) -> None:
    lines = [f"line {n} = {n}" for n in range(size)]
    at = data.draw(st.integers(0, size - 1))
    replacement = data.draw(st.lists(st.sampled_from(["", "  ", "new = 0"]), max_size=3))
    result = _result(lines, at, replacement)
    after = result.outcome.after_state
    assert isinstance(after, FileState)
    (pane,) = build_view(result).panes
    first = pane.before_start - 1
    assert pane.before == tuple(lines[first : first + len(pane.before)])
    assert pane.after == tuple(after.lines[first : first + len(pane.after)])
    # the same lines left untouched below the edit close both sides
    assert len(pane.before) - len(pane.after) == len(lines) - len(after.lines)
    assert written_lines(result.outcome) == replacement
