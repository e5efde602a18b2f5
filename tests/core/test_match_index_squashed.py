"""``FileIndex.squashed_positions``: the diagnosis's look-up of a SEARCH line spaced otherwise
(``f(1, 2)`` for ``f(1,2)``). Its first look-ups of a version scan the keys instead of
building the map of every line's squashed key (QA s53 helper-221: the map cost ~25 ms for
each failed edit of a 20,000-line file changed turn after turn); both ways answer alike."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from reviewtui.core.match.index import _SQUASHED_SCANS, FileIndex

_LINES = st.lists(st.text(alphabet="ab( ),\u201c\t", max_size=8), max_size=30)


@given(_LINES, st.lists(st.text(alphabet="ab(),\u201c\"", min_size=1, max_size=5), max_size=12),
       st.integers(0, 5))
def test_a_scan_answers_as_the_map_does(lines: list[str], asked: list[str], lo: int) -> None:
    scanned = FileIndex(lines, min(lo, len(lines)), len(lines))
    mapped = FileIndex(lines, min(lo, len(lines)), len(lines))
    mapped._squashed_asked = _SQUASHED_SCANS  # (every look-up from the map)
    for squashed in asked:
        assert scanned.squashed_positions(squashed) == mapped.squashed_positions(squashed)


def test_lines_spaced_otherwise_are_found() -> None:
    index = FileIndex(["x = f(1,2)", "  y = f( 1 , 2 )", "f(1,2) # no", "f(1,2)"], 0, 4)
    assert index.squashed_positions("y=f(1,2)") == [1]
    assert index.squashed_positions("f(1,2)") == [3]
    assert index.squashed_positions("z") == []
