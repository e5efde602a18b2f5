"""What the detail pane shows for one operation: header, explanation and diff panes.

Built from an ``OpResult`` without touching widgets, so the screen only renders it.
"""

from __future__ import annotations

import difflib

from rich.text import Text

from reviewtui.core.agent.answers import new_ids, written_count
from reviewtui.core.engine import OpResult, Verdict
from reviewtui.core.engine.decisions import REJECTED_MESSAGE
from reviewtui.core.engine.file_edits import generated_note
from reviewtui.core.engine.filebytes import is_link_mode, takes_no_text
from reviewtui.core.engine.links import is_link, shown
from reviewtui.core.engine.opstate import OpState, op_state
from reviewtui.core.model.filestate import looks_like_data
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.records import ConsoleCommand, Edit, FullFile
from reviewtui.core.model.tree import FileState
from reviewtui.core.record import field, record, replace
from reviewtui.core.syntax.symbols import Symbol, around, ready, where
from reviewtui.core.text.lines import split_lines
from reviewtui.ui.widgets.diff_render import sanitize

WINDOW = 20  # lines of file context fetched around an edit (collapsed to a few by default)
# Symbol hints of a file bigger than this wait for its tree from the screen's syntax worker
# (``warm_symbols``) rather than parse on a key press.
SYNC_SYMBOL_CHARS = 60_000


def _now(path: str, text: str) -> bool:
    return len(text) <= SYNC_SYMBOL_CHARS or ready(path, text)


@record(frozen=True, slots=True)
class DiffPane:
    """One before/after pair for the diff view, with real file line numbers."""

    label: str
    path: str
    before: tuple[str, ...]
    after: tuple[str, ...]
    before_start: int = 1
    after_start: int = 1
    after_is_file: bool = False  # the right side is the file as the operation leaves it
    # definitions around the right side's lines (file numbering): collapsed rows name the
    # one they are inside, like a ``git diff`` hunk header
    symbols: tuple[Symbol, ...] = ()


@record(frozen=True, slots=True)
class OpView:
    title: str
    state: OpState
    subtitle: str
    explanation: Text
    panes: tuple[DiffPane, ...] = ()
    message: str = ""  # shown instead of a diff (binary, console without changes)
    forceable: bool = False
    editable: bool = True  # text to edit in place (not a console command)
    marks: frozenset[int] = frozenset()  # lines of the file after with a diagnostic
    extra: dict[str, object] = field(default_factory=dict)


STATE_STYLE = {
    OpState.PENDING: "bold", OpState.FUZZY: "bold cyan", OpState.ACCEPTED: "bold green",
    OpState.FORCED: "bold green", OpState.REJECTED: "bold red", OpState.EDITED: "bold magenta",
    OpState.NEEDS_REVIEW: "bold yellow", OpState.AMBIGUOUS: "bold yellow",
    OpState.NOT_FOUND: "bold red", OpState.REFUSED: "bold red", OpState.CONFLICT: "bold red",
}


def op_title(op: Edit | FullFile | ConsoleCommand) -> str:
    """The operation's header line. Its path and command come from the session: a hidden
    or control character in them shows as a picture (``␛``, ``⍰``), as in the diffs, not
    as nothing (the engine refuses such a path, and the header must show which one)."""
    if isinstance(op, ConsoleCommand):
        return sanitize(op.text)
    if isinstance(op, Edit):
        return f"{sanitize(op.path)} · Edit {op.label}"
    if is_link_op(op):
        return sanitize(f"{op.path} · link -> {chr(10).join(op.lines)}")
    return f"{sanitize(op.path)} · full file"


def is_link_op(op: Edit | FullFile | ConsoleCommand) -> bool:
    return isinstance(op, FullFile) and op.mode is not None and is_link_mode(op.mode)


def _lines(text: str) -> tuple[str, ...]:
    return tuple(text.split("\n")) if text else ()


def _state(value: object) -> FileState | None:
    return value if isinstance(value, FileState) else None


LEGACY_NOTE = ("not UTF-8 text, so replayed as a binary file, byte for byte: shown as "
               "Latin-1 to read (a preview; characters of another encoding may show wrong)")


# The bytes that read as printable Latin-1 text, with tabs and line endings.
_LATIN1_TEXT = bytes([9, 10, 13, *range(0x20, 0x7F), *range(0xA0, 0x100)])


def _legacy_lines(state: FileState | None) -> tuple[str, ...] | None:
    """A binary file's lines read as Latin-1, when it is text in an 8-bit encoding (no
    NUL byte, and nearly all printable that way: a Latin-1 source); None for data.
    (QA s35 helper-103: such a file showed "binary file: not shown" for every change.)"""
    if state is None:
        return ()
    if not state.binary:  # UTF-8 text (a file changing its encoding): as it reads
        return tuple(state.lines)
    data = state.data
    if looks_like_data(data):
        return None
    odd = len(data.translate(None, _LATIN1_TEXT))  # (bytes counted in C: big files)
    if odd > len(data) // 50:  # (more than 2%: data, not text)
        return None
    return tuple(split_lines(data.decode("latin-1")))


def _text(state: FileState | None) -> str:
    """The whole text, line endings as they are: UTF-8, else read as Latin-1."""
    if state is None:
        return ""
    return state.data.decode("latin-1" if state.binary else "utf-8", "replace")


def _legacy_pane(path: str, before: FileState | None,
                 after: FileState | None) -> DiffPane | None:
    old, new = _legacy_lines(before), _legacy_lines(after)
    if old is None or new is None:
        return None
    label = ("read as Latin-1 (a preview)" if all(state is None or state.binary
                                                 for state in (before, after))
             else "the UTF-8 side as it reads, the other read as Latin-1 (a preview)")
    if old == new:  # (the same lines: the encoding is the change, or more unseen here)
        label += (": the same text, in another encoding" if _text(before) == _text(after)
                  else ": the same lines; the encoding changes, and bytes the lines do "
                  "not show (line endings, a last newline, a byte order mark)")
    return DiffPane(label, path, old, new)


def build_view(result: OpResult, status: Status | None = None,
               conflict: tuple[bytes | None, bytes | None] | None = None,
               conflict_message: str = "") -> OpView:
    state = op_state(result, status)
    reason = _reject_reason(result)
    if reason and result.outcome.message == REJECTED_MESSAGE:
        # Said once, in full, where the engine says who rejected it (QA s30).
        result = replace(result, outcome=replace(
            result.outcome, message=f"{REJECTED_MESSAGE}: {reason}"))
        reason = ""
    outcome = result.outcome
    subtitle = sanitize(_subtitle(result, state))
    view = _build(result, state, subtitle, conflict, conflict_message)
    generated = outcome.generated
    if generated:  # a lock file or build output: written, but its tool owns it
        note = Text(f"generated file ({generated}): the tool that owns it rewrites it; check "
                    "this is what the tool would write", style="yellow")
        if view.explanation.plain:
            note = view.explanation + Text("\n") + note
        view = replace(view, explanation=note)
    if reason:  # (an outcome of its own, a conflict say: the reason above it)
        text = Text(f"{REJECTED_MESSAGE}: {sanitize(reason)}", style="red")
        if view.explanation.plain:
            text.append("\n\n")
        view = replace(view, explanation=text + view.explanation)
    return replace(view, forceable=outcome.forceable and not state.decided,
                   editable=not isinstance(result.op, ConsoleCommand)
                   and not takes_no_text(result.op))


def _reject_reason(result: OpResult) -> str:
    decision = result.decision
    return decision.reason if decision.verdict is Verdict.REJECTED else ""


def _build(result: OpResult, state: OpState, subtitle: str,
           conflict: tuple[bytes | None, bytes | None] | None,
           conflict_message: str) -> OpView:
    outcome = result.outcome
    op = result.op
    text = Text()
    if outcome.message:  # (it names the path: hidden characters as pictures, as the title)
        text.append(sanitize(outcome.message), style=STATE_STYLE[state].replace("bold ", ""))
    if isinstance(op, ConsoleCommand):
        if state is OpState.CONFLICT and conflict_message:  # what it waits on, not "moved"
            text = Text("\n".join(map(sanitize, conflict_message.split("\n"))), style="red")
        return _console_view(result, state, subtitle, text)
    if state is OpState.CONFLICT and conflict is not None:
        text = Text(conflict_message or "the file changed on disk", style="red")
        return _conflict_view(result, state, subtitle, text, conflict)
    status = outcome.status
    if status is Status.NOT_FOUND and isinstance(op, Edit):
        return _not_found_view(result, state, subtitle, text)
    if status is Status.AMBIGUOUS and isinstance(op, Edit):
        return _ambiguous_view(result, state, subtitle, text)
    before_state = _state(outcome.before_state)
    after_state = _state(outcome.after_state)
    if isinstance(op, FullFile) and is_link_op(op):  # a link: its target is all there is
        if outcome.rule and status is Status.REFUSED:
            text.append(f"\nrule: {outcome.rule}", style="bold")
        was = f" (was {shown(before_state)})" if is_link(before_state) else ""
        return OpView(op_title(op), state, subtitle, text,
                      message=f"link -> {chr(10).join(op.lines)}{was}")
    if (before_state is not None and before_state.binary) or (
            after_state is not None and after_state.binary):
        pane = _legacy_pane(op.path, before_state, after_state)
        if pane is None:
            return OpView(op_title(op), state, subtitle, text, message="binary file: not shown")
        text.append(f"\n{LEGACY_NOTE}", style="dim")
        return OpView(op_title(op), state, subtitle, text, (pane,))
    if status is Status.NEEDS_REVIEW and isinstance(op, Edit):
        _append_expected(text, op, outcome.before, before_state, outcome.lines)
    if outcome.rule and status is Status.REFUSED:
        text.append(f"\nrule: {outcome.rule}", style="bold")
        if outcome.forceable:
            text.append("  (a human may force it: F)", style="dim")
    if after_state is not None and outcome.lines is not None:
        pane = _region_pane(op.path if not outcome.path else outcome.path, before_state,
                            after_state, outcome.lines, written_count(outcome),
                            isinstance(op, Edit))
        return OpView(op_title(op), state, subtitle, text, (pane,))
    if isinstance(op, Edit):
        pane = DiffPane("as the model wrote it", op.path, op.search_lines, op.replace_lines)
        return OpView(op_title(op), state, subtitle, text, (pane,))
    if before_state is not None:  # e.g. a truncated full file: what it would have lost
        pane = DiffPane("the file now (left) vs the model's content (right)", op.path,
                        before_state.lines, op.lines)
    else:
        pane = DiffPane("content as the model wrote it", op.path, (), op.lines)
    return OpView(op_title(op), state, subtitle, text, (pane,))


def _subtitle(result: OpResult, state: OpState) -> str:
    outcome = result.outcome
    parts = [f"{state.glyph} {state.label}"]  # (a reject's reason: in the explanation)
    if outcome.method:
        parts.append(f"method {outcome.method}")
    if outcome.lines:
        parts.append(f"lines {outcome.lines[0]}-{outcome.lines[1]}")
        inside = _enclosing(result)
        if inside:
            parts.append(f"in {inside}")
    if outcome.similarity is not None:
        parts.append(f"{round(outcome.similarity * 100)}% similar")
    ids = _new_ids(result)
    if ids:
        parts.append(f"now {ids}")  # a follow-up edit can address the result without a re-read
    hint = outcome.hint
    if hint and outcome.generated and outcome.path:  # said on a line of its own (build_view)
        hint = hint.replace(generated_note(outcome.path, outcome.generated), "").strip("; ")
    if hint and outcome.status in (Status.APPLIED, Status.NEEDS_REVIEW):
        parts.append(hint)  # failures explain themselves in the message
    return " · ".join(parts)


def _enclosing(result: OpResult) -> str:
    """The symbols around an edit, from the file before it ("class Store › def add")."""
    outcome = result.outcome
    before = _state(outcome.before_state)
    text = before.text_unkept() if before is not None else None
    if not isinstance(result.op, Edit) or text is None or not outcome.lines:
        return ""
    path = outcome.path or result.op.path
    return where(path, text, *outcome.lines) if _now(path, text) else ""


def warm_symbols(result: OpResult) -> None:
    """Parse what the symbol hints of ``result`` need (for a worker, off the event loop)."""
    outcome = result.outcome
    for state in (outcome.before_state, outcome.after_state):
        # (unkept: a version's bytes are not built and held for its symbols)
        text = state.text_unkept() if state is not None else None
        if text is not None and outcome.path:
            where(outcome.path, text, 1, 1)


def _new_ids(result: OpResult) -> str:
    """The line ids of the region an applied edit wrote (``12:a3-15:f0``)."""
    if result.outcome.status is not Status.APPLIED:
        return ""
    return new_ids(result.op, result.outcome)


def _region_pane(path: str, before: FileState | None, after: FileState, span: tuple[int, int],
                 written: int, is_edit: bool) -> DiffPane:
    """The file around the lines ``span`` an edit replaced with ``written`` lines (counted
    by the engine: the region's text, ``""``, is one empty line and none alike, and an
    empty line written took the file's last line off the right side, QA s44 F1)."""
    old_lines = before.lines if before is not None else ()
    new_lines = after.lines
    if not is_edit or before is None:
        label = "whole file, before and after" if old_lines else "new file"
        return DiffPane(label, path, old_lines, new_lines, after_is_file=True)
    start, end = span
    removed = end - start + 1
    b0 = max(0, start - 1 - WINDOW)
    b1 = min(len(old_lines), end + WINDOW)
    a1 = b1 + (written - removed)
    return DiffPane(f"the file around lines {start}-{end}, before and after", path,
                    old_lines[b0:b1], new_lines[b0:a1], b0 + 1, b0 + 1, after_is_file=True,
                    symbols=_around(path, after.text_unkept() or "", b0 + 1, a1))


def _around(path: str, text: str, first: int, last: int) -> tuple[Symbol, ...]:
    return around(path, text, first, last) if _now(path, text) else ()


def _append_expected(text: Text, op: Edit, found: str, file: FileState | None = None,
                     span: tuple[int, int] | None = None) -> None:
    """Only the lines where the model's SEARCH and the file disagree.

    A near match is found without the SEARCH's blank first and last lines, so ``found``
    (the file's lines ``span``) may lack them: where the file has a blank line just above
    or below the match too, such a line is no disagreement and is not listed (it was
    listed as missing from a file that has it)."""
    has = _lines(found)
    search = list(op.search_lines)
    if file is not None and span is not None and not file.binary:
        lines = file.lines
        above, below = span[0] - 2, span[1]  # 0-based: the lines just outside the match
        while (search and not search[0].strip() and not (has and not has[0].strip())
               and 0 <= above < len(lines) and not lines[above].strip()):
            search.pop(0)
            above -= 1
        while (search and not search[-1].strip() and not (has and not has[-1].strip())
               and 0 <= below < len(lines) and not lines[below].strip()):
            search.pop()
            below += 1
    matcher = difflib.SequenceMatcher(None, search, has, autojunk=False)
    text.append("\nwhat the model expected (-) and what the file has (+):", style="bold")
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        for line in search[i1:i2]:
            text.append(f"\n  - {line}", style="yellow")
        for line in has[j1:j2]:
            text.append(f"\n  + {line}", style="cyan")


def _not_found_view(result: OpResult, state: OpState, subtitle: str, text: Text) -> OpView:
    op = result.op
    assert isinstance(op, Edit)
    outcome = result.outcome
    panes = []
    for n, cand in enumerate(outcome.candidates, start=1):
        text.append(f"\n  {n}. lines {cand.start}-{cand.end}: "
                    f"{round(cand.similarity * 100)}% similar, {cand.diagnosis}")
        panes.append(DiffPane(f"candidate {n}: the file (left) vs the model's SEARCH (right)",
                              op.path, cand.preview, op.search_lines, cand.start, 1))
    if not outcome.candidates:
        panes.append(DiffPane("the model's SEARCH and REPLACE", op.path, op.search_lines,
                              op.replace_lines))
    return OpView(op_title(op), state, subtitle, text, tuple(panes))


def _ambiguous_view(result: OpResult, state: OpState, subtitle: str, text: Text) -> OpView:
    op = result.op
    assert isinstance(op, Edit)
    before = _state(result.outcome.before_state)
    lines = before.lines if before is not None else ()
    panes = []
    count = len(result.outcome.locations)
    for n, (start, end) in enumerate(result.outcome.locations, start=1):
        preview = lines[start - 1].strip() if start - 1 < len(lines) else ""
        text.append(f"\n  {n}. lines {start}-{end}: ")
        text.append(preview[:70], style="dim")
        lo = max(0, start - 1 - WINDOW)
        hi = min(len(lines), end + WINDOW)
        after = (*lines[lo : start - 1], *op.replace_lines, *lines[end:hi])
        panes.append(DiffPane(f"location {n} of {count}: what the edit would do here",
                              op.path, lines[lo:hi], after, lo + 1, lo + 1))
    return OpView(op_title(op), state, subtitle, text, tuple(panes))


def _console_view(result: OpResult, state: OpState, subtitle: str, text: Text) -> OpView:
    changes = result.outcome.changes
    rows = list(changes) if isinstance(changes, tuple | list) else []
    if rows:
        text.append("\n")
    for old, new in rows:
        if new is None:
            text.append(f"\n  - {old}", style="red")
            text.append("   removed", style="dim")
        elif old is None:
            text.append(f"\n  + {new}", style="green")
            text.append("   restored", style="dim")
        else:
            text.append(f"\n    {old}", style="red")
            text.append("  →  ", style="dim")
            text.append(str(new), style="green")
    message = "" if rows else "no paths change"
    return OpView(op_title(result.op), state, subtitle, text, message=message)


def _conflict_view(result: OpResult, state: OpState, subtitle: str, text: Text,
                   conflict: tuple[bytes | None, bytes | None]) -> OpView:
    wanted, disk = conflict
    op = result.op
    path = getattr(op, "path", "") or ""
    if wanted is None and disk is None:  # deleted outside: no side to show (QA pass s31;
        # the conflict's own message, above, says what to do)
        return OpView(op_title(op), state, subtitle, text,
                      message="deleted on disk: no version of the file to show")
    text.append("\nThe file changed on disk where this operation lands. Left: what the "
                "review wanted to write; right: what is on disk now (kept byte for byte).")
    pane = DiffPane("review draft vs disk", path, _decode(wanted), _decode(disk))
    return OpView(op_title(op), state, subtitle, text, (pane,))


def conflict_sides(wanted: FileState | None,
                   disk: FileState | None) -> tuple[bytes | None, bytes | None]:
    """The two sides of a conflict's diff; a link as ``link -> target`` (its target alone
    read as the file's one line, "other.py", looked like a file holding that)."""
    def side(state: FileState | None) -> bytes | None:
        if state is None:
            return None
        return shown(state).encode("utf-8", "surrogateescape") if is_link(state) else state.data

    return side(wanted), side(disk)


def _decode(data: bytes | None) -> tuple[str, ...]:
    if data is None:
        return ()
    return tuple(split_lines(data.decode("utf-8", errors="replace")))  # as the engine reads


def with_outside_note(view: OpView, path: str, *, not_found: bool = False) -> OpView:
    """``view`` with a note that ``path`` holds a change made outside the workbench, kept
    on top of the review's writes (:func:`reviewtui.shell.outside.kept_outside`): the
    view shows the session's version of the file without it, so an accept that overlaps
    it would otherwise become a conflict with no sign before. ``not_found``: the
    operation is not found, and is told that only the session's version was searched."""
    text = view.explanation.copy()
    if text.plain:
        text.append("\n")
    text.append(f"{sanitize(path)} was changed outside the workbench after it wrote it: that "
                "change is kept on top of every write and is not shown here (this view "
                "shows the session's version). An accept that overlaps it becomes a "
                "conflict." + (" Operations are searched for in the session's version "
                               "alone: text only that change brought is not found."
                               if not_found else ""), style="yellow")
    return replace(view, explanation=text)
