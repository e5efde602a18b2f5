"""Where a line of a file version came from: what binds an accept to the place it was seen.

An accepted edit's SEARCH is matched again whenever the file before it changes: an earlier
operation rejected, accepted, still pending (the disk draft lands only accepted ones,
the workbench shows pending ones landing too). Its text may then match somewhere else:
edit 1 swaps the bodies of ``a()`` and ``b()``, edit 2 turns ``return 1`` (now in
``b()``) into ``return 100``; with edit 1 rejected, or only pending, ``return 1`` is
``a()``'s line (QA s32, F1). The accept was given for ``b()``: it must land there or not
at all.

So every version an evaluated operation makes carries its *lineage*
(:attr:`FileState.lineage`): the operation, the lines it replaced and how many lines it
wrote, linked to the lineage of the version before. A line's *origin* follows that chain
back: a line an operation wrote is (that operation, offset), any other line is (the
version at the chain's bottom, line number): the file as read from the base tree. Lines an
operation wrote back unchanged at either end of its region (the context it repeated)
keep the origin they had, and so do the lines between its changes that it wrote back
unchanged (a hunk's context between two changed lines), when every alignment of the
region's old and new lines agrees on them. An accept records the origins of the first and
last lines it changes (:func:`landing_pin`: its own context is only how it was found); a
later evaluation lands it only where the lines it changes have those origins
(:func:`same_place`), else it is not applied and says where it would now go.

Base lines are named with the base version's identity (size and checksum): when the base
itself changed (an outside change rebased over, a review reopened on another disk), the
line numbers cannot be compared and the check stands aside (the outside-change rebase has
its own guards).
Pure.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Sequence

from reviewtui.core.model.filestate import FileState
from reviewtui.core.model.outcome import Candidate, Diagnosis, Outcome, Status
from reviewtui.core.record import replace

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.core.engine.file_edits import Proposal
    from reviewtui.core.model.records import Edit

# A pinned origin as saved: ("o", turn, pos, offset) for a line an operation wrote,
# ("b", the base version's identity, line index) for a line of the base version.
Origin = tuple[str, int, int, int] | tuple[str, str, int]
# The first and last lines an edit changes (CHANGE), or the lines around a pure insertion
# (BETWEEN): their origins, the kind, the stretch's first line number (0-based) and a
# checksum of its text.
Pin = tuple[Origin, Origin, str, int, str]
CHANGE, BETWEEN = "change", "between"
MOVED = "accept-moved"  # the outcome's rule when an accept would land elsewhere


class Lineage:
    """One operation's step in a version's history (see the module docstring)."""

    __slots__ = ("base", "end", "head", "kept", "newlen", "pos", "prev", "start", "tail",
                 "turn")

    def __init__(self, prev: Lineage | None, base: FileState | None, key: tuple[int, int],
                 start: int, end: int, newlen: int, head: int, tail: int,
                 kept: dict[int, int] | None = None) -> None:
        self.prev, self.base = prev, base
        self.turn, self.pos = key
        self.start, self.end, self.newlen, self.head, self.tail = (start, end, newlen,
                                                                   head, tail)
        # Between head and tail: offsets (from start) of written lines that are lines of
        # the region it replaced, unchanged, -> their offsets there (a hunk's context
        # between two changes).
        self.kept = kept


def adopt(state: FileState, before: FileState | None, key: tuple[int, int],
          span: tuple[int, int] | None = None) -> None:
    """Give ``state``, just made by operation ``key`` from ``before`` (None: a new file),
    its lineage. ``span``: the lines of ``before`` it replaced (0-based, end exclusive),
    when known; else the changed stretch is found by comparing the two from each end.

    Only a version this evaluation made is given one (a version shared with the file
    before, or already adopted, is left alone)."""
    if state is before or state.lineage is not None or state.binary:
        return
    new = state.line_view
    if before is None or before.binary:
        step = Lineage(None, None, key, 0, 0, len(new), 0, 0)
    else:
        old = before.line_view
        start, end = span if span is not None else (0, len(old))
        newlen = end - start + len(new) - len(old)
        if not 0 <= start <= end <= len(old) or newlen < 0:
            start, end, newlen = 0, len(old), len(new)
        head = _common(old, new, start, min(end - start, newlen), 1)
        tail = _common(old, new, (end - 1, start + newlen - 1),
                       min(end - start, newlen) - head, -1)
        prev = before.lineage if isinstance(before.lineage, Lineage) else None
        base = prev.base if prev is not None else before
        kept = _kept_between(old[start + head : end - tail],
                             new[start + head : start + newlen - tail], head)
        step = Lineage(prev, base, key, start, end, newlen, head, tail, kept)
    object.__setattr__(state, "lineage", step)  # (a version made here, not yet shared)


_PAIRS = 20_000  # pairs of equal lines in a region's middle aligned; beyond, same place only


def _kept_between(old: Sequence[str], new: Sequence[str], head: int) -> dict[int, int] | None:
    """The unchanged lines between the first and last changed ones of a replaced region,
    new offset -> old offset (from the region's start).

    A line is kept when every longest common subsequence of the two pairs it the same way
    (the only pair at its place in such a sequence). A line that several alignments could
    pair is not: it may have been moved (a swap of two bodies lets either ``return`` pair
    with the other's old line, and a later edit of it would follow the line back where
    the reviewer did not see it). Found from the pairs of equal lines by the longest
    increasing chains ending and starting at each (O(pairs log pairs)); a region with too
    many keeps only the lines equal at the same place, when its length is unchanged."""
    if not old or not new:
        return None
    if len(old) == 1 or len(new) == 1:  # (most edits: one line for one, or for several)
        one, many, flip = (old[0], new, False) if len(old) == 1 else (new[0], old, True)
        if many.count(one) != 1:
            return None  # nowhere, or several places it could pair with
        at = many.index(one)
        return {head + (0 if flip else at): head + (at if flip else 0)}
    where: dict[str, list[int]] = {}
    for at, line in enumerate(new):
        where.setdefault(line, []).append(at)
    # The pairs of equal lines, by old line and then new line from the last: a chain of
    # them with the new lines strictly increasing is a common subsequence (patience).
    # Counted before they are made: a 24,000-line configure script rewritten by one
    # 496-hunk diff has tens of millions (blank lines, ``fi``), 770 MB and a second.
    if sum(len(where.get(line, ())) for line in old) > _PAIRS:
        if len(old) != len(new):
            return None
        return {head + at: head + at for at, line in enumerate(new) if line == old[at]} or None
    pairs = [(a, b) for a, line in enumerate(old) for b in reversed(where.get(line, ()))]
    ahead = _chains([b for _, b in pairs])  # the longest chain ending at each pair
    behind = _chains([-b for _, b in reversed(pairs)])[::-1]  # ... starting at each
    best = max(ahead, default=0)
    levels: dict[int, list[tuple[int, int]]] = {}
    for pair, before, after in zip(pairs, ahead, behind, strict=True):
        if before + after - 1 == best:  # on some longest common subsequence
            levels.setdefault(before, []).append(pair)
    return {head + found[0][1]: head + found[0][0]
            for found in levels.values() if len(found) == 1} or None


def _chains(values: Sequence[int]) -> list[int]:
    """For each value, the longest strictly increasing run of values ending with it."""
    tails: list[int] = []
    lengths = []
    for value in values:
        at = bisect_left(tails, value)
        if at == len(tails):
            tails.append(value)
        else:
            tails[at] = value
        lengths.append(at + 1)
    return lengths


def _common(old: Sequence[str], new: Sequence[str], at: int | tuple[int, int],
            most: int, step: int) -> int:
    """How many lines, up to ``most``, agree going ``step`` from ``at`` in both."""
    i, j = (at, at) if isinstance(at, int) else at
    count = 0
    while count < most and old[i] == new[j]:
        count, i, j = count + 1, i + step, j + step
    return count


def origin(state: FileState, index: int) -> Origin:
    """Where line ``index`` (0-based) of ``state`` came from."""
    step = state.lineage if isinstance(state.lineage, Lineage) else None
    base = step.base if step is not None else state
    while step is not None:
        if index >= step.start + step.head:
            if index >= step.start + step.newlen - step.tail:
                index += step.end - step.start - step.newlen
            elif step.kept is not None and (was := step.kept.get(index - step.start)) is not None:
                index = step.start + was
            else:
                return ("o", step.turn, step.pos, index - step.start)
        step = step.prev
    return ("b", _identity(base) if base is not None else "", index)


_identities: dict[int, tuple[FileState, str]] = {}  # id -> (the version, its identity)


def _identity(base: FileState) -> str:
    """A base version's name in a pin: its size and CRC-32 (zlib is loaded by ``apply``
    anyway, hashlib is not: tests/cli/test_cli_startup_lazy.py). It only tells a
    changed base from the same one; a look-alike would at worst let line numbers of two
    bases be compared, which a pin of op-written lines never does."""
    held = _identities.get(id(base))
    if held is not None and held[0] is base:
        return held[1]
    from zlib import crc32  # (a pin's first base: not on a plain ``check``)

    data = base.data
    name = f"{len(data):x}-{crc32(data):08x}"
    if len(_identities) >= 64:  # (bounded: a few bases are in use at a time)
        # The older half goes, not all: a base remembered just before (an original about
        # to be replaced) must still be there when the new one is named and compared
        # (cleared whole, a pin on it stood aside once 64 had been named: a flaky test).
        for key in list(_identities)[:32]:
            dropped, named = _identities.pop(key)
            if _bases.get(named) is dropped:  # (a newer version of the same bytes keeps it)
                del _bases[named]
        _maps.clear()
    _identities[id(base)] = (base, name)
    _bases[name] = base
    return name


def on_other_base(pinned: Pin, state: FileState) -> bool:
    """Whether ``pinned`` names lines of a base version other than the one ``state`` (a
    version an operation is evaluated on) descends from: the file changed under it."""
    step = state.lineage if isinstance(state.lineage, Lineage) else None
    base = step.base if step is not None else state
    if base is None or base.binary:
        return False
    name = _identity(base)
    return any(len(end) == 3 and end[1] != name for end in pinned[:2])


def remember(base: FileState) -> None:
    """Name a base that is about to be replaced (an outside change taken as the file's
    new original), so pins on its lines can be followed into the new one (:func:`_across`)."""
    if not base.binary:
        _identity(base)


_bases: dict[str, FileState] = {}  # identity -> a base version this process named so
_maps: dict[tuple[str, str], list[tuple[int, int, int]]] = {}  # (was, now) -> equal runs


def _across(was: Origin, now: Origin) -> bool:
    """Whether base line ``was`` is base line ``now`` of another base (an outside change
    taken as the file's new original, a review reopened on other content): told by a line
    diff of the two bases when this process has seen both (their equal runs pair the
    lines); when it has not, it cannot be told and the check stands aside, as the rebase
    guards apply. An accept pinned above the end of a file that the new original grew
    past (a later version of it put there outside) is not taken to its new end (QA s34:
    an httpx fixture appended again after its reworked copy)."""
    old, new = _bases.get(str(was[1])), _bases.get(str(now[1]))
    if old is None or new is None:
        return True
    key = (str(was[1]), str(now[1]))
    runs = _maps.get(key)
    if runs is None:
        from reviewtui.core.text.diff import line_opcodes  # (a changed base alone)

        runs = _maps[key] = [(i1, i2, j1) for tag, i1, i2, j1, _ in
                             line_opcodes(old.line_view, new.line_view) if tag == "equal"]
    line = int(was[2])
    return any(i1 <= line < i2 and j1 + line - i1 == int(now[2]) for i1, i2, j1 in runs)


def pin(state: FileState, start: int, end: int, kind: str = CHANGE) -> Pin | None:
    """Lines ``start:end`` (0-based, a non-empty stretch) of ``state``: the origins of the
    first and last, ``kind``, where the stretch starts and a checksum of its text."""
    if state.binary or not 0 <= start < end <= state.line_count:
        return None
    from zlib import crc32  # (a pin's first: not on a plain ``check``)

    text = "\n".join(state.line_view[start:end]).encode("utf-8", "surrogatepass")
    return origin(state, start), origin(state, end - 1), kind, start, f"{crc32(text):08x}"


def landing_pin(outcome: Outcome, search: Sequence[str], replace: Sequence[str],
                ) -> Pin | None:
    """Where a located edit's outcome changes its file: the lines it changes, not the
    context it repeats unchanged at either end (that is only how it was found: a hunk's
    context may be lines an earlier edit wrote, next to the lines this one changes, which
    are where it was). The context is told from the edit's own SEARCH and REPLACE
    (``search``, ``replace``: the same whatever the reviewer edits into it), when its
    region has the SEARCH's length; else the whole region counts. A pure insertion is
    pinned by the lines around it. None when nothing is located."""
    state, lines = outcome.before_state, outcome.lines
    if state is None or lines is None or lines[1] < lines[0] or state.binary:
        return None
    head = tail = 0
    if lines[1] - lines[0] + 1 == len(search):
        most = min(len(search), len(replace))
        head = _common(search, replace, 0, most, 1)
        tail = _common(search, replace, (len(search) - 1, len(replace) - 1), most - head, -1)
    first, last = lines[0] - 1 + head, lines[1] - tail
    if first < last:
        return pin(state, first, last)
    return pin(state, max(first - 1, 0), min(first + 1, state.line_count), BETWEEN)


def same_place(pinned: Pin, now: Pin | None) -> bool:
    """Whether an edit pinned at ``pinned`` lands where it was (``now``: its landing's
    pin, taken the same way).

    Its lines come from the same places (a change: both ends, or one end and the same
    text; an insertion: either line around it, the other may be one an earlier edit wrote
    and that is gone); or they are the same text at the same line number (an earlier edit
    that wrote them was rejected, and other edits before had written that very text
    there: regenerated lock files). Base lines of a base that changed since are the same
    when a line diff of the two bases pairs them (:func:`_across`), or when it cannot be
    told."""
    if now is None or now[2] != pinned[2]:
        return False
    if now[3:] == pinned[3:]:
        return True
    same = [was == is_ or (was[0] == is_[0] == "b" and was[1] != is_[1] and _across(was, is_))
            for was, is_ in zip(pinned[:2], now[:2], strict=True)]
    # One end the same line, and the same text from it: the same place (the other end a
    # line that an earlier edit had rewritten to that same text, and is undone now).
    return any(same) if pinned[2] == BETWEEN or now[4] == pinned[4] else all(same)


def held_to_pin(outcome: Outcome, proposal: Proposal, pinned: Pin, op: Edit,
                ) -> tuple[Outcome, Proposal | None]:
    """An accepted edit's outcome, kept only where the reviewer saw it land.

    Elsewhere it is not found, its one candidate the lines it now matches (``y`` there
    places it on exactly those lines, as for any missed edit), and nothing lands."""
    lines = outcome.lines
    if lines is None or lines[1] < lines[0] or same_place(
            pinned, landing_pin(outcome, op.search_lines, op.replace_lines)):
        return outcome, proposal
    found = Candidate(lines[0], lines[1], 1.0, Diagnosis.MOVED,
                      tuple(outcome.before.split("\n"))[:8])
    message = (f"accepted where it was shown landing ({describe(pinned)}), but its SEARCH now "
               f"matches {found.lines_named()} of {outcome.path}, other lines: an operation "
               "before it was decided otherwise (or is still pending). Nothing was applied; "
               "look at it again, then accept it where it now lands, or reject it")
    return replace(outcome, status=Status.NOT_FOUND, rule=MOVED, message=message,
                   hint="", candidates=(found,), locations=(), forceable=False,
                   lines=None, before="", after="", after_state=None, cursor=None), None


def describe(pinned: Pin) -> str:
    """Where a pin was taken, as a reviewer reads it."""
    first = pinned[0]
    if len(first) == 4:
        return (f"on what operation {int(first[2]) + 1} of turn {first[1]} wrote, its line "
                f"{int(first[3]) + 1}")
    return f"on line {int(first[2]) + 1} of the file as it was"



def carried_start(source: FileState, target: FileState, first: int, last: int) -> int | None:
    """Where the 1-based lines ``first..last`` of ``source`` stand in ``target`` (1-based),
    told by their origins: two versions of one evaluation (the decided draft's and the
    display's, which also lands the pending operations) name a line they share the same
    way. None unless every one of them is in ``target``, in a row and with the same text
    (a pending operation that rewrote one of them, even to the same text, made another
    line). Each line is followed forward through ``target``'s steps (an origin names one
    line of a version), not looked for among all its lines."""
    if (source.binary or target.binary or not 1 <= first <= last <= source.line_count
            or not isinstance(target.lineage, Lineage)):
        return None
    steps: list[Lineage] = []
    step: Lineage | None = target.lineage
    while step is not None:
        steps.append(step)
        step = step.prev
    steps.reverse()
    base = steps[0].base
    found = [_forward(steps, base, origin(source, index)) for index in range(first - 1, last)]
    at = found[0]
    if at is None or found != list(range(at, at + len(found))):
        return None
    if target.line_view[at : at + len(found)] != source.line_view[first - 1 : last]:
        return None
    return at + 1


def _forward(steps: Sequence[Lineage], base: FileState | None, where: Origin) -> int | None:
    """The line of the version ``steps`` make (oldest first) whose origin is ``where``."""
    if len(where) == 3:  # ("b", the base's identity, line)
        if base is None or where[1] != _identity(base):
            return None
        index, first = int(where[2]), 0
    else:  # ("o", turn, pos, offset)
        for first, step in enumerate(steps):
            if (step.turn, step.pos) == (where[1], where[2]):
                index = step.start + int(where[3])
                first += 1
                break
        else:
            return None
    for step in steps[first:]:
        if index < step.start + step.head:
            continue  # above the region, or its unchanged head
        if index >= step.end - step.tail:  # below it, or its unchanged tail
            index += step.newlen - (step.end - step.start)
            continue
        was = index - step.start  # in the changed middle: kept there, or gone
        kept = [new for new, old in (step.kept or {}).items() if old == was]
        if not kept:
            return None
        index = step.start + kept[0]
    return index
