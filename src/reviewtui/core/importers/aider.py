"""Aider chat histories (``.aider.chat.history.md``): each ``#### `` request starts a turn.

Aider logs the user's messages as ``#### `` lines (one per line of a multi-line message),
its own notes as ``> `` lines, and the model's replies as they came. In a reply an edit
is a SEARCH/REPLACE block::

    path/to/file.py
    ```python
    <<<<<<< SEARCH
    old lines
    =======
    new lines
    >>>>>>> REPLACE
    ```

The markers may have 5 to 9 characters; the file name is looked for on the three lines
before the SEARCH marker as long as they are fence lines (so it may sit inside the fence,
or on the fence line itself: ```` ```src/app.py ````), and a block without one reuses the
previous block's file. The fence may be ```` ``` ````, ```` ```` ```` (chosen per turn, as
Aider does when a file itself holds ``````` ``` ```````) or absent. Shell blocks
(```` ```bash ```` ...) are suggestions Aider asks about before running: they are noted,
not replayed. A block with an empty SEARCH creates the file, or appends to it when it
exists, as Aider does.

When a reply has a malformed block Aider applies none of its edits; the turn then has no
operations and an ``aider-block`` (or ``aider-filename``) problem at the line.

Aider logs the edit format in use (``> Model: gpt-4o with whole edit format``). Under
``whole`` (and ``editor-whole``) a reply writes whole files: a file name alone on a line,
then a fenced block holding the file's full content; each becomes a full file. A format
this importer does not read (``udiff``, ``patch``, ...) is said on each turn that has no
SEARCH/REPLACE block (``aider-format``), never silently imported as nothing.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from reviewtui.core.importers.aider_outcomes import (
    DIVIDER,
    HEAD,
    UPDATED,
    ReplyPart,
    follow_outcomes,
    logged_block_end,
)
from reviewtui.core.importers.common import format_error, problem, reply_from_ops
from reviewtui.core.model.records import (
    Edit,
    FullFile,
    Operation,
    ParseProblem,
    Session,
    Span,
    Turn,
)
from reviewtui.core.text.lines import split_lines

SHELL_STARTS = tuple("```" + name for name in (
    "bash", "sh", "shell", "cmd", "batch", "powershell", "ps1", "zsh", "fish", "ksh", "csh",
    "tcsh"))
# Aider's own list of fences, tried in this order: a turn uses the first one it contains.
FENCES = ("````", "<source>", "<code>", "<pre>", "<codeblock>", "<sourcecode>")

BAD_BLOCK = "aider-block"
NO_FILENAME = "aider-filename"
SHELL = "aider-shell"
NO_REQUESTS = "no-requests"
UNREAD_FORMAT = "aider-format"
WHOLE_AGAIN = "aider-whole-again"
WHOLE_NAMELESS = "aider-whole-nameless"
# (Possessive: a run like "with !!!!...! edit format" backtracked exponentially.)
EDIT_FORMAT = re.compile(r"^> .*\bwith (?:[^\w\s]++\s*+)*+([\w-]+) edit format")
WHOLE_FORMATS = frozenset({"whole", "editor-whole"})
BLOCK_FORMATS = frozenset({"diff", "diff-fenced", "editor-diff", "editor-diff-fenced", "ask",
                           "context", "help", "architect"})


# Private: unwinds one reply's block parse; always caught there and becomes a ParseProblem.
class _BlockError(Exception):
    def __init__(self, rule: str, message: str, line: int) -> None:
        super().__init__(message)
        self.rule = rule
        self.message = message
        self.line = line


def is_request(line: str) -> bool:
    return line.startswith("#### ") or line.rstrip() == "####"


# A SEARCH marker line anywhere in a text (with re.MULTILINE). Its blanks stay within the
# line: "^\s*<{5,9} SEARCH>?\s*$" let them span lines, and every line's start in a run of
# blank lines read the rest of the run (quadratic: 8,000 newlines 0.37 s). A text has a
# marker line by this pattern exactly when it had one by that.
MARKER_LINE = r"^[^\S\n]*+<{5,9} SEARCH>?[^\S\n]*+$"


def looks_like_aider(text: str) -> bool:
    """Aider's session header; or its structure, ``#### `` requests followed by SEARCH
    blocks (:func:`requests_then_blocks`), in a text with no Codex ``*** Begin Patch`` line
    at a line's start. A Codex session whose prose has a ``#### `` heading and quotes an
    Aider block was read as Aider: the quoted block was written and the patch never read,
    exit 0 (QA s47 helper-148 F8); such a text is now refused as two formats
    (``core.importers.import_session``), and ``--format`` names the one it is."""
    if re.search(r"^# aider chat started at", text, re.MULTILINE):
        return True
    return requests_then_blocks(text) and not re.search(r"^\*\*\* Begin Patch[ \t]*\r?$", text,
                                                        re.MULTILINE)


def requests_then_blocks(text: str) -> bool:
    """A ``#### `` request line with a SEARCH marker line after it: Aider's replies follow
    its requests (a marker above every request is not an answer to one)."""
    request = re.search(r"^####(?: |[ \t]*\r?$)", text, re.MULTILINE)
    return (request is not None
            and re.compile(MARKER_LINE, re.MULTILINE).search(text, request.end()) is not None)


def import_aider(text: str, source: str, *, follow_log: bool = True) -> Session:
    """The session; ``follow_log=False`` keeps blocks Aider skipped or undid (its own parse)."""
    lines = split_lines(text)
    starts = [i for i, line in enumerate(lines) if is_request(line)]
    if not starts and not any(HEAD.match(line.strip()) for line in lines):
        raise format_error(source, None, NO_REQUESTS, "no '#### ' request line and no "
                           "SEARCH block: this is not an Aider chat history")
    parts: list[tuple[ReplyPart, Span, Span, Span | None]] = []
    formats = _edit_formats(lines)
    if not starts or starts[0] > 0:  # edits before any request still count
        stop = starts[0] if starts else len(lines)
        ops, notes = parse_reply(lines, 0, stop, formats.get(0, ""))
        if ops or notes:
            whole = Span(1, max(stop, 1))
            parts.append((ReplyPart("", 0, stop, ops, notes), whole, whole, None))
    i = 0
    while i < len(starts):
        first = starts[i]
        last = first
        while i + 1 < len(starts) and starts[i + 1] == last + 1:  # a multi-line request
            i += 1
            last = starts[i]
        stop = starts[i + 1] if i + 1 < len(starts) else len(lines)
        request = "\n".join(_request_text(lines[k]) for k in range(first, last + 1)).strip()
        ops, notes = parse_reply(lines, last + 1, stop, _format_at(formats, first))
        span = Span(first + 1, max(first + 1, stop))
        reply_span = Span(min(last + 2, max(stop, 1)), max(last + 2, stop))
        parts.append((ReplyPart(request, last + 1, stop, ops, notes), reply_span, span,
                      Span(first + 1, last + 1)))
        i += 1
    if follow_log:
        follow_outcomes(lines, [part for part, *_ in parts])
    turns = tuple(Turn(n, part.request, reply_from_ops(part.ops, reply_span, part.notes), span,
                       heading) for n, (part, reply_span, span, heading) in enumerate(parts, 1))
    return Session(source, "", "", turns, format="aider")


def _edit_formats(lines: Sequence[str]) -> dict[int, str]:
    """Line index -> the edit format Aider announced there (``> Model: ... with X``)."""
    out: dict[int, str] = {}
    for i, line in enumerate(lines):
        if line.startswith("> ") and "edit format" in line:
            match = EDIT_FORMAT.match(line)
            if match is not None:
                out[i] = match.group(1)
    return out


def _format_at(formats: dict[int, str], line: int) -> str:
    """The edit format in force at ``line``: the last one announced before it."""
    found = ""
    for at, name in formats.items():
        if at < line:
            found = name
    return found


def _request_text(line: str) -> str:
    return line[5:].rstrip() if line.startswith("#### ") else ""


def choose_fence(lines: Sequence[str], start: int, stop: int) -> str:
    """The fence Aider would use for this reply: the first of its fences found, else ```."""
    for fence in FENCES:
        if any(lines[k].startswith(fence) for k in range(start, stop)):
            return fence
    return "```"


def parse_reply(lines: Sequence[str], start: int, stop: int, edit_format: str = ""
                ) -> tuple[list[Operation], list[ParseProblem]]:
    """The edits of ``lines[start:stop]``; none, and the problem, when a block is malformed."""
    fence = choose_fence(lines, start, stop)
    ops: list[Operation] = []
    notes: list[ParseProblem] = []
    if edit_format in WHOLE_FORMATS and not any(
            HEAD.match(lines[k].strip()) for k in range(start, stop)):
        return _whole_files(lines, start, stop, fence, notes), notes
    try:
        for op in _blocks(lines, start, stop, fence, notes):
            ops.append(op)
        if not ops and edit_format and edit_format not in BLOCK_FORMATS and stop > start:
            notes.append(problem(UNREAD_FORMAT, f"this history uses Aider's {edit_format!r} "
                                 "edit format, which reviewtui does not read: this reply's "
                                 "edits are not imported", start + 1, stop))
    except _BlockError as err:
        kept = [n for n in notes if n.rule == SHELL]
        return [], [*kept, problem(err.rule, err.message + "; Aider applied none of this "
                                   "reply's edits", err.line)]
    return ops, notes


def _blocks(lines: Sequence[str], start: int, stop: int, fence: str,
            notes: list[ParseProblem]) -> list[Edit]:
    found: list[Edit] = []
    current: str | None = None
    i = start
    while i < stop:
        stripped = lines[i].strip()
        if (logged := logged_block_end(lines, i, stop)) is not None:
            i = logged + 1  # (Aider's log of a block that failed to match, as it is)
            continue
        if stripped.startswith(SHELL_STARTS) and not _head_follows(lines, i, stop):
            first = i
            i += 1
            while i < stop and not lines[i].strip().startswith("```"):
                i += 1
            command = " ".join(lines[k].strip() for k in range(first + 1, i)).strip()
            if i < stop:
                i += 1
            notes.append(problem(SHELL, "a suggested shell command (Aider asks before running "
                                 f"it; not replayed): {command[:80]!r}", first + 1, i,
                                 severity="info"))
            continue
        if stripped[:1] == "<" and HEAD.match(stripped):
            edit, i, current = _block(lines, start, i, stop, fence, current)
            found.append(edit)
        i += 1
    return found


def _whole_files(lines: Sequence[str], start: int, stop: int, fence: str,
                 notes: list[ParseProblem]) -> list[Operation]:
    """Aider's ``whole`` format: a file name alone on a line, then a fenced full file.

    The name may also follow the opening fence (```` ```src/app.py ````). A fenced block
    without a name is not replayed (a warning: Aider may have written it), a shell block
    is passed over. A
    file named again in the reply (``the old version was:``) is not written again: Aider
    writes the first block of a name (``WholeFileCoder.get_edits``; both were replayed
    and the last won, the file left unchanged, exit 0: QA s44 helper-134 H3).
    """
    files: list[Operation] = []
    first: dict[str, int] = {}  # name -> the line of its first block
    i = start
    while i < stop:
        line = lines[i]
        if not line.startswith(fence):
            i += 1
            continue
        close = next((k for k in range(i + 1, stop) if lines[k].rstrip() == fence), None)
        if close is None:
            break
        rest = line[len(fence):].strip()
        name = rest if ("." in rest or "/" in rest) and " " not in rest else None
        if name is None and i > start:
            candidate = strip_filename(lines[i - 1], fence)
            if candidate and " " not in candidate and not candidate.startswith(SHELL_STARTS):
                name = candidate
        shell = line.strip().startswith(SHELL_STARTS)
        if name and not shell and name in first:
            notes.append(problem(WHOLE_AGAIN, f"{name} is given again here (first on line "
                                 f"{first[name]}): Aider writes the first block of a file "
                                 "name, and so does the replay", i + 1, close + 1,
                                 severity="info"))
        elif name and not shell:
            first[name] = i + 1
            files.append(FullFile(name, tuple(lines[i + 1 : close]),
                                  Span(i + 1, close + 1)))
        elif not shell:
            # Aider writes such a block too, to a file it names from the reply's prose or
            # the chat's only file, which the history does not say for sure: not replayed,
            # and said (it was passed over silently, QA s44 helper-134 M3).
            notes.append(problem(WHOLE_NAMELESS, "a fenced block without a file name line: "
                                 "Aider may have written it to a file named in the prose or "
                                 "the chat's only file; it is not replayed", i + 1, close + 1,
                                 severity="warning"))
        i = close + 1
    return files


def _head_follows(lines: Sequence[str], i: int, stop: int) -> bool:
    return any(k < stop and HEAD.match(lines[k].strip()) is not None for k in (i + 1, i + 2))


def _block(lines: Sequence[str], start: int, head: int, stop: int, fence: str,
           current: str | None) -> tuple[Edit, int, str]:
    filename = find_filename(lines[max(start, head - 3) : head], fence) or current
    if not filename:
        raise _BlockError(NO_FILENAME, "a SEARCH block without a file name: the file name "
                          f"must be alone on the line before the opening fence {fence}",
                          head + 1)
    i = head + 1
    while i < stop and not _is(DIVIDER, lines[i]):
        i += 1
    if i >= stop:
        raise _BlockError(BAD_BLOCK, "SEARCH without its '=======' line", head + 1)
    divider = i
    i += 1
    while i < stop and not (_is(UPDATED, lines[i]) or _is(DIVIDER, lines[i])):
        i += 1
    if i >= stop:
        raise _BlockError(BAD_BLOCK, "SEARCH/REPLACE block without its '>>>>>>> REPLACE' "
                          "line", divider + 1)
    search = tuple(lines[head + 1 : divider])
    replace = tuple(lines[divider + 1 : i])
    empty = not "".join(search).strip()
    edit = Edit(filename, 1, None, search, replace, Span(head + 1, i + 1),
                Span(head + 1, divider + 1), Span(divider + 1, i + 1), at_end=empty)
    return edit, i, filename


def _is(pattern: re.Pattern[str], line: str) -> bool:
    stripped = line.strip()
    return stripped[:1] in "=>" and stripped != "" and pattern.match(stripped) is not None


def find_filename(before: Sequence[str], fence: str) -> str | None:
    """The file name on the (up to 3) lines before a SEARCH marker, nearest first.

    Going up, a line that is not a fence line ends the search; among the names seen the
    first with an extension wins, else the nearest.
    """
    names: list[str] = []
    for line in reversed(before[-3:]):
        name = strip_filename(line, fence)
        if name:
            names.append(name)
        if not line.startswith(fence) and not line.startswith("```"):
            break
    if not names:
        return None
    return next((name for name in names if "." in name), names[0])


def strip_filename(line: str, fence: str) -> str | None:
    name = line.strip()
    if name == "...":
        return None
    for opener in (fence, "```"):
        if name.startswith(opener):
            rest = name[len(opener):]
            return rest if rest and ("." in rest or "/" in rest) else None
    name = name.rstrip(":").lstrip("#").strip().strip("`").strip("*")
    return name or None
