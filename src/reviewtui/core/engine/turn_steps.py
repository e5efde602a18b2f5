"""One turn of a run: its operations evaluated in order over the checkpoint before it.

:class:`TurnSteps` is the part of :class:`~reviewtui.core.engine.session.SessionRun` that
evaluates one turn (:meth:`TurnSteps._evaluate_turn`) and one operation of it
(``_file_op``, ``_command``), under the run's decisions, rules and policy; the run itself
(session.py) keeps the checkpoints and re-evaluates what a change affects.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from reviewtui.core.engine.decisions import (
    PENDING,
    REJECTED_MESSAGE,
    Decision,
    OpKey,
    Policy,
    Verdict,
    accept_lands,
)
from reviewtui.core.engine.file_edits import (
    FileContext,
    evaluate_edit,
    evaluate_full_file,
    mark_generated,
    normalize_or_none,
)
from reviewtui.core.engine.history import history_of
from reviewtui.core.engine.landings import Landed, note_landing
from reviewtui.core.engine.ledger import Ledger, LedgerItem, edit_item
from reviewtui.core.engine.lineage import adopt, held_to_pin
from reviewtui.core.engine.linkless import link_view
from reviewtui.core.engine.order import execution_order, taken_back_in_reply, undo_targets
from reviewtui.core.engine.results import OpResult, Rules, TurnResult
from reviewtui.core.engine.structural_state import StructuralState
from reviewtui.core.engine.touches import Touches, history_trees
from reviewtui.core.errors import PathRefused
from reviewtui.core.model.outcome import Outcome, Status
from reviewtui.core.model.records import (
    CommandName,
    ConsoleCommand,
    Edit,
    FullFile,
    Operation,
    Session,
    Turn,
)
from reviewtui.core.record import replace

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.core.engine.authored import AuthoredFile, AuthoredVersions
    from reviewtui.core.model.tree import Tree


class TurnSteps:
    """Evaluating one turn of a run (see the module docstring); the run provides these."""

    session: Session
    rules: Rules
    policy: Policy
    decisions: dict[OpKey, Decision]
    states: list[StructuralState]
    turns: list[TurnResult]
    # Each :undo -> what it takes back, for one session object (the full one, in a fork).
    _undo_map: tuple[Session, dict[OpKey, tuple[OpKey | None, str]]] | None = None
    _touches: Callable[[], Touches]
    # The files as each turn's author had them (core/engine/authored.py), over this base:
    # the run's first one (a base changed outside since is not what the model read).
    _authored_base: Tree
    _authored: AuthoredVersions | None
    _authored_first: int | None  # turns before it are in the base (SessionRun.author_from)
    # The authored run's own: each turn with commands -> its tree after them, as its file
    # blocks start (what their numbers count in; authored.py). None: not kept.
    _opened: dict[int, Tree] | None = None

    def _evaluate_turn(
        self, turn: Turn, state: StructuralState, moved: dict[str, str]
    ) -> tuple[TurnResult, StructuralState, dict[str, str], tuple[LedgerItem, ...]]:
        moved = dict(moved)
        if not self.policy.pending_joins and not self._decided_in(turn):
            # Nothing of it can land: every operation is pending and skipped (see
            # _unevaluated), in any order. The decided draft of a long, mostly pending
            # session is mostly such turns.
            skipped = tuple(OpResult((turn.index, pos), op, _SKIPPED, PENDING, False)
                            for pos, op in enumerate(turn.reply.ops))
            return TurnResult(turn, skipped, Ledger((), state.tree.revision)), state, moved, ()
        results: dict[int, OpResult] = {}
        items: list[LedgerItem] = []
        start = state.tree.revision
        cursor: dict[str, int] = {}  # where the last landed edit of each path ended
        landed: Landed = {}  # where each landed (note_landing)
        opened: Tree | None = None  # the tree as the file blocks start, after the moves
        order = execution_order(turn)
        paired, undoes = (taken_back_in_reply(turn.reply.ops) if len(order) > 1 and any(
            isinstance(op, ConsoleCommand) for _, op in order) else ({}, {}))
        unmoved: dict[int, OpResult] = {}  # a held move's chunks (_codex_move)
        for pos, op in order:
            key = (turn.index, pos)
            decision = self.decisions.get(key, PENDING)
            unrun = self._unevaluated(decision) if pos in paired or pos in undoes else None
            if unrun is not None:
                result, item = OpResult(key, op, unrun, decision, False), None
            elif pos in paired:  # (taken back in its own reply: runs in neither form)
                result, item = _taken_back(key, op, decision, turn, paired[pos]), None
            elif pos in undoes and not results[undoes[pos]].landed:
                result, item = _nothing_ran(key, op, decision, turn, undoes[pos]), None
            elif pos in unmoved:
                result, item = unmoved[pos], None
            elif isinstance(op, ConsoleCommand):
                held = self._codex_move(state, key, op, decision, turn, moved)
                if held is not None:
                    result, item = held[0], None
                    unmoved.update(held[1])
                else:
                    state, result, item = self._command(state, key, op, decision, moved)
            else:
                if opened is None:
                    opened = state.tree
                    if self._opened is not None and pos != order[0][0]:  # (commands ran)
                        self._opened[turn.index] = opened
                state, result, item = self._file_op(state, key, op, decision, turn, moved,
                                                    cursor, landed, opened)
                advance(cursor, result, landed)
            results[pos] = result
            if item is not None:
                items.append(item)
        ordered, done = tuple(results[pos] for pos in sorted(results)), tuple(items)
        return TurnResult(turn, ordered, Ledger(done, start)), state, moved, done

    def _decided_in(self, turn: Turn) -> bool:
        """Whether any operation of ``turn`` has a decision (even a pending one)."""
        decisions, index = self.decisions, turn.index
        return bool(decisions) and any((index, pos) in decisions
                                       for pos in range(len(turn.reply.ops)))

    def _unevaluated(self, decision: Decision) -> Outcome | None:
        """Operations that cannot change this run's tree are not evaluated at all.

        A rejected one never lands; under the decided-only policy (what is on disk) a
        pending one never lands either, and its outcome is never shown: skipping it makes
        the disk draft of a long, mostly pending session nearly free.
        """
        if decision.verdict is Verdict.REJECTED:
            return _REJECTED
        if decision.verdict is Verdict.PENDING and not self.policy.pending_joins:
            return _SKIPPED
        return None

    def _command(
        self, state: StructuralState, key: OpKey, op: ConsoleCommand, decision: Decision,
        moved: dict[str, str],
    ) -> tuple[StructuralState, OpResult, LedgerItem | None]:
        skipped = self._unevaluated(decision)
        if skipped is not None:
            return state, OpResult(key, op, skipped, decision, False), None
        from reviewtui.core.engine.commands import run_command  # a session with commands
        undo = self._undo_target(key) if op.name is CommandName.UNDO else None
        return run_command(state, key, op, decision, moved, self.rules, self.policy,
                           self.states[0].tree, undo)

    def _codex_move(
        self, state: StructuralState, key: OpKey, op: ConsoleCommand, decision: Decision,
        turn: Turn, moved: dict[str, str],
    ) -> tuple[OpResult, dict[int, OpResult]] | None:
        """An apply_patch ``*** Move to`` (in a text of several patches) whose section's
        first chunk, looked for in the file it moves, is held as one Codex refuses and not
        forced: the move held, and its chunks' results (the first as found there, the others
        held with it); None: it runs."""
        if (op.name is not CommandName.MV or not op.literal
                or self._unevaluated(decision) is not None):
            return None
        from reviewtui.core.engine.codex_seek import move_section  # (apply_patch only)

        section = move_section(turn.reply.ops, key[1])
        if section is None:
            return None
        from reviewtui.core.engine.codex_seek import (
            CODEX_REFUSED,
            held_move,
            held_with_move,
        )

        source, chunks = section
        first = turn.reply.ops[chunks[0]]
        if not isinstance(first, Edit):  # (move_section's chunks are edits)
            return None
        at = (turn.index, chunks[0])
        _, found, _ = self._file_op(state, at, replace(first, path=source),
                                    self.decisions.get(at, PENDING), turn, moved)
        if found.landed or found.outcome.rule != CODEX_REFUSED:
            return None
        results = {chunks[0]: replace(found, op=first)}
        for pos in chunks[1:]:
            later = turn.reply.ops[pos]
            results[pos] = OpResult((turn.index, pos), later, held_with_move(later, source),
                                    self.decisions.get((turn.index, pos), PENDING), False)
        return OpResult(key, op, held_move(op, first.span.start), decision, False), results

    def _undo_target(self, key: OpKey) -> tuple[OpKey | None, str]:
        """The command the ``:undo`` at ``key`` takes back (None: none) and how a
        reviewer reads it ("turn 1's :mv a.py b.py")."""
        return self._undo_targets().get(key, (None, ""))

    def _undo_targets(self) -> dict[OpKey, tuple[OpKey | None, str]]:
        """Every ``:undo`` of the session -> :meth:`_undo_target` (order.undo_targets),
        read once per session object (a fork is given its parent's)."""
        held = self._undo_map
        if held is None or held[0] is not self.session:
            turns = self.session.turns
            texts = {(turn.index, pos): op.text for turn in turns
                     for pos, op in enumerate(turn.reply.ops) if isinstance(op, ConsoleCommand)}
            # (A run of some turns alone starts from a stack of earlier commands.)
            before = sorted(entry.key for entry in self.states[0].undo_stack if entry.key)
            found = {key: (target, "" if target is None else
                           f"{'its reply' if target[0] == key[0] else f'turn {target[0]}'}'s "
                           f"{texts.get(target, 'command')}")
                     for key, target in undo_targets(turns, before).items()}
            held = self._undo_map = (self.session, found)
        return held[1]

    def _file_op(
        self, state: StructuralState, key: OpKey, op: Edit | FullFile, decision: Decision,
        turn: Turn, moved: dict[str, str], cursor: Mapping[str, int] | None = None,
        landed: Landed | None = None, opened: Tree | None = None,
    ) -> tuple[StructuralState, OpResult, LedgerItem | None]:
        """``opened``: the tree as the turn's file blocks start, after its moves (None:
        the checkpoint it started from, a turn without commands)."""
        skipped = self._unevaluated(decision)
        if skipped is not None:
            return state, OpResult(key, op, skipped, decision, False), None
        if op.git_forms is not None and (op.git_forms.encoding or op.git_forms.unsettled):
            from reviewtui.core.engine.checkout import encoded_refusal  # (a git range)

            refused = encoded_refusal(op, op.git_forms)
            return state, OpResult(key, op, refused, decision, False), None
        tree = state.tree
        rule = op.git_apply
        if rule is not None and (rule.encoding or rule.ident or rule.held):
            from reviewtui.core.engine.git_apply import refusal  # (a plain diff on git)

            if (refusing := refusal(op, rule, tree)) is not None:
                return state, OpResult(key, op, refusing, decision, False), None
        ctx = FileContext(
            need=turn.reply.need, need_line=turn.reply.need_span is not None,
            reserved=self.rules.reserved,
            symlinks=link_view(self.rules.symlinks, self.states[0].tree, tree,
                               self.session),
            root=self.rules.root, moved=moved,
            history=lambda path: history_of(history_trees(self.states, self._touches(), path),
                                            path, tree),
            cursor=cursor or {}, landed=landed or {}, defer=True, spellings=self.rules.spellings,
            own=self.rules.own,
        )
        replacement = decision.replacement if decision.verdict is Verdict.EDITED else None
        if isinstance(op, Edit) and op.shape is not None:
            from reviewtui.core.engine.line_edits import evaluate_shaped

            # self.states[-1] is the checkpoint this turn started from.
            seen = self.states[-1].tree
            outcome, proposal = evaluate_shaped(tree, op, ctx, replacement, seen=seen,
                                                opened=seen if opened is None else opened,
                                                authored=self._authored_lookup(turn, key[1]))
        elif isinstance(op, Edit):
            if decision.search is not None and decision.verdict in (Verdict.ACCEPTED,
                                                                    Verdict.EDITED):
                op = replace(op, search_lines=decision.search, other_splits=())
            placed = ((decision.placement, decision.anchor or ())
                      if decision.verdict is Verdict.ACCEPTED and decision.placement else None)
            outcome, proposal = evaluate_edit(tree, op, ctx, replacement, placed)
        else:
            outcome, proposal = evaluate_full_file(tree, op, ctx, replacement)
        outcome = mark_generated(outcome, self.rules.reserved)
        if (decision.at is not None and proposal is not None and isinstance(op, Edit)
                and self._lands(outcome, decision)):
            # (only what would land: a near match that waits says so, not "moved")
            outcome, proposal = held_to_pin(outcome, proposal, decision.at, op)
        if proposal is None or not self._lands(outcome, decision):
            return state, OpResult(key, op, outcome, decision, False), None
        forms = op.git_forms
        # (not over the reviewer's own text: QA s38 helper-118 F7)
        if forms is not None and replacement is None and (
                forms.checked_out is not None or forms.checked_before is not None):
            from reviewtui.core.engine.checkout import as_checked_out  # (converting checkout)

            # (self.states[-1]: the checkpoint this turn started from)
            outcome, proposal = as_checked_out(op, outcome, proposal, tree,
                                               self.states[-1].tree)
        elif rule is not None and rule.last and replacement is None:
            from reviewtui.core.engine.git_apply import as_git_applies

            outcome, written = as_git_applies(op, rule, outcome, proposal,
                                              self.states[-1].tree)
            if written is None:
                return state, OpResult(key, op, outcome, decision, False), None
            proposal = written
        adopt(proposal.state, tree.get(proposal.path), key, _span(op, outcome))
        try:
            new_tree = tree.set(proposal.path, proposal.state)
        except PathRefused as exc:  # a file where a directory is, or the reverse
            outcome = Outcome(Status.REFUSED, method=outcome.method, rule=exc.rule,
                              message=exc.message, path=proposal.path)
            return state, OpResult(key, op, outcome, decision, False), None
        # An identical write is a no-op: same tree, same revision, nothing in the ledger.
        item = None if new_tree is tree else edit_item(key[1], op, outcome, proposal)
        new_state = StructuralState(new_tree, state.undo_stack, state.removed)  # (not replace)
        return new_state, OpResult(key, op, outcome, decision, True), item

    def _authored_versions(self) -> AuthoredVersions:
        """The files as each turn's author had them, made when first asked for."""
        versions = self._authored
        if versions is None:
            from reviewtui.core.engine.authored import AuthoredVersions

            session, first = self.session, self._authored_first
            if first is not None:
                session = replace(session, turns=tuple(t for t in session.turns
                                                       if t.index >= first))
            versions = self._authored = AuthoredVersions(session, self._authored_base,
                                                         self.rules)
        return versions

    def _authored_lookup(self, turn: Turn, at: int
                         ) -> Callable[[str, bool], tuple[AuthoredFile, Callable[[], str]]]:
        """A path as the author of ``turn`` had it for its operation at reply position
        ``at``, and why this run's may differ (line_edits.evaluate_shaped asks for plain
        numbers alone). ``opened``: as its file blocks start, after its moves, or as the
        last whole file of it written before ``at`` made it; else as the turn started."""
        index = turn.index

        def lookup(path: str, opened: bool) -> tuple[AuthoredFile, Callable[[], str]]:
            versions = self._authored_versions()
            made = _whole_before(turn, at, path) if opened else None
            found = (versions.opened(index, path, made, self) if opened
                     else versions.file(index, path))
            return found, lambda: versions.differs(index, path, self, opened)

        return lookup

    def _lands(self, outcome: Outcome, decision: Decision) -> bool:
        if decision.verdict in (Verdict.ACCEPTED, Verdict.EDITED):
            return accept_lands(decision, outcome.status, outcome.forceable)
        return outcome.status in self.policy.pending_joins


# The outcomes of operations that are not evaluated (immutable, so shared by all of them).
_REJECTED = Outcome(Status.REJECTED, message=REJECTED_MESSAGE)
_SKIPPED = Outcome(Status.SKIPPED, message="pending: not part of the decided draft")


def _span(op: Edit | FullFile, outcome: Outcome) -> tuple[int, int] | None:
    """The lines of the file before that an edit replaced (0-based, end exclusive): a
    SEARCH's region, or a line-addressed shape's (a batch's from its first placed line to
    its last); None for anything else (the changed stretch is then found by comparing,
    which reads a removal of lines that repeat the ones after them as a removal of those:
    a batch deleting "x y z" from "x x y z x y z x" was read as deleting the last three)."""
    if isinstance(op, Edit) and outcome.lines is not None:
        first, last = outcome.lines
        return first - 1, last
    return None


def _whole_before(turn: Turn, at: int, path: str) -> int | None:
    """The reply position of the last whole file ``turn`` writes at ``path`` before its
    operation at ``at`` (file blocks run in the order written), or None."""
    return next((pos for pos in range(at - 1, -1, -1)
                 if isinstance(op := turn.reply.ops[pos], FullFile)
                 and normalize_or_none(op.path) == path), None)


def advance(cursor: dict[str, int], result: OpResult,
            landed: Landed | None = None) -> None:
    """Where the next ordered chunk of the same file is searched from (apply_patch order),
    and where ``result`` landed (``landed``: a later edit's plain numbers are placed by
    it, core/engine/landings.py)."""
    end = result.outcome.cursor
    if result.landed and end is not None and result.outcome.path:
        cursor[result.outcome.path] = end
    if landed is not None:
        note_landing(landed, result)


def _taken_back(key: OpKey, op: Operation, decision: Decision, turn: Turn,
                partner: int) -> OpResult:
    """A command its own reply takes back, or the command that does (see
    :func:`taken_back_in_reply`): refused, saying which, whatever the decision."""
    other = turn.reply.ops[partner]
    text = other.text if isinstance(other, ConsoleCommand) else str(other)
    if partner > key[1]:
        message = (f"taken back by {text} written after it in this reply (operation "
                   f"{partner + 1}): neither runs")
    else:
        message = (f"takes back {text}, written before it in this reply (operation "
                   f"{partner + 1}): neither runs")
    outcome = Outcome(Status.REFUSED, method=str(getattr(op, "name", "")),
                      rule="taken-back-in-reply", message=message)
    return OpResult(key, op, outcome, decision, False)


def _nothing_ran(key: OpKey, op: Operation, decision: Decision, turn: Turn,
                 taken: int) -> OpResult:
    """An ``:undo`` whose command in its reply did not run (refused, rejected, pending):
    it takes back nothing, not an earlier turn's command (QA s45 helper-139 #7)."""
    other = turn.reply.ops[taken]
    text = other.text if isinstance(other, ConsoleCommand) else str(other)
    outcome = Outcome(Status.NOT_FOUND, method="undo", rule="nothing-to-undo",
                      message=f"it takes back {text} (operation {taken + 1}), which did not "
                              "run: nothing to undo")
    return OpResult(key, op, outcome, decision, False)
