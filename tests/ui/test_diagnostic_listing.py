"""The syntax check's lines under an operation: what it introduced in full, what the file
already had counted on one line once there is more than one of them."""

from __future__ import annotations

from rich.text import Text

from reviewtui.core.review.diagnostics import Diagnostic
from reviewtui.ui.diagnostics import append_findings


def _listed(found: list[Diagnostic], *, named: bool = False,
            limit: int | None = None) -> list[str]:
    text = Text()
    append_findings(text, found, named=named, limit=limit)
    return text.plain.split("\n")[1:]


def _old(line: int) -> Diagnostic:
    return Diagnostic(line, 3, "missing `;`", False, "tree-sitter c")


def test_many_old_problems_are_one_line_naming_their_lines() -> None:
    new = Diagnostic(1437, 5, "unexpected `}`", True, "tree-sitter c")
    lines = _listed([_old(48), new, *(_old(n) for n in (1974, 1976, 1976, 2042, 2079, 2080))])
    assert lines == [
        "  line 1437, column 5: unexpected `}`  (introduced by this operation)",
        "  7 problems already there before it, at lines 48, 1974, 1976, 2042, 2079, 2080",
    ]
    many = _listed([_old(n) for n in range(10, 90, 10)])
    assert many == ["  8 problems already there before it, at lines 10, 20, 30, 40, 50, 60, …"]


def test_one_old_problem_keeps_its_own_line_and_notes_stay() -> None:
    assert _listed([_old(48)]) == [
        "  line 48, column 3: missing `;`  (already there before it)"]
    note = Diagnostic(0, 0, "timed out after 10 s", False, "ruff")
    assert _listed([note, _old(7), _old(9)], named=True) == [
        "  ruff: timed out after 10 s",
        "  2 problems already there before it, at lines 7, 9",
    ]
    named = Diagnostic(3, 1, "F401 unused import", True, "ruff")
    assert _listed([named], named=True) == [
        "  ruff, line 3, column 1: F401 unused import  (introduced by this operation)"]


def test_a_count_the_check_capped_says_there_may_be_more() -> None:
    """The syntax check keeps the first MAX_PROBLEMS of each kind: eight old problems may
    stand for eighty, and eight introduced ones for more."""
    old = [_old(n) for n in range(10, 90, 10)]
    assert _listed(old, limit=8) == [
        "  8 or more problems already there before it, at lines 10, 20, 30, 40, 50, 60, …"]
    assert _listed(old[:7], limit=8)[-1].startswith("  7 problems already there")
    new = [Diagnostic(n, 1, "unexpected `}`", True, "tree-sitter c") for n in range(1, 9)]
    assert _listed(new, limit=8)[-1] == (
        "  (the first 8 it introduced are listed; there may be more)")
    assert "may be more" not in "\n".join(_listed(new[:7], limit=8))
