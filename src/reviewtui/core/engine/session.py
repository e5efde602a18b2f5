"""Replaying a session's turns over a tree: checkpoints, outcomes and the ledger.

Turn semantics: ``:mv``, ``:rn``, ``:undo`` and ``:unrm`` run first in the order
written, then the file blocks in order (each edit against the file as the previous
one left it), then every ``:rm``. Checkpoint 0 is the tree before turn 1 and
checkpoint N the tree after turn N. Re-evaluating from turn K reuses checkpoints
before K, so a decision late in a long session costs only the turns after it.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import overload

from reviewtui.core.engine.decisions import (
    PENDING,
    Decision,
    OpKey,
    Policy,
    Verdict,
    accept_lands,
)
from reviewtui.core.engine.fileops import (
    FileContext,
    Proposal,
    check_path,
    evaluate_edit,
    evaluate_full_file,
    mark_generated,
    normalize_or_none,
)
from reviewtui.core.engine.shapes import evaluate_shaped
from reviewtui.core.model import (
    CommandName,
    ConsoleCommand,
    Edit,
    FullFile,
    Operation,
    Session,
    Turn,
)
from reviewtui.core.outcome import Outcome, Status
from reviewtui.core.paths import ReservedRules
from reviewtui.core.structural import StructuralState, apply_command
from reviewtui.core.tree import Tree

_FIRST = (CommandName.MV, CommandName.RN, CommandName.UNDO, CommandName.UNRM)
_PATH_RULES = frozenset({
    "absolute-path", "drive-letter", "home-path", "backslash", "parent-escape",
    "control-character", "git-dir", "empty-path", "symlink", "symlink-escape", "reserved",
    "unread-dir",
})


_REFUSING_COMMAND_RULES = frozenset({"dest-exists", "into-itself", "path-conflict"})


@dataclass(frozen=True, slots=True)
class OpResult:
    key: OpKey
    op: Operation
    outcome: Outcome
    decision: Decision
    landed: bool  # it changed the draft


@dataclass(frozen=True, slots=True)
class TurnResult:
    turn: Turn
    results: tuple[OpResult, ...]  # in reply order
    ledger: tuple[str, ...]

    @property
    def index(self) -> int:
        return self.turn.index


@dataclass(frozen=True, slots=True)
class Rules:
    """The project's constraints: reserved paths and the symbolic links on disk."""

    reserved: ReservedRules = field(default_factory=ReservedRules)
    symlinks: Mapping[str, str] = field(default_factory=dict)
    root: str | None = None


def _phase(op: Operation) -> int:
    if not isinstance(op, ConsoleCommand):
        return 1
    return 2 if op.name is CommandName.RM else 0


def execution_order(turn: Turn) -> list[tuple[int, Operation]]:
    """The reply's operations, each with its reply position, in the order they run."""
    return sorted(enumerate(turn.reply.ops), key=lambda item: (_phase(item[1]), item[0]))


class SessionRun:
    """A session evaluated over a base tree under some decisions."""

    def __init__(self, session: Session, base: Tree, *, rules: Rules | None = None,
                 policy: Policy | None = None) -> None:
        self.session = session
        self.rules = rules or Rules()
        self.policy = policy or Policy()
        self.decisions: dict[OpKey, Decision] = {}
        self.states: list[StructuralState] = [StructuralState(tree=base)]
        self.turns: list[TurnResult] = []
        self.moved: list[dict[str, str]] = [{}]

    @property
    def checkpoints(self) -> list[Tree]:
        return [state.tree for state in self.states]

    def checkpoint(self, n: int) -> Tree:
        return self.states[n].tree

    def decide(self, key: OpKey, decision: Decision) -> None:
        """Record a decision and re-evaluate from its turn on."""
        if decision == PENDING:
            self.decisions.pop(key, None)
        else:
            self.decisions[key] = decision
        self.evaluate(from_turn=key[0])

    def evaluate(self, from_turn: int = 1, upto: int | None = None) -> None:
        """(Re-)evaluate the turns numbered ``from_turn`` .. ``upto`` (default: all)."""
        turns = self.session.turns
        last = len(turns) if upto is None else sum(1 for t in turns if t.index <= upto)
        first = next((pos for pos, t in enumerate(turns) if t.index >= from_turn), len(turns))
        keep = min(first, len(self.turns))
        del self.states[keep + 1 :]
        del self.moved[keep + 1 :]
        del self.turns[keep:]
        for turn in turns[keep:last]:
            result, state, moved = self._evaluate_turn(turn, self.states[-1], self.moved[-1])
            self.turns.append(result)
            self.states.append(state)
            self.moved.append(moved)

    # -- one turn ------------------------------------------------------------
    def _evaluate_turn(
        self, turn: Turn, state: StructuralState, moved: dict[str, str]
    ) -> tuple[TurnResult, StructuralState, dict[str, str]]:
        moved = dict(moved)
        results: dict[int, OpResult] = {}
        ledger: list[str] = []
        cursor: dict[str, int] = {}  # where the last landed edit of each path ended
        for pos, op in execution_order(turn):
            key = (turn.index, pos)
            decision = self.decisions.get(key, PENDING)
            if isinstance(op, ConsoleCommand):
                state, result, line = self._command(state, key, op, decision, moved)
            else:
                state, result, line = self._file_op(state, key, op, decision, turn, moved,
                                                    cursor)
                end = result.outcome.extra.get("cursor")
                if result.landed and isinstance(end, int) and result.outcome.path:
                    cursor[result.outcome.path] = end
            results[pos] = result
            if line:
                ledger.append(line)
        ordered = tuple(results[pos] for pos in sorted(results))
        return TurnResult(turn, ordered, tuple(ledger)), state, moved

    def _unevaluated(self, decision: Decision) -> Outcome | None:
        """Operations that cannot change this run's tree are not evaluated at all.

        A rejected one never lands; under the decided-only policy (what is on disk) a
        pending one never lands either, and its outcome is never shown: skipping it makes
        the disk draft of a long, mostly pending session nearly free.
        """
        if decision.verdict is Verdict.REJECTED:
            return Outcome(Status.REJECTED, message="rejected by the reviewer")
        if decision.verdict is Verdict.PENDING and not self.policy.pending_joins:
            return Outcome(Status.SKIPPED, message="pending: not part of the decided draft")
        return None

    def _command(
        self, state: StructuralState, key: OpKey, op: ConsoleCommand, decision: Decision,
        moved: dict[str, str],
    ) -> tuple[StructuralState, OpResult, str]:
        skipped = self._unevaluated(decision)
        if skipped is not None:
            return state, OpResult(key, op, skipped, decision, False), ""
        new_state, result = apply_command(state, op)
        changes = tuple(result.changes)
        rule = result.rule
        if result.ok:
            status, message = Status.APPLIED, result.message
            refusal = self._refuse_changes(changes)
            if refusal is not None:
                status, message, rule = Status.REFUSED, refusal.message, refusal.rule
        elif rule in _PATH_RULES or rule in _REFUSING_COMMAND_RULES:
            status, message = Status.REFUSED, result.message
        else:
            status, message = Status.NOT_FOUND, result.message
        if status is not Status.APPLIED:
            # A command is all or nothing: a failing argument leaves every path as it was.
            message += "; nothing of this command was applied"
        outcome = Outcome(status, method=str(op.name), message=message, rule=rule,
                          path=op.path or "", extra={"changes": changes})
        joins = decision.verdict is Verdict.ACCEPTED or status in self.policy.pending_joins
        if status is not Status.APPLIED or not joins:
            return state, OpResult(key, op, outcome, decision, False), ""
        for old, new in changes:
            if old is not None and new is not None:
                moved[old] = new
        return new_state, OpResult(key, op, outcome, decision, True), result.ledger

    def _refuse_changes(
        self, changes: tuple[tuple[str | None, str | None], ...]
    ) -> Outcome | None:
        """Moves and removals obey the same reserved-path and symlink rules as edits."""
        ctx = FileContext(reserved=self.rules.reserved, symlinks=self.rules.symlinks,
                          root=self.rules.root)
        for old, new in changes:
            for path in (old, new):
                if path is None:
                    continue
                checked = check_path(path, ctx)
                if isinstance(checked, Outcome):
                    return checked
        return None

    def _file_op(
        self, state: StructuralState, key: OpKey, op: Edit | FullFile, decision: Decision,
        turn: Turn, moved: dict[str, str], cursor: Mapping[str, int] | None = None,
    ) -> tuple[StructuralState, OpResult, str]:
        skipped = self._unevaluated(decision)
        if skipped is not None:
            return state, OpResult(key, op, skipped, decision, False), ""
        tree = state.tree
        ctx = FileContext(
            need=turn.reply.need, reserved=self.rules.reserved, symlinks=self.rules.symlinks,
            root=self.rules.root, moved=moved,
            history=lambda path: LazyHistory(lambda: self._history(path, tree)),
            cursor=cursor or {},
        )
        replacement = decision.replacement if decision.verdict is Verdict.EDITED else None
        if isinstance(op, Edit) and op.shape is not None:
            # self.states[-1] is the checkpoint this turn started from.
            outcome, proposal = evaluate_shaped(tree, op, ctx, replacement,
                                                seen=self.states[-1].tree)
        elif isinstance(op, Edit):
            if decision.search is not None and decision.verdict in (Verdict.ACCEPTED,
                                                                    Verdict.EDITED):
                op = dataclasses.replace(op, search_lines=decision.search)
            placed = ((decision.placement, decision.anchor or ())
                      if decision.verdict is Verdict.ACCEPTED and decision.placement else None)
            outcome, proposal = evaluate_edit(tree, op, ctx, replacement, placed)
        else:
            outcome, proposal = evaluate_full_file(tree, op, ctx, replacement)
        outcome = mark_generated(outcome, self.rules.reserved)
        if proposal is None or not self._lands(outcome, decision):
            return state, OpResult(key, op, outcome, decision, False), ""
        new_tree = tree.set(proposal.path, proposal.state)
        # An identical write is a no-op: same tree, same revision, nothing in the ledger.
        line = "" if new_tree is tree else _ledger_line(op, outcome, proposal, tree, new_tree)
        new_state = dataclasses.replace(state, tree=new_tree)
        return new_state, OpResult(key, op, outcome, decision, True), line

    def _lands(self, outcome: Outcome, decision: Decision) -> bool:
        if decision.verdict in (Verdict.ACCEPTED, Verdict.EDITED):
            return accept_lands(decision, outcome.status, outcome.forceable)
        return outcome.status in self.policy.pending_joins

    def _history(self, path: str, current: Tree) -> Sequence[Sequence[str]]:
        """Earlier distinct versions of ``path``, oldest first, for the stale diagnosis."""
        now = current.get(path)
        seen: list[tuple[str, ...]] = []
        for state in self.states:
            version = state.tree.get(path)
            if version is None or version.binary or version == now:
                continue
            lines = version.lines
            if lines not in seen:
                seen.append(lines)
        return seen


class LazyHistory(Sequence[Sequence[str]]):
    """Earlier versions of a file, computed only if the matcher asks (on a failed match)."""

    def __init__(self, compute: Callable[[], Sequence[Sequence[str]]]) -> None:
        self._compute = compute
        self._items: Sequence[Sequence[str]] | None = None

    def _get(self) -> Sequence[Sequence[str]]:
        if self._items is None:
            self._items = self._compute()
        return self._items

    def __len__(self) -> int:
        return len(self._get())

    @overload
    def __getitem__(self, index: int) -> Sequence[str]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Sequence[str]]: ...
    def __getitem__(self, index: int | slice) -> Sequence[str] | Sequence[Sequence[str]]:
        return self._get()[index]


def _ledger_line(op: Edit | FullFile, outcome: Outcome, proposal: Proposal, before: Tree,
                 after: Tree) -> str:
    revs = f"r{before.revision}->r{after.revision}"
    if isinstance(op, Edit):
        span = f"{outcome.lines[0]}-{outcome.lines[1]}" if outcome.lines else "-"
        return f"edit {proposal.path} #{op.label} {outcome.method} {span} {revs}"
    verb = "create" if outcome.method == "new-file" else "write"
    return f"{verb} {proposal.path} full-file {revs}"


def evaluate_session(session: Session, base: Tree, *, rules: Rules | None = None,
                     policy: Policy | None = None,
                     decisions: Mapping[OpKey, Decision] | None = None,
                     upto: int | None = None) -> SessionRun:
    run = SessionRun(session, base, rules=rules, policy=policy)
    run.decisions.update(decisions or {})
    run.evaluate(upto=upto)
    return run


def file_text_for(run: SessionRun) -> Callable[[int], Callable[[str], str | None]]:
    """For lint: the text of a file as turn N sees it (the checkpoint before it)."""
    positions = {t.index: pos for pos, t in enumerate(run.session.turns)}

    def for_turn(index: int) -> Callable[[str], str | None]:
        tree = run.checkpoint(min(positions.get(index, 0), len(run.states) - 1))

        def text(path: str) -> str | None:
            norm = normalize_or_none(path)
            state = tree.get(norm) if norm else None
            return state.text if state is not None else None

        return text

    return for_turn
