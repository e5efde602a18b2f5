"""Where a turn's earlier operations landed on a file, and a later edit's plain numbers
placed by them (QA s47 helper-157 M1).

A model writes every plain line number of a reply against the file as the turn started
(``Edit 1 @ 2`` and ``Edit 2 @ 5`` of one reply both count in the file it read). Once
``Edit 1`` landed, the file is another: its line 5 may be another line. Each landed
operation replaced a known stretch of the file before it (its outcome's ``lines``) with a
known number of lines (up to its ``cursor``), so a line its author read moves by
arithmetic alone: a line above that stretch stays, a line below moves by what the stretch
grew or shrank, a line inside it was rewritten and is not there to be addressed. No
content is compared: a line diff pairs repeated blocks by their text, and after an edit
that inserted a copy of one it placed a number on the wrong copy (ac1825f, reverted).

An operation counts for the lines it changed: the unchanged lines a SEARCH/REPLACE (or a
range) kept at either end of what it replaced, line for line equal in the file before and
after it, stay where they were and can be addressed. Where the lines at an end repeat
("a b" written for "a"), which copy is the kept one is not known, so only the lines both
readings keep count as kept.

Only operations that landed count: one refused, rejected or pending changed nothing, and
the numbers still mean the lines of the file as the turn started. The chain must be whole:
each landed operation starts from the version the one before it left (the first from the
turn's start), and the file now is what the last one left; anything else (a whole file
written over it, a line count that does not add up) leaves the numbers unplaced. A file
the turn made itself (a move, a whole file written) has no version from the turn's start:
its numbers count from the version it made (a reply's moves run before its file blocks,
``order.execution_order``).
"""

from __future__ import annotations

from collections.abc import Sequence

from reviewtui.core.engine.results import OpResult, op_title
from reviewtui.core.model.filestate import FileState
from reviewtui.core.record import record, replace
from reviewtui.core.text.plural import plural

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:  # (line shapes and refs load hashlib: only numbered edits need them)
    from reviewtui.core.model.edit_shapes import Shape
    from reviewtui.core.text.hashline import LineRef


@record(frozen=True, slots=True)
class Landing:
    """An operation of this turn that landed on a path: the lines ``first``..``last`` of
    the file before it (1-based; ``last == first - 1`` for an insertion before line
    ``first``) replaced by ``written`` lines (``first`` 0: a whole file written).

    ``since``: where the chain it ends starts among the path's landings (just after the
    last whole file written up to it, 0: none); ``broken``: why that chain does not add
    up ("": it does)."""

    title: str
    first: int
    last: int
    written: int
    before: FileState | None
    after: FileState | None
    since: int = 0
    broken: str = ""


# path -> this turn's landings on it, in order (kept as the turn is evaluated).
Landed = dict[str, list[Landing]]


def note_landing(landed: Landed, result: OpResult) -> None:
    """Add ``result`` to ``landed`` when it landed on a file; whether it follows the one
    before on the path is checked here, once (:func:`in_turn` asks the last one)."""
    outcome = result.outcome
    if not result.landed or not outcome.path:
        return
    title, before, after = op_title(result.op), outcome.before_state, outcome.after_state
    earlier = landed.setdefault(outcome.path, [])
    last = earlier[-1] if earlier else None
    lines, end = outcome.lines, outcome.cursor
    if lines is None or end is None:  # (a whole file: a new chain starts after it)
        earlier.append(Landing(title, 0, 0, 0, before, after, len(earlier) + 1))
        return
    first, final = lines
    written = end - (first - 1)
    # (a whole file a creation wrote has no version recorded: the next one starts there)
    linked = last is None or (not last.first and last.after is None) or _same(last.after,
                                                                              before)
    broken = last.broken if last is not None else ""
    if broken:
        pass  # (the chain is broken already)
    elif before is None or not linked:
        broken = f"something else of this turn changed it before its {title}"
    elif after is None or after.line_count != before.line_count + written - (final - first + 1):
        broken = f"where this turn's {title} wrote is not known for certain"
    since = last.since if last is not None else 0
    earlier.append(Landing(title, first, final, written, before, after, since, broken))


def in_turn(shape: Shape, landings: Sequence[Landing], start: FileState | None,
            current: FileState) -> tuple[Shape, str] | str:
    """``shape``'s numbers, which name lines of ``start`` (the file as the turn started;
    None: the turn made it), placed on ``current`` after this turn's ``landings`` on it
    (:func:`place`), or why they cannot be."""
    since = landings[-1].since if landings else 0
    if start is not None:
        if since:
            return f"this turn's {landings[since - 1].title} wrote it whole"
        return place(shape, landings, start, current)
    # Made by this turn: counted from the version it made (the last whole file written,
    # else the version its first edit found, which a move of the reply brought).
    tail = landings[since:]
    if not tail:  # (none since, or only a whole file: the numbers stand)
        return shape, ""
    made = landings[since - 1].after if since else None
    return place(shape, tail, tail[0].before if made is None else made, current)


def place(shape: Shape, landings: Sequence[Landing], start: FileState | None,
          current: FileState) -> tuple[Shape, str] | str:
    """``shape``, whose numbers name lines of ``start`` (the file as the turn started),
    with them placed on ``current`` through ``landings``, and a note saying where they
    went ("": nowhere else); or why they cannot be placed."""
    from reviewtui.core.model.edit_shapes import BatchAction, LineRange, Window

    broken = _broken_chain(landings, start, current)
    if broken or start is None:
        return broken or "what it was before this turn's edits is not known"
    size = start.line_count
    moved: list[str] = []
    spans = [_changed(landing) for landing in landings]
    if isinstance(shape, LineRange | Window):
        found = _carried(shape.first, shape.last, spans, size, moved)
        if isinstance(found, str):
            return found
        return replace(shape, first=found[0], last=found[1]), _note(moved)
    ops = []
    for op in shape.ops:
        if op.is_insert:  # (anchored on one line: before it or after it)
            gap = int(op.action is BatchAction.INSERT_AFTER)
            found = _carried(op.first, op.first, spans, size, moved, gap)
            if isinstance(found, str):
                return found
            shift = found[0].number - op.first.number
            ops.append(replace(op, first=found[0], last=_ref(op.last, shift)))
            continue
        found = _carried(op.first, op.last, spans, size, moved)
        if isinstance(found, str):
            return found
        ops.append(replace(op, first=found[0], last=found[1]))
    return replace(shape, ops=tuple(ops)), _note(moved)


def _same(one: FileState | None, other: FileState | None) -> bool:
    return one is other or (one is not None and other is not None and one == other)


def _broken_chain(landings: Sequence[Landing], start: FileState | None,
                  current: FileState) -> str:
    """Why ``current`` is not ``start`` with ``landings`` made in order ("": it is); each
    one follows the one before it (``Landing.broken``, :func:`note_landing`)."""
    if not landings:
        return "something else of this turn changed it"
    first, last = landings[0], landings[-1]
    if last.broken:
        return last.broken
    if start is None or not _same(first.before, start):
        return f"something else of this turn changed it before its {first.title}"
    if not _same(current, last.after):
        return "something else of this turn changed it since"
    return ""


# (title, first, last, written): a landing narrowed to the lines it changed (_changed).
Span = tuple[str, int, int, int]


def _changed(landing: Landing) -> Span:
    """``landing`` without the lines it kept unchanged at either end of what it replaced
    (equal, line for line, in the file before it and after it: a SEARCH/REPLACE's context
    lines). Where those ends could pair otherwise (lines that repeat there), only the
    lines kept by both readings, the top ones first and the bottom ones first, count."""
    a, b, written = landing.first, landing.last, landing.written
    before, after, count = landing.before, landing.after, b - a + 1
    cap = min(count, written)
    if not a or not cap or before is None or after is None:
        return landing.title, a, b, written
    old, new, base = before.line_view, after.line_view, a - 1
    if count == written and all(old[base + k] == new[base + k] for k in range(count)):
        return landing.title, a, a - 1, 0  # (written back as it was: it changed no line)
    top = bottom = 0
    while top < cap and old[base + top] == new[base + top]:
        top += 1
    while bottom < cap and old[base + count - 1 - bottom] == new[base + written - 1 - bottom]:
        bottom += 1
    top, bottom = min(top, cap - bottom), min(bottom, cap - top)
    return landing.title, a + top, b - bottom, written - top - bottom


def _carried(first: LineRef, last: LineRef, spans: Sequence[Span], size: int,
             moved: list[str], gap: int | None = None) -> tuple[LineRef, LineRef] | str:
    """The lines ``first``..``last`` of the file as the turn started, where they are
    after the landings ``spans``, or why they are not anywhere. ``gap``: an insertion
    anchored on the line ``first`` (0 before it, 1 after it), which must not go where an
    earlier one went (which of the two comes first is not known)."""
    lo, hi = first.number, last.number
    named = f"line {lo}" if lo == hi else f"lines {lo}-{hi}"
    if not 1 <= lo <= hi <= size:
        return (f"{named} {_is(lo, hi)} not in the file as the turn started "
                f"({plural(size, 'line')})")
    at, end = lo, hi
    for title, a, b, written in spans:
        if b < a and not written:
            continue  # (it changed no line)
        inside = (a <= end and at <= b) if b >= a else at < a <= end
        if inside and b >= a:
            return (f"{named} as its author read it {_is(lo, hi)} among the lines this "
                    f"turn's {title} replaced")
        if inside:
            return (f"{named} as its author read it span the place where this turn's "
                    f"{title} inserted lines")
        if gap is not None and b < a and at + gap == a:
            return (f"the insertion at {named} as its author read it goes where this turn's "
                    f"{title} inserted lines: which of the two comes first is not known")
        if at > b:
            shift = written - (b - a + 1)
            at, end = at + shift, end + shift
    if at != lo:
        moved.append(f"{named} as its author read it {_is(lo, hi)} "
                     f"{'line' if lo == hi else 'lines'} {_span(at, end)} now")
    return _ref(first, at - lo), _ref(last, end - hi)


def _is(lo: int, hi: int) -> str:
    return "is" if lo == hi else "are"


def _span(lo: int, hi: int) -> str:
    return str(lo) if lo == hi else f"{lo}-{hi}"


def _ref(ref: LineRef, shift: int) -> LineRef:
    from reviewtui.core.text.hashline import LineRef

    return ref if not shift else LineRef(ref.number + shift, ref.tag)


def _note(moved: list[str]) -> str:
    if not moved:
        return ""
    more = f" (and {len(moved) - 3} more)" if len(moved) > 3 else ""
    return ", ".join(moved[:3]) + more + ", below this turn's earlier edits of the file"
