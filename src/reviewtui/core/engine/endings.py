"""The line endings a byte-exact format gives its new lines (a unified diff's CRs).

A search/replace edit normally writes its new lines in the file's own ending: a model
types LF whatever the file holds, and that is forgiven. A unified diff from git is not
typed: its lines carry the file's bytes, CRs included, so a commit that turns CRLF lines
into LF ones (or adds LF lines to a CRLF file, or edits a file whose lines end both
ways) says so line by line, and writing the file's ending instead makes a file git
never had -- with exit 0.

The importer records which lines of each hunk end in CR, and a hunk at line 1 whether
its first line starts with a byte order mark (``Edit.line_bytes``). Where the old
side's endings agree, line for line, with the file's at the place the edit lands, the
diff was taken from these very bytes: its new lines get exactly the endings it gives
them (its context lines then keep the file's own). Where they disagree (a diff typed or
re-encoded with LF for a CRLF file), the diff says nothing reliable about endings and
the file's convention stands, as for any edit. A hunk without old lines whose new lines
carry no CR (``git diff -U0`` adding lines) gives no such proof either.
"""

from __future__ import annotations

from collections.abc import Sequence

from reviewtui.core.model.filestate import UTF8_BOM, FileState
from reviewtui.core.model.outcome import MatchResult
from reviewtui.core.model.records import Edit, LineBytes

_NAMES = {"\r\n": "CRLF", "\n": "LF"}


def diff_endings(current: FileState, result: MatchResult, edit: Edit,
                 final_newline: bool | None) -> tuple[FileState, str] | None:
    """The version with ``result``'s lines written in the endings ``edit`` gives them,
    and a note for the reviewer when those are not the file's own; None when the file's
    convention decides (no proof the diff's endings are the file's, or they say the
    same as the convention would)."""
    said = edit.line_bytes
    if said is None or current.binary:
        return None
    search_crs, replace_crs = said.search_crs, said.replace_crs
    start, end, new = result.start, result.end, result.new_lines
    if current.line_count == 0 and all(not line for line in edit.search_lines):
        # An empty file, or a byte order mark alone (which a diff shows as a line).
        state = filled(current, new, final_newline, said)
        return None if state is None else (state, "")
    if end - start != len(edit.search_lines) or len(new) != len(edit.replace_lines):
        return None  # not a line-for-line landing: which ending is whose is unknown
    if start == end and not replace_crs:
        return None  # no old line to prove the diff's endings, and none that says CR
    count = current.line_count
    if start == end == count and not current.final_newline and count:
        return None  # appended after a last line without an ending: the convention's
    final = final_newline if final_newline is not None else (
        current.final_newline or count == 0)
    if end == count and not final and not new:
        return None  # the last lines removed and no ending after the new last one
    mixed = current.eol == "mixed"
    open_end = end == count and count > 0 and not current.final_newline
    if not mixed and search_crs != (frozenset(range(end - start - open_end))
                                    if current.eol == "\r\n" else frozenset()):
        # The old side's endings are not the file's (one for every line): its convention
        # stands, but not over a byte order mark the diff drops or adds.
        return _mark_alone(current, result, said, final_newline)
    # A byte order mark is the first line's first bytes in a diff: the old side's must be
    # the file's, and the new side's says whether the file keeps one.
    bom = current.bom
    if start == 0 and end > 0:
        if said.search_bom != current.bom:
            return None
        bom = bool(new) and said.replace_bom
    if result.method == "exact":
        # As written: the matcher drops a CR at a line's end, but in a diff's line the
        # one left is content (a last line "\r" with no newline after it).
        new = tuple(edit.replace_lines)
    endings = ["\r\n" if j in replace_crs else "\n" for j in range(len(new))]
    if new and end == count and not final:
        endings[-1] = ""  # the file's last line, left without an ending
    if (not mixed and all(e in ("", current.newline) for e in endings)
            and not (start == 0 < end and (current.bom or bom)) and new == result.new_lines):
        return None  # what the file's convention writes: the usual (shared) splice
    text = current.text or ""
    lo, hi = _offsets(text, start, end, mixed, current)
    if mixed and search_crs != frozenset(
            i for i, line in enumerate(text[lo:hi].split("\n")[:-1]) if line.endswith("\r")):
        return None  # the old side's endings are not the file's, line for line
    middle = "".join(line + ending for line, ending in zip(new, endings, strict=True))
    data = (UTF8_BOM if bom else b"") + (text[:lo] + middle + text[hi:]).encode()
    return current.with_data(data), _note(endings, current.newline, current.bom, bom)


def _mark_alone(current: FileState, result: MatchResult, said: LineBytes,
                final_newline: bool | None) -> tuple[FileState, str] | None:
    """The file's own line endings, with the byte order mark the diff gives line 1 when
    its old side holds the file's: a commit that drops a BOM, replayed on a checkout that
    writes CRLF (``core.autocrlf``: the diff's lines end in LF, the file's in CRLF), kept
    the BOM, exit 0 (Newtonsoft.Json 9317d71a, s38). None when the mark stays."""
    start, end = result.start, result.end
    if not start == 0 < end or said.search_bom != current.bom:
        return None
    bom = bool(result.new_lines) and said.replace_bom
    if bom == current.bom:
        return None
    data = current.splice(start, end, result.new_lines, final_newline=final_newline).data
    if current.bom != data.startswith(UTF8_BOM):
        return None  # (a mark the splice did not keep: nothing known to toggle)
    data = data[len(UTF8_BOM):] if current.bom else UTF8_BOM + data
    return current.with_data(data), _note([], current.newline, current.bom, bom)


def filled(current: FileState, new: Sequence[str], final: bool | None,
           said: LineBytes) -> FileState | None:
    """An empty file (or one holding a byte order mark alone) filled with ``new`` as the
    diff writes them: its endings and its mark. None when the diff's old side disagrees
    with the file about the mark (the file's conventions then decide)."""
    if said.search_bom != current.bom:
        return None
    endings = ["\r\n" if j in said.replace_crs else "\n" for j in range(len(new))]
    if endings and final is False:
        endings[-1] = ""
    body = "".join(line + ending for line, ending in zip(new, endings, strict=True))
    return current.with_data((UTF8_BOM if said.replace_bom else b"") + body.encode())


def _offsets(text: str, start: int, end: int, mixed: bool,
             current: FileState) -> tuple[int, int]:
    """Where lines ``start`` and ``end`` begin in ``text`` (its length past the last)."""
    if not mixed:  # one ending for every line: the lengths add up
        lines = current.line_view
        width = len(current.newline)
        lo = sum(map(len, lines[:start])) + start * width
        hi = lo + sum(map(len, lines[start:end])) + (end - start) * width
        return min(lo, len(text)), min(hi, len(text))
    lo = _line_start(text, start, 0)
    return lo, _line_start(text, end - start, lo)


def _line_start(text: str, lines: int, at: int) -> int:
    """Where the line ``lines`` lines after the one starting at ``at`` starts."""
    for _ in range(lines):
        found = text.find("\n", at)
        if found < 0:
            return len(text)
        at = found + 1
    return at


def _note(endings: list[str], newline: str, had_bom: bool, bom: bool) -> str:
    """What the reviewer is told: the new lines whose ending is not the file's usual one,
    and a byte order mark the diff adds or removes ("" when the diff kept the file's own
    conventions)."""
    parts = []
    other = [e for e in endings if e and e != newline]
    if other:
        names = " and ".join(sorted({_NAMES[e] for e in other}))
        parts.append(f"line endings as in the diff: {len(other)} new line(s) end in {names}, "
                     f"where the file's lines mostly end in {_NAMES[newline]}")
    if had_bom != bom:
        parts.append("the diff " + ("removes the file's byte order mark" if had_bom
                                     else "adds a byte order mark"))
    return "; ".join(parts)
