"""The state a turn's operations run on: the tree, the session's undo stack and the
removed-files store.

Every operation reads and returns one (``turn_steps``, ``session``); only console commands
(``structural.py``, loaded for a session that has them) change more than its tree. Kept
apart from the commands so that a session of edits alone never loads them (start-up).
"""

from __future__ import annotations

from collections.abc import Mapping

from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.record import field, record


@record(frozen=True, slots=True)
class UndoEntry:
    """Enough to reverse one applied command exactly."""

    command: str  # the ledger words, e.g. "mv src/a.js src/b.js"
    moves: tuple[tuple[str, str], ...] = ()  # (old, new) per file
    removed: tuple[tuple[str, FileState], ...] = ()  # taken out of the tree (rm, mv -f)
    restored: tuple[str, ...] = ()  # put back by :unrm
    store_before: tuple[tuple[str, FileState | None], ...] = ()  # removed-store entries replaced
    # The operation that ran it ((turn, position): an ``:undo`` takes back the command
    # written last before it, which is not always the entry on top: order.undo_targets).
    key: tuple[int, int] | None = None


@record(frozen=True, slots=True)
class StructuralState:
    """The tree, the session's undo stack (most recent last) and the removed-files store."""

    tree: Tree
    undo_stack: tuple[UndoEntry, ...] = ()
    removed: Mapping[str, FileState] = field(default_factory=dict)  # path -> last content
