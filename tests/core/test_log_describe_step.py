"""What an undo or redo says it took back: one decision by name, several by kind and turn."""

from __future__ import annotations

from reviewtui.core.engine.decisions import Decision, Verdict
from reviewtui.core.review.log import DecisionItem, LogEntry, LogKind, describe_step


def item(turn: int, pos: int, path: str, edit: int | None, verdict: Verdict) -> DecisionItem:
    return DecisionItem(turn, pos, path, edit, "0" * 16, Decision(verdict))


def test_one_edit_is_named_by_turn_edit_and_path() -> None:
    entry = LogEntry(LogKind.DECIDE, (item(2, 0, "invoicer/totals.py", 1, Verdict.ACCEPTED),))
    assert describe_step(entry) == "undone: the accept of turn 2 · Edit 1 · invoicer/totals.py"
    assert describe_step(entry, redo=True) == (
        "redone: the accept of turn 2 · Edit 1 · invoicer/totals.py")


def test_a_console_command_is_named_by_its_text() -> None:
    entry = LogEntry(LogKind.DECIDE, (item(5, 3, ":mv a.py b.py", None, Verdict.REJECTED),))
    assert describe_step(entry) == "undone: the reject of turn 5 · :mv a.py b.py"


def test_several_are_counted_by_kind_with_their_turns() -> None:
    bulk = LogEntry(LogKind.DECIDE, tuple(item(5, n, f"f{n}.py", 1, Verdict.ACCEPTED)
                                          for n in range(4)))
    assert describe_step(bulk) == "undone: 4 accepts in turn 5"
    mixed = LogEntry(LogKind.DECIDE, (item(3, 0, "a.py", 1, Verdict.ACCEPTED),
                                      item(4, 0, "a.py", 2, Verdict.EDITED),
                                      item(5, 1, "b.py", 1, Verdict.PENDING),
                                      item(5, 2, "b.py", 2, Verdict.ACCEPTED)))
    assert describe_step(mixed, redo=True) == (
        "redone: 4 decisions in turns 3-5 (2 accepts, 1 edit, 1 return to pending)")
    # (QA s46 helper-141 F8: "undone: 2 return to pendings in turn 1")
    back = LogEntry(LogKind.DECIDE, tuple(item(1, n, f"f{n}.py", 1, Verdict.PENDING)
                                          for n in range(2)))
    assert describe_step(back) == "undone: 2 returns to pending in turn 1"
