"""Line numbers read on disk, carried into the review's version (core/agent/frames.py):
by content and a line diff after an outside change (:class:`Frames`), through any
mapper for the calls themselves (:func:`carry_call`), and back for an answer
(:meth:`Frames.shift`). QA s32 F6: every line-addressed call was refused once the disk
and the review's version differed."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.agent.frames import carry_call
from reviewtui.core.text.hashline import line_tag
from reviewtui.core.text.line_frames import Frames

BASE = ["def a():", "    return 1", "", "", "def b():", "    return 2", "", "",
        "def c():", "    return 3"]
TOP = ["import os", "import sys"]  # an outside change: two lines above


def test_the_same_text_carries_every_stretch_to_itself() -> None:
    frames = Frames(BASE, BASE)
    for first in range(1, len(BASE) + 1):
        for last in range(first, len(BASE) + 1):
            assert frames.block(first, last) == first


def test_lines_below_an_insertion_move_down_with_it() -> None:
    disk = TOP + BASE
    frames = Frames(disk, BASE)  # the disk has the outside lines, the review not
    assert frames.block(8, 8) == 6  # b()'s return
    assert frames.block(7, 8) == 5
    assert frames.block(1, 1) is None  # an outside line: not in the review's version
    assert frames.block(4, 4) == 2
    # Right under the outside lines: its neighbour above is not in the review's version.
    assert frames.block(3, 3) is None


def test_a_changed_line_or_neighbour_is_not_carried() -> None:
    shown = list(BASE)
    shown[5] = "    return 20"  # the review changed b()'s return
    frames = Frames(BASE, shown)
    assert frames.block(6, 6) is None
    assert frames.block(5, 5) is None  # its neighbour changed: not certainly the same
    assert frames.block(2, 2) == 2


def test_repeated_lines_need_neighbours_that_occur_once() -> None:
    disk = ["x = 1", "pass", "y = 2", "pass", "z = 3"]
    shown = ["x = 1", "pass", "y = 2", "new = 0", "pass", "z = 3"]
    frames = Frames(disk, shown)
    assert frames.block(2, 2) == 2
    assert frames.block(4, 4) is None  # "y = 2 / pass" is broken by the new line
    assert frames.block(5, 5) == 6


LINES = st.sampled_from(["a", "b", "", "    pass", "}"])
OTHER = st.sampled_from(["new", "    other = 1", "#"])  # never a line of the base


@settings(max_examples=300, deadline=None)
@given(st.lists(LINES, min_size=1, max_size=14), st.data())
def test_a_splice_away_from_the_lines_never_carries_them_elsewhere(
        base: list[str], data: st.DataObject) -> None:
    """A change that leaves the lines and one neighbour on each side alone moves them by
    its length or makes them unplaceable (their text repeated) - never elsewhere."""
    first = data.draw(st.integers(1, len(base)))
    last = data.draw(st.integers(first, len(base)))
    before = data.draw(st.booleans())
    if before and first - 2 < 0 or not before and last + 1 > len(base):
        return
    start = data.draw(st.integers(0, first - 2)) if before else data.draw(
        st.integers(last + 1, len(base)))
    end = data.draw(st.integers(start, first - 2)) if before else data.draw(
        st.integers(start, len(base)))
    new = data.draw(st.lists(OTHER, max_size=3))
    shown = base[:start] + new + base[end:]
    found = Frames(base, shown).block(first, last)
    shift = len(new) - (end - start) if before else 0
    assert found in (first + shift, None)


def _mapper(table: dict[tuple[int, int], int]):  # type: ignore[no-untyped-def]
    return lambda first, last: table.get((first, last))


def test_carry_call_moves_each_reference_and_keeps_how_it_was_spelt() -> None:
    source = BASE
    block = _mapper({(6, 6): 8, (5, 6): 7, (5, 5): 7, (9, 10): 11, (10, 10): 12})
    call = {"tool": "line_replace", "path": "m.py", "from": f"6:{line_tag(BASE[5])}",
            "to": "6", "content": "x", "expectedRevision": "abc"}
    carried = carry_call(call, source, 12, block)
    assert carried == {**call, "from": f"8:{line_tag(BASE[5])}", "to": "8"}
    batch = {"tool": "batch_edit", "path": "m.py", "operations": [
        {"operation": "replace", "line_range": [5, 6], "content": "y"},
        {"operation": "delete", "line": 10}]}
    assert carry_call(batch, source, 12, block) == {**batch, "operations": [
        {"operation": "replace", "line_range": [7, 8], "content": "y"},
        {"operation": "delete", "line": 12}]}


def test_carry_call_refuses_an_id_not_read_on_disk_and_any_line_it_cannot_place() -> None:
    block = _mapper({(6, 6): 8})
    stale = {"tool": "line_replace", "path": "m.py", "from": "6:zz", "to": "6:zz",
             "content": "x"}
    assert carry_call(stale, BASE, 12, block) is None
    unplaced = {"tool": "batch_edit", "path": "m.py", "operations": [
        {"operation": "replace", "line": 6, "content": "y"},
        {"operation": "replace", "line": 2, "content": "z"}]}
    assert carry_call(unplaced, BASE, 12, block) is None  # one of two: none carried
    assert carry_call({"tool": "edit", "path": "m.py"}, BASE, 12, block) is None


def test_an_insertion_is_carried_with_the_line_on_its_other_side() -> None:
    after = {"tool": "insert", "path": "m.py", "line": 6, "content": "x"}
    # After line 6: lines 6 and 7 together.
    assert carry_call(after, BASE, 12, _mapper({(6, 7): 8}))["line"] == 8  # type: ignore[index]
    # Line 6 alone is placed but 6-7 are not (something was put between them): refused.
    assert carry_call(after, BASE, 12, _mapper({(6, 6): 8})) is None
    before = {**after, "before": True}
    assert carry_call(before, BASE, 12, _mapper({(5, 6): 7}))["line"] == 8  # type: ignore[index]
    top = {**after, "line": 0}
    assert carry_call(top, BASE, 12, _mapper({(1, 1): 1}))["line"] == 0  # type: ignore[index]
    assert carry_call(top, BASE, 12, _mapper({(1, 1): 3})) is None
    end = {**after, "line": len(BASE)}
    assert carry_call(end, BASE, 12, _mapper({(10, 10): 12}))["line"] == 12  # type: ignore[index]
    assert carry_call(end, BASE, 13, _mapper({(10, 10): 12})) is None  # lines after it


def test_shift_carries_a_stretch_or_the_gap_where_lines_were() -> None:
    disk = TOP + BASE
    assert Frames(BASE, disk).shift(5, 6) == 2
    assert Frames(BASE, disk).shift(6, 5) == 2  # the gap before line 6 (a removal)
    assert Frames(BASE, disk).shift(1, 0) is None  # the top: the outside lines are there
    assert Frames(disk, BASE).shift(1, 0) is None
    assert Frames(BASE, BASE + ["# end"]).shift(len(BASE) + 1, len(BASE)) is None
    assert Frames(BASE, BASE).shift(len(BASE) + 1, len(BASE)) == 0


def test_a_copy_at_another_end_or_another_pairing_is_not_the_line() -> None:
    """The author's last "x x x" of "x x x y x" (base lines 1, 2 and 5) was found at the
    start of the file, and the last "y" of "x y" (base line 3) as the first "y" of "x y y":
    numbers carried to the wrong copy, the file written wrong, exit 0 (QA s50 helper-196's
    two-turn fuzz). A window reaching an end of the file has that end for a neighbour where
    its edge line repeats, and a diff read from either end must pair the lines alike: not
    known, so not carried. A line that occurs once is carried past lines added at the end."""
    assert Frames(["x", "x", "x"], ["x", "x", "x", "y", "x"]).block(3, 3) is None
    assert Frames(["x", "y"], ["x", "y", "y"]).block(2, 2) is None
    assert Frames(["a", "b", "c"], ["a", "b", "c", "d"]).block(3, 3) == 3
    assert Frames(["x", "z", "y"], ["x", "z", "y", "y"]).block(1, 2) == 1


def test_a_last_line_told_apart_by_its_neighbour_is_carried() -> None:
    """``}`` closing f, the file's last line, with another ``}`` closing g below it in the
    file now: told apart by ``return`` above it, carried (QA s50 helper-197: refused by a
    first version of the end rule)."""
    author = ["package main", "", "func f() {", "\treturn", "}"]
    now = [*author, "", "func g() {", "\tg()", "}"]
    assert Frames(author, now).block(5, 5) == 5
    assert Frames(author, now).block(4, 5) == 4
