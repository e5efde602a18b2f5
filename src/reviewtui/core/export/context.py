"""``export --format context``: what the next prompt should carry instead of whole files.

For every file the accepted result changed, its changed ranges with their current line
numbers and text; the accepts not in it yet (waiting on a pending operation); the
operations that were rejected or did not apply; the files a reply
asked for under ``Need:`` that the project still lacks. Bounded in size: past
:data:`MAX_CHARS` it stops and says what it left out.
"""

from __future__ import annotations

from difflib import SequenceMatcher

from reviewtui.core.engine import Verdict
from reviewtui.core.engine.decisions import REJECTED_MESSAGE
from reviewtui.core.engine.file_edits import normalize_or_none
from reviewtui.core.export.accepted import Accepted, OpRow, op_rows
from reviewtui.core.model.outcome import FAILED
from reviewtui.core.model.records import Edit
from reviewtui.core.model.tree import FileState
from reviewtui.core.syntax.symbols import enclosing, has_symbols
from reviewtui.core.text.hashline import line_id
from reviewtui.core.text.plural import plural

MAX_CHARS = 12_000
MAX_RANGE_LINES = 40  # lines of text shown per changed range


def _ranges(old: FileState | None, new: FileState) -> list[tuple[int, int, str]]:
    """(first, last, what) 1-based ranges in the new file; a deletion is (n, n-1, ...)."""
    old_lines = old.lines if old is not None else ()
    out: list[tuple[int, int, str]] = []
    matcher = SequenceMatcher(None, list(old_lines), list(new.lines), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            continue
        if tag == "delete":
            out.append((j1 + 1, j1, f"{plural(i2 - i1, 'line')} removed after line {j1}"))
        else:
            out.append((j1 + 1, j2, "added" if tag == "insert" else "changed"))
    return out


def _file_lines(path: str, old: FileState | None, new: FileState | None,
                hashed: bool = False) -> list[str]:
    if new is None:
        return [f"### {path} (removed)", ""]
    if new.binary:
        return [f"### {path} (binary, {'new' if old is None else 'changed'})", ""]
    out = [f"### {path} ({'new, ' if old is None else ''}{plural(len(new.lines), 'line')} now)"]
    lines = new.lines
    text = "\n".join(lines) if has_symbols(path) else ""
    for first, last, what in _ranges(old, new):
        inside = _inside(path, text, first, last) if text else ""
        if last < first:
            out.append(f"- {what}{inside}")
            continue
        out.append(f"- lines {first}-{last} {what}{inside}:")
        shown = lines[first - 1 : min(last, first - 1 + MAX_RANGE_LINES)]
        width = len(str(last)) + (3 if hashed else 0)
        out += [f"  {_label(first + n, line, hashed):>{width}}| {line}"
                for n, line in enumerate(shown)]
        if last - first + 1 > len(shown):
            out.append(f"  … {plural(last - first + 1 - len(shown), 'more line')}")
    return [*out, ""]


def _inside(path: str, text: str, first: int, last: int) -> str:
    """The definitions (from the syntax tree) that hold lines ``first..last`` of the new
    text, outermost first, with their line ranges: " (in class Store 3-58 › def add 9-14)".
    A deletion (``last < first``) is placed by the line above it."""
    if last < first:
        if first <= 1:
            return ""
        held = [s for s in enclosing(path, text, first - 1) if s.end >= first]
    else:
        held = enclosing(path, text, first, last)
    if not held:
        return ""
    return " (in " + " › ".join(f"{s.name} {s.line}-{s.end}" for s in held) + ")"


def _label(number: int, line: str, hashed: bool) -> str:
    return line_id(number, line) if hashed else str(number)


def uses_line_ids(accepted: Accepted) -> bool:
    """Whether the session addresses lines (then the next prompt gets ids, not numbers)."""
    return any(isinstance(op, Edit) and op.shape is not None
               for turn in accepted.session.turns for op in turn.reply.ops)


def _op_line(row: OpRow) -> str:
    return f"- turn {row.turn}, operation {row.position}: {row.title}: {row.outcome.message}"


def context_summary(accepted: Accepted, max_chars: int = MAX_CHARS) -> str:
    base, result = accepted.base, accepted.result
    hashed = uses_line_ids(accepted)
    what = ("Lines are labelled with their current ids (N:hh), to address them without a "
            "re-read." if hashed else "Line numbers are the files' current ones.")
    head = [f"# Context for the next turn: {accepted.session.title or accepted.source}", "",
            f"From {accepted.source} ({accepted.decided_by}). {what}", ""]
    body: list[str] = ["## Changed files", ""]
    changed = base.diff(result)
    if not changed:
        body += ["(none)", ""]
    for path, (old, new) in changed.items():
        body += _file_lines(path, old, new, hashed)
    rejected: list[str] = []
    failed: list[str] = []
    waiting: list[str] = []
    for position in range(len(accepted.run.turns)):
        rows, _ = op_rows(accepted, position)
        for row, result_op in zip(rows, accepted.run.turns[position].results, strict=True):
            if result_op.decision.verdict is Verdict.REJECTED:
                reason = result_op.decision.reason
                why = f"{REJECTED_MESSAGE}: {reason}" if reason else REJECTED_MESSAGE
                rejected.append(f"- turn {row.turn}, operation {row.position}: {row.title}: "
                                f"{why}")
            elif row.waits_on:
                waiting.append(f"- turn {row.turn}, operation {row.position}: {row.title}: "
                               f"accepted, lands on what {row.waits_on} writes")
            elif row.outcome.status in FAILED:
                failed.append(_op_line(row))
    if waiting:
        body += ["## Accepted, not in the files above yet (they wait on a pending "
                 "operation)", "", *waiting, ""]
    if rejected:
        body += ["## Rejected operations", "", *rejected, ""]
    if failed:
        body += ["## Operations that did not apply", "", *failed, ""]
    needed: list[str] = []
    for turn in accepted.session.turns:
        for raw in turn.reply.need:
            path = normalize_or_none(raw) or raw
            if result.get(path) is None and path not in needed:
                needed.append(path)
    if needed:
        body += ["## Still needed (asked for under Need:, still missing)", "",
                 *(f"- {path}" for path in needed), ""]
    out: list[str] = list(head)
    size = sum(len(line) + 1 for line in out)
    for n, line in enumerate(body):
        if size + len(line) + 1 > max_chars:
            out += ["", f"[truncated: {plural(len(body) - n, 'more line')} left out to stay under "
                    f"{max_chars} characters; 'reviewtui export --format patch' has them all]"]
            break
        out.append(line)
        size += len(line) + 1
    return "\n".join(out).rstrip("\n") + "\n"
