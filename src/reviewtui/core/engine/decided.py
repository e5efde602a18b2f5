"""The turns of a session that hold a decision, in order: the decided draft's shortcut.

Under the decided-only policy a turn nobody decided in is all skipped whatever the tree
(``SessionRun._evaluate_turn``): its result and ledger stay as they are and its checkpoint
is the one before it. Re-evaluating, the run takes whole stretches of such turns at once
and visits only the decided (and changed) ones, so a decision in a long, mostly pending
session costs what its file's decided operations cost, not a walk of every later turn.

:class:`DecidedTurns` holds their positions for one decisions mapping: counted once, then
kept up to date from the keys each update changes.
"""

from __future__ import annotations

from bisect import bisect_left, insort
from collections.abc import Iterable, Mapping, Sequence

from reviewtui.core.engine.decisions import Decision, OpKey

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from typing import Any


class DecidedTurns:
    """The positions of the turns with a decision (even a pending one: what
    ``SessionRun._decided_in`` asks), in order, for ``decisions`` over ``session``.

    ``sizes[pos]`` holds the operations of the turn at position ``pos`` (a key past them
    decides nothing) and ``positions`` maps a turn's number to its position (read after
    ``sizes``: a run's plan makes both).
    """

    __slots__ = ("counts", "decisions", "order", "session", "size")

    def __init__(self, decisions: Mapping[OpKey, Decision], session: object,
                 sizes: Sequence[Sequence[Any]], positions: Mapping[int, int]) -> None:
        self.counts: dict[int, int] = {}
        for key in decisions:
            pos = _position(key, positions, sizes)
            if pos is not None:
                self.counts[pos] = self.counts.get(pos, 0) + 1
        self.order = sorted(self.counts)
        self.decisions, self.size, self.session = decisions, len(decisions), session

    def holds(self, decisions: Mapping[OpKey, Decision], session: object) -> bool:
        """Whether these are the decisions (the same mapping, not changed in place as far
        as its size tells) and session it was counted for."""
        return (self.decisions is decisions and self.size == len(decisions)
                and self.session is session)

    def recount(self, decisions: Mapping[OpKey, Decision], sizes: Sequence[Sequence[Any]],
                positions: Mapping[int, int]) -> None:
        """The decisions became ``decisions``. A turn counts by the keys it has entries
        for, whatever their values (an entry set to "pending" counts too), so only the
        keys that came or went matter."""
        self.recount_keys(self.decisions.keys() ^ decisions.keys(), decisions, sizes,
                          positions)

    def recount_keys(self, keys: Iterable[OpKey], decisions: Mapping[OpKey, Decision],
                     sizes: Sequence[Sequence[Any]], positions: Mapping[int, int]) -> None:
        """The mapping counted was changed in place at ``keys``, which came into it or went
        out of it (now ``decisions``, the same mapping)."""
        counts, order = self.counts, self.order
        for key in keys:
            now = key in decisions
            pos = _position(key, positions, sizes)
            if pos is None:
                continue
            count = counts.get(pos, 0) + (1 if now else -1)
            if count:
                counts[pos] = count
                if count == 1 and now:
                    insort(order, pos)
            else:
                del counts[pos]
                order.pop(bisect_left(order, pos))
        self.decisions, self.size = decisions, len(decisions)

    def before(self, upto: int | None, done: int) -> list[int]:
        """The positions before ``upto`` (None: any) and ``done``."""
        return self.order[: bisect_left(self.order, done if upto is None else min(upto, done))]


def first_from(order: Sequence[int], pos: int, done: int) -> int:
    """The first position of the sorted ``order`` at or after ``pos``; ``done`` if there
    is none before it."""
    at = bisect_left(order, pos)
    return min(order[at], done) if at < len(order) else done


def _position(key: OpKey, positions: Mapping[int, int],
              sizes: Sequence[Sequence[Any]]) -> int | None:
    pos = positions.get(key[0])
    return pos if pos is not None and 0 <= key[1] < len(sizes[pos]) else None
