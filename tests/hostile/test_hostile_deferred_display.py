"""README: "What is written to disk is never deferred" -- while the workbench's display
still waits to re-evaluate later turns after a change, nothing is decided or written on
what it showed before.

Attacks: accept an operation whose turn still shows its old outcome (it no longer lands
after an earlier reject); decide, undo and redo in quick succession with a one-turn window;
each time the disk must be exactly what a review evaluated whole writes for the same
decisions.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewtui.core.engine import Decision
from reviewtui.core.errors import DecisionRefused
from reviewtui.shell import evaluation
from reviewtui.shell.review import Review

TURNS = 30


def _chain(arena_work: Path, root: Path) -> Path:
    """Turn 1 renames ``alpha`` to ``beta``; the last turn renames ``beta`` to ``gamma``
    (it lands only on turn 1's result); the turns between edit lines of their own."""
    (root / "a.txt").write_text("alpha\n" + "".join(f"line {n}\n" for n in range(TURNS)))
    body = ("## Turn 1\n> rename\n\n--- File: a.txt ---\n<<<<<<< SEARCH\nalpha\n=======\n"
            "beta\n>>>>>>> REPLACE\n\n")
    for n in range(2, TURNS):
        body += (f"## Turn {n}\n> line {n}\n\n--- File: a.txt ---\n<<<<<<< SEARCH\nline {n}\n"
                 f"=======\nLINE {n}\n>>>>>>> REPLACE\n\n")
    body += (f"## Turn {TURNS}\n> again\n\n--- File: a.txt ---\n<<<<<<< SEARCH\nbeta\n"
             "=======\ngamma\n>>>>>>> REPLACE\n\n")
    session = arena_work / "chain.md"
    session.write_text(body)
    return session


def test_an_accept_shown_with_a_stale_outcome_is_judged_on_the_new_one(
        arena: object, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(evaluation, "AHEAD", 0)
    root, work = arena.root, arena.work  # type: ignore[attr-defined]
    session = _chain(work, root)
    before = (root / "a.txt").read_bytes()
    with Review.open(session, root) as review:
        review.focus_on(1)
        assert review.result((TURNS, 0)).landed  # on turn 1's beta, while it is pending
        review.decide((1, 0), Decision.reject())
        assert review.evaluated_turns < TURNS  # the last turn still shows it landing
        with pytest.raises(DecisionRefused):
            review.decide((TURNS, 0), Decision.accept())
        assert not review.result((TURNS, 0)).landed
        assert (TURNS, 0) not in review.decisions
    assert (root / "a.txt").read_bytes() == before  # a reject writes nothing


def test_quick_steps_over_a_waiting_display_write_what_a_whole_review_writes(
        arena: object, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(evaluation, "AHEAD", 0)
    root, work = arena.root, arena.work  # type: ignore[attr-defined]
    session = _chain(work, root)
    steps = [("decide", (5, 0), Decision.accept()), ("decide", (1, 0), Decision.accept()),
             ("decide", (TURNS, 0), Decision.accept()), ("decide", (1, 0), Decision.reject()),
             ("undo", None, None), ("decide", (9, 0), Decision.accept()), ("undo", None, None),
             ("redo", None, None)]
    witness_root = work / "witness"
    witness_root.mkdir()
    (witness_root / "a.txt").write_bytes((root / "a.txt").read_bytes())
    with Review.open(session, root) as review, Review.open(
            session, witness_root, state_path=work / "witness.json") as witness:
        for kind, key, decision in steps:
            review.focus_on(key[0] if key else 1)
            for each in (review, witness):  # the witness is headless: evaluated whole
                if kind == "decide":
                    each.decide(key, decision)  # type: ignore[arg-type]
                elif kind == "undo":
                    each.undo()
                else:
                    each.redo()
            assert (root / "a.txt").read_bytes() == (witness_root / "a.txt").read_bytes()
            assert review.decisions == witness.decisions
        review.finish_evaluation()
        assert [t.results for t in review.display.turns] == [
            t.results for t in witness.display.turns]
    text = (root / "a.txt").read_text()
    # turn 1 and the last turn accepted, the reject undone, turn 9's accept redone
    assert text.startswith("gamma\n")
    assert "LINE 5\n" in text
    assert "LINE 9\n" in text
