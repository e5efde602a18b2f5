"""Lines carried through an edit by its span (no whole-file diff), and incremental parses."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.review.diagnostics import LineMap, _line_map
from reviewtui.core.syntax import parsing

LINES = st.lists(st.sampled_from(["a", "b", "", "c c"]), min_size=1, max_size=12)


@st.composite
def edits(draw: st.DrawFn) -> tuple[list[str], list[str], tuple[int, int]]:
    """Lines before, lines after, and the 1-based span the edit replaced (engine style)."""
    before = draw(LINES)
    start = draw(st.integers(0, len(before)))
    end = draw(st.integers(start, len(before)))
    new = draw(st.lists(st.sampled_from(["a", "b", "d"]), max_size=4))
    return before, [*before[:start], *new, *before[end:]], (start + 1, end)


@given(edits(), st.booleans())
def test_every_mapped_line_is_the_same_line(edit: tuple[list[str], list[str], tuple[int, int]],
                                            final_newline: bool) -> None:
    before, after, span = edit
    end = "\n" if final_newline else ""
    old, new = "\n".join(before) + end, "\n".join(after) + end
    old_lines, new_lines = old.split("\n"), new.split("\n")
    for mapping in (LineMap.of(old, new, span), _line_map(old, new)):
        for line in range(len(old_lines) + 2):
            target = mapping.get(line)
            if target is not None:
                assert old_lines[line - 1] == new_lines[target - 1]
    spanned = LineMap.of(old, new, span)
    for line in range(1, span[0]):  # lines above the edit keep their number
        assert spanned.get(line) == line
    for line in range(span[1] + 1, len(before) + 1):  # lines below move with it
        assert spanned.get(line) == line + len(after) - len(before)


def test_the_map_without_a_span_finds_the_changed_middle() -> None:
    mapping = _line_map("a\nb\nc\nd\n", "a\nb\nX\nY\nd\n")
    assert dict(mapping) == {1: 1, 2: 2, 4: 5, 5: 6}


@settings(max_examples=30, deadline=None)
@given(st.integers(0, 299), st.sampled_from(["return x + 1;", "return (x;", "", "}\n}"]))
def test_an_incremental_parse_gives_the_tree_a_cold_parse_gives(where: int, new: str) -> None:
    body = "".join(f"function f{n}(x) {{\n  return x + {n};\n}}\n" for n in range(300))
    edited = body.replace(f"return x + {where};", new, 1)
    parsing.clear_cache()
    incremental = parsing.parse("big.js", edited, body)
    parsing.clear_cache()
    cold = parsing.parse("big.js", edited)
    assert incremental is not None
    assert cold is not None
    assert str(incremental.tree.root_node) == str(cold.tree.root_node)
    assert parsing.parse("big.js", edited) is cold  # cached by content
