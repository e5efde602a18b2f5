"""Codex ``apply_patch`` patches: ``*** Begin Patch`` ... ``*** End Patch``, one per turn.

The grammar, as Codex's own parser reads it (markers may carry surrounding whitespace)::

    *** Begin Patch
    *** Add File: path        then content lines, each starting with "+"
    *** Delete File: path
    *** Update File: path
    *** Move to: new/path     (optional, right after Update File)
    @@ optional context       (a chunk; the first chunk may omit "@@")
     context / -removed / +added lines; an empty line is an empty context line
    *** End of File           (optional: the chunk ends the file)
    *** End Patch

Mapping: a chunk is an :class:`Edit` (context and removed lines are SEARCH, context and
added lines REPLACE, the ``@@`` text its ``anchor``, ``*** End of File`` its ``at_end``;
a chunk with no old lines appends, as Codex does); Add File is a :class:`FullFile`,
Delete File a literal ``:rm``, Move to a literal ``:mv -f`` followed by the edits of the
new path. Codex writes every updated file with a final newline, and so do these edits.

A patch Codex would reject is read the same way: a lone patch raises
:class:`SessionFormatError`; in a text of several, the bad one becomes a turn with no
operations and the parse problem, so the reviewer sees what Codex refused. A text of
several is a transcript, which holds the patches Codex refused too: there a second ``@@``
line (read as a narrower context in a lone patch) makes such a patch, and each chunk is
marked to land only where Codex's own search writes it (``Edit.codex``,
``core/engine/codex_seek.py``).
"""

from __future__ import annotations

from collections.abc import Sequence

from reviewtui.core.errors import PatchError
from reviewtui.core.importers.common import (
    Change,
    command,
    format_error,
    problem,
    relative_path,
    turns_from_changes,
)
from reviewtui.core.model.records import (
    CODEX_HOLD,
    CODEX_NOTE,
    CodexChunk,
    CommandName,
    Edit,
    FullFile,
    Operation,
    ParseProblem,
    Session,
    Span,
    Turn,
)
from reviewtui.core.record import record, replace
from reviewtui.core.text.lines import split_lines

BEGIN = "*** Begin Patch"
END = "*** End Patch"
ADD = "*** Add File: "
DELETE = "*** Delete File: "
UPDATE = "*** Update File: "
MOVE = "*** Move to: "
EOF_MARKER = "*** End of File"

UNTERMINATED = "patch-unterminated"
BAD_HEADER = "patch-bad-header"
EMPTY_UPDATE = "patch-empty-update"
EMPTY_CHUNK = "patch-empty-chunk"
BAD_LINE = "patch-bad-line"
NESTED_CONTEXT = "patch-nested-context"
NO_PATCH = "no-patch"
EMPTY_PATCH = "patch-empty"


@record(frozen=True, slots=True)
class _Patch:
    begin: int  # 0-based index of the Begin line
    end: int | None  # 0-based index of the End line; None when missing
    request: str


def looks_like_apply_patch(lines: Sequence[str]) -> bool:
    return any(line.strip() == BEGIN for line in lines)


def import_apply_patch(text: str, source: str, *, root: str | None = None) -> Session:
    lines = split_lines(text)
    patches = _find_patches(lines)
    if not patches:
        raise format_error(source, None, NO_PATCH, f"no '{BEGIN}' line: this is not an "
                           "apply_patch text (try another --format)")
    turns: list[Turn] = []
    # Among several patches (a transcript: every patch the model sent, those Codex refused
    # too) a chunk lands only where Codex's own search would write it; see Edit.codex.
    codex = CODEX_HOLD if len(patches) > 1 else CODEX_NOTE
    for patch in patches:
        stop = patch.end if patch.end is not None else len(lines)
        span = Span(patch.begin + 1, stop + 1 if patch.end is not None else max(stop, 1))
        try:
            if patch.end is None:
                raise PatchError(UNTERMINATED, f"'{BEGIN}' without a matching '{END}': "
                                 "Codex rejects the whole patch", patch.begin + 1)
            changes, notes = parse_patch_body(lines, patch.begin + 1, patch.end, root, codex)
            nested = next((note for note in notes if note.rule == NESTED_CONTEXT), None)
            if nested is not None and codex == CODEX_HOLD:
                # Codex's parser rejects the patch, and the model may have sent it again.
                raise PatchError(NESTED_CONTEXT, "a second '@@' line right after another: "
                                 "Codex's apply_patch rejects the whole patch, so the model "
                                 "may have sent the change again in a later one",
                                 nested.span.start)
            if not changes:  # (QA s44 helper-134 L1: read as "0 of 0 applied", exit 0)
                raise PatchError(EMPTY_PATCH, "a patch without any file operation: Codex "
                                 "rejects it ('No files were modified')", patch.begin + 1)
        except PatchError as err:
            if len(patches) == 1:
                raise format_error(source, err.line, err.rule, err.message) from None
            bad = problem(err.rule, err.message + " (Codex applied nothing of this patch)",
                          err.line)
            turns.extend(turns_from_changes(len(turns) + 1, patch.request, [], span, [bad]))
            continue
        turns.extend(turns_from_changes(len(turns) + 1, patch.request, changes, span, notes))
    return Session(source, "", "", tuple(turns), format="apply_patch")


def _find_patches(lines: Sequence[str]) -> list[_Patch]:
    patches: list[_Patch] = []
    begin: int | None = None
    text_start = 0
    for i, line in enumerate(lines):
        marker = line.strip()
        if marker == BEGIN:
            if begin is not None:  # the previous patch never ended
                patches.append(_Patch(begin, None, _request(lines, text_start, begin)))
                text_start = begin
            begin = i
        elif marker == END and begin is not None:
            patches.append(_Patch(begin, i, _request(lines, text_start, begin)))
            begin = None
            text_start = i + 1
    if begin is not None:
        patches.append(_Patch(begin, None, _request(lines, text_start, begin)))
    return patches


def _request(lines: Sequence[str], start: int, stop: int) -> str:
    """Text between two patches (a transcript's prose), as the turn's request."""
    return "\n".join(lines[start:stop]).strip()


def parse_patch_body(lines: Sequence[str], start: int, stop: int, root: str | None = None,
                     codex: str = CODEX_NOTE) -> tuple[list[Change], list[ParseProblem]]:
    """The sections between the Begin (exclusive) and End (exclusive) lines; ``codex``:
    each chunk's :attr:`Edit.codex`."""
    changes: list[Change] = []
    notes: list[ParseProblem] = []
    i = start
    while i < stop:
        header = lines[i].strip()
        lineno = i + 1
        if header.startswith(ADD):
            path = relative_path(header[len(ADD):], (root,))
            i += 1
            content: list[str] = []
            while i < stop and lines[i].startswith("+"):
                content.append(lines[i][1:])
                i += 1
            span = Span(lineno, max(lineno, i))
            changes.append(Change([FullFile(path, tuple(content), Span(lineno + 1, i)
                                            if content else Span(lineno, lineno),
                                            literal=True)], span))
        elif header.startswith(DELETE):
            path = relative_path(header[len(DELETE):], (root,))
            changes.append(Change([command(CommandName.RM, [path], lineno)],
                                  Span(lineno, lineno)))
            i += 1
        elif header.startswith(UPDATE):
            change, i = _update(lines, i, stop, root, notes, codex)
            changes.append(change)
        else:
            raise PatchError(BAD_HEADER, f"{header!r} is not a valid section header: expected "
                             f"'{ADD}path', '{DELETE}path' or '{UPDATE}path'", lineno)
    return changes, notes


def _update(lines: Sequence[str], i: int, stop: int, root: str | None,
            notes: list[ParseProblem], codex: str) -> tuple[Change, int]:
    lineno = i + 1
    raw_path = lines[i].strip()[len(UPDATE):]
    path = relative_path(raw_path, (root,))
    i += 1
    ops: list[Operation] = []
    target = path
    if i < stop and lines[i].strip().startswith(MOVE):
        target = relative_path(lines[i].strip()[len(MOVE):], (root,))
        ops.append(command(CommandName.MV, [path, target], i + 1, force=True))
        i += 1
    edits: list[Edit] = []
    while i < stop:
        if not lines[i].strip():  # blank lines between chunks
            i += 1
            continue
        if lines[i].startswith("*"):
            break
        edit, i = _chunk(lines, i, stop, target, not edits, notes, codex)
        edits.append(edit)
    if not edits:
        raise PatchError(EMPTY_UPDATE, f"the Update File section for {raw_path!r} has no "
                         "chunk: Codex rejects an empty update", lineno)
    if len(edits) > 1:  # each chunk knows the ones after it: they must fit in order
        edits = [replace(edit, later=tuple(e.search_lines for e in edits[k + 1:]))
                 for k, edit in enumerate(edits)]
        # (Codex places them all before it writes any: core/engine/codex_seek.py)
        edits[0] = replace(edits[0], codex_later=tuple(
            CodexChunk(e.anchor, e.search_lines, e.at_end, e.span.start) for e in edits[1:]))
    return Change([*ops, *edits], Span(lineno, max(lineno, i))), i


def _is_header(line: str) -> bool:
    """A chunk's ``@@`` line; one of blanks after it is a bare ``@@`` to Codex, which
    trims it (QA s47 helper-148 F9: read as an anchor on a blank line, the hunk found
    in the file twice landed below the first blank line, in the second function)."""
    return line.startswith("@@") and (not line[2:].strip() or line[2] == " ")


def _chunk(lines: Sequence[str], i: int, stop: int, path: str, first: bool,
           notes: list[ParseProblem], codex: str) -> tuple[Edit, int]:
    start = i
    anchor: list[str] = []
    line = lines[i]
    if _is_header(line):
        if line[3:].strip():
            anchor.append(line[3:])
        i += 1
        while i < stop and _is_header(lines[i]):
            notes.append(problem(NESTED_CONTEXT, "a second '@@' line right after another: "
                                 "Codex's own apply_patch rejects it; reviewtui reads it as a "
                                 "narrower context inside the first", i + 1, severity="info"))
            if lines[i][3:].strip():
                anchor.append(lines[i][3:])
            i += 1
    elif not first:
        raise PatchError(BAD_LINE, f"expected a chunk starting with '@@', got {line!r}", i + 1)
    if i >= stop:
        raise PatchError(EMPTY_CHUNK, "a chunk with no lines", i)
    old: list[str] = []
    new: list[str] = []
    at_end = False
    taken = 0
    while i < stop:
        line = lines[i]
        if line == EOF_MARKER:
            if not taken:
                raise PatchError(EMPTY_CHUNK, "a chunk with no lines before "
                                 f"'{EOF_MARKER}'", i + 1)
            at_end = True
            i += 1
            break
        mark = line[:1]
        if mark == "":
            old.append("")
            new.append("")
        elif mark == " ":
            old.append(line[1:])
            new.append(line[1:])
        elif mark == "-":
            old.append(line[1:])
        elif mark == "+":
            new.append(line[1:])
        else:
            if not taken:
                raise PatchError(BAD_LINE, f"unexpected line {line!r}: every chunk line "
                                 "starts with ' ' (context), '-' (removed) or '+' (added)",
                                 i + 1)
            break
        taken += 1
        i += 1
    span = Span(start + 1, max(start + 1, i))
    # Context, removed and added lines interleave: both sides span the whole chunk.
    edit = Edit(path, 1, None, tuple(old), tuple(new), span, span, span,
                anchor=tuple(anchor), at_end=at_end or not old, final_newline=True,
                follows=not first, literal=True, codex=codex)
    return edit, i
