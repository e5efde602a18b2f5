"""Outside changes as content-anchored hunks, re-applied on top of a new draft.

When someone edits a file after the workbench wrote its own content there, the edit is
kept as an *outside layer*: the pair (what the workbench had written, what the disk
then held). :func:`apply_layer` replays that change onto whatever the draft holds for
the path later, hunk by hunk, each hunk found by its text (never by line number, never
by time) through the matching cascade's exact stage. A hunk that no longer finds its
text, or finds it twice, is a clash: the caller writes nothing and reports a conflict.

Lines are compared with their line endings, so an outside change survives byte for
byte. Pure: bytes in, bytes out.
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import StrEnum

from reviewtui.core.engine.decisions import OpKey
from reviewtui.core.match import match_edit
from reviewtui.core.match.exact import find_exact
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.tree import FileState
from reviewtui.core.record import record

# Context tried around a hunk, (before, after), until its text is unique in the file it
# was cut from; small first, so unrelated edits next to it are less likely to clash.
_CONTEXTS = ((0, 0), (1, 0), (0, 1), (1, 1), (2, 1), (1, 2), (2, 2), (3, 3))


def split_lines(data: bytes) -> list[bytes]:
    """Lines with their endings: ``b"".join(split_lines(d)) == d`` always holds."""
    lines = data.split(b"\n")
    out = [line + b"\n" for line in lines[:-1]]
    if lines[-1]:
        out.append(lines[-1])
    return out


def _text(line: bytes) -> str:
    """One line for the matcher: decoded, without its ending (raises UnicodeDecodeError)."""
    text = line.decode("utf-8")
    if text.endswith("\n"):
        text = text[:-1].removesuffix("\r")
    return text


@record(frozen=True, slots=True)
class OutsideHunk:
    """One outside change: ``before`` became ``after`` between the two contexts.

    ``start`` is its 0-based line in the version it was cut from (for display only; the
    hunk is found again by its text).
    """

    start: int
    context_before: tuple[bytes, ...]
    before: tuple[bytes, ...]
    after: tuple[bytes, ...]
    context_after: tuple[bytes, ...]

    @property
    def search(self) -> tuple[bytes, ...]:
        return (*self.context_before, *self.before, *self.context_after)

    @property
    def result(self) -> tuple[bytes, ...]:
        return (*self.context_before, *self.after, *self.context_after)

    def describe(self) -> str:
        first = self.start + 1
        if not self.before:
            return f"lines inserted after line {self.start}"
        return f"lines {first}-{self.start + len(self.before)}"


def _unique(texts: Sequence[str], window: Sequence[str]) -> bool:
    return len(find_exact(texts, window, 0, len(texts))) == 1


def outside_hunks(ours: bytes, theirs: bytes, *,
                  excerpt: bool = False) -> tuple[OutsideHunk, ...]:
    """The change from ``ours`` to ``theirs`` as hunks with the least unique context.
    ``excerpt``: two stretches of a file (an operation's change put back), aligned by
    ``difflib`` alone; two whole versions go through the bounded line diff.

    Raises UnicodeDecodeError for content that is not UTF-8 text.
    """
    a, b = split_lines(ours), split_lines(theirs)
    texts = tuple(_text(line) for line in a)
    _ = [_text(line) for line in b]  # theirs must be text too
    hunks: list[OutsideHunk] = []
    for tag, i1, i2, j1, j2 in _opcodes(a, b, bounded=not excerpt):
        if tag == "equal":
            continue
        chosen: tuple[int, int] | None = None
        widest = (0, 0)
        for cb, ca in _CONTEXTS:
            cb, ca = min(cb, i1), min(ca, len(a) - i2)
            window = texts[i1 - cb : i2 + ca]
            widest = (cb, ca)
            if window and any(line.strip() for line in window) and _unique(texts, window):
                chosen = (cb, ca)
                break
        cb, ca = chosen or widest
        hunks.append(OutsideHunk(i1, tuple(a[i1 - cb : i1]), tuple(a[i1:i2]), tuple(b[j1:j2]),
                          tuple(a[i2 : i2 + ca])))
    return tuple(hunks)


@record(frozen=True, slots=True)
class OutsideLayer:
    """An outside change to a path: the disk went from ``ours`` to ``theirs``.

    ``None`` on either side means the file was absent (created or deleted outside).
    """

    ours: bytes | None
    theirs: bytes | None

    def hunks(self) -> tuple[OutsideHunk, ...]:
        if self.ours is None or self.theirs is None:
            return ()
        try:
            return outside_hunks(self.ours, self.theirs)
        except UnicodeDecodeError:
            return ()


@record(frozen=True, slots=True)
class LayerResult:
    """:func:`apply_layer`'s answer: the bytes to write (None: absent), or a clash."""

    ok: bool
    data: bytes | None = None
    message: str = ""
    hunk: OutsideHunk | None = None


def _locate(target: list[bytes], texts: tuple[str, ...], hunk: OutsideHunk,
            lines: tuple[bytes, ...]) -> tuple[int, int] | None | str:
    """Where ``lines`` (a hunk's search or result) sits in ``target``: (start, end)."""
    wanted = tuple(_text(line) for line in lines)
    found = match_edit(texts, wanted, wanted, explain=False)  # (ok or not: no diagnosis)
    located = found.method == "exact" and (
        found.status is Status.APPLIED
        or (found.status is Status.REFUSED and found.rule == "duplicate-line")
    )
    if found.status is Status.AMBIGUOUS:
        return "ambiguous"
    if not located:
        return None
    if tuple(target[found.start : found.end]) != lines:
        return None  # same text, other line endings: not the bytes the hunk was cut from
    return found.start, found.end


def apply_layer(layer: OutsideLayer, target: bytes | None, *,
                excerpt: bool = False) -> LayerResult:
    """``target`` with the outside change re-applied on top, or why it cannot be.

    A layer is two whole versions of the file (what the workbench wrote, what the disk
    then held), and ``target`` the draft's version of it now: a hunk that meets a change
    the draft made since the workbench's version is that change again (skipped) or a
    clash (see :func:`_meets`). ``excerpt``: the layer holds a stretch of a file, found
    in ``target`` by its text alone (an operation's own change put back,
    ``shell/outside_undone.py``)."""
    if target == layer.ours or target == layer.theirs:
        return LayerResult(True, layer.theirs)  # (the draft's version is the disk's now)
    if layer.ours is None:
        return LayerResult(False, message="the file was created outside the workbench where "
                           "the draft has no file")
    if layer.theirs is None:
        return LayerResult(False, message="the file was deleted outside the workbench")
    if target is None:
        return LayerResult(False, message="the draft removes a file that was changed outside "
                           "the workbench")
    try:
        hunks = outside_hunks(layer.ours, layer.theirs, excerpt=excerpt)
        lines = split_lines(target)
        texts = tuple(_text(line) for line in lines)
    except UnicodeDecodeError:
        return LayerResult(False, message="a binary file changed outside the workbench; "
                           "binary changes cannot be merged")
    splices: list[tuple[int, int, tuple[bytes, ...]]] = []
    base = split_lines(layer.ours)
    own = [] if excerpt else [_reach(base, change) for change in _own_changes(base, lines)]
    for hunk in hunks:
        met = _meets(_reach(base, (hunk.start, hunk.start + len(hunk.before), hunk.after)),
                     own)
        if met == "same":
            continue  # the draft made this very change since: once is enough
        if met:
            return LayerResult(False, hunk=hunk, message=f"the outside change at "
                               f"{hunk.describe()} no longer applies: the draft changed "
                               "the same lines")
        if not any(_text(line).strip() for line in hunk.search):
            return LayerResult(False, hunk=hunk, message=f"the outside change at "
                               f"{hunk.describe()} has no text to anchor it")
        where = _locate(lines, texts, hunk, hunk.search)
        if where is None or where == "ambiguous":
            # Its result somewhere in an excerpt: already there (an operation's change
            # put back). Not for two whole versions: a change the draft made too was
            # told above by where both were cut; found by text alone, the result may be
            # another copy of those lines, and skipping it lost the user's line (QA s34:
            # a duplicated "y" dropped when an edit wrote a second "y x").
            done = _locate(lines, texts, hunk, hunk.result) if excerpt else None
            if isinstance(done, tuple):
                continue  # the draft already holds the outside text: nothing to re-apply
            why = ("its text now occurs more than once" if where == "ambiguous"
                   else "the draft changed the same lines")
            return LayerResult(False, hunk=hunk, message=f"the outside change at "
                               f"{hunk.describe()} no longer applies: {why}")
        assert isinstance(where, tuple)
        start = where[0] + len(hunk.context_before)
        end = where[1] - len(hunk.context_after)
        size = len(hunk.after)
        if not excerpt and any(line.strip() for line in hunk.after) and (
                (start >= size and tuple(lines[start - size : start]) == hunk.after)
                or tuple(lines[end : end + size]) == hunk.after):
            # Its new lines stand right beside where it puts them: the draft made this
            # change too, cut where sliding does not reconcile it; written again it would
            # be there twice (QA s34, flask's docs/config.rst before _slid). Which one the
            # user meant cannot be told: a clash. (Blank lines alone are let through: a
            # blank line added beside one is an everyday edit.)
            return LayerResult(False, hunk=hunk, message=f"the outside change at "
                               f"{hunk.describe()} no longer applies: the draft already has "
                               "its lines there")
        splices.append((start, end, hunk.after))
    splices.sort()
    for (_, end_a, _), (start_b, _, _) in zip(splices, splices[1:], strict=False):
        if start_b < end_a:
            return LayerResult(False, message="two outside changes now overlap")
    for start, end, after in reversed(splices):
        lines[start:end] = after
    return LayerResult(True, b"".join(lines))


Change = tuple[int, int, tuple[bytes, ...]]  # lines [start, end) of ours, and what replaced them


def _opcodes(a: Sequence[bytes], b: Sequence[bytes], *,
             bounded: bool = True) -> Sequence[tuple[str, int, int, int, int]]:
    """The line diff of two versions, bounded (``core/text/diff.py``: the common ends
    first, unique lines as anchors): a whole-file ``difflib`` took ~0.3 s on a 10,000-line
    file, on every decision over a file with an outside change kept on it. Not
    ``bounded``: ``difflib`` as it is (a short excerpt; how its hunks are cut is what
    ``shell/outside_undone.py`` was written against)."""
    if not bounded:
        import difflib  # (an outside change's path alone)

        return difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes()
    from reviewtui.core.text.diff import line_opcodes  # (an outside change's path alone)

    return line_opcodes(a, b)


def _own_changes(ours: list[bytes], target: list[bytes]) -> list[Change]:
    """What the draft changed since the workbench wrote ``ours``: each stretch of ``ours``
    and what ``target`` has there instead (the same alignment as the outside hunks')."""
    return [(i1, i2, tuple(target[j1:j2]))
            for tag, i1, i2, j1, j2 in _opcodes(ours, target) if tag != "equal"]


def _slid(base: Sequence[bytes], lo: int, hi: int, after: tuple[bytes, ...]) -> Change:
    """A change of ``base`` as high as it slides: an insertion whose last line equals the
    line above it, or a removal whose last line does, reads the same one line up. Two
    diffs cut the same insertion at different points of a run of equal lines (a block
    put beside blank lines: flask's docs/config.rst, QA s34); slid, they are one."""
    if lo == hi and after:
        while lo > 0 and base[lo - 1] == after[-1]:
            after = (base[lo - 1], *after[:-1])
            lo -= 1
        return lo, lo, after
    if not after and hi > lo:
        while lo > 0 and base[lo - 1] == base[hi - 1]:
            lo, hi = lo - 1, hi - 1
    return lo, hi, after


Reach = tuple[Change, int, int]  # a change slid up, and the stretch it may stand on


def _reach(base: Sequence[bytes], change: Change) -> Reach:
    """A change slid up (:func:`_slid`), with every place it could be cut at: an
    insertion's points from its highest to its lowest, a removal's lines over the run it
    slides along, a replacement's own lines."""
    lo, hi, after = change
    up = _slid(base, lo, hi, after)
    if lo == hi and after:
        while lo < len(base) and base[lo] == after[0]:
            after, lo = (*after[1:], base[lo]), lo + 1
        return up, up[0], lo
    if not after and hi > lo:
        while hi < len(base) and base[lo] == base[hi]:
            lo, hi = lo + 1, hi + 1
        return up, up[0], hi
    return up, lo, hi


def _meets(hunk: Reach, own: Sequence[Reach]) -> str:
    """Whether an outside hunk meets a change the draft made since the same version, each
    with its reach (:func:`_reach`): "same" (that very change, slid alike), "overlap"
    (lines both change; an insertion inside the other's lines; insertions that can stand
    at one point), or "" (apart: the hunk is re-applied where its text is). Found by
    where both were cut from, not by text: an insertion whose context the draft kept
    would otherwise land a second time next to the draft's own copy of it (QA s34: a
    file put outside at the version a later turn writes got that turn's added line
    twice, "rebased")."""
    change, first, last = hunk
    inserts = change[0] == change[1]
    met = []
    for mine, mine_first, mine_last in own:
        if inserts and mine[0] == mine[1]:
            hit = first <= mine_last and mine_first <= last  # a point both can stand at
        elif inserts:
            hit = max(first, mine_first + 1) <= min(last, mine_last - 1)
        elif mine[0] == mine[1]:
            hit = max(mine_first, first + 1) <= min(mine_last, last - 1)
        else:
            hit = first < mine_last and mine_first < last
        if hit:
            met.append(mine)
    if not met:
        return ""
    return "same" if met == [change] else "overlap"


class ConflictKind(StrEnum):
    OUTSIDE_EDIT = "outside-edit"  # an outside change overlaps what the draft now writes
    REBASE = "rebase"  # accepted operations no longer land on the outside content
    DELETED = "deleted"  # deleted (or renamed) outside; the draft still wants the file
    UNWRITABLE = "unwritable"  # the path became a link, a directory, or cannot be written
    HELD = "held"  # one end of a move whose other end is in conflict: neither is written


@record(frozen=True, slots=True)
class Conflict:
    """A path the workbench will not write until the reviewer settles it.

    ``disk`` is what is on disk now (kept byte for byte), ``ours`` what the workbench
    had there before the outside change, ``wanted`` what the draft would write, and
    ``ops`` the operations affected (their outcome reads CONFLICT).
    """

    path: str
    kind: ConflictKind
    message: str
    disk: FileState | None
    ours: FileState | None
    wanted: FileState | None
    ops: tuple[OpKey, ...] = ()
    hunks: tuple[OutsideHunk, ...] = ()
    waits_for: str = ""  # a HELD end of a move: the path in conflict it waits for
