"""In which order a turn's operations run, and what an incremental run notes of each.

Turn semantics: ``:mv``, ``:rn``, ``:undo`` and ``:unrm`` run first in the order
written, then the file blocks in order, then every ``:rm``. An ``:undo`` takes back the
command written before it in the reply (when there is one): it runs right after that
command, in that command's step; an ``:unrm`` of a path the reply's own ``:rm`` removes,
right after that ``:rm``. (Both ran first: ``:rm a.py`` then ``:undo`` took back an
earlier turn's ``:mv`` and removed a.py anyway, exit 0, QA s45 helper-138 #1.)
"""

from __future__ import annotations

from collections.abc import Callable

from reviewtui.core.model.records import CommandName, ConsoleCommand, Operation, Turn
from reviewtui.core.record import record


def _phase(op: Operation) -> int:
    if not isinstance(op, ConsoleCommand):
        return 1
    return 2 if op.name is CommandName.RM else 0


def execution_order(turn: Turn) -> list[tuple[int, Operation]]:
    """The reply's operations, each with its reply position, in the order they run."""
    ops = turn.reply.ops
    if not any(isinstance(op, ConsoleCommand) for op in ops):
        return list(enumerate(ops))  # file blocks alone run as written (most turns)
    phases = _phases(ops)
    return sorted(enumerate(ops), key=lambda item: (phases[item[0]], item[0]))


def _phases(ops: tuple[Operation, ...]) -> list[int]:
    """Each operation's step; an ``:undo`` or ``:unrm`` takes the step of the command of
    this reply it takes back (see the module)."""
    phases: list[int] = []
    done: list[tuple[ConsoleCommand, int]] = []  # the reply's commands in force, in order
    for op in ops:
        phase = _phase(op)
        if isinstance(op, ConsoleCommand) and op.name is CommandName.UNDO:
            phase = done.pop()[1] if done else phase
        elif isinstance(op, ConsoleCommand) and op.name is CommandName.UNRM:
            removed = [n for n, (cmd, _) in enumerate(done) if cmd.name is CommandName.RM
                       and cmd.args and op.args and cmd.args[-1] == op.args[-1]]
            if removed:
                phase = done.pop(removed[-1])[1]
        elif isinstance(op, ConsoleCommand):
            done.append((op, phase))
        phases.append(phase)
    return phases


@record(frozen=True, slots=True)
class Step:
    """One operation of a turn, in execution order, with what incremental runs look at."""

    pos: int
    op: Operation
    path: str | None  # the normalised path of a file operation (None: a command or refused)
    above: tuple[str, ...]  # its ancestor directories


def places(normalize: Callable[[str], str | None]
           ) -> Callable[[Operation], tuple[str | None, tuple[str, ...]]]:
    """An operation's normalised path (``normalize``; None for a command or a refused
    path) and its ancestor directories, worked out once per path as written: a long
    session names a few hundred paths in tens of thousands of operations."""
    known: dict[str, tuple[str | None, tuple[str, ...]]] = {}

    def place(op: Operation) -> tuple[str | None, tuple[str, ...]]:
        if isinstance(op, ConsoleCommand):
            return None, ()
        found = known.get(op.path)
        if found is None:
            path = normalize(op.path)
            found = known[op.path] = (path, ancestors(path) if path else ())
        return found

    return place


def ancestors(path: str) -> tuple[str, ...]:
    parts = path.split("/")
    return tuple("/".join(parts[:i]) for i in range(1, len(parts)))
