"""In which order a turn's operations run, and what an incremental run notes of each.

Turn semantics: ``:mv``, ``:rn``, ``:undo`` and ``:unrm`` run first in the order
written, then the file blocks in order, then every ``:rm``.
"""

from __future__ import annotations

from reviewtui.core.model.records import CommandName, ConsoleCommand, Operation, Turn
from reviewtui.core.record import record


def _phase(op: Operation) -> int:
    if not isinstance(op, ConsoleCommand):
        return 1
    return 2 if op.name is CommandName.RM else 0


def execution_order(turn: Turn) -> list[tuple[int, Operation]]:
    """The reply's operations, each with its reply position, in the order they run."""
    return sorted(enumerate(turn.reply.ops), key=lambda item: (_phase(item[1]), item[0]))


@record(frozen=True, slots=True)
class Step:
    """One operation of a turn, in execution order, with what incremental runs look at."""

    pos: int
    op: Operation
    path: str | None  # the normalised path of a file operation (None: a command or refused)
    above: tuple[str, ...]  # its ancestor directories


def ancestors(path: str) -> tuple[str, ...]:
    parts = path.split("/")
    return tuple("/".join(parts[:i]) for i in range(1, len(parts)))
