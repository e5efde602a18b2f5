"""Where an imported edit lands: the placement facts other formats carry besides SEARCH.

File Ops edits say nothing but SEARCH and REPLACE, and :func:`match_edit` alone places
them. Edits read from other formats may say more (see :class:`reviewtui.core.model.records.Edit`):

* an ``anchor`` (apply_patch ``@@ def main():``): the SEARCH must lie after those lines;
* ``at_end`` (apply_patch ``*** End of File``): the SEARCH must be the file's last lines;
  with an empty SEARCH (a pure addition, or Aider's empty SEARCH) the REPLACE is appended;
* a ``line_hint`` (a unified diff's ``@@ -a,b +c,d @@``): a match right at that line wins
  (a loose one only when the hunk's text is nowhere exactly), otherwise the hint is
  ignored and the content decides, as for any edit;
* ``replace_all`` (Claude Code): every occurrence is replaced, none is ambiguous;
* ``substring`` (Claude Code's ``Edit``): SEARCH is a text found exactly anywhere,
  inside lines too, not a run of whole lines.

Every function returns a :class:`MatchResult` whose ``start``/``end``/``new_lines`` splice
the file, so the caller builds outcomes exactly as for a File Ops edit. Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from reviewtui.core.match import match_edit
from reviewtui.core.match.exact import find_exact, found_elsewhere
from reviewtui.core.model.chunks import ChunkedLines
from reviewtui.core.model.outcome import MatchResult, Status
from reviewtui.core.model.records import Edit
from reviewtui.core.record import replace as replace_record

ANCHOR_NOT_FOUND = "anchor-not-found"
NOT_AT_END = "not-at-end"
NOT_AT_START = "not-at-start"
BLANK_LINES_MOVED = "blank-lines-moved"
OUT_OF_ORDER = "out-of-order"
UNPROVED_TWIN = "unproved-twin"
PLACEMENT_RULES = frozenset({ANCHOR_NOT_FOUND, NOT_AT_END, NOT_AT_START, BLANK_LINES_MOVED,
                             OUT_OF_ORDER, UNPROVED_TWIN})
_LOCATED = (Status.APPLIED, Status.NEEDS_REVIEW)

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.core.engine.applied import already_applied
else:
    def already_applied(*args):  # loaded by the first placed edit (start-up)
        global already_applied
        from reviewtui.core.engine.applied import already_applied
        return already_applied(*args)


def has_placement(edit: Edit) -> bool:
    """Whether anything beyond SEARCH says where ``edit`` goes."""
    return bool(edit.anchor or edit.at_end or edit.at_start or edit.replace_all
                or edit.substring or edit.follows or edit.later or edit.line_hint is not None)


def split_text(text: str) -> tuple[tuple[str, ...], bool]:
    """(lines, ends with a newline) of a text, splitting on ``\\n`` only."""
    parts = text.split("\n")
    last = parts.pop()
    if last:
        parts.append(last)
    return tuple(parts), not last and bool(parts)


def written_lines(edit: Edit, new_lines: Sequence[str]) -> tuple[tuple[str, ...], bool | None]:
    """The lines a new file, a fill or an append writes, and its final newline."""
    if edit.substring:
        text = "\n".join(new_lines)
        lines, final = split_text(text)
        return lines, final if text else None
    return tuple(new_lines), edit.final_newline


def is_blank_search(edit: Edit) -> bool:
    """An empty SEARCH: nothing to find (a new file, a fill, an append)."""
    if edit.substring:
        return not "\n".join(edit.search_lines)
    return not any(line.strip() for line in edit.search_lines)


def find_anchor(lines: Sequence[str], anchor: Sequence[str], start: int = 0) -> int | str:
    """The index just past the last anchor line, or the first anchor line not found.

    Each anchor line is looked for after the previous one (the first after ``start``),
    exactly first and then with surrounding whitespace ignored (apply_patch also forgives
    trailing whitespace).
    """
    position = start
    for wanted in anchor:
        found = _index(lines, wanted, position)
        if found is None:
            stripped = wanted.strip()
            found = next((at for at in range(position, len(lines))
                          if lines[at].strip() == stripped), None)
        if found is None:
            return wanted
        position = found + 1
    return position


def _index(lines: Sequence[str], wanted: str, start: int) -> int | None:
    try:
        return lines.index(wanted, start)
    except ValueError:
        return None


def anchor_missing(path: str, wanted: str) -> MatchResult:
    return MatchResult(Status.NOT_FOUND, rule=ANCHOR_NOT_FOUND,
                       hint=f"the @@ context line {wanted.strip()!r} is not in {path} (after "
                            "any earlier context): the hunk has no place to go")


def insert(lines: Sequence[str], edit: Edit, new_lines: Sequence[str], path: str) -> MatchResult:
    """An empty SEARCH on an existing file: append (``at_end``) or insert at the hint."""
    written, _ = written_lines(edit, new_lines)
    lo = 0
    if edit.anchor:
        found = find_anchor(lines, edit.anchor)
        if isinstance(found, str):
            return anchor_missing(path, found)
        lo = found
    if edit.at_end:
        end = len(lines)
        return MatchResult(Status.APPLIED, method="append", start=end, end=end,
                           new_lines=written, locations=((end + 1, end),))
    at = min(max(edit.line_hint or 0, lo), len(lines))
    return MatchResult(Status.NEEDS_REVIEW, method="line-number", start=at, end=at,
                       new_lines=written, locations=((at + 1, at),), similarity=1.0,
                       hint="a hunk without context lines can only be placed by its line "
                            f"number ({at + 1}); check that it is still the right place")


def at_preimage_line(inserted: MatchResult, path: str) -> MatchResult:
    """:func:`insert`'s line-number placement, proved exact by the diff's preimage id
    (:mod:`reviewtui.core.engine.preimage`): it lands."""
    at = inserted.start
    return replace_record(inserted, status=Status.APPLIED, similarity=None,
                          hint=f"{path} is the file the diff was made from (its git blob id), "
                               f"so the hunk's line number ({at + 1}) is exact")


def blank_lines(lines: Sequence[str], edit: Edit, new_lines: Sequence[str],
                path: str) -> MatchResult:
    """A unified hunk whose old lines are all blank: real lines of the file, not an empty
    SEARCH (which appends). They are where git puts them -- the file's start or end when
    the hunk is pinned there, else its line number -- and exactly as written, or the
    hunk does not land: blank lines alone say nothing about any other place."""
    size = len(edit.search_lines)
    if edit.anchor and not (edit.at_end or edit.at_start):
        # An apply_patch chunk under an anchor: the first such blank lines after it, as
        # Codex places them (QA s45 helper-138 #8: refused as an empty SEARCH).
        after = find_anchor(lines, edit.anchor)
        if isinstance(after, str):
            return anchor_missing(path, after)
        # (blank: whitespace alone, as Codex reads it, QA s45 helper-139 #12; the context
        # lines keep the file's own bytes)
        at = next((i for i in range(after, len(lines) - size + 1)
                   if not any(line.strip() for line in lines[i : i + size])), -1)
        if at < 0:
            return MatchResult(Status.NOT_FOUND, rule=BLANK_LINES_MOVED,
                               hint=f"the chunk's old side is {size} blank line(s), which are "
                                    f"not in {path} after its anchor")
        written = list(new_lines)
        kept = 0  # the chunk's leading context, then its trailing context: the file's lines
        while kept < min(size, len(written)) and not written[kept].strip():
            written[kept] = lines[at + kept]
            kept += 1
        for back in range(1, min(size - kept, len(written) - kept) + 1):
            if written[-back].strip():
                break
            written[-back] = lines[at + size - back]
        method = "exact" if tuple(lines[at : at + size]) == tuple(edit.search_lines) \
            else "trailing-whitespace"
        return MatchResult(Status.APPLIED, method=method, start=at, end=at + size,
                           new_lines=tuple(written), locations=((at + 1, at + size),))
    at = 0 if edit.at_start else len(lines) - size if edit.at_end else (edit.line_hint or 0)
    pinned = not edit.at_end or at + size == len(lines)  # (both pins hold, when both)
    if pinned and at >= 0 and at + size <= len(lines) and tuple(lines[at : at + size]) == tuple(
            edit.search_lines):
        return MatchResult(Status.APPLIED, method="exact", start=at, end=at + size,
                           new_lines=tuple(new_lines), locations=((at + 1, at + size),))
    where = ("its start and end" if edit.at_start and edit.at_end else "its start"
             if edit.at_start else "its end" if edit.at_end else f"line {at + 1}")
    return MatchResult(Status.NOT_FOUND, rule=BLANK_LINES_MOVED,
                       hint=f"the hunk's old side is {size} blank line(s), which are not at "
                            f"{where} of {path}: blank lines alone cannot place it elsewhere")


def unproved_blank_lines(found: MatchResult, path: str) -> MatchResult:
    """Blank lines found at the hunk's line number of a file that is not the one the diff
    was made from: for the reviewer to confirm, never applied by itself."""
    return MatchResult(Status.NEEDS_REVIEW, method="line-number", start=found.start,
                       end=found.end, new_lines=found.new_lines, locations=found.locations,
                       rule=BLANK_LINES_MOVED, similarity=1.0,
                       hint=f"the hunk's old side is blank lines, found at its line number "
                            f"({found.start + 1}), but {path} is not the file the diff was "
                            "made from (its blob is not the index line's): lines may have "
                            "moved, and these be other blank lines; review before accepting")


Placed = tuple[MatchResult, bool | None]
"""Where an edit lands, and the file's final newline afterwards (None: as it was)."""


def locate(lines: Sequence[str], final_newline: bool, edit: Edit, search: Sequence[str],
           new_lines: Sequence[str], history: Sequence[Sequence[str]], path: str,
           cursor: int = 0, *, explain: bool = True,
           proved: Callable[[], bool] | None = None, crlf: bool = False) -> Placed:
    """Where a non-empty SEARCH lands, honouring every placement fact ``edit`` carries.

    ``cursor`` is where the previous edit of this file in the turn ended: an edit that
    ``follows`` is looked for after it first (its anchor too), and only when it is not
    there in the whole file, where it must then be unique as for any edit.
    ``explain=False``: a failure is not diagnosed (no candidates, hint or stale note; see
    ``match_edit``): the status, place, rule and new lines are the same either way.
    ``proved``: whether the file is the one the diff was made from (``Edit.preimage``),
    asked where the hunk's text is at its line number and elsewhere too. ``crlf``: the
    file has lines ending with CRLF (all, or some), which are read here without it and
    written with it again.
    """
    if edit.follows and 0 < cursor <= len(lines):
        after = _locate_from(lines, final_newline, edit, search, new_lines, (), path, cursor,
                             explain, proved, crlf)
        if after[0].status in _LOCATED or after[0].status is Status.AMBIGUOUS:
            return after
    found, final = _locate_from(lines, final_newline, edit, search, new_lines, history, path, 0,
                                explain, proved, crlf)
    if edit.follows and cursor > 0 and found.status is Status.APPLIED and (
            found.start < cursor or edit.anchor):
        # Only above the previous chunk of the patch, which runs its chunks in order: the
        # text it meant may be gone and this be another place (Codex refuses the patch).
        # A human decides; apply --yes leaves it, and so the file, pending. So with its
        # @@ anchor, which Codex looks for below the previous chunk only (QA s47
        # helper-148 F10: "@@ def a():" above it, the chunk's line found in b() below
        # landed there, exit 0; the search from the cursor failed to get here).
        found = MatchResult(Status.NEEDS_REVIEW, method=found.method, start=found.start,
                            end=found.end, new_lines=found.new_lines,
                            locations=found.locations, rule=OUT_OF_ORDER, similarity=1.0,
                            hint=f"found only at lines {found.start + 1}-{found.end} of {path}, "
                                 + ("above the previous chunk" if found.start < cursor else
                                    "under an @@ context line above the previous chunk")
                                 + " of the same patch (chunks apply in order): the text it "
                                 "meant may be gone; review before accepting")
    return found, final


def _locate_from(lines: Sequence[str], final_newline: bool, edit: Edit,
                 search: Sequence[str], new_lines: Sequence[str],
                 history: Sequence[Sequence[str]], path: str, lo: int,
                 explain: bool = True, proved: Callable[[], bool] | None = None,
                 crlf: bool = False) -> Placed:
    if edit.anchor:
        found = find_anchor(lines, edit.anchor, lo)
        if isinstance(found, str):
            return anchor_missing(path, found), None
        lo = found
    if edit.substring:
        return _locate_text(lines, final_newline, edit, new_lines, lo, history, path, explain,
                            crlf)
    if edit.at_start or (edit.at_end and edit.line_hint is not None):
        # A unified hunk git pins to the start or the end of the file: nowhere else. Off
        # its own line, it takes the already-applied check as below (an insertion ending
        # as its context does matched again at the end of a file that already held it).
        pinned = _pinned(lines, search, new_lines, edit, lo, history, path, explain)
        return already_applied(lines, edit, pinned, path), edit.final_newline
    if edit.later or edit.follows:
        forced = forced_in_order(lines, search, edit.later, lo)
        if forced is not None:
            return match_edit(lines, search, new_lines, window=(forced, forced + len(search)),
                              path=path, literal=edit.literal), edit.final_newline
    if edit.replace_all:
        every = _replace_every(lines, search, new_lines, lo)
        if every is not None:
            return every, edit.final_newline
    if edit.line_hint is not None:
        at = edit.line_hint
        if lo <= at < len(lines):
            # (only a landing is kept: a failure here needs no diagnosis)
            hinted = match_edit(lines, search, new_lines, window=(at, at + len(search)),
                                path=path, literal=edit.literal, explain=False)
            # A loose match there (blank lines, whitespace forgiven) does not beat the
            # hunk's exact text elsewhere: "p, blank" hinted at a "p" without its blank
            # line landed there while lines 1-2 held it exactly (git applies it there).
            # Nor does the exact text there where it is elsewhere too, in a file that is
            # provably not the one the diff was made from (its blob is not the index
            # line's): lines inserted above had moved a twin under the line number, and a
            # hunk of one switch case landed in the case before it, exit 0, where the
            # 3-way merge puts it in its own (QA s44 helper-134 H4). The content decides,
            # as for any edit: several places are ambiguous.
            # Nor where the text is elsewhere but for whitespace or punctuation in such a
            # file: drift may have touched the place meant, and left its exact text only
            # at a twin (QA s45 helper-136 U2: blanks appended to one context line of the
            # block meant, lines inserted above; the hunk landed in the twin, exit 0).
            if hinted.status is Status.APPLIED and hinted.method == "exact":
                if not _twin_unproved(lines, search, lo, at, proved):
                    doubt = _loose_twin(lines, search, lo, hinted, proved, path)
                    return doubt or hinted, edit.final_newline
            elif hinted.status is Status.APPLIED and not find_exact(lines, search, lo,
                                                                    len(lines)):
                return hinted, edit.final_newline
    if edit.at_end:
        return (_at_end(lines, search, new_lines, lo, history, path, literal=edit.literal,
                        explain=explain), edit.final_newline)
    window = (lo, len(lines)) if lo else None
    result = match_edit(lines, search, new_lines, window=window, history=history, path=path,
                        literal=edit.literal, explain=explain)
    if result.status is Status.APPLIED and result.method == "exact":
        result = _loose_twin(lines, search, lo, result, proved, path) or result
    return already_applied(lines, edit, result, path), edit.final_newline


def _twin_unproved(lines: Sequence[str], search: Sequence[str], lo: int, at: int,
                   proved: Callable[[], bool] | None) -> bool:
    """Whether ``search``, exactly at ``at``, is exactly elsewhere in ``lines`` too and the
    file is known not to be the diff's preimage (``proved`` says no; None: nothing is
    known, the line number stands, as ``git apply`` takes it)."""
    return (proved is not None and found_elsewhere(lines, search, lo, len(lines), at)
            and not proved())


def _loose_twin(lines: Sequence[str], search: Sequence[str], lo: int, found: MatchResult,
                proved: Callable[[], bool] | None, path: str) -> MatchResult | None:
    """AMBIGUOUS where ``search``, found exactly only at ``found``, is elsewhere too but for
    indentation, trailing whitespace or typography, and the file is known not to be the
    diff's preimage: whichever place the diff meant, its text may have changed since.
    None when there is no such twin, the file is that preimage, or nothing is known."""
    if proved is None or not maybe_twice(lines, search) or proved():
        return None  # (the count first: a hunk's longest line is mostly the file's once)
    from reviewtui.core.match.expression import loose_twins  # (loaded past stage 1)
    from reviewtui.core.match.index import index_for

    twins = loose_twins(index_for(lines, lo, len(lines)), search, lo, len(lines), found.start)
    if not twins:
        return None
    spans = sorted([(found.start, found.end), *twins])
    locations = tuple((start + 1, end) for start, end in spans)
    others = ", ".join(f"{a}-{b}" for a, b in locations if a != found.start + 1)
    return MatchResult(Status.AMBIGUOUS, method="exact", locations=locations,
                       rule=UNPROVED_TWIN,
                       hint=f"the hunk's lines are exactly at lines {found.start + 1}-"
                            f"{found.end} of {path}, and but for whitespace or punctuation "
                            f"at lines {others}; {path} is not the file the diff was made "
                            "from (its blob is not the index line's), so the place meant "
                            "may be one whose text changed since: nothing was applied; "
                            "pick the place")


def maybe_twice(lines: Sequence[str], search: Sequence[str]) -> bool:
    """False where the longest SEARCH line's text (its loose key, in an ASCII file) is in
    the file once only: then no place but the exact one has that line's loose key. One C
    scan, where the loose keys of every line cost ~3 ms per 10,000 lines and hunk."""
    pivot = max(search, key=len).strip()
    if not pivot:
        return True
    if type(lines) is ChunkedLines:
        if not all(chunk.text().isascii() for chunk in lines.chunks):
            return True
        return lines.count_in_lines(pivot, 2) >= 2
    text = "\n".join(lines)
    return not text.isascii() or text.count(pivot) >= 2


def forced_in_order(lines: Sequence[str], search: Sequence[str],
                    later: Sequence[Sequence[str]], lo: int) -> int | None:
    """The one exact occurrence of ``search`` after ``lo`` that the later chunks allow.

    Chunks apply in order, so chunk k lies before chunk k+1. The earliest occurrence from
    ``lo`` is the earliest place chunk k can take; the latest one that still leaves room
    for every later chunk (each placed as late as it can be, from the last one back) is
    the latest. When the two coincide, the order alone decides: that is the place. None
    when there is no such single place (or a later chunk is not in the file exactly).
    """
    starts = find_exact(lines, search, lo, len(lines))
    if len(starts) < 2:
        return None
    bound = len(lines)
    for chunk in reversed(later):
        if not any(line.strip() for line in chunk):
            continue  # an addition without context goes anywhere: it constrains nothing
        found = find_exact(lines, chunk, lo, bound)
        if not found:
            return None
        bound = found[-1]
    fitting = [start for start in starts if start + len(search) <= bound]
    if fitting and fitting[-1] == starts[0]:
        return starts[0]
    return None


def _pinned(lines: Sequence[str], search: Sequence[str], new_lines: Sequence[str], edit: Edit,
            lo: int, history: Sequence[Sequence[str]], path: str,
            explain: bool = True) -> MatchResult:
    """A hunk that must start at line 1 and/or end at the last line, exactly there.

    The matcher's tolerance still applies to the lines (line endings, whitespace); the
    place does not move. Blank lines after the end are not skipped: git does not either.
    """
    size = len(lines)
    slack = 2  # the matcher may drop stray blank lines at the ends of SEARCH
    lo_edge = lo if not edit.at_start else 0
    window = (lo_edge, size)
    if edit.at_start and not edit.at_end:
        window = (0, min(size, len(search) + slack))
    elif edit.at_end and not edit.at_start:
        window = (max(lo_edge, size - len(search) - slack), size)
    result = match_edit(lines, search, new_lines, window=window, history=history, path=path,
                        literal=edit.literal, explain=explain)
    located = result.status in _LOCATED
    if located and ((edit.at_start and result.start != 0)
                    or (edit.at_end and result.end != size)):
        located = False
    if result.status is Status.AMBIGUOUS and edit.at_start != edit.at_end:
        # Repeated lines match more than once within the slack, but the hunk has one place:
        # its lines exactly at that edge (a "false" appended after three "false" lines at
        # the end of a file: nlohmann/json 904642f261, refused; QA pass s31).
        tight = ((0, min(size, len(search))) if edit.at_start
                 else (max(lo_edge, size - len(search)), size))
        exact = match_edit(lines, search, new_lines, window=tight, history=history, path=path,
                           literal=edit.literal, explain=explain)
        if exact.status in _LOCATED and (exact.start == 0 if edit.at_start
                                         else exact.end == size):
            return exact
    if located or (result.status is not Status.AMBIGUOUS and result.rule
                   and result.rule not in PLACEMENT_RULES):
        return result
    anywhere = match_edit(lines, search, new_lines, window=(lo, size) if lo else None,
                          path=path, literal=edit.literal, explain=explain)
    rule = NOT_AT_START if edit.at_start else NOT_AT_END
    edge = "start" if edit.at_start else "end"
    if anywhere.status in _LOCATED or anywhere.status is Status.AMBIGUOUS:
        where = ", ".join(f"{a}-{b}" for a, b in anywhere.locations)
        return MatchResult(Status.NOT_FOUND, rule=rule,
                           hint=f"the hunk belongs at the {edge} of {path} (it has no "
                                f"context on that side), but its lines are at lines {where}, "
                                f"not at the {edge}")
    return MatchResult(Status.NOT_FOUND, candidates=anywhere.candidates, hint=anywhere.hint)


def _at_end(lines: Sequence[str], search: Sequence[str], new_lines: Sequence[str], lo: int,
            history: Sequence[Sequence[str]], path: str, *, literal: bool = False,
            explain: bool = True) -> MatchResult:
    size = len(lines)
    trailing = 0
    while trailing < size and not lines[size - 1 - trailing].strip():
        trailing += 1
    tail = max(lo, size - len(search) - trailing)
    result = match_edit(lines, search, new_lines, window=(tail, size), history=history,
                        path=path, literal=literal, explain=explain)
    if result.status not in _LOCATED and not result.rule:
        anywhere = match_edit(lines, search, new_lines, window=(lo, size), path=path,
                              literal=literal, explain=explain)
        if anywhere.status in _LOCATED or anywhere.status is Status.AMBIGUOUS:
            where = ", ".join(f"{a}-{b}" for a, b in anywhere.locations)
            return MatchResult(Status.NOT_FOUND, rule=NOT_AT_END,
                               hint=f"the hunk is marked '*** End of File', but its lines are "
                                    f"at lines {where} of {path}, not at its end")
        return MatchResult(Status.NOT_FOUND, candidates=anywhere.candidates,
                           hint=anywhere.hint)
    return result


def _replace_every(lines: Sequence[str], search: Sequence[str], new_lines: Sequence[str],
                   lo: int) -> MatchResult | None:
    """Every exact, non-overlapping occurrence replaced in one splice; None when none."""
    starts: list[int] = []
    for start in find_exact(lines, search, lo, len(lines)):
        if not starts or start >= starts[-1] + len(search):
            starts.append(start)
    if not starts:
        return None
    first, last = starts[0], starts[-1] + len(search)
    region: list[str] = []
    at = first
    for start in starts:
        region.extend(lines[at:start])
        region.extend(new_lines)
        at = start + len(search)
    locations = tuple((s + 1, s + len(search)) for s in starts)
    return MatchResult(Status.APPLIED, method="replace-all", start=first, end=last,
                       new_lines=tuple(region), locations=locations,
                       hint=f"replaced {len(starts)} occurrences" if len(starts) > 1 else "")


def _locate_text(lines: Sequence[str], final_newline: bool, edit: Edit,
                 new_lines: Sequence[str], lo: int, history: Sequence[Sequence[str]],
                 path: str, explain: bool = True, crlf: bool = False) -> Placed:
    """A substring edit: exact text, anywhere (inside lines too), after line ``lo``."""
    old = "\n".join(edit.search_lines)
    new = "\n".join(new_lines)
    text = "\n".join(lines) + ("\n" if final_newline and lines else "")
    if "\r" not in text:
        # The file's own CRLF in the text (a Claude Code edit of a CRLF file): the lines
        # read here are without it (a text with CRLF was refused as a 99% near match, QA
        # s44 helper-134 M4), and written they take the file's CRLF again (a new text with
        # CRLF was written with CR CR LF, exit 0; the lines of a file of mixed endings
        # keep the ending they are given).
        old = old.replace("\r\n", "\n")
        if crlf:
            new = new.replace("\r\n", "\n")
    begin = sum(len(line) + 1 for line in lines[:lo])
    found = _occurrences(text, old, begin)
    if not found:
        return _text_diagnosis(lines, edit, new_lines, lo, history, path, explain), None
    spans = tuple((_line_of(text, p) + 1, _line_of(text, p + len(old) - 1) + 1) for p in found)
    if len(found) > 1 and not edit.replace_all:
        return MatchResult(Status.AMBIGUOUS, method="exact", locations=spans,
                           hint=f"the text occurs {len(found)} times; Claude Code refuses "
                                "such an edit unless replace_all is set"), None
    if edit.eats_newline and not new and not old.endswith("\n") and (
            text.find(old + "\n", begin) >= 0):
        # As Claude Code deletes: the text with the newline after it, where it has one
        # (every such occurrence under replace_all; one without it is left as it is).
        old += "\n"
        found = _occurrences(text, old, begin)
        spans = tuple((_line_of(text, p) + 1, _line_of(text, p + len(old) - 1) + 1)
                      for p in found)
    if edit.replace_all:
        after = text[:begin] + text[begin:].replace(old, new)
    else:
        after = text[: found[0]] + new + text[found[0] + len(old) :]
    new_all, final = split_text(after)
    # The splice runs from the first line the text touches: every line before it is
    # unchanged, and so is the longest common run of lines after the last occurrence.
    first = spans[0][0] - 1
    room = min(len(lines) - spans[-1][1], len(new_all) - first)
    kept = 0
    while kept < room and lines[len(lines) - 1 - kept] == new_all[len(new_all) - 1 - kept]:
        kept += 1
    method = "replace-all" if edit.replace_all else "exact"
    result = MatchResult(Status.APPLIED, method=method, start=first, end=len(lines) - kept,
                         new_lines=tuple(new_all[first : len(new_all) - kept]), locations=spans,
                         hint=f"replaced {len(found)} occurrences" if len(found) > 1 else "")
    return result, final if after else None


def _occurrences(text: str, old: str, begin: int) -> list[int]:
    """Where ``old`` is in ``text`` from ``begin`` on, as a left-to-right replace finds it."""
    found: list[int] = []
    at = text.find(old, begin)
    while at >= 0:
        found.append(at)
        at = text.find(old, at + len(old))
    return found


def _line_of(text: str, offset: int) -> int:
    return text.count("\n", 0, max(offset, 0))


def _text_diagnosis(lines: Sequence[str], edit: Edit, new_lines: Sequence[str], lo: int,
                    history: Sequence[Sequence[str]], path: str,
                    explain: bool = True) -> MatchResult:
    """Not in the file as text: ask the line matcher where it nearly is, never land."""
    search = list(edit.search_lines)
    replace = list(new_lines)
    if search and search[-1] == "" and len(search) > 1:  # the text ended with a newline
        search.pop()
        if replace and replace[-1] == "":
            replace.pop()
    result = match_edit(lines, search, replace, window=(lo, len(lines)) if lo else None,
                        history=history, path=path, literal=edit.literal, explain=explain)
    if result.status in _LOCATED:
        # Claude Code needed the exact text; a looser landing is for a human to judge.
        return MatchResult(Status.NEEDS_REVIEW, method=result.method, start=result.start,
                           end=result.end, new_lines=result.new_lines,
                           locations=result.locations, similarity=result.similarity or 0.99,
                           hint="the text is not in the file exactly; these whole lines "
                                f"match it by {result.method}")
    return result
