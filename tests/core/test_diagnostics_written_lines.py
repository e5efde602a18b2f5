"""A problem on a line the edits wrote is introduced whatever the file before had, so the file
before is not checked then (one whole parse fewer for a broken edit of a big Python file). The
line maps say which lines were written; properties hold them to the maps themselves, and the
diagnostics to those computed with the file before checked every time."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyregionkit import edited

from reviewtui.core.review import diagnostics
from reviewtui.core.review.diagnostics import LineMap, diagnose_change
from reviewtui.core.review.landed import _Carried

FRAGMENTS = ["def f(x):", "    return x", "x = (", ")", "y = 1", "    y = 2", '"""', "if y:",
             "    pass", "z = [1,", "2]", "nonlocal q", "", "# c", "class A:", "x = 1 +"]
line = st.sampled_from(FRAGMENTS)
one_edit = st.tuples(st.integers(0, 20), st.integers(0, 3), st.lists(line, max_size=3))


@settings(max_examples=300)
@given(base=st.lists(line, max_size=20), edit=one_edit)
def test_a_problem_is_marked_as_when_the_file_before_is_always_checked(
        base: list[str], edit: tuple[int, int, list[str]]) -> None:
    lines, steps = edited(base, [edit])
    before, after = "\n".join(base) + "\n", "\n".join(lines) + "\n"
    first, last, _shift = steps[0]
    found = diagnose_change("m.py", before, after, (first, last))
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(LineMap, "written", lambda self, line: False)
        assert diagnose_change("m.py", before, after, (first, last)) == found


@given(base=st.lists(st.integers(0, 5), max_size=15),
       edits=st.lists(st.tuples(st.integers(0, 18), st.integers(0, 3),
                                st.lists(st.integers(100, 200), max_size=3)), max_size=4))
def test_a_written_line_is_one_no_line_before_is_carried_to(
        base: list[int], edits: list[tuple[int, int, list[int]]]) -> None:
    lines, steps = edited(base, edits)
    carried = _Carried(steps, len(base))
    image = {carried[n] for n in carried}
    for at in range(1, len(lines) + 1):
        assert carried.written(at) == (at not in image)


@given(base=st.lists(st.sampled_from("abcde"), max_size=15), edit=st.tuples(
    st.integers(0, 18), st.integers(0, 4), st.lists(st.sampled_from("abcxy"), max_size=4)))
def test_a_single_edit_s_written_lines_are_those_its_map_does_not_reach(
        base: list[str], edit: tuple[int, int, list[str]]) -> None:
    lines, steps = edited(base, [edit])
    before, after = "\n".join(base), "\n".join(lines)
    first, last, _shift = steps[0]
    mapping = LineMap.of(before, after, (first, last))
    image = {mapping[n] for n in mapping}
    for at in range(1, len(lines) + 1):
        assert mapping.written(at) == (at not in image)


def test_a_broken_edit_of_a_big_file_parses_only_the_file_after(
        monkeypatch: pytest.MonkeyPatch) -> None:
    body = "".join(f"def f{i}(x):\n    return x + {i}\n\n" for i in range(400))
    before = body
    after = body.replace("    return x + 7\n", "    return (x + 7\n", 1)
    at = before.split("\n").index("    return x + 7") + 1
    checked: list[str] = []
    real = diagnostics._python

    def counting(text: str) -> list[tuple[int, int, str]]:
        checked.append(text)
        return real(text)

    monkeypatch.setitem(diagnostics._CHECKS, ".py", ("python", counting))
    diagnostics._text_cache.clear()
    found = diagnose_change("big.py", before, after, (at, at))
    assert [d.introduced for d in found] == [True]
    assert found[0].line == at
    assert checked == [after]
