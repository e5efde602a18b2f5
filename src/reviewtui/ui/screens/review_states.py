"""What the review screen shows of every operation, summed up in one record.

Computing it walks every operation of the session (5,000 on a long one): a review job
does it in its thread right after its work, so the event loop only draws the result.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from reviewtui.core.engine import OpKey
from reviewtui.core.engine.opstate import OpState, op_state
from reviewtui.core.model.outcome import Status
from reviewtui.shell.review import Review
from reviewtui.ui.widgets.timeline import TurnMark


@dataclass(frozen=True)
class ReviewStates:
    """Per turn, each operation's state; per operation, its outcome's status; the status
    line's counts and the timeline's marks."""

    turns: list[list[OpState]] = field(default_factory=list)
    statuses: dict[OpKey, Status] = field(default_factory=dict)
    counts: dict[str, int] = field(default_factory=dict)
    marks: tuple[TurnMark, ...] = ()

    def next_undecided(self, from_turn: int, *, wrap: bool = True) -> tuple[int, int] | None:
        """(turn, operation) positions of the first operation neither decided nor failed,
        in reading order from the start of turn position ``from_turn``, wrapping round
        (unless ``wrap`` is off: turns after the evaluated ones may still hold one)."""
        order = list(range(from_turn, len(self.turns)))
        if wrap:
            order += list(range(min(from_turn, len(self.turns))))
        for tp in order:
            for opp, state in enumerate(self.turns[tp]):
                if not state.decided and not state.failed:
                    return tp, opp
        return None


def turn_mark(states: list[OpState]) -> str:
    if not states:
        return "empty"  # the list's "·" too
    if any(s.failed for s in states):
        return "failed"
    if all(s.decided for s in states):
        return "decided"
    return "pending"


def review_states(review: Review, known: ReviewStates | None = None) -> ReviewStates:
    """The states of every turn evaluated so far (turns not evaluated yet, after the first
    frame, are marked "evaluating"). With ``known``, states of the turns evaluated before:
    only the turns evaluated since are computed (the background evaluation's updates)."""
    turns = review.display.turns
    start = len(known.turns) if known is not None else 0
    per_turn = [*(known.turns if known is not None else []),
                *([op_state(r, review.outcome(r.key).status) for r in turn.results]
                  for turn in turns[start:])]
    counts = dict(known.counts) if known is not None else {
        "pending": 0, "accepted": 0, "rejected": 0, "failed": 0}
    for states in per_turn[start:]:
        for s in states:
            if s.failed:
                counts["failed"] += 1
            elif s is OpState.REJECTED:
                counts["rejected"] += 1
            elif s.decided:
                counts["accepted"] += 1
            else:
                counts["pending"] += 1
    marks = tuple(TurnMark(turn.index, turn_mark(per_turn[pos]) if pos < len(per_turn)
                           else "evaluating")
                  for pos, turn in enumerate(review.display.session.turns))
    statuses = dict(known.statuses) if known is not None else {}
    statuses.update({r.key: r.outcome.status for turn in turns[start:] for r in turn.results})
    return ReviewStates(per_turn, statuses, counts, marks)
