"""What an agent is told: compact answers for the file-tree API (``reviewtui mcp``).

Every answer is plain text, a few short lines: tokens an agent spends reading our answers
are tokens it does not spend on the change (seed 002's token economics). Pure functions:
records in, text out; the shell reads the disk and the review, the server only relays.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence

from reviewtui.core.model.outcome import Outcome, Status
from reviewtui.core.model.records import Edit, FullFile, Operation
from reviewtui.core.model.tree import FileState
from reviewtui.core.record import record
from reviewtui.core.text.hashline import line_id

READ_MAX_LINES = 400  # a read past this returns the head and the outline instead
SEARCH_MAX_HITS = 30
SEARCH_CONTEXT = 1
CANDIDATE_PREVIEW = 4
# Characters of one line an answer shows: a minified bundle's one line of megabytes was
# answered whole, to read and to each search hit (QA pass 85).
LINE_MAX = 2_000


@record(frozen=True, slots=True)
class FileEntry:
    """One row of the manifest (``ls``)."""

    path: str
    size: int
    lines: int
    revision: str
    marks: tuple[str, ...] = ()  # "reserved", "generated", "binary", "symlink"
    link_to: str | None = None  # a symlink's root-relative target (None: out of the root)


def manifest(entries: Sequence[FileEntry], *, capped: int | None = None) -> str:
    """``path  bytes  lines  revision  marks`` per file (a symbolic link: ``path  ->
    target  marks``); a note when the list was capped."""
    if not entries:
        return "no files match"
    rows = [(f"{e.path}  -> {'outside the root' if e.link_to is None else e.link_to or '.'}"
             if "symlink" in e.marks else f"{e.path}  {e.size}B  {e.lines}L  rev {e.revision}")
            + (f"  [{', '.join(e.marks)}]" if e.marks else "") for e in entries]
    if capped:
        rows.append(f"... {capped} more files not listed: narrow the glob")
    return "\n".join(rows)


def numbered_lines(lines: Sequence[str], start: int, *, hashed: bool) -> list[str]:
    width = len(str(start + len(lines) - 1))
    out = []
    for offset, text in enumerate(lines):
        number = start + offset
        label = line_id(number, text) if hashed else f"{number:>{width}}"  # (the whole line)
        if len(text) > LINE_MAX:
            text = (f"{text[:LINE_MAX]} ... [{len(text) - LINE_MAX:,} more characters of this "
                    "line not shown; replace_lines changes a line by its number]")
        out.append(f"{label}| {text}")
    return out


def read_answer(path: str, state: FileState, revision: str, *, first: int | None = None,
                last: int | None = None, hashed: bool = False,
                outline: Sequence[tuple[int, str]] = (), outline_cut: bool = False) -> str:
    """Numbered lines of ``first..last`` (1-based, inclusive), or head + outline if long
    (``outline_cut``: the outline stops at its cap; more definitions follow its last)."""
    lines = state.lines
    total = len(lines)
    header = f"{path}: {total} lines, rev {revision}"
    if first is None and last is None and total > READ_MAX_LINES:
        head = numbered_lines(lines[:60], 1, hashed=hashed)
        parts = [f"{header}; too long to read whole: the first 60 lines and the outline "
                 "follow (read with first/last for a range)", *head]
        if outline:
            parts.append("outline:")
            parts += [f"  {n}: {text.strip()}" for n, text in outline]
            if outline_cut:
                parts.append(f"  ... more after line {outline[-1][0]} (the outline stops at "
                             f"{len(outline)} entries): read a range from there")
        else:
            parts.append("(no outline for this file type)")
        return "\n".join(parts)
    if (first is not None and first < 1) or (last is not None and last < 1):
        return f"{header}; error: lines are numbered from 1 (first={first}, last={last})"
    if first is not None and last is not None and last < first:
        return f"{header}; error: last ({last}) is before first ({first})"
    a = max(1, first or 1)
    b = min(total, last if last is not None else total)
    if total == 0:
        return header + " (empty file)"
    if a > total:  # (not "lines 50-18": QA s32 F14)
        return header + f"; line {a} is past the end"
    if b - a + 1 > READ_MAX_LINES:
        b = a + READ_MAX_LINES - 1
        header += f"; showing {a}-{b} (at most {READ_MAX_LINES} lines a read)"
    elif (a, b) != (1, total):
        header += f"; lines {a}-{b}"
    return "\n".join([header, *numbered_lines(lines[a - 1:b], a, hashed=hashed)])


@record(frozen=True, slots=True)
class SearchHit:
    path: str
    line: int  # 1-based


def search_lines(files: Iterable[tuple[str, FileState]], pattern: str, *, regex: bool,
                 max_hits: int = SEARCH_MAX_HITS) -> tuple[list[tuple[str, int]], int]:
    """(hits in path order, total count). A regex that does not compile raises ValueError."""
    matcher = re.compile(pattern) if regex else None
    hits: list[tuple[str, int]] = []
    total = 0
    for path, state in files:
        for number, text in enumerate(state.lines, 1):
            found = matcher.search(text) if matcher else pattern in text
            if found:
                total += 1
                if len(hits) < max_hits:
                    hits.append((path, number))
    return hits, total


def search_answer(hits: Sequence[tuple[str, int]], total: int,
                  files: dict[str, FileState], *, context: int = SEARCH_CONTEXT) -> str:
    if not hits:
        return "no matches"
    out: list[str] = []
    for path, number in hits:
        lines = files[path].lines
        a, b = max(1, number - context), min(len(lines), number + context)
        out.append(f"{path}:{number}")
        out += ["  " + row for row in numbered_lines(lines[a - 1:b], a, hashed=False)]
    if total > len(hits):
        out.append(f"... {total - len(hits)} more matches not shown: narrow the pattern "
                   "or the glob")
    return "\n".join(out)


def new_ids(op: Operation, outcome: Outcome) -> str:
    """Line ids of the region an edit that landed wrote (``12:a3-15:f0``), or "": what a
    follow-up edit can address without reading the file again (the workbench's header
    shows the same)."""
    after = outcome.after_state
    if not isinstance(after, FileState) or outcome.lines is None:
        return ""
    if not isinstance(op, Edit):
        return ""
    start = outcome.lines[0]
    count = written_count(outcome)
    lines = after.lines
    if count == 0 or start - 1 + count > len(lines):
        return ""
    first = line_id(start, lines[start - 1])
    last = line_id(start + count - 1, lines[start + count - 2])
    return first if count == 1 else f"{first}-{last}"


def written_count(outcome: Outcome) -> int:
    """How many lines an edit that landed wrote (0: it only removed lines). Told by the
    cursor: the region's text is ``""`` for one empty line and for no line alike."""
    if outcome.cursor is not None and outcome.lines is not None:
        return outcome.cursor - (outcome.lines[0] - 1)
    return len(outcome.after.split("\n")) if outcome.after else 0


def written_lines(outcome: Outcome) -> list[str]:
    """The lines an edit that landed wrote (:func:`written_count` of them: an empty line
    written was taken for none, QA s44 helper-135 F1)."""
    return outcome.after.split("\n") if written_count(outcome) else []


def lines_part(outcome: Outcome, *, landed: bool) -> str:
    """Where an edit is: once it is on disk, the lines it wrote there (``lines 11-13``,
    or ``removed lines 11-12``); before, the lines it replaces in the file as it is."""
    assert outcome.lines is not None
    first, last = outcome.lines
    if landed:
        count = written_count(outcome)
        if count == 0:
            return f"removed lines {first}-{last}"
        last = first + count - 1
    return f"lines {first}-{last}"


def candidates_text(outcome: Outcome) -> list[str]:
    out: list[str] = []
    if outcome.locations and outcome.status is Status.AMBIGUOUS:
        places = ", ".join(f"{a}-{b}" for a, b in outcome.locations[:10])
        out.append(f"found at lines {places}: add context lines to make the search unique, "
                   "or use replace_lines")
    for cand in outcome.candidates[:3]:
        out.append(f"closest: lines {cand.start}-{cand.end}, "
                   f"{round(cand.similarity * 100)}% similar ({cand.diagnosis})")
        preview = cand.preview[:CANDIDATE_PREVIEW]
        out += [f"  {cand.start + i}| {text}" for i, text in enumerate(preview)]
        if len(cand.preview) > CANDIDATE_PREVIEW:
            out.append("  ...")
    return out


def outcome_answer(op: Operation, outcome: Outcome, *, revision: str | None,
                   key: tuple[int, int], verdict: str | None = None, reason: str = "",
                   written: Sequence[str] | None = None, ids: str = "",
                   landed: bool = False, replaced: Sequence[str] | None = None) -> str:
    """One mutation's answer: what happened, where, and what the agent needs next.

    ``landed``: the change is on disk (its lines are then the ones it wrote);
    ``replaced``: the lines the reviewer's own SEARCH made it replace instead."""
    path = outcome.path or getattr(op, "path", "")
    status = verdict or str(outcome.status)
    parts = [status, path] if path else [status]
    if outcome.lines and isinstance(op, Edit):
        parts.append(lines_part(outcome, landed=landed))
    if outcome.method and status in ("applied", "accepted", "edited", "needs_review",
                                     "pending review"):
        parts.append(f"method {outcome.method}")
    if revision:
        parts.append(f"rev {revision}")
    if ids:
        parts.append(f"now {ids}")
    parts.append(f"op {key[0]}.{key[1] + 1}")
    out = [" · ".join(parts)]
    if reason:
        out.append(f"reviewer's reason: {reason}")
    out += shown_texts(outcome)
    out += candidates_text(outcome)
    if replaced is not None:
        out.append("the reviewer gave it their own SEARCH: it replaced")
        out += [f"  {line}" for line in replaced]
    if written is not None:
        out.append("with:" if replaced is not None else "the reviewer wrote instead:")
        out += [f"  {line}" for line in written]
    return "\n".join(out)


def shown_texts(outcome: Outcome) -> list[str]:
    """The outcome's message and hint as an answer shows them."""
    out: list[str] = []
    if outcome.message and outcome.status is not Status.APPLIED:
        # (The closest candidate is listed below with its lines: not said twice.)
        out.append(outcome.message.partition("; closest: ")[0] if outcome.candidates
                   and outcome.status is Status.NOT_FOUND else outcome.message)
    if outcome.hint and outcome.status in (Status.APPLIED, Status.NEEDS_REVIEW):
        out.append(outcome.hint)
    return out


def operation_summary(op: Operation) -> str:
    """The change as the agent's tools name it (``status``): a line-addressed edit by its
    lines (QA pass 84a: a replace_lines call was listed as an ``edit``)."""
    if isinstance(op, Edit) and op.shape is not None:
        from reviewtui.core.model.edit_shapes import Batch, Window

        sent = getattr(op.shape, "sent", None)
        # (a call carried into the review's version: named by the lines the agent sent)
        carried = f", carried to {op.shape}" if sent is not None else ""
        shown = sent if sent is not None else op.shape
        if isinstance(op.shape, Batch):
            return f"batch_edit {op.path} ({op.shape}{', carried' if carried else ''})"
        tool = "window_replace" if isinstance(op.shape, Window) else "replace_lines"
        return f"{tool} {op.path} {shown}{carried}"
    if isinstance(op, Edit):
        return f"edit {op.path}"
    if isinstance(op, FullFile):
        return f"write {op.path}"
    return getattr(op, "text", str(op))
