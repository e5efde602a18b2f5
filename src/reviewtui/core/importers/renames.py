"""The renames of one diff in an order a replay can run them.

A diff describes two snapshots: ``git diff -M`` writes a swap of two files as ``rename
a -> b`` and ``rename b -> a``, a rotation or a chain (``b -> c``, then ``a -> b``) as
renames in path order. ``git apply`` makes them all at once; a replay moves one file at a
time, and a move onto a path that is still there is refused (QA s44 helper-134 M7: both
moves of a swap were refused, "already exists"). So a rename whose new path another
rename moves away runs after that one (a chain, back to front), and in a cycle one file
steps aside first, to a name no file of the diff or the project has, and takes its new
name last; a note says so. Each rename stays one visible ``:mv`` (the step aside is one
more), which the reviewer accepts or rejects as any other. Pure.
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Sequence

from reviewtui.core.importers.common import Change, command, problem
from reviewtui.core.model.records import CommandName, ConsoleCommand, ParseProblem
from reviewtui.core.record import replace as replace_record

SWAP = "diff-rename-cycle"  # (info) a file steps aside for a swap or a rotation
_ASIDE = ".reviewtui-aside"


def renames_in_order(changes: Sequence[Change], notes: list[ParseProblem],
                     exists: Callable[[str], bool] | None = None) -> list[Change]:
    """``changes`` with the renames that wait for others after them (see the module)."""
    moves: dict[int, tuple[str, str]] = {}
    for n, change in enumerate(changes):
        move = _move(change)
        if move is not None:
            moves[n] = (_key(move.args[0]), _key(move.args[1]))
    source_of = {source: n for n, (source, _) in moves.items()}
    waits = {n: source_of[target] for n, (_, target) in moves.items()
             if source_of.get(target, n) != n}
    if not waits:
        return list(changes)
    taken = {p for change in changes for op in change.ops for p in _paths(op)}
    placed: set[int] = set()
    groups: dict[int, list[Change]] = {}  # first member's position -> the group in order
    for n in sorted(waits):
        if n in placed:
            continue
        group = _group(n, waits)
        placed.update(group)
        ordered = [changes[m] for m in _run_order(group, waits)]
        if _is_cycle(group, waits):
            ordered = _aside(changes[group[0]], ordered, taken, exists, notes)
        groups[min(group)] = ordered
    result: list[Change] = []
    for n, change in enumerate(changes):
        if n in groups:
            result.extend(groups[n])
        elif n not in placed:
            result.append(change)
    return result


def _group(start: int, waits: dict[int, int]) -> list[int]:
    """Every rename linked with ``start`` by waiting, either way, each before the one it
    waits for (a cycle from ``start``)."""
    waited_by: dict[int, int] = {m: n for n, m in waits.items()}
    group = [start]
    at = start
    while at in waits and waits[at] not in group:
        at = waits[at]
        group.append(at)
    at = start
    while at in waited_by and waited_by[at] not in group:
        at = waited_by[at]
        group.insert(0, at)
    return group


def _is_cycle(group: list[int], waits: dict[int, int]) -> bool:
    return all(n in waits and waits[n] in group for n in group)


def _run_order(group: list[int], waits: dict[int, int]) -> list[int]:
    """A chain, the one waited for first: reversed. A cycle: its first member steps aside
    (:func:`_aside`), so the one whose target that frees runs first, and the first member
    last."""
    if not _is_cycle(group, waits):
        return list(reversed(group))
    return [*reversed(group[1:]), group[0]]


def _aside(change: Change, ordered: list[Change], taken: set[str],
           exists: Callable[[str], bool] | None,
           notes: list[ParseProblem]) -> list[Change]:
    move = _move(change)
    assert move is not None  # (a member of a cycle is a rename)
    source, target = move.args[0], move.args[1]
    aside = source + _ASIDE
    number = 1
    while _key(aside) in taken or (exists is not None and exists(aside)):
        number += 1
        aside = f"{source}{_ASIDE}-{number}"
    taken.add(_key(aside))
    line = move.span.start
    step = Change([command(CommandName.MV, [source, aside], line)], change.span)
    moved = command(CommandName.MV, [aside, target], line)
    last = replace_record(change, ops=[moved if op is move else op for op in change.ops])
    names = sorted({_key(m.args[0]) for c in ordered if (m := _move(c)) is not None})
    notes.append(problem(SWAP, f"the diff's renames trade names ({', '.join(map(repr, names))}):"
                         f" {source!r} steps aside to {aside!r} first and becomes {target!r} "
                         "last (git apply renames them all at once)", line,
                         severity="info"))
    return [step, *(c for c in ordered if c is not change), last]


def _move(change: Change) -> ConsoleCommand | None:
    for op in change.ops:
        if isinstance(op, ConsoleCommand) and op.name is CommandName.MV and len(op.args) == 2:
            return op
    return None


def _paths(op: object) -> tuple[str, ...]:
    if isinstance(op, ConsoleCommand):
        return tuple(_key(arg) for arg in op.args)
    path = getattr(op, "path", "")
    return (_key(path),) if path else ()


def _key(path: str) -> str:
    return posixpath.normpath(path) if path else path
