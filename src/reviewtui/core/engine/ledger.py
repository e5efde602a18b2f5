"""The ledger: one line per change a turn made to the tree, with its revisions.

Each line is kept apart from the revision it was written at, so that a turn reused by an
incremental re-evaluation can be renumbered without being evaluated again.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from operator import itemgetter

from reviewtui.core.engine.file_edits import Proposal
from reviewtui.core.model.outcome import Outcome
from reviewtui.core.model.records import Edit, FullFile
from reviewtui.core.typed import overload

# One ledger line, kept apart from the revision it was written at so that a reused
# turn can be renumbered: (text before the revisions, text after, bumps the tree: 0/1).
LedgerItem = tuple[int, str, str, int]  # (reply position, prefix, suffix, bump)
_BUMP = itemgetter(3)


def render(items: Sequence[LedgerItem], revision: int) -> tuple[str, ...]:
    out: list[str] = []
    for _pos, prefix, suffix, bump in items:
        if bump:
            out.append(f"{prefix} r{revision}->r{revision + bump}{suffix}")
            revision += bump
        else:
            out.append(f"{prefix} r{revision}{suffix}")
    return tuple(out)


class Ledger(Sequence[str]):
    """A turn's ledger lines: ``render(items, start)``, rendered when first read.

    A re-evaluation renumbers every reused turn after a change that adds or takes away
    a revision (a reject): thousands of turns nobody reads until the ledger is shown or
    exported. Equal to the tuple of its lines (and hashed as it), so it compares as the
    eager ledger did.
    """

    __slots__ = ("_items", "_lines", "_start")

    def __init__(self, items: Sequence[LedgerItem], start: int) -> None:
        self._items, self._start = items, start
        self._lines: tuple[str, ...] | None = None

    def lines(self) -> tuple[str, ...]:
        if self._lines is None:
            self._lines = render(self._items, self._start)
        return self._lines

    def __len__(self) -> int:
        return len(self._items)  # one line per item

    @overload
    def __getitem__(self, index: int) -> str: ...
    @overload
    def __getitem__(self, index: slice) -> tuple[str, ...]: ...
    def __getitem__(self, index: int | slice) -> str | tuple[str, ...]:
        return self.lines()[index]

    def __iter__(self) -> Iterator[str]:
        return iter(self.lines())

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Ledger):
            return self.lines() == other.lines()
        if isinstance(other, tuple):
            return self.lines() == other
        return NotImplemented

    def __hash__(self) -> int:
        return hash(self.lines())

    def __repr__(self) -> str:
        return repr(self.lines())


def bumps(items: Sequence[LedgerItem]) -> int:
    return sum(map(_BUMP, items))  # (a generator costs three times more, per reused turn)


def edit_item(pos: int, op: Edit | FullFile, outcome: Outcome,
                 proposal: Proposal) -> LedgerItem:
    if isinstance(op, Edit):
        span = f"{outcome.lines[0]}-{outcome.lines[1]}" if outcome.lines else "-"
        return (pos, f"edit {proposal.path} #{op.label} {outcome.method} {span}", "", 1)
    verb = "create" if outcome.method == "new-file" else "write"
    return (pos, f"{verb} {proposal.path} full-file", "", 1)


def command_item(pos: int, line: str, before: int, after: int) -> LedgerItem:
    """A command's ledger line split around its revisions (see :func:`render`)."""
    token = f" r{before}->r{after}" if after != before else f" r{before}"
    prefix, found, suffix = line.rpartition(token)
    if not found:  # not the shape structural.py writes: keep the line as it is
        return (pos, line, "", 0) if after == before else (pos, line, "", after - before)
    return (pos, prefix, suffix, after - before)
