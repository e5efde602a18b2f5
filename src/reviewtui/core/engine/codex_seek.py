"""Whether Codex's own ``apply_patch`` would write an apply_patch chunk where reviewtui does.

A Codex session holds every patch the model sent, the ones Codex refused too; after a
refusal the model sends another patch for the same change. reviewtui's matcher forgives
more than Codex's search (a byte-order mark, blank lines after ``*** End of File``, a
near match, blank lines at a chunk's edges, more typography), so replaying both patches
wrote the change twice (QA s47 helper-148 F5). So a chunk of a text of several patches
(``Edit.codex`` is :data:`HOLD`) lands only where Codex's search puts it: one Codex
would refuse is held (rule :data:`CODEX_REFUSED`), with the rest of its section (Codex
places a section's chunks before it writes any), and one Codex would put elsewhere
(:data:`CODEX_ELSEWHERE`); both can be forced. A lone patch (:data:`NOTE`) is an
instruction with no retry after it: a chunk Codex would refuse lands as reviewtui reads
it (the deliberate allowances of docs/formats.md), its hint saying so; one Codex would
put elsewhere is held all the same (line 1 after a byte-order mark taken for a line
Codex finds further down: Codex wrote that one).

Codex's search (codex-rs/apply-patch, ``compute_replacements`` and ``seek_sequence``)
reads the file as UTF-8 text (or fails), a byte-order mark part of line 1, lines split
at "\\n" with their "\\r". A chunk's ``@@`` line, its trailing whitespace trimmed (Codex's
parser trims it: ``@@ done `` looks for ``done``, QA qa79 #1), is looked for from
where the previous chunk of its section ended; its old lines from there (after the ``@@``
line), or with ``*** End of File`` as the file's very last lines only, and only where
those start there or later (an end the previous chunk took is not found); each first
exactly, then with trailing whitespace ignored, then surrounding whitespace, then with
some typographic punctuation read as ASCII; old lines ending with an empty line are
looked for again without it, and where that leaves none (a lone blank old line) Codex
takes no line of the file and inserts the chunk's lines where it looks: that chunk is
held (:data:`CODEX_ELSEWHERE`; QA qa79 #3, the file's last blank line twice). A
chunk of added lines only is appended. Pure.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from reviewtui.core.engine.placement import maybe_twice
from reviewtui.core.match.exact import find_exact
from reviewtui.core.match.landing import INDENTATION, PUNCTUATION, TABS, TRAILING
from reviewtui.core.model.outcome import Outcome, Status
from reviewtui.core.model.records import CODEX_HOLD as HOLD
from reviewtui.core.model.records import CODEX_NOTE as NOTE
from reviewtui.core.model.records import CodexChunk, CommandName, ConsoleCommand, Edit, Operation
from reviewtui.core.model.tree import FileState
from reviewtui.core.record import replace

__all__ = ["BARE", "CODEX_ELSEWHERE", "CODEX_REFUSED", "HOLD", "NOTE", "CodexFile",
           "as_codex", "codex_anchor", "held_move", "held_with_move", "move_section",
           "seek"]

CODEX_REFUSED = "codex-refused"
CODEX_ELSEWHERE = "codex-elsewhere"

# Rust's char::is_whitespace (Unicode White_Space), which str.strip() does not quite have.
_WHITE = ("\t\n\x0b\x0c\r \x85\xa0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007"
          "\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000")
_ASCII = str.maketrans({
    **dict.fromkeys("\u2010\u2011\u2012\u2013\u2014\u2015\u2212", "-"),
    **dict.fromkeys("\u2018\u2019\u201a\u201b", "'"),
    **dict.fromkeys("\u201c\u201d\u201e\u201f", '"'),
    **dict.fromkeys("\u00a0\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u202f"
                    "\u205f\u3000", " "),
})
# CodexFile.place's answer for a chunk whose lone old line is blank where Codex finds no
# blank line: Codex inserts its lines there, the file's line kept (not a refusal).
BARE = ("its only old line is blank and Codex finds no blank line from where it looks (the "
        "end of the chunk before it, or its @@ line), so it takes no line of the file and "
        "inserts the chunk's lines there, the blank one beside the file's own")
_TIERS: tuple[Callable[[str], str], ...] = (
    lambda line: line,
    lambda line: line.rstrip(_WHITE),
    lambda line: line.strip(_WHITE),
    lambda line: line.strip(_WHITE).translate(_ASCII),
)


def codex_anchor(line: str) -> str:
    """An ``@@`` line's text as Codex's parser keeps it: trailing whitespace trimmed (its
    leading whitespace kept)."""
    return line.rstrip(_WHITE)


def seek(lines: Sequence[str], pattern: Sequence[str], start: int, eof: bool,
         keyed: Callable[[int], Sequence[str]] | None = None) -> int | None:
    """``seek_sequence``: the first start of ``pattern`` from ``start`` at the strictest
    tier that has one (with ``eof``, only the start that ends the file). ``keyed(tier)``:
    the file's lines under that tier's key, when the caller keeps them."""
    if not pattern:
        return start
    if len(pattern) > len(lines):
        return None
    first = max(start, len(lines) - len(pattern)) if eof else start
    stop = len(lines) - len(pattern) + 1
    for tier, key in enumerate(_TIERS):
        wanted = [key(line) for line in pattern]
        keys = keyed(tier) if keyed is not None else [key(line) for line in lines]
        at = first
        while at < stop:
            try:  # (the first line's candidates by a C scan, then the rest compared)
                at = keys.index(wanted[0], at, stop)
            except ValueError:
                break
            if list(keys[at : at + len(wanted)]) == wanted:
                return at
            at += 1
    return None


class CodexFile:
    """One version of a file as Codex's search reads it. Exact look-ups in a file of LF
    lines go through the engine's own lines (the same text but for a byte-order mark on
    line 1); anything else reads the file whole as Codex does, once."""

    def __init__(self, state: FileState) -> None:
        self.state = state
        self.size = state.line_count
        self._lines: list[str] | None = None
        self._keys: dict[int, list[str]] = {}

    def lines(self) -> list[str] | None:
        """Codex's lines; None where it cannot read the file (not UTF-8)."""
        if self._lines is None:
            try:
                text = self.state.data.decode("utf-8")
            except UnicodeDecodeError:
                return None
            lines = text.split("\n")
            if lines[-1] == "":
                lines.pop()
            self._lines = lines
        return self._lines

    def _keyed(self, tier: int) -> list[str]:
        keys = self._keys.get(tier)
        if keys is None:
            lines = self.lines() or []
            keys = self._keys[tier] = lines if tier == 0 else list(map(_TIERS[tier], lines))
        return keys

    def find(self, pattern: Sequence[str], start: int, eof: bool) -> int | None:
        """Where Codex's search finds ``pattern`` (see :func:`seek`)."""
        if self.state.eol == "\n" and pattern:  # (its exact tier, the first tried)
            view, skip = self.state.line_view, int(self.state.bom)
            if eof:
                at = len(view) - len(pattern)
                if at >= max(skip, start) and list(view[at:]) == list(pattern):
                    return at
            else:
                found = find_exact(view, pattern, max(start, skip), len(view))
                if found:
                    return found[0]
        lines = self.lines()
        return None if lines is None else seek(lines, pattern, start, eof, self._keyed)

    def place(self, anchor: Sequence[str], old: Sequence[str], at_end: bool, start: int
              ) -> tuple[int, int] | str:
        """(the start of the chunk's old lines, where Codex looks for the next chunk)
        where Codex puts a chunk searched from ``start`` (an append: the end, and the
        line after its @@ line), or why it finds none."""
        if len(anchor) > 1:
            return "a second '@@' line right after another, which Codex's parser rejects"
        if anchor:
            found = self.find([codex_anchor(anchor[0])], start, False)
            if found is None:
                return f"its @@ line {anchor[0].strip()!r} is not in the file for Codex"
            start = found + 1
        pattern = [line.removesuffix("\r") for line in old]
        if not pattern:
            return self.size, start
        place = self.find(pattern, start, at_end)
        if place is None and pattern[-1] == "":
            pattern.pop()
            if not pattern:
                return BARE
            place = self.find(pattern, start, at_end)
        if place is None:
            return "its old lines are not in the file for Codex"
        return place, place + len(pattern)

    def later_refused(self, later: Sequence[CodexChunk], start: int
                      ) -> tuple[int, str, CodexChunk] | None:
        """The first of a section's later chunks (searched from ``start`` on, in order)
        that Codex finds no place for: its source line, why, and it; None when it finds
        them all."""
        for chunk in later:
            found = self.place(chunk.anchor, chunk.search_lines, chunk.at_end, start)
            if isinstance(found, str):
                return chunk.line, found, chunk
            start = found[1]
        return None


def as_codex(outcome: Outcome, edit: Edit, cursor: int | None) -> Outcome:
    """``outcome`` (an apply_patch chunk that would land: applied or a near match) as
    Codex's search has it: held where Codex would not write it (:data:`HOLD`), noted
    (:data:`NOTE`), or as it is. A section's first chunk is checked with its later ones:
    Codex places them all before it writes any, each from where the one before ended (an
    append leaves that where it was, where reviewtui's own order goes on from the end of
    the file). A later chunk lands only with an earlier one of its file in this patch
    (``cursor``, where that one ended; None: none landed)."""
    if edit.follows:
        if edit.codex == HOLD and cursor is None:
            return _held(outcome, "an earlier chunk of its section is not written, and "
                                  "Codex writes a section whole or not at all")
        return outcome
    state = outcome.before_state
    if state is None:
        cause = (f"{outcome.path} does not exist, and Codex's Update File needs the file (it "
                 "makes one with Add File only)")
        return _held(outcome, cause) if edit.codex == HOLD else _noted(outcome, cause)
    codex = CodexFile(state)
    place = _agreed(codex, edit, outcome)
    if place is None:
        found = codex.place(edit.anchor, edit.search_lines, edit.at_end, 0)
        if found == BARE:
            return _bare(outcome, "this chunk")
        if isinstance(found, str):
            span = outcome.lines
            cause = _cause(state, edit.anchor, edit.search_lines, edit.at_end,
                           span is not None and span[0] <= 1, found) or _matched(found, outcome)
            return _held(outcome, cause) if edit.codex == HOLD else _noted(outcome, cause)
        span = outcome.lines
        if edit.search_lines and span is not None and found[0] != span[0] - 1:
            return _elsewhere(outcome, found[0], state.bom and span[0] <= 1)
        place = found
    refused = codex.later_refused(edit.codex_later, place[1]) if edit.codex_later else None
    if refused is None:
        return outcome
    line, why, chunk = refused
    if why == BARE:
        return _bare(outcome, f"its section's chunk at line {line}")
    cause = (f"its section's chunk at line {line} is one Codex would refuse: "
             + (_cause(state, chunk.anchor, chunk.search_lines, chunk.at_end, False, why)
                or why))
    return (_held(outcome, f"{cause}; Codex writes a section whole or not at all")
            if edit.codex == HOLD else _noted(outcome, cause))


def move_section(ops: Sequence[Operation], at: int) -> tuple[str, tuple[int, ...]] | None:
    """For the ``*** Move to`` of an Update section in a text of several patches (the
    literal ``:mv -f`` at ``at``, its chunks right after it): (the path it moves from, the
    reply positions of its chunks); None for any other operation."""
    op = ops[at]
    if not (isinstance(op, ConsoleCommand) and op.name is CommandName.MV and op.literal
            and len(op.args) == 2):
        return None
    chunks: list[int] = []
    for pos in range(at + 1, len(ops)):
        edit = ops[pos]
        if not (isinstance(edit, Edit) and edit.codex == HOLD and edit.path == op.args[1]
                and edit.follows == bool(chunks)):
            break
        chunks.append(pos)
    return (op.args[0], tuple(chunks)) if chunks else None


def held_move(op: ConsoleCommand, line: int) -> Outcome:
    """The ``*** Move to`` of a section whose first chunk (at source line ``line``) is
    held (rule :data:`CODEX_REFUSED`): held too, for Codex wrote nothing of that section,
    its move neither (QA qa79 #2: counted as done, the model's retry found no
    file to move). Forcing the chunk writes the section, its move with it."""
    source, target = op.args
    return Outcome(Status.REFUSED, method=str(op.name), rule=CODEX_REFUSED, path=target,
                   message=f"held (rule {CODEX_REFUSED}): Codex's apply_patch would refuse "
                           f"its section's first chunk (line {line}), and it writes a "
                           f"section whole or not at all: it did not move {source} to "
                           f"{target}, and the model may have sent the change again in a "
                           "later patch; force that chunk to write the section, this move "
                           "with it")


def held_with_move(op: Operation, source: str) -> Outcome:
    """A later chunk of a section whose move is held: not looked for."""
    path = op.path if isinstance(op, Edit) else ""
    return Outcome(Status.REFUSED, rule=CODEX_REFUSED, path=path,
                   message=f"held (rule {CODEX_REFUSED}): its section's first chunk and its "
                           f"move from {source} are held, and Codex writes a section whole "
                           "or not at all")


def _agreed(codex: CodexFile, edit: Edit, outcome: Outcome) -> tuple[int, int] | None:
    """Without reading the whole file as Codex does: (start, where Codex looks for the
    next chunk) of a match reviewtui's search makes where Codex's puts it; None: ask
    Codex's search.

    An exact match is Codex's first exact one, in a file of LF lines; in a file with CRLF
    lines (which Codex's exact tier never matches: its next one, trailing whitespace
    ignored, decides) when its longest line is in the file once. A match that forgives
    trailing whitespace, indentation or typography is the one place in its class
    (``match/expression.py``), and Codex's tiers are those classes (its punctuation a
    part of reviewtui's): where the place is in the Codex tier of its class, no place is
    in a stricter one, and none before it in that one. The @@ line, as an exact match.
    """
    state = codex.state
    if outcome.lines is None or outcome.status is not Status.APPLIED or len(edit.anchor) > 1:
        return None
    lines = state.line_view
    first, end = outcome.lines[0] - 1, outcome.lines[1]
    crlf = state.eol != "\n"
    start = 0  # (a section's first chunk: Codex looks from the file's start)
    if edit.anchor:
        found = _index(lines, codex_anchor(edit.anchor[0]), start)
        if found is None or (found == 0 and state.bom) or (
                crlf and maybe_twice(lines, edit.anchor)):
            return None
        start = found + 1
    old = edit.search_lines
    if not old:  # an append (Codex appends whatever its @@ line)
        return (len(lines), start) if outcome.method == "append" else None
    if end - first != len(old) or (first == 0 and state.bom) or first < start or (
            edit.at_end and end != len(lines)):
        return None
    if outcome.method == "exact":
        if crlf and maybe_twice(lines, old):
            return None
        if not edit.at_end and not crlf and find_exact(lines, old, start, end)[:1] != [first]:
            return None  # (an exact copy before it: Codex's pick)
        return first, end
    tier = _TIER_OF.get(frozenset(outcome.method.split("+")))
    if tier is None:
        return None
    region = lines[first:end]
    strictest = next((t for t, key in enumerate(_TIERS) if all(
        key(have) == key(want) for have, want in zip(region, old, strict=True))), None)
    return (first, end) if strictest == tier else None


# The Codex tier of each expression class of reviewtui's matcher (see _agreed).
_TIER_OF = {
    frozenset(kinds): tier
    for tier, classes in ((1, [[TRAILING]]),
                          (2, [[INDENTATION], [TABS], [INDENTATION, TABS]]),
                          (3, [[PUNCTUATION], [INDENTATION, PUNCTUATION], [TABS, PUNCTUATION],
                               [INDENTATION, TABS, PUNCTUATION]]))
    for extra in ([], [TRAILING]) for kinds in ([*c, *extra] for c in classes)
    if kinds
}


def _index(lines: Sequence[str], wanted: str, start: int) -> int | None:
    try:
        return lines.index(wanted, start)
    except ValueError:
        return None


def _held(outcome: Outcome, cause: str) -> Outcome:
    span, path = outcome.lines, outcome.path
    how = ("exactly" if outcome.method == "exact" else "as an append"
           if outcome.method == "append" else f"by {outcome.method or outcome.status}")
    found = ("" if span is None or outcome.before_state is None else
             f" (reviewtui finds it {how} at {_lines(span)} of {path})")
    return replace(outcome, status=Status.REFUSED, rule=CODEX_REFUSED, forceable=True,
                   similarity=None,
                   message=f"held (rule {CODEX_REFUSED}): Codex's apply_patch would refuse "
                           f"this chunk{found}: {cause}. Codex wrote nothing of its patch "
                           "from this section on, and the model may have sent the change "
                           "again in a later patch; force it to write it as reviewtui "
                           "reads it")


def _noted(outcome: Outcome, cause: str) -> Outcome:
    note = (f"Codex's own apply_patch would refuse this chunk: {cause} (a lone patch lands "
            "as reviewtui reads it; in a text of several patches it is held)")
    return replace(outcome, hint="; ".join(part for part in (outcome.hint, note) if part))


def _elsewhere(outcome: Outcome, place: int, bom: bool) -> Outcome:
    span, path = outcome.lines, outcome.path
    shown = _lines(span) if span is not None else "the place"
    mark = " (to Codex, the file's byte-order mark is part of line 1)" if bom else ""
    return replace(outcome, status=Status.REFUSED, rule=CODEX_ELSEWHERE, forceable=True,
                   similarity=None,
                   message=f"held (rule {CODEX_ELSEWHERE}): Codex's apply_patch puts this "
                           f"chunk at line {place + 1} of {path}, not at {shown} where "
                           f"reviewtui finds it{mark}; written here, it would make a file "
                           "Codex did not; force it to write it where reviewtui finds it")


def _bare(outcome: Outcome, which: str) -> Outcome:
    """Held, alone or among several patches: Codex writes the chunk (``which``: or its
    section's later one) otherwise than reviewtui reads it (see :data:`BARE`)."""
    return replace(outcome, status=Status.REFUSED, rule=CODEX_ELSEWHERE, forceable=True,
                   similarity=None,
                   message=f"held (rule {CODEX_ELSEWHERE}): Codex's apply_patch writes "
                           f"{which} otherwise than reviewtui reads it: {BARE}; written as "
                           "reviewtui reads it, it would make a file Codex did not (Codex "
                           "writes a section whole); force it to write it as reviewtui "
                           "reads it")


def _lines(span: tuple[int, int]) -> str:
    return f"line {span[0]}" if span[1] <= span[0] else f"lines {span[0]}-{span[1]}"


def _cause(state: FileState, anchor: Sequence[str], old: Sequence[str], at_end: bool,
           first_line: bool, place: str) -> str:
    """Which of reviewtui's allowances Codex does not make would find a chunk that Codex's
    search does not (``place``: what it says); "" when none of these."""
    if "UTF-8" in place or "parser" in place:
        return place
    if anchor and codex_anchor(anchor[0]) != anchor[0]:
        return (f"Codex's parser trims the @@ line's trailing whitespace, so it looks for "
                f"{codex_anchor(anchor[0])!r}, not {anchor[0]!r}: {place}")
    lines = state.line_view
    if state.bom and lines and (first_line or (old and old[0] == lines[0]) or (
            anchor and lines[0].strip() == anchor[0].strip())):
        return ("the file's UTF-8 byte-order mark is part of line 1 to Codex, so "
                + ("its @@ line" if "@@" in place else "that line") + " does not match")
    if at_end and old and lines and not lines[-1].strip():
        return ("it ends with '*** End of File', and blank lines follow it in the file, "
                "where Codex takes the file's very last lines only")
    return ""


def _matched(place: str, outcome: Outcome) -> str:
    """Codex's reason, and how reviewtui's match goes beyond Codex's search."""
    if outcome.rule:
        return f"{place} ({outcome.rule}: {outcome.message})"
    return (f"{place}; reviewtui's match by {outcome.method or outcome.status} is one "
            "Codex's search (exact, trailing whitespace, surrounding whitespace, some "
            "typographic punctuation) does not make")
