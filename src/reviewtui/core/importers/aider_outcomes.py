"""What Aider logged about a reply's edits after writing them down: skipped, or undone.

Aider writes the model's SEARCH/REPLACE blocks into its history as they came, then logs
what it did with them as ``> `` lines. Two of those notes mean a block never reached the
disk (or left it again), so replaying it would write what Aider did not:

* ``> Skipping edits to settings.py``: the user declined to let Aider edit a file not in
  the chat; that reply's blocks for the file were not applied (``aider-skipped``);
* a ``#### /undo`` request answered by ``> Removed: 1a2b3c4 ...``: Aider reverted the
  files of its commit ``1a2b3c4`` to the commit before; the blocks that commit recorded
  (those after the previous ``> Commit`` line of their turn, up to ``> Commit 1a2b3c4``)
  are not replayed (``aider-undone``). An /undo without a ``Removed:`` line failed (Aider
  says why) and changes nothing. A commit without blocks (a lint fix, the user's own dirty
  files) holds nothing reviewtui replays, so undoing it drops nothing.

Both keep the blocks visible as warnings on their turn, naming Aider's line.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from reviewtui.core.importers.common import problem
from reviewtui.core.model.records import Operation, ParseProblem

SKIPPED = "aider-skipped"
UNDONE = "aider-undone"
# The name runs to its last non-blank character (or is one blank character): as
# "(.+?)\s*$" read it, without trying every end in a run of blanks (quadratic: 8,000
# spaces and a last character took 0.39 s; tests/core/test_regex_linear.py).
SKIP_LINE = re.compile(r"^> Skipping edits to (.*?\S|.)\s*+$")
COMMIT_LINE = re.compile(r"^> Commit ([0-9a-f]{7,40})\b")
REMOVED_LINE = re.compile(r"^> Removed: ([0-9a-f]{7,40})\b")


class ReplyPart:
    """One turn's reply as imported, before it becomes a :class:`Turn` (mutable on purpose:
    a later ``/undo`` takes blocks back out of an earlier turn)."""

    __slots__ = ("notes", "ops", "request", "start", "stop")

    def __init__(self, request: str, start: int, stop: int, ops: list[Operation],
                 notes: list[ParseProblem]) -> None:
        self.request, self.start, self.stop = request, start, stop
        self.ops, self.notes = ops, notes


def follow_outcomes(lines: Sequence[str], parts: Sequence[ReplyPart]) -> None:
    """Take out of ``parts`` the blocks Aider skipped or undid, leaving a warning for each."""
    commits: dict[str, tuple[ReplyPart, int]] = {}
    for part in parts:
        _drop_skipped(lines, part)
        for k in range(part.start, part.stop):
            match = COMMIT_LINE.match(lines[k])
            if match:
                commits[match.group(1)[:7]] = (part, k)
        if part.request.split()[:1] == ["/undo"]:
            _drop_undone(lines, part, commits)


def _drop_skipped(lines: Sequence[str], part: ReplyPart) -> None:
    """Blocks of a file Aider logged it skipped, in the reply before that line."""
    for k in range(part.start, part.stop):
        match = SKIP_LINE.match(lines[k])
        if not match:
            continue
        name = match.group(1)
        since = _last_commit_before(lines, part.start, k)
        dropped = _take(part, _of_file(name, since, k))
        for op in dropped:
            part.notes.append(problem(SKIPPED, f"Aider did not apply this edit of {name}: "
                                      f"line {k + 1} says the user declined it ('Skipping "
                                      f"edits to {name}'); it is not replayed",
                                      op.span.start, op.span.end, severity="warning"))


def _of_file(name: str, since: int, until: int) -> Callable[[Operation], bool]:
    """Picks the operations on ``name`` written between lines ``since`` and ``until``."""
    def chosen(op: Operation) -> bool:
        return (op.path or "").strip() == name and since < op.span.start - 1 < until
    return chosen


def _drop_undone(lines: Sequence[str], undo: ReplyPart,
                 commits: dict[str, tuple[ReplyPart, int]]) -> None:
    """The blocks of the commit an /undo removed (none when Aider's undo failed)."""
    removed = next((m.group(1) for k in range(undo.start, undo.stop)
                    if (m := REMOVED_LINE.match(lines[k]))), None)
    if removed is None or removed[:7] not in commits:
        return
    part, at = commits.pop(removed[:7])
    since = _last_commit_before(lines, part.start, at)
    dropped = _take(part, lambda op: since < op.span.start - 1 < at)
    for op in dropped:
        part.notes.append(problem(UNDONE, f"Aider's /undo at line {undo.start} reverted "
                                  f"commit {removed}, which made this edit of {op.path}; "
                                  "it is not replayed", op.span.start, op.span.end,
                                  severity="warning"))


def _last_commit_before(lines: Sequence[str], start: int, k: int) -> int:
    """The index of the last ``> Commit`` line in ``[start, k)``, else ``start - 1``."""
    return next((j for j in range(k - 1, start - 1, -1) if COMMIT_LINE.match(lines[j])),
                start - 1)


def _take(part: ReplyPart, chosen: Callable[[Operation], bool]) -> list[Operation]:
    """Remove and return the operations ``chosen`` picks, keeping the others in order."""
    taken = [op for op in part.ops if chosen(op)]
    part.ops = [op for op in part.ops if not chosen(op)]
    return taken
