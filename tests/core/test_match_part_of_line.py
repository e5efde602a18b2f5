"""A SEARCH that is only part of a line (a fragment, as a str_replace tool sends it) is
never matched -- SEARCH holds whole lines -- and its diagnosis says so, naming the lines
that hold its text, instead of "nothing in the file is similar" (QA pass s32: an agent's
``edit`` of ``a()`` in a file with ``def a():`` was told nothing was similar)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.engine import evaluate_session
from reviewtui.core.match import match_edit
from reviewtui.core.model.outcome import Diagnosis, Status
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.protocol.session import parse_session

FILE = ["def a():", "    return 1", "", "def b(x):", "    return a() + x", ""]


def test_a_fragment_of_one_line_names_that_line() -> None:
    result = match_edit(FILE, ["b(x)"], ["c(x)"])
    assert result.status is Status.NOT_FOUND
    best = result.candidates[0]
    assert best.diagnosis is Diagnosis.PART_OF_A_LINE
    assert (best.start, best.end) == (4, 4)
    assert best.preview == ("def b(x):",)
    assert result.hint == ("SEARCH is part of a line: its text is inside line 4, and SEARCH "
                           "holds whole lines")


def test_every_place_is_named_in_file_order() -> None:
    result = match_edit(FILE, ["a()"], ["alpha()"])
    parts = [(c.start, c.end) for c in result.candidates
             if c.diagnosis is Diagnosis.PART_OF_A_LINE]
    assert parts == [(1, 1), (5, 5)]


def test_a_fragment_across_lines_names_the_stretch() -> None:
    result = match_edit(FILE, ["return 1", "", "def b"], ["x"])
    best = result.candidates[0]
    assert best.diagnosis is Diagnosis.PART_OF_A_LINE
    assert (best.start, best.end) == (2, 4)
    assert "lines 2-4" in result.hint


def test_text_that_is_nowhere_is_not_called_part_of_a_line() -> None:
    result = match_edit(FILE, ["b(y)"], ["x"])
    assert all(c.diagnosis is not Diagnosis.PART_OF_A_LINE for c in result.candidates)


def test_the_engine_says_it_in_the_operations_message() -> None:
    session = parse_session("## Turn 1\n\n--- File: m.py ---\n\n```\n<<<<<<< SEARCH\nb(x)\n"
                            "=======\nc(x)\n>>>>>>> REPLACE\n```\n", "s.md")
    base = Tree.from_files({"m.py": FileState.from_bytes("\n".join(FILE).encode())})
    outcome = evaluate_session(session, base).turns[0].results[0].outcome
    assert outcome.status is Status.NOT_FOUND
    assert outcome.message == ("SEARCH not found in m.py as whole lines: its text is part of "
                               "line 4; SEARCH and REPLACE hold whole lines, so copy the "
                               "lines whole")


_LINE = st.text(alphabet="ab (=)", max_size=6)


@settings(max_examples=300, deadline=None)
@given(st.lists(_LINE, min_size=1, max_size=12), st.data())
def test_any_fragment_lands_whole_or_is_named_where_it_is(file: list[str],
                                                           data: st.DataObject) -> None:
    text = "\n".join(file)
    lo = data.draw(st.integers(0, len(text)))
    hi = data.draw(st.integers(lo, len(text)))
    needle = text[lo:hi]
    search = needle.split("\n")
    while search and not search[0].strip():
        search.pop(0)  # (SEARCH's blank edge lines are not part of what is matched)
    while search and not search[-1].strip():
        search.pop()
    if not search:
        return
    core = "\n".join(search)
    result = match_edit(file, search, ["x"])
    parts = [c for c in result.candidates if c.diagnosis is Diagnosis.PART_OF_A_LINE]
    if result.status is not Status.NOT_FOUND:
        return  # whole lines (or a forgiving reading of them): it landed or was ambiguous
    assert parts, (file, search, result)
    assert result.candidates[0] is parts[0]
    starts = [c.start for c in parts]
    assert starts == sorted(starts)
    for part in parts:
        held = "\n".join(file[part.start - 1 : part.end])
        assert core in held
        # the first and last line of the stretch are needed: none is spare
        assert core not in "\n".join(file[part.start : part.end])
        assert core not in "\n".join(file[part.start - 1 : part.end - 1])
