"""Which turns name which paths: an index over a run's plan, for skipping what a change
cannot reach.

Without console commands, an operation writes only the normalised path it names, so a
file's version in the checkpoints changes only after a turn that names it. Two things
follow, both for sessions (or their stretches) without a command:

- a re-evaluation after a reject jumps from one turn that names an affected path to the
  next one (:meth:`Touches.next_named`), instead of asking every turn in between;
- the earlier versions of a file (the stale-version diagnosis of a failed edit) are read
  from the base and the checkpoints after the turns that name it
  (:func:`history_trees`), not from every checkpoint of a 5,000-turn session.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

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


def history_trees(states: Sequence[StructuralState], touches: Touches,
                  path: str) -> Iterable[Tree]:
    """The trees along which ``path`` goes through the versions it goes through along all
    of ``states``: the base, then the checkpoint after each turn that names it -- or all
    of ``states`` when a turn before the last of them runs a command (a move or an
    ``:unrm`` can bring a file in without naming it)."""
    commands = touches.commands
    if commands and commands[0] < len(states) - 1:
        return (state.tree for state in states)
    trees = [states[0].tree]
    last = len(states) - 1
    for pos in touches.names.get(path, ()):
        if pos >= last:
            break
        trees.append(states[pos + 1].tree)
    return trees
