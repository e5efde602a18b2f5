"""The renames of one diff in an order a replay can run them.

A diff describes two snapshots, and ``git apply`` makes its renames all at once; a replay
moves one file at a time, and a move onto a path still taken is refused. ``git diff -M``
writes renames in path order, so a rename onto a name another rename frees (``b -> c``
after ``a -> b``), or into a folder whose name a file another rename moves away holds
(``a -> d/a`` with ``d -> x``), came first and was refused, and the rest of the diff was
written: a half-done tree (QA s45 helper-139 #11). Such a rename now runs after the one it
waits for. Renames that wait on each other in a cycle (a swap) keep their order and are
refused as before, nothing of them written: moving one aside to a name of its own was
tried and taken back (the name depended on the disk, a reopened review read another).
Only the order changes; every rename stays the ``:mv`` the reviewer sees. Pure.
"""

from __future__ import annotations

from collections.abc import Sequence

from reviewtui.core.importers.common import Change, path_key, with_folders
from reviewtui.core.model.records import CommandName, ConsoleCommand


def renames_in_order(changes: Sequence[Change]) -> list[Change]:
    """``changes`` with each rename after the one that frees its new name (see the
    module); everything else in the order written."""
    moves: dict[int, tuple[str, str]] = {}
    for n, change in enumerate(changes):
        move = next((op for op in change.ops if isinstance(op, ConsoleCommand)
                     and op.name is CommandName.MV and len(op.args) == 2), None)
        if move is not None:
            moves[n] = (path_key(move.args[0]), path_key(move.args[1]))
    source_of = {source: n for n, (source, _) in moves.items()}
    waits: dict[int, int] = {}
    for n, (_, target) in moves.items():
        for taken in with_folders(target):
            blocker = source_of.get(taken)
            if blocker is not None and blocker != n:
                waits[n] = blocker
                break
    if not waits:
        return list(changes)
    out: list[Change] = []
    done: set[int] = set()
    for n in range(len(changes)):
        if n in done:
            continue
        chain = [n]
        while chain[-1] in waits and waits[chain[-1]] not in done:
            following = waits[chain[-1]]
            if following in chain:  # a cycle: as written (refused, as git apply does not)
                chain = [n]
                break
            chain.append(following)
        for m in reversed(chain):
            out.append(changes[m])
            done.add(m)
    return out

