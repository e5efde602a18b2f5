"""Statistics without the syntax check first, then with it (issue 13: the statistics screen
on the 4 MB Aider history in under a second; parsing every file version took 1.5 s)."""

from __future__ import annotations

from pathlib import Path

from reviewtui.core.review.stats import session_stats, stats_lines, with_syntax
from reviewtui.shell.export import load_accepted

REPO = Path(__file__).resolve().parents[2]
DIAGNOSTICS = REPO / "tests" / "fixtures" / "diagnostics"
TOUR = REPO / "sample_sessions" / "workshop-tour"


def test_without_syntax_then_with_it_equals_counting_at_once() -> None:
    accepted, _ = load_accepted(DIAGNOSTICS)
    at_once = session_stats(accepted)
    assert at_once.total.syntax_errors == 1
    assert at_once.total.syntax_checked
    quick = session_stats(accepted, syntax=False)
    assert not quick.total.syntax_checked
    assert not any(t.syntax_checked for t in quick.turns)
    assert quick.total.syntax_errors == 0
    # Every other count is already there.
    assert quick.total.operations == at_once.total.operations
    assert quick.total.tokens_cheapest == at_once.total.tokens_cheapest
    assert with_syntax(quick, accepted) == at_once


def test_with_syntax_leaves_counted_stats_alone() -> None:
    accepted, _ = load_accepted(TOUR)
    full = session_stats(accepted)
    assert with_syntax(full, accepted) is full
    assert stats_lines([full]) == stats_lines([with_syntax(session_stats(
        accepted, syntax=False), accepted)])


def test_turns_without_operations_are_counted_not_listed(tmp_path: Path) -> None:
    """A long chat history is mostly turns without operations (Aider's 4 MB history: 1,776
    turns, 531 operations): the text lists the turns that have some and counts the rest
    (the per-turn lines were 1,776, found by helper-73)."""
    session = tmp_path / "s.md"
    session.write_text("## Turn 1\n> hello\n\nNothing to change.\n\n"
                       "## Turn 2\n> change a\n\n--- File: a.txt ---\n<<<<<<< SEARCH\none\n"
                       "=======\nONE\n>>>>>>> REPLACE\n\n"
                       "## Turn 3\n> thanks\n\nDone.\n")
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("one\n")
    accepted, _ = load_accepted(session, root)
    lines = stats_lines([session_stats(accepted)])
    at = lines.index("per turn (2 turns without operations not listed):")
    listed = lines[at + 1:]
    assert [line.split(":")[0] for line in listed] == ["  turn 2"]
