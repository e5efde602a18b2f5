"""Edit shapes that address lines instead of quoting them: ranges, windows and batches.

An :class:`~reviewtui.core.model.records.Edit` carries one of these in its ``shape`` field; the
shape says where the edit goes and the Edit's SEARCH/REPLACE lines say what it writes:

* :class:`LineRange` replaces lines ``first``..``last`` with REPLACE (SEARCH is empty);
* :class:`Window` looks for SEARCH (the target) only inside lines ``first``..``last``;
* :class:`Batch` is a list of replace / insert-before / insert-after / delete operations
  on one file, all addressed to the file as the model last saw it.

Line references are numbers or hash ids (``12:a3``, :mod:`reviewtui.core.text.hashline`).
``expected_revision`` is :func:`content_revision` of the file the model read: the first
8 hex digits of the sha256 of its bytes. A model can copy that from a view; it cannot
know reviewtui's internal revision counters.

:func:`apply_line_range`, :func:`apply_window` and :func:`apply_batch` answer with the
matcher's :class:`MatchResult`, so the engine turns them into ordinary outcomes.
Pure: no I/O.
"""

from __future__ import annotations

import hashlib
from collections.abc import Sequence
from enum import StrEnum

from reviewtui.core.errors import StaleRef
from reviewtui.core.match import match_edit
from reviewtui.core.match.exact import find_exact
from reviewtui.core.match.guards import duplicate_line
from reviewtui.core.model.outcome import MatchResult, Status
from reviewtui.core.record import record
from reviewtui.core.text.hashline import LineRef, resolve
from reviewtui.core.text.plural import plural

REVISION_WIDTH = 8
STALE_REVISION = "stale-revision"
BAD_RANGE = "bad-range"
BATCH_CONFLICT = "batch-conflict"
DUPLICATE_LINE = "duplicate-line"
WINDOW_MISS = "window-miss"


def content_revision(data: bytes) -> str:
    """The revision a model sees: the first 8 hex digits of sha256 of the file's bytes."""
    return hashlib.sha256(data).hexdigest()[:REVISION_WIDTH]


def revision_matches(expected: str, digest: str) -> bool:
    """Whether ``expected`` (at least 8 hex digits) is a prefix of the full sha256 hex."""
    wanted = expected.strip().lower()
    return len(wanted) >= REVISION_WIDTH and digest.startswith(wanted)


def _uses_ids(*refs: LineRef) -> bool:
    return any(ref.tag is not None for ref in refs)


@record(frozen=True, slots=True)
class LineRange:
    first: LineRef
    last: LineRef
    expected_revision: str | None = None
    # The call as the agent sent it, by the numbers it read on disk, before ``reviewtui
    # mcp`` carried it into the review's version (core/agent/frames.py): used when the
    # file is as the agent read it (a pending change it was carried past was rejected).
    sent: LineRange | None = None

    @property
    def method(self) -> str:
        return "hashline" if _uses_ids(self.first, self.last) else "line-range"

    def __str__(self) -> str:
        return f"{self.first}-{self.last}"


@record(frozen=True, slots=True)
class Window:
    first: LineRef
    last: LineRef
    allow_multiple: bool = False
    expected_revision: str | None = None

    @property
    def method(self) -> str:
        return "window"

    def __str__(self) -> str:
        return f"{self.first}-{self.last}"


class BatchAction(StrEnum):
    REPLACE = "replace"
    INSERT_BEFORE = "insert_before"
    INSERT_AFTER = "insert_after"
    DELETE = "delete"


@record(frozen=True, slots=True)
class BatchOp:
    """One operation of a batch; inserts use ``first`` as their anchor line."""

    action: BatchAction
    first: LineRef
    last: LineRef
    content: tuple[str, ...] = ()

    @property
    def is_insert(self) -> bool:
        return self.action in (BatchAction.INSERT_BEFORE, BatchAction.INSERT_AFTER)

    def describe(self, index: int) -> str:
        where = str(self.first) if self.is_insert or self.first == self.last \
            else f"{self.first}-{self.last}"
        return f"operation {index} ({self.action} {where})"


@record(frozen=True, slots=True)
class Batch:
    ops: tuple[BatchOp, ...]
    expected_revision: str | None = None
    sent: Batch | None = None  # (as LineRange's)

    @property
    def method(self) -> str:
        return "batch"

    def __str__(self) -> str:
        return plural(len(self.ops), "operation")


Shape = LineRange | Window | Batch


def _refused(rule: str, hint: str, method: str) -> MatchResult:
    return MatchResult(Status.REFUSED, method=method, rule=rule, hint=hint)


def _span(lines: Sequence[str], first: LineRef, last: LineRef) -> tuple[int, int]:
    """0-based ``[start, end)`` of an inclusive reference pair; raises StaleRef."""
    start, stop = resolve(lines, first), resolve(lines, last)
    if stop < start:
        raise StaleRef(BAD_RANGE, f"the range {first}-{last} ends before it starts", last)
    return start, stop + 1


def _guarded(lines: Sequence[str], start: int, end: int, new: Sequence[str],
             method: str) -> MatchResult:
    result = MatchResult(Status.APPLIED, method=method, start=start, end=end,
                         new_lines=tuple(new))
    hint = duplicate_line(lines, start, end, new, lines[start:end])
    if hint is None:
        return result
    return MatchResult(Status.REFUSED, method=method, start=start, end=end,
                       new_lines=tuple(new), rule=DUPLICATE_LINE, hint=hint)


def apply_line_range(lines: Sequence[str], shape: LineRange,
                     content: Sequence[str]) -> MatchResult:
    """Replace the referenced lines with ``content``; refuse a stale id or bad range."""
    try:
        start, end = _span(lines, shape.first, shape.last)
    except StaleRef as err:
        return _refused(err.rule, err.message, shape.method)
    return _guarded(lines, start, end, content, shape.method)


def apply_window(lines: Sequence[str], shape: Window, target: Sequence[str],
                 replacement: Sequence[str], *, path: str = "",
                 literal: bool = False) -> MatchResult:
    """Find ``target`` inside the window only, exactly or forgiving expression only."""
    try:
        lo, hi = _span(lines, shape.first, shape.last)
    except StaleRef as err:
        return _refused(err.rule, err.message, "window")
    where = f"the window {shape.first}-{shape.last}"
    if shape.allow_multiple and target:
        starts = find_exact(lines, target, lo, hi - len(target) + 1)
        starts = [s for s in starts if s + len(target) <= hi]
        if len(starts) > 1:
            return _replace_each(lines, starts, len(target), replacement, where)
    result = match_edit(lines, target, replacement, window=(lo, hi), path=path, literal=literal)
    expression_only = not result.method.startswith(("elision", "near"))
    if result.status is Status.APPLIED and expression_only:
        return MatchResult(Status.APPLIED, method="window" if result.method == "exact"
                           else f"window+{result.method}", start=result.start, end=result.end,
                           new_lines=result.new_lines)
    if result.status is Status.REFUSED:
        return MatchResult(Status.REFUSED, method="window", start=result.start,
                           end=result.end, new_lines=result.new_lines, rule=result.rule,
                           hint=result.hint)
    if result.status is Status.AMBIGUOUS:
        spots = ", ".join(f"{a}-{b}" for a, b in result.locations)
        return MatchResult(Status.AMBIGUOUS, method="window", locations=result.locations,
                           hint=f"the target occurs {len(result.locations)} times inside "
                                f"{where} (lines {spots}); narrow the window, or set "
                                "allow_multiple to replace every one")
    return _window_miss(lines, target, replacement, where, path, literal)


def _replace_each(lines: Sequence[str], starts: Sequence[int], size: int,
                  replacement: Sequence[str], where: str) -> MatchResult:
    lo, hi = starts[0], starts[-1] + size
    # Overlapping occurrences (``a a`` in ``a a a``) cannot all be replaced.
    if any(b < a + size for a, b in zip(starts, starts[1:], strict=False)):
        return _refused(BATCH_CONFLICT, f"the target's occurrences inside {where} overlap; "
                        "replace them one at a time", "window")
    region = list(lines[lo:hi])
    for at in reversed(starts):
        region[at - lo : at - lo + size] = replacement
    return MatchResult(Status.APPLIED, method="window-all", start=lo, end=hi,
                       new_lines=tuple(region),
                       locations=tuple((s + 1, s + size) for s in starts))


def _window_miss(lines: Sequence[str], target: Sequence[str], replacement: Sequence[str],
                 where: str, path: str, literal: bool = False) -> MatchResult:
    outside = match_edit(lines, target, replacement, path=path, literal=literal)
    spots = outside.locations or (
        ((outside.start + 1, outside.end),) if outside.status is Status.APPLIED else ())
    if spots:
        found = ", ".join(f"{a}-{b}" for a, b in spots)
        hint = (f"the target is not inside {where}; it occurs at lines {found}, which the "
                "window cuts or misses: widen the window to cover the whole target")
    else:
        hint = f"the target is not inside {where}, nor anywhere else in the file"
    return MatchResult(Status.NOT_FOUND, method="window", rule=WINDOW_MISS, hint=hint,
                       candidates=outside.candidates)


@record(frozen=True, slots=True)
class _Placed:
    index: int  # 1-based position in the batch
    op: BatchOp
    start: int  # 0-based; for an insert, the gap before line ``start``
    end: int  # end-exclusive; equal to start for an insert


def _place(lines: Sequence[str], index: int, op: BatchOp) -> _Placed:
    if op.is_insert:
        at = resolve(lines, op.first)
        gap = at if op.action is BatchAction.INSERT_BEFORE else at + 1
        return _Placed(index, op, gap, gap)
    start, end = _span(lines, op.first, op.last)
    return _Placed(index, op, start, end)


def _conflict(a: _Placed, b: _Placed) -> str | None:
    one, two = a.op.describe(a.index), b.op.describe(b.index)
    if a.op.is_insert and b.op.is_insert:
        if a.start == b.start:
            return f"{one} and {two} insert at the same place; merge them into one insert"
        return None
    if a.op.is_insert or b.op.is_insert:
        ins, rng = (a, b) if a.op.is_insert else (b, a)
        anchor = ins.op.first.number - 1
        if rng.start <= anchor < rng.end:
            return (f"{ins.op.describe(ins.index)} is anchored on a line that "
                    f"{rng.op.describe(rng.index)} changes; anchor it outside that range")
        return None
    if a.start < b.end and b.start < a.end:
        return f"{one} and {two} overlap; merge them into one replace"
    return None


def apply_batch(lines: Sequence[str], batch: Batch) -> MatchResult:
    """Validate every operation against ``lines``, then apply them bottom-up, or nothing."""
    if not batch.ops:
        return _refused(BAD_RANGE, "the batch has no operations", "batch")
    placed: list[_Placed] = []
    for index, op in enumerate(batch.ops, 1):
        try:
            placed.append(_place(lines, index, op))
        except StaleRef as err:
            return _refused(err.rule, f"{op.describe(index)}: {err.message}; nothing of the "
                            "batch was applied", "batch")
    for k, a in enumerate(placed):
        for b in placed[k + 1 :]:
            problem = _conflict(a, b)
            if problem is not None:
                return _refused(BATCH_CONFLICT, f"{problem}; nothing of the batch was applied",
                                "batch")
    guard = next(((p, hint) for p in placed if p.op.action is not BatchAction.DELETE
                  and (hint := duplicate_line(lines, p.start, p.end, p.op.content,
                                              lines[p.start : p.end])) is not None), None)
    lo = min(p.start for p in placed)
    hi = max(p.end for p in placed)
    new = list(lines[lo:hi])  # the lines the batch spans, not a copy of the file
    # Bottom-up, so every address still means the line the model saw. At one position a
    # range runs before an insert, which then lands in front of the range's new lines.
    for p in sorted(placed, key=lambda p: (p.start, 0 if p.op.is_insert else 1),
                    reverse=True):
        new[p.start - lo : p.end - lo] = ([] if p.op.action is BatchAction.DELETE
                                          else p.op.content)
    region = tuple(new)
    if guard is not None:
        p, hint = guard
        return MatchResult(Status.REFUSED, method="batch", start=lo, end=hi, new_lines=region,
                           rule=DUPLICATE_LINE, hint=f"{p.op.describe(p.index)}: {hint}")
    return MatchResult(Status.APPLIED, method="batch", start=lo, end=hi, new_lines=region)
