"""JSON lines of edit tool calls, one per line, as any agent harness can dump them.

``{"turn": N, "request": "..."}`` starts a turn (calls before the first one are turn 1).
Every other line is ``{"tool": ..., ...}``:

* ``edit``: ``path``, ``search``, ``replace``: whole lines, matched by the File Ops cascade
  (``reviewtui mcp`` records its ``edit`` tool this way);
* ``str_replace``: ``path``, ``old``/``old_string``, ``new``/``new_string``, ``replace_all``?;
* ``line_replace``: ``path``, ``from``, ``to``, ``content``, ``expectedRevision``?;
* ``window_replace``: ``path``, ``start_line``, ``end_line``, ``target``, ``replacement``,
  ``allow_multiple``?;
* ``batch_edit``: ``path``, ``operations`` (each ``{"operation": "replace" | "insert_before"
  | "insert_after" | "delete", "line_range": [a, b] | "line": a, "content"}``),
  ``expectedRevision``?;
* ``insert``: ``path``, ``line``, ``content``, ``before``? (default: after the line);
* ``write``: ``path``, ``content``; ``delete``: ``path``; ``move``: ``from``, ``to``.

Line references are numbers or hash ids (``"12:a3"``). See docs/formats.md.

A line that is not a call the reader can make an operation of (not JSON, an unknown tool,
a missing field, a bad line reference) is skipped and becomes a problem of its turn, which
``check`` and the workbench report: one bad line never hides the calls around it. Only a
log with no readable line at all is refused (it is not a tool-call log), and the input
limits (JSON nesting, giant numbers) stay fatal, as for every format.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from reviewtui.core.errors import InputLimitError, SessionFormatError
from reviewtui.core.importers.common import (
    Change,
    command,
    format_error,
    problem,
    turns_from_changes,
)
from reviewtui.core.model.edit_shapes import Batch, BatchAction, BatchOp, LineRange, Shape, Window
from reviewtui.core.model.records import (
    CommandName,
    Edit,
    FullFile,
    Operation,
    ParseProblem,
    Session,
    Span,
    Turn,
    literal_reply,
)
from reviewtui.core.record import replace as replace_record
from reviewtui.core.text.hashline import LineRef, parse_ref
from reviewtui.core.text.limits import load_json
from reviewtui.core.text.lines import iter_lines, split_lines

LINE_KEYS = ("from", "to", "line", "before", "operations")  # a call's line references
TOOLS = ("edit", "str_replace", "line_replace", "window_replace", "batch_edit", "insert", "write",
         "delete", "move")
BAD_CALL = "toolcall"
_SKIPPED = "; the line is skipped"


def call_problem(line: str) -> str | None:
    """Why the reader would skip ``line`` (one JSON line holding one call), else None.

    ``reviewtui mcp`` asks before it appends a call: a call recorded that the reader then
    skips would be answered as if it were under review while it is in no review at all.
    """
    try:
        call = load_json(line)
    except (ValueError, InputLimitError) as err:
        return f"not JSON: {err}"
    if not isinstance(call, dict) or "tool" not in call:
        return "a call is one JSON object with a tool"
    try:
        _Reader("").ops(call)
    except SessionFormatError as err:
        return err.message
    return None


def looks_like_toolcalls(text: str) -> bool:
    for line in iter_lines(text):
        if line.strip():
            try:
                first = load_json(line)
            except (ValueError, InputLimitError):  # the reader says which line and why
                return False
            return isinstance(first, dict) and ("tool" in first or "turn" in first)
    return False


_BATCH_KEYS = frozenset({"operation", "op", "action", "line_range", "line", "content"})


def _lines(text: object) -> tuple[str, ...]:
    if not isinstance(text, str) or text == "":
        return ()
    parts = text.split("\n")
    if parts[-1] == "":
        parts.pop()
    return tuple(parts)


class _Reader:
    def __init__(self, source: str) -> None:
        self.source = source
        self.line = 0

    def fail(self, message: str) -> SessionFormatError:
        return format_error(self.source, self.line, BAD_CALL, message)

    def call(self, raw: str) -> dict[str, Any]:
        """One line as a JSON object (a call or a turn)."""
        try:
            call = load_json(raw, source=self.source, first_line=self.line)
        except ValueError as err:
            raise self.fail(f"not JSON: {err}") from None
        if not isinstance(call, dict):
            raise self.fail("each line is one JSON object")
        return call

    def text(self, call: Mapping[str, Any], *keys: str) -> str:
        for key in keys:
            value = call.get(key)
            if isinstance(value, str):
                return value
        raise self.fail(f"{call.get('tool')} needs {' or '.join(keys)} (a string)")

    def ref(self, value: object) -> LineRef:
        ref = parse_ref(value) if isinstance(value, str | int) else None
        if ref is None:
            raise self.fail(f"{value!r} is not a line number or id like 12:a3")
        return ref

    def edit(self, path: str, search: tuple[str, ...], replace: tuple[str, ...],
             shape: Shape | None = None, **extra: Any) -> Edit:
        span = Span(self.line, self.line)
        return Edit(path=path, ordinal=1, number=None, search_lines=search,
                    replace_lines=replace, span=span, search_span=span, replace_span=span,
                    shape=shape, literal=True, **extra)

    def batch_op(self, raw: object) -> BatchOp:
        if not isinstance(raw, dict):
            raise self.fail("each batch operation is an object")
        name = raw.get("operation", raw.get("op", raw.get("action")))
        try:
            action = BatchAction(str(name))
        except ValueError:
            raise self.fail(f"unknown batch operation {name!r}; use one of "
                            f"{', '.join(a.value for a in BatchAction)}") from None
        # A misspelt or missing key is refused, never read as "no content": a replace
        # without content deleted its lines (QA pass 85).
        unknown = sorted(str(key) for key in raw if key not in _BATCH_KEYS)
        if unknown:
            raise self.fail(f"unknown key {', '.join(map(repr, unknown))} in a batch "
                            "operation; its keys are operation, line_range or line, content")
        content = raw.get("content")
        if action is BatchAction.DELETE:
            if content not in (None, ""):
                raise self.fail("a delete takes no content (replace puts new lines there)")
        elif not isinstance(content, str):
            raise self.fail(f"{action.value} needs content (a string: the lines it puts "
                            "there; delete removes lines)")
        if "line_range" in raw and "line" in raw:  # (one was silently dropped: QA s32 F13)
            raise self.fail("a batch operation names its lines once: line_range or line, "
                            "not both")
        where = raw.get("line_range", raw.get("line"))
        if isinstance(where, list) and len(where) == 2:
            first, last = self.ref(where[0]), self.ref(where[1])
        else:
            first = last = self.ref(where)
        return BatchOp(action, first, last, _lines(content))

    def lines_shape(self, tool: str, call: Mapping[str, Any],
                    revision: str | None) -> Shape:
        """The shape of a call by line numbers (``line_replace``, ``batch_edit``,
        ``insert``)."""
        if tool == "line_replace":
            return LineRange(self.ref(call.get("from")), self.ref(call.get("to")), revision)
        if tool == "batch_edit":
            raw = call.get("operations")
            if not isinstance(raw, list):
                raise self.fail("batch_edit needs operations (a list)")
            return Batch(tuple(self.batch_op(op) for op in raw), revision)
        action = BatchAction.INSERT_BEFORE if call.get("before") else BatchAction.INSERT_AFTER
        ref = self.ref(call.get("line"))
        return Batch((BatchOp(action, ref, ref, _lines(self.text(call, "content"))),), revision)

    def ops(self, call: Mapping[str, Any]) -> list[Operation]:
        tool = call.get("tool")
        line = self.line
        if tool not in TOOLS:
            what = f"unknown tool {tool!r}" if "tool" in call else "no tool and no turn"
            raise self.fail(f"{what}; a line is a call with a tool (one of "
                            f"{', '.join(TOOLS)}) or a turn ({{\"turn\": N, \"request\": ...}})")
        if tool == "move":
            return [command(CommandName.MV, [self.text(call, "from", "path"),
                                             self.text(call, "to")], line)]
        path = self.text(call, "path", "file_path")
        # What the file was when the call was recorded (``reviewtui mcp`` adds these): a
        # write of a new file is refused over one made since, a delete of a file changed
        # since is refused (QA pass 84a: the user's new file was overwritten, their edits
        # deleted). They only ever add a refusal.
        if tool == "delete":
            removal = command(CommandName.RM, [path], line)
            blob = call.get("expectedBlob")
            if isinstance(blob, str) and 7 <= len(blob) <= 40 and all(
                    c in "0123456789abcdef" for c in blob):
                removal = replace_record(removal, expect_blob=blob)
            return [removal]
        if tool == "write":
            content = self.text(call, "content")
            return [FullFile(path, _lines(content), Span(line, line),
                             final_newline=content.endswith("\n") or content == "",
                             literal=True, creates=call.get("new") is True)]
        if tool == "edit":
            # Whole lines, through the same cascade as a File Ops SEARCH/REPLACE edit.
            search = _lines(self.text(call, "search"))
            if not search:
                raise self.fail("edit needs a non-empty search (whole lines of the file)")
            return [self.edit(path, search, _lines(self.text(call, "replace")))]
        if tool == "str_replace":
            old = self.text(call, "old", "old_string", "old_str")
            new = self.text(call, "new", "new_string", "new_str")
            return [self.edit(path, tuple(old.split("\n")), tuple(new.split("\n")),
                              substring=True, replace_all=bool(call.get("replace_all")))]
        revision = sent_revision(call.get("expectedRevision"))
        if tool == "window_replace":
            shape: Shape = Window(self.ref(call.get("start_line")), self.ref(call.get("end_line")),
                                  bool(call.get("allow_multiple")), revision)
            return [self.edit(path, _lines(self.text(call, "target")),
                              _lines(self.text(call, "replacement")), shape)]
        if tool in ("line_replace", "batch_edit", "insert"):
            shape = self.lines_shape(tool, call, revision)
            sent = call.get("sent")
            if isinstance(sent, dict) and isinstance(shape, LineRange | Batch):
                # The call as the agent sent it, read on disk, before ``reviewtui mcp``
                # carried it into the review's version: the engine uses it when the file
                # is as the agent read it (shapes' ``sent``). Only ever an alternative
                # guarded by its own revision; one that does not read is left out.
                try:
                    # (its own line references alone: none taken from the carried call)
                    alternative = self.lines_shape(tool, {**{k: v for k, v in call.items()
                                                             if k not in LINE_KEYS}, **sent},
                                                   sent_revision(sent.get("expectedRevision")))
                except SessionFormatError:
                    alternative = None
                if alternative is not None and alternative.expected_revision is not None:
                    if isinstance(shape, LineRange) and isinstance(alternative, LineRange):
                        shape = LineRange(shape.first, shape.last, shape.expected_revision,
                                          alternative)
                    elif isinstance(shape, Batch) and isinstance(alternative, Batch):
                        shape = Batch(shape.ops, shape.expected_revision, alternative)
            written = _lines(self.text(call, "content")) if tool == "line_replace" else ()
            return [self.edit(path, (), written, shape)]
        raise self.fail(f"unknown tool {tool!r}; use one of {', '.join(TOOLS)}")


def sent_revision(value: object) -> str | None:
    """A revision as sent (``expectedRevision``). As copied from an answer ("rev
    674751cf; lines 1-2"): the punctuation after it is not part of it (QA s32 F14:
    "expected 674751cf;, actual 674751cf" refused)."""
    return str(value).strip().rstrip(";,.:") if value is not None else None


def import_toolcalls(text: str, source: str) -> Session:
    return ToolcallsReading(source).read(text)[0]


class ToolcallsReading:
    """Where a reading of a tool-call log stopped, so that the log grown by more lines (a
    live session: ``reviewtui mcp`` only appends whole lines) is read on from there
    instead of from its first line. Never changed once made: reading on makes another.

    Lines are split at ``\n`` alone (a ``\r`` before it is dropped): JSON escapes every
    other control character in a string, but not U+0085, U+2028 or U+2029, which
    ``str.splitlines`` would also split at, cutting a call that writes one in two.
    """

    __slots__ = ("changes", "index", "lines", "problems", "readable", "request", "source",
                 "start", "text", "turns")

    def __init__(self, source: str, text: str = "", lines: int = 0,
                 turns: tuple[Turn, ...] = (), index: int = 1, request: str = "",
                 start: int = 1, changes: tuple[Change, ...] = (),
                 problems: tuple[ParseProblem, ...] = (), readable: bool = False) -> None:
        self.source = source
        self.text = text  # what was read: whole lines
        self.lines = lines  # how many
        self.turns = turns  # the turns a later turn line closed, as the session has them
        self.index = index  # the next turn's number
        self.request = request  # the open turn's request, from its line
        self.start = start  # ... and that line's number
        self.changes = changes  # the open turn's calls so far
        self.problems = problems  # the open turn's skipped lines so far
        self.readable = readable  # whether any line was read as a call or a turn

    def read(self, text: str) -> tuple[Session, ToolcallsReading]:
        """``text`` as a session (what :func:`~reviewtui.core.importers.import_session`
        makes of it: every operation literal), and where this reading of it stopped (the
        end of its last whole line). When ``text`` begins with what this reading read,
        only the rest is read."""
        if self.text and text.startswith(self.text):
            done, rest = self, text[len(self.text):]
        else:
            done, rest = ToolcallsReading(self.source), text
        cut = rest.rfind("\n") + 1
        whole = done._on(rest[:cut]) if cut else done
        last = whole._on(rest[cut:]) if cut < len(rest) else whole  # a line still being written
        return last._session(), whole

    def _on(self, chunk: str) -> ToolcallsReading:
        reader = _Reader(self.source)
        turns = list(self.turns)
        changes = list(self.changes)
        problems = list(self.problems)
        readable = self.readable
        index, request, start = self.index, self.request, self.start
        number = self.lines
        for raw in split_lines(chunk):
            number += 1
            if not raw.strip():
                continue
            reader.line = number
            try:
                call = reader.call(raw)
                if "tool" not in call and "turn" in call:
                    index = _close(turns, index, request, changes, start, number - 1, problems)
                    changes, problems = [], []
                    if isinstance(call["turn"], int) and call["turn"] >= index:
                        index = call["turn"]
                    request, start = str(call.get("request", "")), number
                else:
                    changes.append(Change(reader.ops(call), Span(number, number)))
                readable = True
            except InputLimitError:
                raise  # past a limit of every format: the whole input is refused
            except SessionFormatError as err:
                problems.append(problem(BAD_CALL, err.message + _SKIPPED, number))
        return ToolcallsReading(self.source, self.text + chunk, number, tuple(turns), index,
                                request, start, tuple(changes), tuple(problems), readable)

    def _session(self) -> Session:
        if not self.readable and self.problems:
            # Not one line read: this is no tool-call log, say why its first line is not.
            first = self.problems[0]
            raise format_error(self.source, first.span.start, BAD_CALL,
                               first.message.removesuffix(_SKIPPED))
        turns = list(self.turns)
        _close(turns, self.index, self.request, self.changes, self.start, self.lines,
               self.problems)
        title = self.source.rsplit("/", 1)[-1]
        return Session(self.source, title, "", tuple(turns), format="toolcalls")


def _close(turns: list[Turn], index: int, request: str, changes: Sequence[Change], start: int,
           end: int, problems: Sequence[ParseProblem] = ()) -> int:
    """The turn(s) of ``changes`` added to ``turns`` (literal: see ``literal_session``);
    the next turn's number. A turn of skipped lines alone is a turn too: its problems are
    what the reviewer sees of it."""
    if not changes and not problems:
        return index
    made = turns_from_changes(index, request, changes, Span(start, max(start, end)), problems)
    for turn in made:
        reply = literal_reply(turn.reply)
        turns.append(turn if reply is turn.reply else replace_record(turn, reply=reply))
    return made[-1].index + 1
