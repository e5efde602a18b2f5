"""Line diffs for review: rows for a side-by-side view, intra-line spans, hunk choice.

:func:`build_diff` turns a before/after pair of line lists into display rows. Lines are
diffed with :class:`difflib.SequenceMatcher`; inside each change block removed and added
lines are paired by similarity first (the greedy best-ratio pairing delta uses, never
crossing), unpaired lines become plain removals and additions, and each pair gets the
character ranges of the words that differ. Long unchanged runs fold into a "collapsed"
row that the caller can expand by index.

Everything is bounded: a common prefix and suffix are stripped before the line diff,
large inputs are cut at lines found once on each side (patience-style anchors) before
SequenceMatcher sees them, similarity pairing has a per-block and a per-diff comparison
budget, and blocks or lines too big for intra-line work are shown line by line with a
note saying so. A 20,000-line file diffs in well under a second.

:mod:`reviewtui.core.text.hunks` gives the same change blocks as the ``hunk`` index of the
rows (with ``ignore_whitespace`` off), so a reviewer can keep only some of an edit's blocks.
"""

from __future__ import annotations

import re
from bisect import bisect_left, insort
from collections.abc import Collection, Iterator, Sequence
from difflib import SequenceMatcher
from enum import StrEnum
from itertools import accumulate

from reviewtui.core.record import record

PAIR_THRESHOLD = 0.5  # similarity at which a removed and an added line are one changed line
MAX_INTRALINE_LINES = 2_000  # a block with more lines on a side is shown line by line
MAX_INTRALINE_CHARS = 1_000  # longer lines are never compared word by word
PAIR_BUDGET = 2_500  # line pairs considered per block, beyond it only near the diagonal
# Work allowed for pairing in one diff: a pair considered costs 1 (a token-count bound,
# about 2 us), a pair compared token by token COMPARE_COST more (about 12 us).
TOTAL_PAIR_BUDGET = 50_000
COMPARE_COST = 5
AUTOJUNK_LINES = 2_000  # from this many lines on, let SequenceMatcher junk popular lines
ANCHOR_LINES = 500  # from this many lines on, cut at unique lines before SequenceMatcher

_TOKEN = re.compile(r"\w+|\s+|[^\w\s]")

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from typing import TypeVar

    Line = TypeVar("Line", str, bytes)  # lines as text, or as bytes with their endings

Span = tuple[int, int]
Spans = tuple[Span, ...]
Opcode = tuple[str, int, int, int, int]


class RowKind(StrEnum):
    CONTEXT = "context"
    CHANGE = "change"  # a removed line paired with the added line it became
    REMOVE = "remove"
    ADD = "add"
    COLLAPSED = "collapsed"  # ``hidden`` unchanged lines not shown


@record(frozen=True, slots=True)
class Side:
    """One side of a row: a real file line number (1-based), its text, and the
    ``[start, end)`` character ranges that differ from the paired line."""

    number: int
    text: str
    spans: tuple[Span, ...] = ()


@record(frozen=True, slots=True)
class DiffRow:
    """One display row.

    ``left`` is the before side, ``right`` the after side; a removal has no right, an
    addition no left. A collapsed row's sides carry the numbers of the first hidden
    line (with empty text). ``hunk`` is the change block's index, -1 for unchanged
    rows; without ``ignore_whitespace`` it is the index of
    :func:`reviewtui.core.text.hunks.split_hunks`.
    ``fold`` is, on a collapsed row, the index of its unchanged run among all the
    diff's unchanged runs: put it in ``build_diff(expanded=...)`` to show the run in
    full. Indices do not depend on ``context``, so expansions survive a change of
    context.
    """

    kind: RowKind
    left: Side | None
    right: Side | None
    hidden: int = 0
    hunk: int = -1
    fold: int = -1


@record(frozen=True, slots=True)
class DiffModel:
    """The rows of one diff with its totals.

    ``before_start``/``after_start`` are the file line numbers of ``before[0]`` and
    ``after[0]``: a side numbered ``n`` is ``before[n - before_start]`` (left) or
    ``after[n - after_start]`` (right). ``notes`` say where the diff was simplified.
    """

    rows: tuple[DiffRow, ...]
    hunks: int
    added: int
    removed: int
    notes: tuple[str, ...] = ()
    before_start: int = 1
    after_start: int = 1


# --- line diff -----------------------------------------------------------------------


def _whitespace_key(line: str) -> str:
    return "".join(line.split())


def line_opcodes(before: Sequence[Line], after: Sequence[Line]) -> list[Opcode]:
    """``SequenceMatcher.get_opcodes`` for two line lists, bounded for big inputs.

    The common prefix and suffix are matched first (a full-file diff with a few changes
    leaves little for SequenceMatcher). A stretch of ``ANCHOR_LINES`` lines or more is
    first cut at the lines that occur once on each side (the longest run of them in
    the same order, as patience diff does) and SequenceMatcher runs between those
    anchors: on a big file with many similar blocks it would otherwise rescan the
    whole rest of the file for each block, quadratic time. Adjacent equal runs are
    merged, so non-equal blocks alternate with equal ones.
    """
    n, m = len(before), len(after)
    prefix = 0
    limit = min(n, m)
    while prefix < limit and before[prefix] == after[prefix]:
        prefix += 1
    suffix = 0
    limit -= prefix
    while suffix < limit and before[n - 1 - suffix] == after[m - 1 - suffix]:
        suffix += 1
    blocks: list[Block] = [(0, 0, prefix)]
    blocks += _blocks(before, after, prefix, n - suffix, prefix, m - suffix)
    blocks.append((n - suffix, m - suffix, suffix))
    ops: list[Opcode] = []
    i = j = 0
    for block_i, block_j, size in [*blocks, (n, m, 0)]:
        if size == 0 and (block_i, block_j) != (n, m):
            continue
        if i < block_i and j < block_j:
            ops.append(("replace", i, block_i, j, block_j))
        elif i < block_i:
            ops.append(("delete", i, block_i, j, block_j))
        elif j < block_j:
            ops.append(("insert", i, block_i, j, block_j))
        if size:
            if ops and ops[-1][0] == "equal":
                _, start_i, _, start_j, _ = ops[-1]
                ops[-1] = ("equal", start_i, block_i + size, start_j, block_j + size)
            else:
                ops.append(("equal", block_i, block_i + size, block_j, block_j + size))
        i, j = block_i + size, block_j + size
    return ops


Block = tuple[int, int, int]  # before index, after index, length of an equal run


def _blocks(a: Sequence[Line], b: Sequence[Line], alo: int, ahi: int, blo: int,
            bhi: int) -> list[Block]:
    """The equal runs of ``a[alo:ahi]`` and ``b[blo:bhi]``, in order."""
    if alo >= ahi or blo >= bhi:
        return []
    if ahi - alo == bhi - blo and a[alo:ahi] == b[blo:bhi]:  # (most, between anchors)
        return [(alo, blo, ahi - alo)]
    if ahi - alo >= ANCHOR_LINES or bhi - blo >= ANCHOR_LINES:
        anchors = _anchors(a, b, alo, ahi, blo, bhi)
        if anchors:
            found: list[Block] = []
            i, j = alo, blo
            for anchor_i, anchor_j in anchors:
                found += _blocks(a, b, i, anchor_i, j, anchor_j)
                found.append((anchor_i, anchor_j, 1))
                i, j = anchor_i + 1, anchor_j + 1
            found += _blocks(a, b, i, ahi, j, bhi)
            return found
    if ahi - alo == bhi - blo and ahi - alo < ANCHOR_LINES:
        # Lines replaced in place: a line equal on both sides at the same offset stands for
        # itself, not for a copy of it elsewhere (a line written again outside above
        # itself was read as "deleted here, inserted there", and a rebase over that layer
        # put the reviewer's next change on the wrong line: QA s43 helper-133).
        same = [k for k in range(ahi - alo) if a[alo + k] == b[blo + k]]
        if same and len(same) < ahi - alo:
            found = []
            start = 0  # (the same offset on both sides)
            for k in same:
                found += _blocks(a, b, alo + start, alo + k, blo + start, blo + k)
                found.append((alo + k, blo + k, 1))
                start = k + 1
            return found + _blocks(a, b, alo + start, ahi, blo + start, bhi)
    matcher = SequenceMatcher(None, a[alo:ahi], b[blo:bhi],
                              autojunk=bhi - blo >= AUTOJUNK_LINES)
    return [(alo + i, blo + j, size) for i, j, size in matcher.get_matching_blocks() if size]


def _anchors(a: Sequence[Line], b: Sequence[Line], alo: int, ahi: int, blo: int,
             bhi: int) -> list[tuple[int, int]]:
    """Lines to cut a big stretch at: the longest in-order run of lines found exactly
    once on each side; failing those, of lines found as often on each side (the n-th
    occurrence with the n-th), which splits a file of repeated boilerplate (blank lines,
    closing braces) where everything else changed."""
    where_a: dict[Line, list[int]] = {}
    for i in range(alo, ahi):
        where_a.setdefault(a[i], []).append(i)
    where_b: dict[Line, list[int]] = {}
    for j in range(blo, bhi):
        where_b.setdefault(b[j], []).append(j)
    pairs = [(i[0], where_b[line][0]) for line, i in where_a.items()
             if len(i) == 1 and len(where_b.get(line, ())) == 1]
    if not pairs:
        pairs = [pair for line, i in where_a.items() if len(i) == len(where_b.get(line, ()))
                 for pair in zip(i, where_b[line], strict=True)]
    pairs.sort()
    # Longest increasing subsequence of the after positions (patience sorting).
    tails: list[int] = []  # after position ending the best run of each length
    tail_index: list[int] = []  # index into pairs of that end
    previous: list[int] = []
    for index, (_, j) in enumerate(pairs):
        k = bisect_left(tails, j)
        if k == len(tails):
            tails.append(j)
            tail_index.append(index)
        else:
            tails[k] = j
            tail_index[k] = index
        previous.append(tail_index[k - 1] if k else -1)
    run: list[tuple[int, int]] = []
    index = tail_index[-1] if tail_index else -1
    while index >= 0:
        run.append(pairs[index])
        index = previous[index]
    run.reverse()
    return run


# --- words ---------------------------------------------------------------------------


@record(frozen=True, slots=True)
class _Words:
    """A line cut into compared tokens, with their offsets and running lengths."""

    tokens: tuple[str, ...]
    starts: tuple[int, ...]
    ends: tuple[int, ...]
    total: int  # characters in compared tokens
    bag: dict[str, int]  # characters per distinct token

    def most_shared(self, other: _Words) -> int:
        """An upper bound of the characters a match of the two lines can share."""
        mine, theirs = self.bag, other.bag
        return sum(min(mine[token], theirs[token]) for token in mine.keys() & theirs.keys())

    @classmethod
    def of(cls, line: str, ignore_whitespace: bool) -> _Words:
        tokens: list[str] = _TOKEN.findall(line)  # contiguous: every character is in one
        lengths = [len(token) for token in tokens]
        ends = list(accumulate(lengths))
        starts = [end - size for end, size in zip(ends, lengths, strict=True)]
        if ignore_whitespace:
            keep = [n for n, token in enumerate(tokens) if not token.isspace()]
            tokens = [tokens[n] for n in keep]
            lengths = [lengths[n] for n in keep]
            starts = [starts[n] for n in keep]
            ends = [ends[n] for n in keep]
        bag: dict[str, int] = {}
        for token, size in zip(tokens, lengths, strict=True):
            bag[token] = bag.get(token, 0) + size
        return cls(tuple(tokens), tuple(starts), tuple(ends), sum(lengths), bag)


def _compare(a: _Words, b: _Words) -> tuple[float, SequenceMatcher[str]]:
    """The share of characters in matching tokens (0..1), and the matcher for spans."""
    matcher = SequenceMatcher(None, a.tokens, b.tokens, autojunk=False)
    total = a.total + b.total
    if total == 0:
        return (1.0 if a.tokens == b.tokens else 0.0), matcher
    same = sum(
        len(token)
        for i, _, size in matcher.get_matching_blocks()
        for token in a.tokens[i : i + size]
    )
    return 2.0 * same / total, matcher


def _merge(spans: list[Span]) -> tuple[Span, ...]:
    merged: list[Span] = []
    for start, end in spans:
        if merged and start <= merged[-1][1]:
            merged[-1] = (merged[-1][0], max(end, merged[-1][1]))
        elif end > start:
            merged.append((start, end))
    return tuple(merged)


def word_spans(
    old: str, new: str, *, ignore_whitespace: bool = False
) -> tuple[tuple[Span, ...], tuple[Span, ...]]:
    """The ``[start, end)`` ranges of ``old`` and ``new`` whose words differ.

    Lines are cut into words, runs of whitespace and single punctuation characters;
    the token sequences are matched and every unmatched token run becomes a span.
    """
    a = _Words.of(old, ignore_whitespace)
    b = _Words.of(new, ignore_whitespace)
    return _spans(a, b)


def _spans(a: _Words, b: _Words,
           matcher: SequenceMatcher[str] | None = None) -> tuple[Spans, Spans]:
    if matcher is None:
        matcher = SequenceMatcher(None, a.tokens, b.tokens, autojunk=False)
    left: list[Span] = []
    right: list[Span] = []
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if i2 > i1:
            left.append((a.starts[i1], a.ends[i2 - 1]))
        if j2 > j1:
            right.append((b.starts[j1], b.ends[j2 - 1]))
    return _merge(left), _merge(right)


# --- pairing -------------------------------------------------------------------------


class _Budget:
    """Pairing work left for the whole diff (see ``TOTAL_PAIR_BUDGET``)."""

    def __init__(self, total: int) -> None:
        self.left = total


def _comparisons(n: int, m: int) -> int:
    """At most how many similarities pairing an n x m block computes."""
    return n * m if n * m <= PAIR_BUDGET else n * (2 * max(1, PAIR_BUDGET // (2 * n)) + 1)


def _candidates(n: int, m: int) -> Iterator[tuple[int, int]]:
    """Every (i, j) when the block is small, else a band around the diagonal."""
    if n * m <= PAIR_BUDGET:
        for i in range(n):
            for j in range(m):
                yield i, j
        return
    half = max(1, PAIR_BUDGET // (2 * n))
    for i in range(n):
        centre = i * m // n
        for j in range(max(0, centre - half), min(m, centre + half + 1)):
            yield i, j


def _pair_lines(
    old: Sequence[_Words | None], new: Sequence[_Words | None], budget: _Budget
) -> list[tuple[int, int, SequenceMatcher[str]]]:
    """Pair removed with added lines: best similarity first, order kept, never crossing.

    Returns (removed index, added index, the token matcher of the two) in order.
    ``None`` entries (lines too long to compare) are never paired. The work done is
    taken from ``budget``.
    """
    n, m = len(old), len(new)
    scored: list[tuple[float, int, int]] = []
    matchers: dict[tuple[int, int], SequenceMatcher[str]] = {}
    for i, j in _candidates(n, m):
        a, b = old[i], new[j]
        if a is None or b is None:
            continue
        total = a.total + b.total
        # Skip pairs that could not reach the threshold even if every shared token
        # matched: first by length alone, then by the tokens they have in common.
        if total and 2.0 * min(a.total, b.total) / total < PAIR_THRESHOLD:
            continue
        budget.left -= 1
        if total and 2.0 * a.most_shared(b) / total < PAIR_THRESHOLD:
            continue
        budget.left -= COMPARE_COST
        ratio, matcher = _compare(a, b)
        if ratio >= PAIR_THRESHOLD:
            scored.append((-ratio, i, j))
            matchers[i, j] = matcher
    scored.sort()
    paired_i: list[int] = []  # sorted
    partner: dict[int, int] = {}
    used_j: set[int] = set()
    for _, i, j in scored:
        if i in partner or j in used_j:
            continue
        k = bisect_left(paired_i, i)
        if k > 0 and partner[paired_i[k - 1]] > j:
            continue
        if k < len(paired_i) and partner[paired_i[k]] < j:
            continue
        insort(paired_i, i)
        partner[i] = j
        used_j.add(j)
    return [(i, partner[i], matchers[i, partner[i]]) for i in paired_i]


# --- rows ----------------------------------------------------------------------------


@record
class _Builder:
    before: Sequence[str]
    after: Sequence[str]
    before_start: int
    after_start: int
    context: int
    ignore_whitespace: bool
    expanded: Collection[int]
    budget: _Budget
    rows: list[DiffRow]
    big_blocks: list[int]
    long_lines: int = 0
    budget_spent: bool = False

    def left(self, i: int, spans: tuple[Span, ...] = ()) -> Side:
        return Side(self.before_start + i, self.before[i], spans)

    def right(self, j: int, spans: tuple[Span, ...] = ()) -> Side:
        return Side(self.after_start + j, self.after[j], spans)

    def context_rows(self, i1: int, j1: int, count: int) -> None:
        for k in range(count):
            self.rows.append(DiffRow(RowKind.CONTEXT, self.left(i1 + k), self.right(j1 + k)))

    def equal(self, i1: int, i2: int, j1: int, fold: int, before_change: bool,
              after_change: bool) -> None:
        size = i2 - i1
        lead = min(self.context, size) if before_change else 0
        trail = min(self.context, size - lead) if after_change else 0
        hidden = size - lead - trail
        if fold in self.expanded or hidden < 2:  # folding one line saves nothing
            self.context_rows(i1, j1, size)
            return
        self.context_rows(i1, j1, lead)
        first_i, first_j = i1 + lead, j1 + lead
        self.rows.append(DiffRow(
            RowKind.COLLAPSED,
            Side(self.before_start + first_i, ""),
            Side(self.after_start + first_j, ""),
            hidden=hidden,
            fold=fold,
        ))
        self.context_rows(first_i + hidden, first_j + hidden, trail)

    def change(self, i1: int, i2: int, j1: int, j2: int, hunk: int) -> None:
        n, m = i2 - i1, j2 - j1
        if n == 0 or m == 0:
            for i in range(i1, i2):
                self.rows.append(DiffRow(RowKind.REMOVE, self.left(i), None, hunk=hunk))
            for j in range(j1, j2):
                self.rows.append(DiffRow(RowKind.ADD, None, self.right(j), hunk=hunk))
            return
        if max(n, m) > MAX_INTRALINE_LINES:
            self.big_blocks.append(max(n, m))
            self.by_position(i1, i2, j1, j2, hunk)
            return
        if self.budget.left < _comparisons(n, m):
            self.budget_spent = True
            self.by_position(i1, i2, j1, j2, hunk)
            return
        old = [self.words(self.before[i]) for i in range(i1, i2)]
        new = [self.words(self.after[j]) for j in range(j1, j2)]
        pairs = _pair_lines(old, new, self.budget)
        i, j = 0, 0
        for pi, pj, matcher in [*pairs, (n, m, None)]:
            for k in range(i, pi):
                self.rows.append(DiffRow(RowKind.REMOVE, self.left(i1 + k), None, hunk=hunk))
            for k in range(j, pj):
                self.rows.append(DiffRow(RowKind.ADD, None, self.right(j1 + k), hunk=hunk))
            if pi < n:
                a, b = old[pi], new[pj]
                # Only comparable lines pair.
                assert a is not None
                assert b is not None
                left_spans, right_spans = _spans(a, b, matcher)
                self.rows.append(DiffRow(
                    RowKind.CHANGE,
                    self.left(i1 + pi, left_spans),
                    self.right(j1 + pj, right_spans),
                    hunk=hunk,
                ))
            i, j = pi + 1, pj + 1

    def words(self, line: str) -> _Words | None:
        if len(line) > MAX_INTRALINE_CHARS:
            self.long_lines += 1
            return None
        return _Words.of(line, self.ignore_whitespace)

    def by_position(self, i1: int, i2: int, j1: int, j2: int, hunk: int) -> None:
        """Line i beside line i, without word spans: for blocks too big to pair."""
        n, m = i2 - i1, j2 - j1
        for k in range(max(n, m)):
            left = self.left(i1 + k) if k < n else None
            right = self.right(j1 + k) if k < m else None
            kind = RowKind.CHANGE if left and right else RowKind.REMOVE if left else RowKind.ADD
            self.rows.append(DiffRow(kind, left, right, hunk=hunk))

    def notes(self) -> tuple[str, ...]:
        notes: list[str] = []
        if self.big_blocks:
            biggest = max(self.big_blocks)
            more = len(self.big_blocks) - 1
            tail = f" (and {more} more)" if more else ""
            notes.append(f"intra-line highlighting skipped: hunk of {biggest:,} lines{tail}")
        if self.long_lines:
            s = "" if self.long_lines == 1 else "s"
            notes.append(f"intra-line highlighting skipped for {self.long_lines:,} "
                         f"line{s} over {MAX_INTRALINE_CHARS:,} characters")
        if self.budget_spent:
            notes.append("intra-line highlighting skipped for some hunks: too many changed "
                         "lines to pair")
        return tuple(notes)


def build_diff(
    before: Sequence[str],
    after: Sequence[str],
    *,
    before_start: int = 1,
    after_start: int = 1,
    context: int = 3,
    ignore_whitespace: bool = False,
    expanded: Collection[int] = frozenset(),
) -> DiffModel:
    """The side-by-side rows of ``before`` -> ``after`` (lines without endings).

    ``before_start``/``after_start`` number the first line of each side. Unchanged
    runs keep ``context`` lines next to each change and fold the rest into a collapsed
    row, unless the run's index is in ``expanded``. With ``ignore_whitespace`` lines
    that differ only in whitespace count as unchanged (their rows show both texts) and
    word spans ignore whitespace.
    """
    context = max(0, context)
    if ignore_whitespace:
        ops = line_opcodes([_whitespace_key(s) for s in before],
                           [_whitespace_key(s) for s in after])
    else:
        ops = line_opcodes(before, after)
    builder = _Builder(before, after, before_start, after_start, context, ignore_whitespace,
                       expanded, _Budget(TOTAL_PAIR_BUDGET), [], [])
    hunk = fold = added = removed = 0
    last = len(ops) - 1
    for index, (tag, i1, i2, j1, j2) in enumerate(ops):
        if tag == "equal":
            builder.equal(i1, i2, j1, fold, index > 0, index < last)
            fold += 1
        else:
            builder.change(i1, i2, j1, j2, hunk)
            hunk += 1
            removed += i2 - i1
            added += j2 - j1
    notes = builder.notes()
    if not hunk and (before or after):
        notes = ("no changes", *notes)
    return DiffModel(tuple(builder.rows), hunk, added, removed, notes,
                     before_start, after_start)


def unified_rows(model: DiffModel) -> tuple[DiffRow, ...]:
    """The model's rows for a unified view: each change block's removed lines, then
    its added lines (spans kept); unchanged and collapsed rows as they are."""
    rows: list[DiffRow] = []
    removes: list[DiffRow] = []
    adds: list[DiffRow] = []

    def flush() -> None:
        rows.extend(removes)
        rows.extend(adds)
        removes.clear()
        adds.clear()

    current = -1
    for row in model.rows:
        if row.kind in (RowKind.CONTEXT, RowKind.COLLAPSED):
            flush()
            rows.append(row)
            continue
        if row.hunk != current:
            flush()
            current = row.hunk
        if row.left is not None:
            removes.append(DiffRow(RowKind.REMOVE, row.left, None, hunk=row.hunk))
        if row.right is not None:
            adds.append(DiffRow(RowKind.ADD, None, row.right, hunk=row.hunk))
    flush()
    return tuple(rows)
