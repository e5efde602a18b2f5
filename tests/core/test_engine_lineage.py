"""Line origins (core/engine/lineage.py): what binds an accept to the lines it was seen on.

The property follows every line forward through random splices, carrying a tag (its
base line, or the operation and offset that wrote it; lines an edit repeats at either
end of its region keep theirs), and checks that ``origin`` walking the lineage backwards
names the same tag for every line of every version.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.engine.lineage import adopt, origin, pin, same_place
from reviewtui.core.model.filestate import FileState

LINES = st.sampled_from(["a", "b", "", "    x = 1", "}"])


def _state(lines: list[str]) -> FileState:
    return FileState.from_text("".join(line + "\n" for line in lines))


def _kept(old: list[str], new: list[str]) -> tuple[int, int]:
    """Lines repeated at the start and at the end of a replaced region (the rule)."""
    most = min(len(old), len(new))
    head = 0
    while head < most and old[head] == new[head]:
        head += 1
    tail = 0
    while tail < most - head and old[-1 - tail] == new[-1 - tail]:
        tail += 1
    return head, tail


@settings(max_examples=300, deadline=None)
@given(st.lists(LINES, min_size=1, max_size=12), st.data())
def test_origin_follows_each_line_through_every_splice(base: list[str],
                                                       data: st.DataObject) -> None:
    state = _state(base)
    identity = origin(state, 0)[1]  # the base's identity, as origin names it
    tags: list[tuple[object, ...]] = [("b", identity, i) for i in range(len(base))]
    lines = list(base)
    for step in range(data.draw(st.integers(1, 6))):
        start = data.draw(st.integers(0, len(lines)))
        end = data.draw(st.integers(start, len(lines)))
        new = data.draw(st.lists(LINES, max_size=4))
        if not lines[:start] + new + lines[end:]:
            continue  # (an empty file has no lines to follow)
        made = state.splice(start, end, new)
        if made is state:
            continue  # nothing changed: no step of its own
        key = (7, step)
        adopt(made, state, key, (start, end))
        head, tail = _kept(lines[start:end], new)
        middle = [("o", *key, offset) for offset in range(head, len(new) - tail)]
        tags = tags[:start + head] + middle + tags[end - tail:]
        lines = lines[:start] + new + lines[end:]
        state = made
        assert len(tags) == len(lines) == state.line_count
        assert [origin(state, i) for i in range(len(lines))] == tags


def test_same_place_tells_lines_apart_by_where_they_came_from() -> None:
    base = _state(["def a():", "    return 1", "def b():", "    return 2"])
    swapped = base.splice(1, 4, ["    return 2", "def b():", "    return 1"])
    adopt(swapped, base, (1, 0), (1, 4))
    pinned = pin(swapped, 3, 4)  # b()'s return, which the swap wrote
    assert pinned == (("o", 1, 0, 2), ("o", 1, 0, 2))
    assert same_place(pinned, swapped, 3, 4)
    assert not same_place(pinned, base, 1, 2)  # a()'s line, same text, another place
    # "def b():" sits between changed lines, so it is the swap's; the line before the
    # region is still the base's.
    assert origin(swapped, 0) == origin(base, 0)


def test_a_changed_base_is_not_compared_by_line_numbers() -> None:
    """After an outside change the base is another version: its line numbers say nothing
    of the old one's, so the check stands aside (the rebase has its own guards)."""
    old = _state(["x", "y"])
    new = _state(["inserted", "x", "y"])
    pinned = pin(old, 1, 2)
    assert pinned is not None
    assert pinned[0][0] == "b"
    assert same_place(pinned, new, 2, 3)
    assert same_place(pinned, old, 1, 2)
    assert not same_place(pinned, old, 0, 1)
