"""Which turns name which paths: an index over a run's plan, for skipping what a change
cannot reach.

Without console commands, an operation writes only the normalised path it names, so a
file's version in the checkpoints changes only after a turn that names it. Two things
follow, both for sessions (or their stretches) without a command:

- a re-evaluation after a reject jumps from one turn that names an affected path to the
  next one (:meth:`Touches.next_named`), instead of asking every turn in between;
- the earlier versions of a file (the stale-version diagnosis of a failed edit) are read
  from the base and the checkpoints after the last turns that name it
  (:func:`history_trees`), not from every checkpoint of a 5,000-turn session.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Collection, Sequence

from reviewtui.core.engine.decided import first_from
from reviewtui.core.engine.structural_state import StructuralState
from reviewtui.core.model.tree import Tree


class Touches:
    """For each path, the positions of the turns naming it (``names``); for each folder,
    those naming a path below it (``below``). Built from a run's plan, where
    ``touch[pos]`` is (the paths turn ``pos`` names, their folders) and ``commands``
    the positions of the turns with a command, sorted."""

    __slots__ = ("below", "commands", "names")

    def __init__(self, touch: Sequence[tuple[frozenset[str], frozenset[str]]],
                 commands: Sequence[int]) -> None:
        self.commands = commands
        self.names: dict[str, list[int]] = {}
        self.below: dict[str, list[int]] = {}
        for pos, (names, dirs) in enumerate(touch):
            for path in names:
                self.names.setdefault(path, []).append(pos)
            for folder in dirs:
                self.below.setdefault(folder, []).append(pos)

    def next_named(self, closure: Collection[str], dirty: Collection[str], pos: int,
                   done: int) -> int:
        """The first position from ``pos`` on (``done`` if none before it) of a turn
        that names a path of ``closure`` or one below a path of ``dirty``: what
        ``names.isdisjoint(closure) and dirs.isdisjoint(dirty)`` tells turn by turn."""
        first, names, below = done, self.names, self.below
        for path in closure:
            order = names.get(path)
            if order is not None:
                first = first_from(order, pos, first)
        for path in dirty:
            order = below.get(path)
            if order is not None:
                first = first_from(order, pos, first)
        return first


# How far back a failed edit's stale diagnosis looks: the base, and the checkpoints after
# the last this many turns that name the file. Taking every one of them cost a walk over
# all earlier turns for each failed edit: a reject early in a session whose 8,000 turns
# all edit one file made every later edit fail, and took 28 s (quadratic).
HISTORY_TURNS = 100


def history_trees(states: Sequence[StructuralState], touches: Touches,
                  path: str) -> list[Tree]:
    """The trees along which ``path`` goes through the versions it went through recently:
    the base, then the checkpoint after each of the last :data:`HISTORY_TURNS` turns that
    name it -- or the base and the last :data:`HISTORY_TURNS` of ``states`` when a turn
    before the last of them runs a command (a move or an ``:unrm`` can bring a file in
    without naming it). A new list each time (``history.history_of`` keeps it)."""
    commands = touches.commands
    last = len(states) - 1
    if commands and commands[0] < last:
        return [states[0].tree,
                *(state.tree for state in states[max(1, len(states) - HISTORY_TURNS):])]
    order = touches.names.get(path, ())
    end = bisect_left(order, last)  # the turns before the last state's
    return [states[0].tree,
            *(states[pos + 1].tree for pos in order[max(0, end - HISTORY_TURNS) : end])]
