"""The ledger: one line per change a turn made to the tree, with its revisions.

Each line is kept apart from the revision it was written at, so that a turn reused by an
incremental re-evaluation can be renumbered without being evaluated again.
"""

from __future__ import annotations

from collections.abc import Sequence

from reviewtui.core.engine.file_edits import Proposal
from reviewtui.core.model.outcome import Outcome
from reviewtui.core.model.records import Edit, FullFile

# One ledger line, kept apart from the revision it was written at so that a reused
# turn can be renumbered: (text before the revisions, text after, bumps the tree: 0/1).
LedgerItem = tuple[int, str, str, int]  # (reply position, prefix, suffix, bump)


def render(items: Sequence[LedgerItem], revision: int) -> tuple[str, ...]:
    out: list[str] = []
    for _pos, prefix, suffix, bump in items:
        if bump:
            out.append(f"{prefix} r{revision}->r{revision + bump}{suffix}")
            revision += bump
        else:
            out.append(f"{prefix} r{revision}{suffix}")
    return tuple(out)


def bumps(items: Sequence[LedgerItem]) -> int:
    return sum(item[3] for item in items)


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
