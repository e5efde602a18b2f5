"""Line numbers an agent took from the file on disk, placed in the review's version of it.

An agent reads the disk; the review evaluates its calls against the review's version of
the file, which differs while a change waits for the reviewer (not on disk yet) or after
an outside change kept as a layer over the review's changes (on disk, not in the
review's version). A call by line numbers sent against the disk cannot land there as
numbers (QA s32 F6: every such call was refused). It is carried over when the lines it
names are certainly the same lines in both:

* where the disk holds the decided draft's version, by the lines' origins
  (:func:`reviewtui.core.engine.lineage.carried_start`): the draft's and the display's
  versions name a line they share the same way, so a line a pending change rewrote (or
  removed, with a copy of it elsewhere) is never taken for another;
* after an outside change (no history to follow), by :class:`Frames`: the lines with
  their neighbours (one on each side where there is one, more until the stretch occurs
  once on disk) occur exactly once in the review's version, and a line diff of the two
  texts pairs each of them with the line found there (a copy elsewhere, the original
  changed, is found by content but not paired by the diff).

An insertion is carried with the line on its other side too. When a line cannot be
carried the call is sent as it was and refused, naming the revision it was read at.

Pure: no I/O.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from typing import Any

from reviewtui.core.agent.answers import shown_texts, written_count
from reviewtui.core.model.edit_shapes import content_revision
from reviewtui.core.model.filestate import FileState
from reviewtui.core.model.outcome import Candidate, Outcome
from reviewtui.core.record import replace
from reviewtui.core.text.hashline import LineRef, line_tag, parse_ref
from reviewtui.core.text.line_frames import Frames


def _ref(value: object) -> LineRef | None:
    return parse_ref(value) if isinstance(value, str | int) else None


def _as_sent(value: object, number: int) -> object:
    """``number`` spelt as ``value`` was (a number, a numeral, or an id keeping its tag)."""
    if isinstance(value, int):
        return number
    ref = _ref(value)
    return str(number) if ref is None or ref.tag is None else f"{number}:{ref.tag}"


Block = Callable[[int, int], "int | None"]  # lines first..last of the source -> start


def carry_call(call: Mapping[str, Any], source: Sequence[str], target_size: int,
               block: Block) -> dict[str, Any] | None:
    """``call`` (a line-addressed tool call: ``line_replace``, ``insert``, ``batch_edit``)
    with its line references moved from ``source`` into the review's version
    (``target_size`` lines) by ``block`` (:meth:`Frames.block`, or origins where the disk
    is the decided draft); None when one of them cannot be carried, an id whose tag is
    not its line's in ``source`` included (it was not read there). An insertion is
    carried with the line on its other side (or the file's end there): a line a pending
    change put right there would leave its place ambiguous."""
    size = len(source)

    def tagged(*values: object) -> bool:
        for value in values:
            ref = _ref(value)
            if ref is None or (ref.tag is not None and (
                    not 1 <= ref.number <= size or line_tag(source[ref.number - 1]) != ref.tag)):
                return False
        return True

    def ranged(first_value: object, last_value: object) -> tuple[object, object] | None:
        first, last = _ref(first_value), _ref(last_value)
        if first is None or last is None or not tagged(first_value, last_value):
            return None
        start = block(first.number, last.number)
        if start is None:
            return None
        shift = start - first.number
        return (_as_sent(first_value, first.number + shift),
                _as_sent(last_value, last.number + shift))

    def gap(value: object, before: bool) -> object | None:
        ref = _ref(value)
        if ref is None or not tagged(value):
            return None
        line = ref.number
        if not before and line == 0 or before and line == 1:  # the top of the file
            return value if size and block(1, 1) == 1 else None
        if not before and line == size:  # the end of the file
            start = block(line, line) if size else None
            return None if start != target_size else _as_sent(value, start)
        if before:
            start = block(line - 1, line) if 1 < line <= size else None
            return None if start is None else _as_sent(value, start + 1)
        start = block(line, line + 1) if 1 <= line < size else None
        return None if start is None else _as_sent(value, start)

    tool = call.get("tool")
    out = dict(call)
    if tool == "line_replace":
        found = ranged(call.get("from"), call.get("to"))
        if found is None:
            return None
        out["from"], out["to"] = found
        return out
    if tool == "insert":
        moved = gap(call.get("line"), bool(call.get("before")))
        if moved is None:
            return None
        out["line"] = moved
        return out
    if tool == "batch_edit" and isinstance(call.get("operations"), list):
        operations: list[object] = []
        for raw in call["operations"]:
            if not isinstance(raw, dict):
                return None
            op = dict(raw)
            action = raw.get("operation", raw.get("op", raw.get("action")))
            where = raw.get("line_range", raw.get("line"))
            inserts = action in ("insert_before", "insert_after")
            if "line_range" in raw and inserts:  # (a range of one line: that line)
                where = where[0] if isinstance(where, list) and len(where) == 2 and (
                    _ref(where[0]) == _ref(where[1])) else None
            if "line_range" in raw and not inserts:
                if not isinstance(where, list) or len(where) != 2:
                    return None
                found = ranged(where[0], where[1])
                if found is None:
                    return None
                op["line_range"] = list(found)
            elif inserts:
                moved = gap(where, action == "insert_before")
                if moved is None:
                    return None
                if "line_range" in raw:
                    op["line_range"] = [moved, moved]
                else:
                    op["line"] = moved
            else:
                found = ranged(where, where)
                if found is None:
                    return None
                op["line"] = found[0]
            operations.append(op)
        out["operations"] = operations
        return out
    return None


_NUMBERED = re.compile(r"\blines? \d")  # a message naming lines by number


def disk_frame(outcome: Outcome, disk: FileState | None, landed: bool,
               ) -> tuple[Outcome, str | None]:
    """An edit's outcome with every line number an answer shows carried into the file on
    disk (the lines it wrote, ``landed``, or replaces; the candidates and places of a
    miss), and None; or, when one of them cannot be carried or a message names lines in
    its own words, the outcome as it is and the revision of the review's version it was
    evaluated on: the answer then names that revision, so every number in it is read in
    the frame of the revision it names (QA s32 F6: "lines 5-6" of a change at 9-10 on
    disk, beside the disk's revision)."""
    frame = outcome.after_state if landed else outcome.before_state
    if (disk is None or disk.text is None or not isinstance(frame, FileState)
            or frame.text is None or frame.data == disk.data):
        return outcome, None
    own = content_revision(frame.data)
    if any(_NUMBERED.search(text) for text in shown_texts(outcome)):
        return outcome, own

    shifted = Frames(frame.lines, disk.lines).shift  # (one line diff for the whole answer)
    moved = outcome
    if outcome.lines is not None:
        first, last = outcome.lines
        shift = shifted(first, first + written_count(outcome) - 1 if landed else last)
        if shift is None:
            return outcome, own
        cursor = outcome.cursor
        moved = replace(moved, lines=(first + shift, last + shift),
                        cursor=None if cursor is None else cursor + shift)
    candidates: list[Candidate] = []
    for found in outcome.candidates:
        shift = shifted(found.start, found.end)
        if shift is None:
            return outcome, own
        candidates.append(replace(found, start=found.start + shift, end=found.end + shift))
    places: list[tuple[int, int]] = []
    for first, last in outcome.locations:
        shift = shifted(first, last)
        if shift is None:
            return outcome, own
        places.append((first + shift, last + shift))
    moved = replace(moved, candidates=tuple(candidates), locations=tuple(places))
    return (replace(moved, after_state=disk) if landed else moved), None
