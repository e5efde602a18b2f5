"""Evaluation: the review's two runs of the session, kept in step with the decisions.

A review evaluates its session twice over the same base tree, rules and decisions:

* ``display`` (``Policy.headless()``): what each operation would do if the pending ones
  that apply were accepted -- what the workbench shows;
* ``draft`` (``Policy.decided_only()``): only what the reviewer accepted -- what replay
  writes (pending operations are not evaluated at all there, so it is cheap).

:class:`Evaluation` changes the runs only through :class:`SessionRun`'s API
(``sync``, ``update``, ``adopt``, ``replace_session``, ``evaluate``), each of which
re-evaluates only what the change can affect.

The draft is always evaluated to the end (replay needs its last tree). The display may
stop short (:meth:`Evaluation.start` with ``upto``): the workbench paints the first
frame from the turns it needs, then calls :meth:`Evaluation.step` until it returns
False. Until then :meth:`Evaluation.result` evaluates up to the turn asked for, and
:meth:`Evaluation.finish` evaluates the rest at once (what every headless command and
every whole-session question does first).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable, Mapping

from reviewtui.core.engine import (
    PENDING,
    Decision,
    OpKey,
    OpResult,
    Policy,
    Rules,
    SessionRun,
    Verdict,
)
from reviewtui.core.engine.file_edits import normalize_or_none
from reviewtui.core.engine.session_plan import SessionPlan
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.records import ConsoleCommand, Session
from reviewtui.core.model.tree import Tree
from reviewtui.core.review.log import Folded
from reviewtui.core.review.plan import DecidedByPath, op_path

_ACCEPTING = (Verdict.ACCEPTED, Verdict.EDITED)
AHEAD = 40  # turns after a change (or the one in focus) the display re-evaluates at once
# Turns of the shared plan built between two looks at the clock (~8 ms at 50,000 ops).
PLAN_CHUNK = 500


class Evaluation:
    """The display and draft runs of one session. See the module docstring."""

    def __init__(self, session: Session, base: Tree, rules: Rules) -> None:
        # One plan of the session for both runs (built on first use, or by step()).
        plan = SessionPlan(session)
        self.display = SessionRun(session, base, rules=rules, policy=Policy.headless(),
                                  plan=plan)
        self.draft = SessionRun(session, base, rules=rules, policy=Policy.decided_only(),
                                plan=plan)
        self._positions = {turn.index: pos for pos, turn in enumerate(session.turns)}
        self._command_turns = _command_turns(session)
        # The turn the workbench shows (None: headless, every change evaluated whole).
        self.focus: int | None = None
        # The draft's decided operations by path, per turn result (the replay's conflicts).
        self.decided_by_path = DecidedByPath()

    @property
    def session(self) -> Session:
        return self.display.session

    # -- how far the display has got -------------------------------------------------------
    @property
    def evaluated_turns(self) -> int:
        """How many turns of the session the display run has evaluated."""
        return len(self.display.turns)

    @property
    def total_turns(self) -> int:
        return len(self.session.turns)

    @property
    def complete(self) -> bool:
        return self.evaluated_turns >= self.total_turns

    def start(self, base: Tree, rules: Rules, decisions: Mapping[OpKey, Decision], *,
              upto: int | None = None) -> None:
        """The first evaluation: the draft whole, the display up to turn ``upto``
        (its number; None: to the end)."""
        if upto is None:  # everything now: the draft starts from the display's work
            self.display.sync(base, rules, decisions)
            self.draft.sync(base, rules, decisions, like=self.display)
            return
        self.draft.sync(base, rules, decisions)
        self.display.sync(base, rules, decisions, upto=upto)

    def ensure(self, turn: int) -> None:
        """The display evaluated at least up to the turn numbered ``turn``."""
        turns = self.session.turns
        done = self.evaluated_turns
        if done < len(turns) and turns[done].index <= turn:
            self.display.evaluate(from_turn=turns[done].index, upto=turn)

    def step(self, budget: float, clock: Callable[[], float] = time.perf_counter) -> bool:
        """Evaluate further turns of the display for about ``budget`` seconds (at least
        one turn); True while more remains. Once every turn is, the session's plan (which
        the first change would otherwise build in its own time) is built the same way.

        Turns go in chunks sized by the time the last chunk took, so a long session is
        not evaluated one call per turn and a slow turn does not overrun by much.
        """
        turns = self.session.turns
        start = clock()
        if self.complete:
            return self._plan_step(start + budget, clock)
        chunk = 1
        while not self.complete:
            began, done = clock(), self.evaluated_turns
            self.ensure(turns[min(done + chunk, len(turns)) - 1].index)
            now = clock()
            left = start + budget - now
            if left <= 0:
                break
            per_turn = (now - began) / max(1, self.evaluated_turns - done)
            # Half of what seems to fit: turns differ, and a slice must not overrun much.
            fits = int(left / per_turn / 2) if per_turn > 0 else chunk * 2
            chunk = max(1, min(chunk * 2, fits))
        return not self.complete or not self.display.plan.ready

    def _plan_step(self, until: float, clock: Callable[[], float]) -> bool:
        """Build the plan shared by both runs (session_plan.py) until ``until``, in chunks
        of ``PLAN_CHUNK`` turns; True while more remains."""
        plan = self.display.plan  # (the draft's too: both share it)
        while plan.build_some(PLAN_CHUNK):
            if clock() >= until:
                return True
        return False

    def finish(self) -> None:
        """The display evaluated to the end (whatever asks about the whole session)."""
        if not self.complete:
            self.ensure(self.session.turns[-1].index)

    # -- reading ----------------------------------------------------------------------------
    def result(self, key: OpKey) -> OpResult:
        """The display run's result for ``key`` (KeyError when there is no such operation)."""
        pos = self._positions.get(key[0])
        turns = self.display.turns
        if pos is not None and pos >= len(turns):
            self.ensure(key[0])
            turns = self.display.turns
        if pos is not None and pos < len(turns) and 0 <= key[1] < len(turns[pos].results):
            return turns[pos].results[key[1]]
        raise KeyError(key)

    def peek(self, key: OpKey) -> OpResult | None:
        """The display result for ``key`` if its turn is evaluated; never evaluates (safe
        to call while another thread updates the runs: it reads one list slot)."""
        pos = self._positions.get(key[0])
        turns = self.display.turns
        if pos is None or pos >= len(turns):
            return None
        results = turns[pos].results
        return results[key[1]] if 0 <= key[1] < len(results) else None

    def tree_at(self, pin: int | None) -> Tree:
        """The draft's checkpoint ``pin`` (None or past the end: its last tree)."""
        states = self.draft.states
        return states[-1].tree if pin is None or pin >= len(states) else states[pin].tree

    def moves(self, pin: int | None) -> dict[str, str]:
        """Old path -> new path for the draft's landed moves, up to checkpoint ``pin``."""
        moved = self.draft.moved
        return moved[-1] if pin is None or pin >= len(moved) else moved[pin]

    def move_pairs(self, pin: int | None) -> list[tuple[str, str]]:
        """(old path, new path) of each file the draft's landed moves took, in order, up
        to checkpoint ``pin``: every move out of a path, where :meth:`moves` keeps the
        last (``plan.move_ends`` follows them; QA s47 helper-154 H5). Only a console
        command moves a path: the turns holding one are read (each replay asks)."""
        if not self.moves(pin):
            return []  # (no move landed: the map only grows)
        turns, upto = self.draft.turns, self.turns_on_disk(pin)
        return [(old, new) for pos in self._command_turns if pos < upto
                for result in turns[pos].results
                if result.landed and result.decision.verdict in _ACCEPTING
                for old, new in result.outcome.changes if old is not None and new is not None]

    def turns_on_disk(self, pin: int | None) -> int:
        return len(self.draft.turns) if pin is None else min(pin, len(self.draft.turns))

    def session_paths(self, base: Tree, records: Iterable[str]) -> set[str]:
        """The paths either run changes or an operation names, and ``records``."""
        return self._named_paths(base, change_pairs=False) | set(records)

    def op_paths(self, base: Tree) -> set[str]:
        """Every path an operation of the session names or changes (either run)."""
        return self._named_paths(base, change_pairs=True)

    def _named_paths(self, base: Tree, *, change_pairs: bool) -> set[str]:
        """What either run changes against ``base`` and each operation's path; with
        ``change_pairs``, also both sides of every (old, new) pair an outcome reports."""
        paths = self._unevaluated_paths()
        for run in (self.display, self.draft):
            paths.update(base.diff(run.states[-1].tree))
            for turn in run.turns:
                for result in turn.results:
                    named = op_path(result)
                    if named:
                        paths.add(named)
                    changes = result.outcome.changes if change_pairs else ()
                    for change in changes if isinstance(changes, tuple) else ():
                        named_paths = (normalize_or_none(x) for x in change
                                       if isinstance(x, str))
                        paths.update(p for p in named_paths if p)
        return paths

    def _unevaluated_paths(self) -> set[str]:
        """What the display's unevaluated turns would add to the paths above: nothing.

        The draft is whole, and each of its results names its operation's path (a pending
        one too, unevaluated there); without console commands a display result names the
        same path. A console command can move paths for later turns: with one anywhere in
        the session, the display is evaluated to the end first.
        """
        if not self.complete and any(isinstance(op, ConsoleCommand)
                                     for turn in self.session.turns for op in turn.reply.ops):
            self.finish()
        return set()

    # -- changing -----------------------------------------------------------------------------
    def sync(self, base: Tree, rules: Rules, decisions: Mapping[OpKey, Decision]) -> None:
        """Both runs as the base, rules and decisions are now (only what changed)."""
        self.display.sync(base, rules, decisions)
        # The first time, the draft starts from the display's evaluation (once per op).
        self.draft.sync(base, rules, decisions, like=self.display)

    def update(self, folded: Folded, display: bool = True, draft: bool = True,
               from_turn: int | None = None) -> None:
        """New decisions, those of the log's fold ``folded``: each run re-evaluates only
        what they affect. When only the draft is asked for and no pending operation lands
        in the display (evaluated with these decisions already), the draft takes the
        display's evaluation, unless it can update from the keys changed (below).

        With a :attr:`focus` (the workbench) and ``from_turn`` (the first turn the change
        touches), the display re-evaluates at once only through :data:`AHEAD` turns past
        the later of the two, and the rest in :meth:`step` (or when asked for): a reject
        early in a 5,000-turn session re-evaluates the file's later operations between
        keys, not before the screen shows it. The draft, what is written, is always whole.

        The fold numbers its decisions (:meth:`SessionRun.update`'s ``version``): a run
        given an earlier fold's decisions compares only the keys changed since, and the
        draft updates so rather than take the display's evaluation whole.
        """
        decisions = folded.in_force()
        version = (folded.version, folded.changed_since)
        if display:
            self.display.update(decisions, upto=self._eager_upto(from_turn), version=version)
        if draft and (display or folded.changed_since(self.draft.decided_version) is not None
                      or not self.draft.adopt(self.display, decisions)):
            self.draft.update(decisions, version=version)

    def _eager_upto(self, from_turn: int | None) -> int | None:
        """The last turn a change from ``from_turn`` re-evaluates at once (None: all)."""
        turns = self.session.turns
        if self.focus is None or from_turn is None or not turns:
            return None
        where = [self._positions.get(n, 0) for n in (from_turn, self.focus)]
        last = max(where) + AHEAD
        return turns[last].index if last < len(turns) - 1 else None

    def replace_session(self, session: Session, from_turn: int) -> None:
        """A live session grew from turn ``from_turn`` on."""
        self._positions = {turn.index: pos for pos, turn in enumerate(session.turns)}
        self._command_turns = _command_turns(session)
        plan = SessionPlan(session)
        self.display.replace_session(session, from_turn, plan=plan)
        self.draft.replace_session(session, from_turn, plan=plan)

    def applicable(self, turns: tuple[int, int] | None, *,
                   accept_fuzzy: bool) -> list[tuple[OpKey, Decision]]:
        """Accepts for every pending operation that applies (what ``apply --yes`` does).

        Turns are evaluated from the draft's checkpoint before the first one asked for,
        so the draft with these decisions is exactly the headless result.
        """
        indices = [t.index for t in self.session.turns]
        first, last = turns or (1, max(indices, default=0))
        policy = Policy.headless(accept_fuzzy=accept_fuzzy)
        if turns is not None and not any(key[0] < first for key, decision in
                                         self.draft.decisions.items() if decision != PENDING):
            # Nothing decided before: the project holds the turns before the first asked
            # for (applied earlier), and later line numbers were read in it.
            self.draft.author_from(first)
        everything = turns is None or (first <= min(indices, default=first)
                                       and last >= max(indices, default=last))
        if everything and policy == self.display.policy:
            self.finish()
            run = self.display  # the same turns, base, rules, policy and decisions
        else:
            run = self.draft.fork(policy=policy, first=first, last=last)
        return [(r.key, Decision.accept(force=r.outcome.status is not Status.APPLIED))
                for turn in run.turns for r in turn.results
                if r.landed and r.decision.verdict is Verdict.PENDING]


def _command_turns(session: Session) -> list[int]:
    """The positions of the turns holding a console command (what moves paths)."""
    return [pos for pos, turn in enumerate(session.turns)
            if any(isinstance(op, ConsoleCommand) for op in turn.reply.ops)]
