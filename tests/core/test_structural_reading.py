"""A ``:mv`` or ``:rn`` given the reading an accept pinned means what it meant then
(QA s36, helper-108 F5): the tree no longer decides "into a folder" or "a part of names"."""

from __future__ import annotations

import pytest
from test_structural import cmd

from reviewtui.core.engine.decisions import Decision
from reviewtui.core.engine.structural import apply_command
from reviewtui.core.engine.structural_state import StructuralState
from reviewtui.core.errors import StateFormatError
from reviewtui.core.model.tree import tree_from_bytes
from reviewtui.core.review.log import DecisionItem

WITH_FOLDER = {"SRC": b"s\n", "m/x": b"x\n", "foo_test.py": b"t\n"}


def _run(files: dict[str, bytes], line: str, reading: str | None
         ) -> tuple[bool, str, str, str, tuple[tuple[str | None, str | None], ...]]:
    _, result = apply_command(StructuralState(tree_from_bytes(files)), cmd(line),
                              reading=reading)
    return result.ok, result.rule, result.reading, result.message, result.changes


@pytest.mark.parametrize("line", [":mv SRC m", ":mv -f SRC m"])
def test_a_move_accepted_to_a_path_is_refused_where_a_folder_is_now(line: str) -> None:
    ok, rule, _, message, changes = _run(WITH_FOLDER, line, "to")
    assert (ok, rule, changes) == (False, "dest-exists", ())
    assert message.startswith("'m' is now a folder; the move was accepted as SRC -> m")
    # Not pinned (pending, or a state file older than the pin): into the folder, as before.
    assert _run(WITH_FOLDER, line, None)[2:] == ("into", "moved SRC -> m/SRC",
                                                (("SRC", "m/SRC"),))


def test_a_move_accepted_into_a_folder_lands_there_with_the_folder_gone() -> None:
    ok, _, reading, _, changes = _run({"SRC": b"s\n"}, ":mv SRC m", "into")
    assert (ok, reading, changes) == (True, "into", (("SRC", "m/SRC"),))
    assert _run({"SRC": b"s\n"}, ":mv SRC m", None)[4] == (("SRC", "m"),)


def test_a_folder_move_accepted_to_a_path_does_not_merge_into_a_folder_made_since() -> None:
    ok, rule, _, _, _ = _run({"d/a": b"a\n", "m/x": b"x\n"}, ":mv d m", "to")
    assert (ok, rule) == (False, "dest-exists")


def test_a_rename_keeps_its_reading() -> None:
    # Accepted as the rename of the path foo, now gone: not one of every name holding foo.
    ok, rule, _, message, _ = _run(WITH_FOLDER, ":rn foo bar", "path")
    assert (ok, rule) == (False, "no-such-path")
    assert "accepted as one of that path" in message
    assert _run(WITH_FOLDER, ":rn foo bar", None)[2] == "names"
    # Accepted as one of names: a file named foo made since is one more name, not the path.
    files = {**WITH_FOLDER, "foo": b"f\n"}
    assert _run(files, ":rn foo bar", "names")[4] == (("foo", "bar"),
                                                      ("foo_test.py", "bar_test.py"))
    assert _run(files, ":rn foo bar", None)[2:] == ("path", "moved foo -> bar",
                                                   (("foo", "bar"),))


def test_the_reading_round_trips_in_the_state_file() -> None:
    item = DecisionItem(2, 0, ":mv SRC m", None, "h", Decision.accept())
    assert "reading" not in item.to_json()  # (an older state file: the tree decides)
    data = DecisionItem(2, 0, ":mv SRC m", None, "h",
                        Decision(Decision.accept().verdict, reading="to")).to_json()
    assert data["reading"] == "to"
    assert DecisionItem.from_json(data).decision.reading == "to"
    for bad in ("sideways", 1, ["to"]):
        with pytest.raises(StateFormatError, match="bad command reading"):
            DecisionItem.from_json({**data, "reading": bad})
    with pytest.raises(StateFormatError, match="bad command reading"):
        DecisionItem.from_json({**data, "verdict": "rejected"})
