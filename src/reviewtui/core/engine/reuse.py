"""Stretches of turns that a re-evaluation reuses whole (``SessionRun.reevaluate``).

:func:`reuse_turns`: none of these turns names an affected path or a path below an
affected folder, and no command runs from the first affected turn on, so each turn's
operations do what they did: its results and ledger are kept (renumbered when the
revisions before it moved) and its checkpoint is the old one with the affected paths as
they are now. Along the stretch those paths do not change, neither in the new
checkpoints nor in the old ones: the patch is made once, and each checkpoint is built
only when something reads it (``Tree.patched``).

:func:`shift_rest`: nothing is affected any more from a turn on, only the revision
numbers moved.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from reviewtui.core.engine.ledger import Ledger, LedgerItem
from reviewtui.core.engine.results import TurnResult
from reviewtui.core.engine.structural_state import StructuralState
from reviewtui.core.model.tree import FileState
from reviewtui.core.record import replace


def reuse_turns(states: list[StructuralState], turns: list[TurnResult],
                moved: list[dict[str, str]], ledgers: list[tuple[LedgerItem, ...]],
                first: int, end: int, dirty: set[str],
                old_states: Sequence[StructuralState], old_turns: Sequence[TurnResult],
                old_ledgers: Sequence[tuple[LedgerItem, ...]]) -> None:
    """Append turns ``first``..``end - 1`` to the run's new lists, each reused whole.

    Each reused turn makes the revisions it made before (what its ledger adds up to,
    ``ledger.bumps``, read off its old checkpoints), so every new revision is the old one
    moved by the same ``delta``: a turn's ledger is renumbered by it (when it is not 0),
    and a turn that changed nothing (its old checkpoint is the one before it) shares the
    checkpoint before it. A long session reuses thousands of turns a decision: the lists
    are extended in bulk, and only the checkpoints are made one by one.
    """
    state, now = states[-1], moved[-1]
    tree, old_tree = state.tree, old_states[first + 1].tree
    # A removal only where the old checkpoints have the file: nothing else to take away.
    patch: dict[str, FileState | None] = {
        path: found for path in dirty
        if (found := tree.get(path)) is not None or path in old_tree}
    delta = tree.revision - old_states[first].tree.revision
    undo, removed = state.undo_stack, state.removed  # (a reused turn runs no command)
    kept = old_ledgers[first:end]
    if delta:
        turns.extend([TurnResult(result.turn, result.results, Ledger(items, old.tree.revision
                                                                     + delta))
                      for result, items, old in zip(old_turns[first:end], kept,
                                                    old_states[first:end], strict=True)])
    else:
        turns.extend(old_turns[first:end])
    moved.extend([now] * (end - first))
    ledgers.extend(kept)
    before = old_states[first].tree
    add = states.append
    rows: dict[int, tuple[Mapping[str, FileState | None], ...]] = {}  # shared (patched)
    for old in old_states[first + 1 : end + 1]:
        out = old.tree
        if out is not before:  # else it changed nothing: share the tree
            # (StructuralState() directly: replace() costs 5 times more)
            state = StructuralState(out.patched(patch, out.revision + delta, rows), undo,
                                    removed)
        before = out
        add(state)


def shift_rest(states: list[StructuralState], turns: list[TurnResult],
               moved: list[dict[str, str]], ledgers: list[tuple[LedgerItem, ...]], first: int,
               delta: int, old_states: Sequence[StructuralState],
               old_moved: Sequence[dict[str, str]], old_turns: Sequence[TurnResult],
               old_ledgers: Sequence[tuple[LedgerItem, ...]]) -> None:
    """Nothing differs from turn ``first`` on but the revision numbers (by ``delta``):
    reuse it all."""
    for at in range(first, len(old_turns)):
        result = old_turns[at]
        out = old_states[at + 1]
        if delta:
            start = states[-1].tree.revision
            result = TurnResult(result.turn, result.results, Ledger(old_ledgers[at], start))
            out = replace(out, tree=out.tree.with_revision(
                out.tree.revision + delta))
        turns.append(result)
        states.append(out)
        moved.append(old_moved[at + 1])
        ledgers.append(old_ledgers[at])
