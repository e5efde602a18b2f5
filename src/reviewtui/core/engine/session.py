"""Replaying a session's turns over a tree: checkpoints, outcomes and the ledger.

Turn semantics (:mod:`reviewtui.core.engine.order`): ``:mv``, ``:rn``, ``:undo`` and
``:unrm`` run first in the order written, then the file blocks in order (each edit
against the file as the previous one left it), then every ``:rm``. Checkpoint 0 is
the tree before turn 1 and checkpoint N the tree after turn N. Re-evaluating from turn K
reuses checkpoints before K, so a decision late in a long session costs only the turns
after it.
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping

from reviewtui.core.engine.decided import DecidedTurns, first_from
from reviewtui.core.engine.decisions import (
    PENDING,
    Decision,
    OpKey,
    Policy,
    Verdict,
)
from reviewtui.core.engine.file_edits import normalize_or_none
from reviewtui.core.engine.landings import Landed
from reviewtui.core.engine.ledger import Ledger, LedgerItem
from reviewtui.core.engine.ledger import bumps as ledger_bumps
from reviewtui.core.engine.order import Step, ancestors
from reviewtui.core.engine.results import OpResult, Rules, TurnResult
from reviewtui.core.engine.session_plan import SessionPlan
from reviewtui.core.engine.structural_state import StructuralState
from reviewtui.core.engine.touches import Touches
from reviewtui.core.engine.turn_steps import TurnSteps, advance
from reviewtui.core.model.records import ConsoleCommand, Session, Turn
from reviewtui.core.model.tree import Tree
from reviewtui.core.record import replace

# Turns reused in one go before the walk pauses (reevaluate's ``upto``): a slice of the
# workbench's catch-up then overruns its budget by ~1 ms at most.
STRETCH = 256


class SessionRun(TurnSteps):
    """A session evaluated over a base tree under some decisions.

    Callers change a run through its methods (:meth:`update` for decisions,
    :meth:`rebase` for a changed base tree, :meth:`replace_session` for a grown live
    session, :meth:`fork` for a run continuing from one of its checkpoints); each
    re-evaluates only what the change can affect (see :meth:`reevaluate`).
    """

    def __init__(self, session: Session, base: Tree, *, rules: Rules | None = None,
                 policy: Policy | None = None, plan: SessionPlan | None = None) -> None:
        self.session = session
        self.rules = rules or Rules()
        self.policy = policy or Policy()
        self.decisions: dict[OpKey, Decision] = {}
        # The version of the decisions last given to update() (a fold's: see update).
        self.decided_version: int | None = None
        self.states: list[StructuralState] = [StructuralState(tree=base)]
        self.turns: list[TurnResult] = []
        self.moved: list[dict[str, str]] = [{}]
        self._ledgers: list[tuple[LedgerItem, ...]] = []
        # The session's steps, paths and turn positions (session_plan.py): shared with
        # the other runs over this session object when given, else made on first use.
        self._planned = plan if plan is not None and plan.session is session else None
        self._decided: DecidedTurns | None = None  # see _decided_turns
        self._evaluated = False
        # A re-evaluation that stopped short (reevaluate's ``upto``): the rest of its walk.
        self._tail: Iterator[None] | None = None
        self._numbered: tuple[Session | None, list[int] | None] = (None, None)  # _numbers
        self._authored_base, self._authored = base, None  # (turn_steps: what numbers address)
        self._authored_first: int | None = None  # see author_from

    @property
    def base(self) -> Tree:
        return self.states[0].tree

    @property
    def checkpoints(self) -> list[Tree]:
        return [state.tree for state in self.states]

    def checkpoint(self, n: int) -> Tree:
        return self.states[n].tree

    @property
    def final(self) -> Tree:
        """The tree after the last evaluated turn."""
        return self.states[-1].tree

    @property
    def evaluated_upto(self) -> int | None:
        """The number of the last turn evaluated so far (None: every turn is; 0: none)."""
        turns, done = self.session.turns, len(self.turns)
        if done >= len(turns):
            return None
        return turns[done - 1].index if done else 0

    def decided_turns(self, upto: int | None = None) -> list[TurnResult]:
        """The evaluated turns (of the first ``upto``) with a decision, in order."""
        return [self.turns[pos] for pos in self._decided_turns().before(upto, len(self.turns))]

    def decide(self, key: OpKey, decision: Decision) -> None:
        """Record a decision and re-evaluate what it affects."""
        decisions = dict(self.decisions)
        if decision == PENDING:
            decisions.pop(key, None)
        else:
            decisions[key] = decision
        self.update(decisions)

    def evaluate(self, from_turn: int = 1, upto: int | None = None) -> None:
        """(Re-)evaluate the turns numbered ``from_turn`` .. ``upto`` (default: all)."""
        turns = self.session.turns
        last = len(turns) if upto is None else self._count_upto(upto)
        first = self._first_from(from_turn)
        if self._tail is not None:
            if first >= len(self.turns):  # where a re-evaluation stopped short: it goes on
                self._go_on(last)
                if self._tail is not None or len(self.turns) >= last:
                    return
            self._tail = None  # (or all is evaluated afresh from an earlier turn)
        keep = min(first, len(self.turns))
        del self.states[keep + 1 :]
        del self.moved[keep + 1 :]
        del self.turns[keep:]
        del self._ledgers[keep:]
        self._evaluated = True
        for turn in turns[keep:last]:
            result, state, moved, items = self._evaluate_turn(turn, self.states[-1],
                                                              self.moved[-1])
            self.turns.append(result)
            self.states.append(state)
            self.moved.append(moved)
            self._ledgers.append(items)

    def _count_upto(self, number: int) -> int:
        """How many turns are numbered ``number`` or less."""
        numbers = self._numbers()
        if numbers is None:
            return sum(1 for t in self.session.turns if t.index <= number)
        return bisect_right(numbers, number)

    def _first_from(self, number: int) -> int:
        """The position of the first turn numbered ``number`` or more (or the count)."""
        numbers = self._numbers()
        if numbers is None:
            turns = self.session.turns
            return next((pos for pos, t in enumerate(turns) if t.index >= number), len(turns))
        return bisect_left(numbers, number)

    def _numbers(self) -> list[int] | None:
        """The turns' numbers if they increase (as a session's do), for a bisection: the
        background's many small steps each asked, and a scan of 5,000 turns each time
        took most of a catch-up's time."""
        if self._numbered[0] is not self.session:
            numbers = [turn.index for turn in self.session.turns]
            rising = all(a < b for a, b in zip(numbers, numbers[1:], strict=False))
            self._numbered = (self.session, numbers if rising else None)
        return self._numbered[1]

    # -- changing a run ------------------------------------------------------------------
    def update(self, decisions: Mapping[OpKey, Decision], *, upto: int | None = None,
               version: tuple[int, Callable[[int | None], Collection[OpKey] | None]]
               | None = None) -> None:
        """Take ``decisions`` as the run's decisions; re-evaluate only what changed (at
        once only through the turn numbered ``upto``: see :meth:`reevaluate`).

        ``version``: the number of these decisions and a function naming, for the number
        of earlier ones, the keys that may differ since (None: it cannot tell), as the
        decision log's folds do (``core/review/log.py``). When the run was last given the
        decisions of a number it can tell, only those keys are compared and changed here
        (with 25,000 decisions in force, comparing them all cost several ms a step)."""
        self.settle()
        old = self.decisions
        keys = version[1](self.decided_version) if version is not None else None
        if keys is not None:
            # (The run's own dict, changed in place: no one else holds it.)
            changed = {key for key in keys if (was := old.get(key, PENDING))
                       is not (now := decisions.get(key, PENDING)) and was != now}
            came_or_went = [key for key in keys if (key in decisions) != (key in old)]
            counted = self._decided is not None and self._decided.holds(old, self.session)
            for key in keys:
                if key in decisions:
                    old[key] = decisions[key]
                else:
                    old.pop(key, None)
            if self._decided is not None and counted:
                self._decided.recount_keys(came_or_went, old, self._plan(), self._positions)
            else:
                self._decided = None  # (counted again when next asked)
        else:
            # (Identity first: an unchanged decision is the same object in both, and
            # comparing 25,000 records field by field cost ~30 ms a decision.)
            changed = {key for key, decision in decisions.items()
                       if (was := old.get(key, PENDING)) is not decision and was != decision}
            changed.update(key for key, was in old.items()
                           if key not in decisions and was != PENDING)
            self.decisions = dict(decisions)
            if self._decided is not None and self._decided.holds(old, self.session):
                self._decided.recount(self.decisions, self._plan(), self._positions)
        self.decided_version = version[0] if version is not None else None
        if not changed:
            return
        self.reevaluate(keys=self._relabel(changed), upto=upto)

    def rebase(self, base: Tree, rules: Rules | None = None) -> None:
        """Evaluate over another base tree (files changed outside) and maybe other rules."""
        self.settle()
        if rules is not None and rules != self.rules:
            self.rules, self._authored = rules, None
            self.states[0] = replace(self.states[0], tree=base)
            self.evaluate(upto=self.evaluated_upto)
            return
        old = self.states[0].tree
        if base is old:
            return
        self.reevaluate(paths=old.changed_objects(base), base=base)

    def sync(self, base: Tree, rules: Rules, decisions: Mapping[OpKey, Decision],
             like: SessionRun | None = None, *, upto: int | None = None) -> None:
        """Bring the run to this base tree, rules and decisions, evaluating only what
        they change (the first time: the turns up to the one numbered ``upto``, default
        all, and :meth:`evaluate` continues from there; or, for all of them, from ``like``,
        a run of the same session over the same base under another policy, where it can:
        see :meth:`adopt`)."""
        self.settle()
        if not self._evaluated:
            self.rules = rules
            self.states = [replace(self.states[0], tree=base)]
            self._authored_base, self._authored = base, None
            self.moved = [{}]
            self.decisions = dict(decisions)
            self.decided_version = None
            # Evaluating more operations again than this run decides would cost more than
            # its own evaluation when it leaves pending ones out (a mostly pending review).
            decided = sum(1 for decision in decisions.values()
                          if decision.verdict is not Verdict.PENDING or decision != PENDING)
            if (like is None or upto is not None
                    or not self.adopt(like, partial=True, limit=decided)):
                self.evaluate(upto=upto)
            return
        self.rebase(base, rules)
        self.update(decisions)

    def adopt(self, other: SessionRun,
              decisions: Mapping[OpKey, Decision] | None = None, *, partial: bool = False,
              limit: int | None = None) -> bool:
        """Take ``other``'s evaluation when it is this run's too; False if it is not.
        With ``decisions``: take them as this run's too when it is (else leave it as is).

        Two runs of one session over one base under the same decisions differ only in
        what a pending operation does: where no pending operation landed in ``other``,
        this run's trees, ledger and decided results are ``other``'s, and its pending
        results are whatever this policy says of them (``apply`` evaluates once). With
        ``partial``, the pending operations this policy treats otherwise are evaluated
        again, with whatever they affect (:meth:`reevaluate`), and the rest is reused
        (False if they are more than ``limit``).
        """
        if (other.session is not self.session or other.rules != self.rules
                or other.states[0].tree is not self.states[0].tree
                or not other._evaluated or len(other.turns) != len(other.session.turns)):
            return False
        self.settle()
        if decisions is None:
            decisions = self.decisions
        # (The verdict first: comparing each of 25,000 decisions with PENDING, field by
        # field, cost ~20 ms a decision; one that is not pending differs in its verdict.)
        if {k: d for k, d in other.decisions.items()
                if d.verdict is not Verdict.PENDING or d != PENDING} != {
                k: d for k, d in decisions.items()
                if d.verdict is not Verdict.PENDING or d != PENDING}:
            return False
        turns: list[TurnResult] = []
        differ: set[OpKey] = set()  # pending operations whose result may differ here
        for turn in other.turns:
            results = list(turn.results)
            for pos, result in enumerate(results):
                if result.decision.verdict is not Verdict.PENDING:
                    continue
                mine = self._unevaluated(result.decision)
                if result.landed or (mine is None and (
                        other._unevaluated(result.decision) is not None
                        or result.outcome.status in self.policy.pending_joins)):
                    if not partial:
                        return False
                    differ.add(result.key)
                elif mine is not None:
                    results[pos] = replace(result, outcome=mine)
            turns.append(replace(turn, results=tuple(results)))
        if limit is not None and len(differ) > limit:
            return False
        self.turns, self.states = turns, list(other.states)
        self.moved, self._ledgers = list(other.moved), list(other._ledgers)
        if (other._authored_base, other._authored_first) == (
                self._authored_base, self._authored_first):  # (the same files authored)
            self._authored = other._authored
        self.decisions = dict(decisions)
        self.decided_version = None
        self._evaluated = True
        if differ:
            self.reevaluate(keys=differ)
        return True

    def replace_session(self, session: Session, from_turn: int, *,
                        plan: SessionPlan | None = None) -> None:
        """The same session with more operations (a live session grew) from ``from_turn``
        (``plan``: the grown session's, shared with another run)."""
        self.settle()
        self.session = session
        self._planned = plan if plan is not None and plan.session is session else None
        if self._authored is not None and self._authored.run is not self:  # (authored.py)
            self._authored = self._authored.grown(session, from_turn, self._authored_first)
        self.evaluate(from_turn=from_turn)

    def author_from(self, first: int) -> None:
        """The turns before the one numbered ``first`` are in the base already (``apply
        --turns``, none decided): later line numbers address that base (authored.py)."""
        asked, self._authored, self._authored_first = self._authored, None, first
        if asked is not None:  # (else no turn has asked yet: nothing to redo)
            self.evaluate(from_turn=first, upto=self.evaluated_upto)

    def fork(self, *, policy: Policy, first: int = 1, last: int | None = None) -> SessionRun:
        """A new run of turns ``first``..``last`` under ``policy``, starting from this run's
        checkpoint before ``first``, with this run's decisions."""
        turns = self.session.turns
        start = next((pos for pos, t in enumerate(turns) if t.index >= first), len(turns))
        start = min(start, len(self.states) - 1)
        picked = tuple(t for t in turns if t.index >= first and (last is None or t.index <= last))
        run = SessionRun(replace(self.session, turns=picked),
                         self.states[start].tree, rules=self.rules, policy=policy)
        run.states = [self.states[start]]
        run._authored_base, run._authored = self._authored_base, self._authored_versions()
        run._authored_first = self._authored_first
        run._undo_map = (run.session, self._undo_targets())  # (what its :undo takes back)
        run.moved = [dict(self.moved[start])]
        run.decisions = dict(self.decisions)
        run.evaluate()
        return run

    def _relabel(self, changed: set[OpKey]) -> set[OpKey]:
        """Of the changed keys, those whose result can change beyond its decision field.

        An accept of an operation that already lands pending (or the reverse: an accept
        undone, where the pending operation lands the same) changes nothing but the
        result's ``decision``: that is patched in place here.
        """
        self._plan()
        positions = self._positions
        real: set[OpKey] = set()
        patched: dict[int, list[OpResult]] = {}  # turn position -> its results, patched
        plain_ones = (PENDING, Decision.accept(), Decision.accept(force=True))
        for key in changed:
            pos = positions.get(key[0])
            if pos is None or pos >= len(self.turns) or key[1] >= len(self.turns[pos].results):
                continue
            old = self.turns[pos].results[key[1]]
            new = self.decisions.get(key, PENDING)
            # (An accept's pin, not compared, is where it lands here: deciding._pinned.)
            if (isinstance(old.op, ConsoleCommand)  # a placement, a SEARCH, a reject...
                    or new not in plain_ones or old.decision not in plain_ones
                    or self._unevaluated(old.decision) is not None
                    or self._unevaluated(new) is not None
                    or self._lands(old.outcome, new) != old.landed):
                real.add(key)
                continue
            results = patched.get(pos)
            if results is None:  # (each turn rebuilt once, not once for each of its keys)
                results = patched[pos] = list(self.turns[pos].results)
            results[key[1]] = replace(old, decision=new)
        for pos, results in patched.items():
            self.turns[pos] = replace(self.turns[pos], results=tuple(results))
        return real

    # -- incremental re-evaluation ---------------------------------------------------------
    @property
    def plan(self) -> SessionPlan:
        """The session's plan (session_plan.py), made on first use for this session."""
        planned = self._planned
        if planned is None or planned.session is not self.session:
            planned = self._planned = SessionPlan(self.session)
        return planned

    def _plan(self) -> list[tuple[Step, ...]]:
        return self.plan.steps

    @property
    def _positions(self) -> dict[int, int]:
        return self.plan.positions

    def _decided_turns(self) -> DecidedTurns:
        """The positions of the decided turns (:mod:`reviewtui.core.engine.decided`)."""
        if self._decided is None or not self._decided.holds(self.decisions, self.session):
            self._decided = DecidedTurns(self.decisions, self.session, self._plan(),
                                         self._positions)
        return self._decided

    def _touches(self) -> Touches:
        return self.plan.touches

    def reevaluate(self, *, keys: Iterable[OpKey] = (), paths: Iterable[str] = (),
                   from_turn: int | None = None, base: Tree | None = None,
                   upto: int | None = None) -> None:
        """Re-evaluate after a change that affects ``keys`` (their results) and ``paths``
        (normalised: their content in the checkpoints from ``from_turn`` on, or in every
        checkpoint when ``base`` replaces the base tree).

        Only operations on affected paths are evaluated again (an affected path is one
        whose content or history may differ, or a directory or file on its way); every
        other result and file version is reused (from a command turn on, every turn; the
        decided draft takes undecided turns as they stand). The checkpoints, results and
        ledger are exactly what a full evaluation gives.

        With ``upto`` (a turn number) the walk may stop after that turn: the run then reads
        as evaluated that far (:attr:`evaluated_upto`), and the rest of the walk, which
        reuses the old evaluation of the later turns, goes on when :meth:`evaluate` asks for
        them; any other change of the run finishes it first (:meth:`settle`). The workbench
        shows a decision's turn at once and catches up on the thousands after it between
        keys.
        """
        self.settle()
        steps = self._plan()
        turns, positions = self.session.turns, self._positions
        forced: dict[int, set[int]] = {}
        whole: set[int] = set()
        dirty: set[str] = set(paths)
        for key in keys:
            pos = positions.get(key[0])
            if pos is None or key[1] >= len(turns[pos].reply.ops):
                continue
            op = turns[pos].reply.ops[key[1]]
            if isinstance(op, ConsoleCommand):
                whole.add(pos)
            else:
                forced.setdefault(pos, set()).add(key[1])
                path = normalize_or_none(op.path)
                if path:
                    dirty.add(path)
        starts = list(forced) + list(whole)
        if base is not None:
            starts.append(0)
        if from_turn is not None:
            starts.append(positions.get(from_turn, next(
                (p for p, t in enumerate(turns) if t.index >= from_turn), len(turns))))
        if not starts:
            return
        first = min(starts)
        done = len(self.turns)
        if first >= done:
            if base is not None:
                self.states[0] = replace(self.states[0], tree=base)
                self.evaluate(upto=self.evaluated_upto)
            return
        if first_from(self.plan.commands, first, done) < done:
            # Structural commands carry state between turns (moves, removals, the undo
            # stack) that partial re-evaluation has been seen to get wrong (hypothesis:
            # an :undo after a self-move): from the first affected turn on, evaluate whole.
            reach = self.evaluated_upto
            if base is not None:
                self.states[0] = replace(self.states[0], tree=base)
                first = 0
            self.evaluate(from_turn=turns[first].index, upto=reach)
            return
        old_states, old_moved = self.states, self.moved
        old_turns, old_ledgers = self.turns, self._ledgers
        self.states, self.moved = old_states[: first + 1], old_moved[: first + 1]
        self.turns, self._ledgers = old_turns[:first], old_ledgers[:first]
        if base is not None:
            self.states[0] = replace(self.states[0], tree=base)
        closure: set[str] = set()
        for path in dirty:
            closure.add(path)
            closure.update(ancestors(path))
        last_forced = max(list(forced) + list(whole), default=-1)
        # The decided draft takes stretches of undecided turns as they stand (decided.py).
        stops = None if self.policy.pending_joins else sorted(
            forced.keys() | whole | set(self._decided_turns().before(None, done)))
        order = sorted(forced)
        self._tail = self._walk(first, done, steps, forced, whole, dirty, closure, stops, order,
                                last_forced, old_states, old_moved, old_turns, old_ledgers)
        self._go_on(None if upto is None else self._count_upto(upto))

    def settle(self) -> None:
        """Finish a re-evaluation that stopped short (:meth:`reevaluate`'s ``upto``)."""
        self._go_on(None)

    def _go_on(self, last: int | None) -> None:
        """Walk on until ``last`` turns are evaluated (None: to the end of the walk)."""
        tail = self._tail
        if tail is None:
            return
        for _ in tail:
            if last is not None and len(self.turns) >= last:
                return
        self._tail = None

    def _walk(self, first: int, done: int, steps: list[tuple[Step, ...]],
              forced: dict[int, set[int]], whole: set[int], dirty: set[str], closure: set[str],
              stops: list[int] | None, order: list[int], last_forced: int,
              old_states: list[StructuralState], old_moved: list[dict[str, str]],
              old_turns: list[TurnResult],
              old_ledgers: list[tuple[LedgerItem, ...]]) -> Iterator[None]:
        """:meth:`reevaluate`'s walk over turns ``first``.. ``done - 1``, appending to the
        run's lists; it pauses (yields) after each stretch of turns."""
        from reviewtui.core.engine.reuse import reuse_turns, shift_rest  # not for a check
        turns = self.session.turns
        pos = first
        while pos < done:  # no command turn from first on (evaluated whole above)
            state, moved = self.states[-1], self.moved[-1]
            old_in = old_states[pos].tree
            if not dirty and pos > last_forced and moved == old_moved[pos]:
                shift_rest(self.states, self.turns, self.moved, self._ledgers, pos,
                           state.tree.revision - old_in.revision, old_states, old_moved,
                           old_turns, old_ledgers)
                return
            if stops is not None:
                end = first_from(stops, pos, done)
            elif dirty and pos not in forced:  # to the next turn naming an affected path
                end = min(first_from(order, pos, done),
                          self._touches().next_named(closure, dirty, pos, done))
            else:
                end = pos
            if end > pos and stops is None:  # none of it is affected: reused whole
                end = min(end, pos + STRETCH)  # (a pause at least every STRETCH turns)
                reuse_turns(self.states, self.turns, self.moved, self._ledgers, pos, end,
                            dirty, old_states, old_turns, old_ledgers)
            elif end > pos:  # undecided turns of the draft: as they are
                self.turns.extend(old_turns[pos:end])
                self.states.extend([state] * (end - pos))
                self.moved.extend([moved] * (end - pos))
                self._ledgers.extend(old_ledgers[pos:end])
            else:
                self._partial_turn(pos, turns[pos], steps[pos], forced.get(pos, set()), dirty,
                                   closure, old_states[pos + 1], old_turns[pos],
                                   old_ledgers[pos], old_in.revision, old_in)
                end += 1
            pos = end
            if pos < done:  # (after the last stretch it ends at once: the old lists go)
                yield

    def _partial_turn(self, pos: int, turn: Turn, steps: tuple[Step, ...], forced: set[int],
                      dirty: set[str], closure: set[str], old_out: StructuralState,
                      old_result: TurnResult, old_items: tuple[LedgerItem, ...],
                      old_revision: int, old_in: Tree | None = None) -> None:
        state, moved = self.states[-1], self.moved[-1]
        names, dirs = self.plan.touch[pos]
        if not forced and names.isdisjoint(closure) and dirs.isdisjoint(dirty):
            # Nothing of this turn is affected (no step is, below): reuse it whole.
            results, items = old_result.results, old_items
        else:
            new_results, old_by_pos = list(old_result.results), {i[0]: i for i in old_items}
            new_items: list[LedgerItem] = []
            work = state
            cursor: dict[str, int] = {}  # as _evaluate_turn keeps it, from old and new results
            landed: Landed = {}  # (so is this)
            # A write at a changed file's directory hangs on all below it: the turn whole.
            whole = not (names & closure) <= dirty  # (names: the turn's paths)
            for step in steps:
                affected = whole or step.pos in forced or (step.path is not None and (
                    step.path in closure or not dirty.isdisjoint(step.above)))
                if not affected:
                    kept = old_by_pos.get(step.pos)
                    if kept is not None:
                        new_items.append(kept)
                    advance(cursor, old_result.results[step.pos], landed)
                    continue
                key = (turn.index, step.pos)
                decision = self.decisions.get(key, PENDING)
                assert not isinstance(step.op, ConsoleCommand)
                work, result, item = self._file_op(work, key, step.op, decision, turn, moved,
                                                   cursor, landed)
                advance(cursor, result, landed)
                new_results[step.pos] = result
                if item is not None:
                    new_items.append(item)
                if step.path is not None and step.path not in dirty:
                    dirty.add(step.path)
                    closure.add(step.path)
                    closure.update(step.above)
            results, items = tuple(new_results), tuple(new_items)
            state = work
        start, bump = self.states[-1].tree.revision, ledger_bumps(items)
        if state is self.states[-1] and old_out.tree is old_in and not bump:
            new_state = state  # it changed nothing, and changes nothing: share the tree
        else:
            # The reused checkpoint with the affected paths as they are now (a removal
            # only where the old checkpoint has the file: nothing else to take away).
            new_tree, old_tree = state.tree, old_out.tree
            patch = {path: found for path in dirty
                     if (found := new_tree.get(path)) is not None or path in old_tree}
            new_state = StructuralState(old_tree.put(patch, start + bump), state.undo_stack,
                                        state.removed)  # (replace() costs 5 times more)
        if results is old_result.results and start == old_revision:
            turn_result = old_result
        else:
            turn_result = TurnResult(turn, results, Ledger(items, start))
        self.turns.append(turn_result)
        self.states.append(new_state)
        self.moved.append(moved)
        self._ledgers.append(items)
