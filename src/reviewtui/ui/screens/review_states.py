"""What the review screen shows of every operation, summed up in one record.

Computing it walks every operation of the session (5,000 on a long one): a review job
does it in its thread right after its work, so the event loop only draws the result.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import chain, compress, islice
from operator import attrgetter, is_not

from reviewtui.core.engine import OpKey, OpResult, TurnResult, Verdict
from reviewtui.core.engine.opstate import (
    DECIDED_STATES,
    FAILED_STATES,
    OpState,
    draft_state,
    op_state,
)
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.records import Turn
from reviewtui.core.record import field, record, replace
from reviewtui.shell.review import Review
from reviewtui.ui.widgets.lists import unread_parts
from reviewtui.ui.widgets.timeline import TurnMark


@record(frozen=True)
class TurnBasis:
    """What one turn's states were computed from (the same results: the same states)."""

    results: tuple[OpResult, ...]
    counts: tuple[int, int, int, int]  # pending, accepted, rejected, failed
    mark: str
    # The draft's results of the turn, and what the states read of them (draft_state):
    # the draft can change under the same display results (accepting turn 1 under an
    # accept of turn 2 that then no longer lands).
    drafts: tuple[OpResult, ...] = ()
    drafted: tuple[OpState | None, ...] = ()


@record(frozen=True)
class ReviewStates:
    """Per turn, each operation's state; the status line's counts and the timeline's
    marks; per operation, the outcome's status they were computed from (``status_at``)."""

    turns: list[list[OpState]] = field(default_factory=list)
    counts: dict[str, int] = field(default_factory=dict)
    marks: tuple[TurnMark, ...] = ()
    # Per evaluated turn, what its states came from; the operations shown in conflict.
    basis: tuple[TurnBasis, ...] = field(default=(), compare=False, repr=False)
    conflicted: frozenset[OpKey] = field(default=frozenset(), compare=False, repr=False)
    # From this turn position on, the states are the ones from before a change, whose
    # re-evaluation there is still under way (Review.focus_on); None: every one is current.
    stale_from: int | None = None

    def status_at(self, turn_pos: int, op_pos: int, key: OpKey) -> Status | None:
        """The outcome status of operation ``key`` (at these positions) when these states
        were computed; None for an operation they did not know. Read from the results
        the states came from: a dict of every operation's status, copied by each job,
        cost a 50,000-operation session milliseconds a key in copies and collections."""
        if turn_pos >= len(self.basis):
            return None
        results = self.basis[turn_pos].results
        if op_pos >= len(results) or results[op_pos].key != key:
            return None
        return results[op_pos].outcome.status

    def next_undecided(self, from_turn: int, *, wrap: bool = True,
                       skip: tuple[int, int] | None = None) -> tuple[int, int] | None:
        """(turn, operation) positions of the first operation neither decided nor failed,
        in reading order from the start of turn position ``from_turn``, wrapping round
        (unless ``wrap`` is off: turns after the evaluated ones may still hold one).
        ``skip``: an operation taken as decided (where a decision on it will move to)."""
        end = len(self.turns) if self.stale_from is None else self.stale_from
        order: Iterable[int] = range(from_turn, end)
        if wrap:  # (ranges: no list of every turn for the usual hit in this one)
            order = chain(order, range(min(from_turn, end)))
        for tp in order:
            for opp, state in enumerate(self.turns[tp]):
                if not state.decided and not state.failed and (tp, opp) != skip:
                    return tp, opp
        return None


def turn_mark(states: list[OpState]) -> str:
    if not states:
        return "empty"  # the list's "·" too
    if not FAILED_STATES.isdisjoint(states):
        return "failed"
    if DECIDED_STATES.issuperset(states):
        return "decided"
    return "pending"


COUNTED = ("pending", "accepted", "rejected", "failed")


def _counts(states: list[OpState]) -> tuple[int, int, int, int]:
    tally = [0, 0, 0, 0]
    for s in states:
        tally[_COLUMN[s]] += 1
    return tally[0], tally[1], tally[2], tally[3]


# Each state's column in the counts (pending, accepted, rejected, failed): what
# ``failed``, ``is REJECTED`` and ``decided`` say, in that order, looked up once.
_COLUMN = {s: 3 if s in FAILED_STATES else 2 if s is OpState.REJECTED
           else 1 if s in DECIDED_STATES else 0 for s in OpState}


def _drafted(results: tuple[OpResult, ...],
             drafts: tuple[OpResult, ...]) -> tuple[OpState | None, ...]:
    if len(drafts) != len(results):
        return ()
    return tuple(map(draft_state, results, drafts))  # (the same lengths, checked above)


def draft_twin(review: Review, result: OpResult) -> OpResult | None:
    """The draft's result for the operation of a display ``result`` that the display does
    not land although it is accepted (the only ones :func:`draft_state` reads); None for
    every other one, without a look."""
    if result.landed or result.decision.verdict not in (Verdict.ACCEPTED, Verdict.EDITED):
        return None
    turn, op = result.key
    for drafted in review.draft.turns:
        if drafted.index == turn:
            return drafted.results[op] if op < len(drafted.results) else None
    return None


def review_states(review: Review, known: ReviewStates | None = None, *,
                  before: ReviewStates | None = None) -> ReviewStates:
    """The states of every turn evaluated so far (turns not evaluated yet, after the first
    frame, are marked "evaluating"). With ``known``, states of the turns evaluated before:
    only the turns evaluated since are computed (the background evaluation's updates).
    With ``before``, the states before a change (a review job): a turn whose results are
    the very same objects, and none of whose operations came into or out of a conflict,
    keeps its states (a decision re-evaluates a few turns of 500).

    An operation's state is what :meth:`Review.outcome` shows: CONFLICT when a conflict
    holds it, else its display outcome (read here without the review's lock) -- except an
    accept that the decided draft lands and the display does not (:func:`draft_state`):
    accepted, as on disk, ``stats`` and the exports.

    After a change whose re-evaluation of later turns is still under way (the display
    has evaluated fewer turns than ``before`` or ``known`` has states for), those turns
    keep their states from before, marked stale (``stale_from``), until a later call
    with ``known`` finds them evaluated again.
    """
    # A copy: in a job's thread the background's catch-up may extend the list meanwhile
    # (every turn past the ones read here must stay marked stale).
    turns = review.display.turns[:]
    conflicted = frozenset(key for conflict in review.conflicts.values()
                           for key in conflict.ops)
    reuse = known if known is not None else before
    if reuse is not None and len(reuse.basis) != len(reuse.turns):
        reuse = None  # made without a basis: nothing can be checked, compute it all
    start = 0
    if known is not None and reuse is known:
        start = len(known.turns) if known.stale_from is None else known.stale_from
    moved = {key[0] for key in conflicted ^ reuse.conflicted} if reuse is not None else set()
    old_basis = reuse.basis if reuse is not None else ()
    old_turns = reuse.turns if reuse is not None else []
    drafted_turns = review.draft.turns  # the draft is always whole
    now_results = [turn.results for turn in turns]
    now_drafts = [drafted.results for drafted in drafted_turns[: len(turns)]]
    now_drafts += [()] * (len(turns) - len(now_drafts))
    per_turn: list[list[OpState]] = list(old_turns[: len(turns)])
    basis: list[TurnBasis] = list(old_basis[: len(turns)])
    session_turns = review.display.session.turns
    changed: list[int] = []  # positions whose basis is not the one reused
    for pos in _to_look_at(turns, now_results, now_drafts, old_basis, start, moved):
        results, drafts = now_results[pos], now_drafts[pos]
        drafted = _drafted(results, drafts)
        # The turn as it was, when no operation came into or out of a conflict.
        old = old_basis[pos] if pos < len(old_basis) and turns[pos].index not in moved else None
        if old is not None and old.results is results and drafted == old.drafted:
            basis[pos] = replace(old, drafts=drafts)  # the draft changed, not what states read
            continue
        twins = drafts if len(drafts) == len(results) else (None,) * len(results)
        states = _states(results, twins, drafted, old, old_turns[pos] if old else [],
                         conflicted)
        # A turn whose reply was not read whole is marked failed (its row says why).
        mark = ("failed" if pos < len(session_turns) and unread_parts(session_turns[pos])
                else turn_mark(states))
        made = TurnBasis(results, _counts(states), mark, drafts, drafted)
        if pos < len(per_turn):
            per_turn[pos], basis[pos] = states, made
        else:
            per_turn.append(states)
            basis.append(made)
        changed.append(pos)
    stale_from = None
    if len(old_turns) > len(turns):  # the rest is being re-evaluated: as it was, for now
        stale_from = len(turns)
        per_turn += old_turns[len(turns):]
        for pos in range(len(turns), len(old_turns)):
            old = old_basis[pos]
            # An operation came into or out of a conflict there: computed again when
            # evaluated (no results are the very ones of a basis without any).
            basis.append(replace(old, results=()) if session_turns[pos].index in moved
                         else old)
    return ReviewStates(per_turn, _totals(basis, reuse, changed),
                        _marks(session_turns, basis, reuse, changed), tuple(basis), conflicted,
                        stale_from)


def _states(results: tuple[OpResult, ...], twins: Sequence[OpResult | None],
            drafted: tuple[OpState | None, ...], old: TurnBasis | None,
            old_states: list[OpState], conflicted: frozenset[OpKey]) -> list[OpState]:
    """A changed turn's states; with ``old`` (the turn as it was, not in ``moved``: no
    operation came into or out of a conflict), each operation's kept where its result is
    the very same object and what the draft makes of it (``drafted``) is the same: a reject
    re-evaluates one operation in each later turn naming its file and keeps the others'."""
    was, was_drafted = (old.results, old.drafted) if old is not None else ((), ())
    same = (len(was) == len(results) == len(old_states)
            and len(drafted) == len(was_drafted) == len(results))
    return [old_states[at] if same and was[at] is r and drafted[at] == was_drafted[at]
            else op_state(r, Status.CONFLICT if r.key in conflicted else None, d)
            for at, (r, d) in enumerate(zip(results, twins, strict=True))]


_RESULTS, _DRAFTS = attrgetter("results"), attrgetter("drafts")  # (read in C)


def _to_look_at(turns: Sequence[TurnResult], results: list[tuple[OpResult, ...]],
                drafts: list[tuple[OpResult, ...]], old: Sequence[TurnBasis], start: int,
                moved: set[int]) -> list[int]:
    """The positions whose states may not be the ones computed before: past the old
    basis, or (from ``start`` on) with other results or other draft results than it had,
    or with an operation come into or out of a conflict. The very same tuples are found
    by identity in C (``map(is_not, ...)``): a Python loop over 5,000 turns cost a key
    on a 50,000-operation session ~8 ms."""
    known = min(len(old), len(results))
    other = set(compress(range(start, known), map(
        is_not, islice(results, start, known), map(_RESULTS, islice(old, start, known)))))
    other.update(compress(range(start, known), map(
        is_not, islice(drafts, start, known), map(_DRAFTS, islice(old, start, known)))))
    if moved:
        other.update(pos for pos in range(start, known) if turns[pos].index in moved)
    return sorted(other) + list(range(known, len(results)))


def _totals(basis: list[TurnBasis], reuse: ReviewStates | None,
            changed: list[int]) -> dict[str, int]:
    """The status line's counts: those ``reuse`` had, less what the changed turns counted
    there, plus what they count now (a decision changes a few turns of thousands); summed
    over every turn when there is nothing to start from."""
    if reuse is None or len(reuse.counts) != len(COUNTED) or len(basis) < len(reuse.basis):
        totals = [sum(b.counts[n] for b in basis) for n in range(len(COUNTED))]
    else:
        totals = [reuse.counts[name] for name in COUNTED]
        for pos in changed:
            now = basis[pos].counts
            was = reuse.basis[pos].counts if pos < len(reuse.basis) else (0,) * len(COUNTED)
            for n in range(len(COUNTED)):
                totals[n] += now[n] - was[n]
    return dict(zip(COUNTED, totals, strict=True))


def _marks(session_turns: Sequence[Turn], basis: list[TurnBasis], reuse: ReviewStates | None,
           changed: list[int]) -> tuple[TurnMark, ...]:
    """The timeline's mark of every turn of the session ("evaluating" past the evaluated
    ones): those ``reuse`` had, with the changed turns' marks made again."""
    if (reuse is None or len(reuse.marks) != len(session_turns)
            or len(basis) < len(reuse.basis)
            or (session_turns and (reuse.marks[0].index, reuse.marks[-1].index)
                != (session_turns[0].index, session_turns[-1].index))):
        return tuple(TurnMark(turn.index, basis[pos].mark if pos < len(basis) else "evaluating")
                     for pos, turn in enumerate(session_turns))
    redone = [pos for pos in changed if reuse.marks[pos].state != basis[pos].mark
              or reuse.marks[pos].index != session_turns[pos].index]
    if not redone:
        return reuse.marks  # the very tuple: the timeline is not drawn again
    marks = list(reuse.marks)
    for pos in redone:
        marks[pos] = TurnMark(session_turns[pos].index, basis[pos].mark)
    return tuple(marks)
