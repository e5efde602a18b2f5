"""In which order a turn's operations run, and what an incremental run notes of each.

Turn semantics: ``:mv``, ``:rn``, ``:undo`` and ``:unrm`` run first in the order
written, then the file blocks in order, then every ``:rm``. An ``:undo`` written after a
``:mv`` or ``:rn`` of its reply so takes that one back, right after it. An ``:rm`` runs
last, after every ``:undo``: one the reply takes back itself (an ``:undo`` written after
it, an ``:unrm`` of a path it removes) runs in neither form, and neither does the
command taking it back (:func:`taken_back_in_reply`): ``:rm a.py`` then ``:undo`` ran the
undo first, which took back an earlier turn's move, and a.py was removed anyway (QA s45
helper-138 #1); run in the removal's own step, a pair nested in another took back the
wrong one (helper-139 #6).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Sequence

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
    return sorted(enumerate(ops), key=lambda item: (_phase(item[1]), item[0]))


def taken_back_in_reply(ops: tuple[Operation, ...]) -> tuple[dict[int, int], dict[int, int]]:
    """Position -> position of its partner, for each ``:rm`` the reply takes back itself
    and the ``:undo`` or ``:unrm`` that does: read in the order written (as the footer
    lint reads it, ``undo_in_reply``), an ``:undo`` takes back the last command before it
    not yet taken back (an ``:rm`` among them pairs here), an ``:unrm`` the last ``:rm``
    naming its path (any of its paths: the whole command then runs in neither form).
    And, apart: ``:undo`` position -> the position of the other command of its reply it
    takes back (which runs before it: should that one not run, the undo takes back
    nothing, not an earlier turn's command)."""
    pairs: dict[int, int] = {}
    undoes: dict[int, int] = {}
    done: list[int] = []  # the reply's commands in force, in order
    for pos, op in enumerate(ops):
        if not isinstance(op, ConsoleCommand):
            continue
        if op.name is CommandName.UNDO:
            taken = done.pop() if done else None
            if taken is not None and _removes(ops[taken], None):
                pairs[taken], pairs[pos] = pos, taken
            elif taken is not None:
                undoes[pos] = taken
        elif op.name is CommandName.UNRM:
            wanted = {_key(arg) for arg in op.args}
            removal = next((at for at in reversed(done) if _removes(ops[at], wanted)), None)
            if removal is not None:
                done.remove(removal)
                pairs[removal], pairs[pos] = pos, removal
        else:
            done.append(pos)
    return pairs, undoes


def undo_targets(turns: Sequence[Turn], done: Sequence[tuple[int, int]] = (),
                 ) -> dict[tuple[int, int], tuple[int, int] | None]:
    """Each ``:undo`` (turn, position) -> the command it takes back, or None: the command
    written last before it, in the session's written order, not yet taken back.

    Read as the model wrote the replies, the way :func:`taken_back_in_reply` reads one
    reply (an ``:unrm`` of a removal of its own reply takes that one back), across turns:
    an ``:undo`` written first takes back the previous replies' last command, whether or
    not it ran (then it takes back nothing: ``nothing-to-undo``), never an older one, and
    not the one that ran last (an ``:rm`` runs after its reply's moves; QA s47 helper-147
    M2: turn 1's ``:rm old.py`` then ``:mv a.py b.py``, and turn 2's ``:undo`` brought
    old.py back). ``done``: the commands in force before the first of ``turns`` (a run
    of some turns alone: those of the undo stack it starts from)."""
    found: dict[tuple[int, int], tuple[int, int] | None] = {}
    done = list(done)  # the commands in force, in written order
    for turn in turns:
        ops = turn.reply.ops
        for pos, op in enumerate(ops):
            if not isinstance(op, ConsoleCommand):
                continue
            key = (turn.index, pos)
            if op.name is CommandName.UNDO:
                found[key] = done.pop() if done else None
                continue
            if op.name is CommandName.UNRM:
                wanted = {_key(arg) for arg in op.args}
                removal = next((at for at in reversed(done) if at[0] == turn.index
                                and _removes(ops[at[1]], wanted)), None)
                if removal is not None:
                    done.remove(removal)
                    continue
            done.append(key)
    return found


def _removes(op: Operation, paths: set[str] | None) -> bool:
    """Whether ``op`` is an ``:rm`` (of one of ``paths``, when given: named, in a folder
    it names, or matched by its glob; QA s45 helper-140 F2: ``:rm *.txt`` then ``:unrm
    a.txt`` removed a.txt)."""
    if not isinstance(op, ConsoleCommand) or op.name is not CommandName.RM:
        return False
    if paths is None:
        return True
    from fnmatch import fnmatchcase  # (a reply that takes a removal back alone)

    named = [_key(arg) for arg in op.args if arg != "-f"]
    return any(path == name or path.startswith(name + "/") or fnmatchcase(path, name)
               for path in paths for name in named)


def _key(path: str) -> str:
    return posixpath.normpath(path.strip().strip("/")) if path.strip() else path


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
