"""Parse a whole session: a Markdown ``session.md`` of turns, or a JSON chat transcript."""

from __future__ import annotations

import re
from collections.abc import Sequence

from reviewtui.core.errors import SessionFormatError
from reviewtui.core.model.records import ParseProblem, Session, Span, Turn
from reviewtui.core.protocol import grammar as g
from reviewtui.core.protocol.reply import line_signature, parse_reply
from reviewtui.core.text.limits import load_json
from reviewtui.core.text.lines import split_lines


def parse_session(text: str, source: str = "session.md") -> Session:
    """Pick the format from the content: a JSON transcript, or Markdown turns."""
    if source.endswith((".json", ".jsonl")):
        return parse_transcript(text, source)
    if not source.endswith(".md") and _looks_json(text):
        return parse_transcript(text, source)
    return parse_markdown_session(text, source)


def _looks_json(text: str) -> bool:
    """A list of objects, or an object with a role: Markdown never starts like that."""
    head = "".join(text[:200].split())
    return head.startswith(("[{", '{"role"'))


# -- Markdown sessions -------------------------------------------------------


def parse_markdown_session(text: str, source: str = "session.md") -> Session:
    lines = split_lines(text)
    signature = line_signature(lines)  # one for all the turns' replies
    headings = _turn_headings(lines, signature)
    meta_end = headings[0][0] if headings else len(lines)
    title = _title(lines, meta_end)
    problems: list[ParseProblem] = []
    if not headings:
        bare = _bare_reply(lines, signature, source)
        if bare is not None:
            return bare
        problems.append(ParseProblem("no-turns", "no '## Turn N' heading: the session has no "
                                     "turns", Span(1, max(1, len(lines))), "warning"))
    turns: list[Turn] = []
    for n, (start, number) in enumerate(headings):
        end = headings[n + 1][0] if n + 1 < len(headings) else len(lines)
        if number != n + 1:
            problems.append(ParseProblem(
                "turn-number", f"heading says Turn {number} but it is turn {n + 1} of the "
                "session", Span(start + 1, start + 1), "warning"))
        turns.append(_turn(lines, start, end, n + 1, signature))
    meta = "\n".join(lines[:meta_end]).strip()
    return Session(source, title, meta, tuple(turns), tuple(problems))


def _bare_reply(lines: Sequence[str], signature: str, source: str) -> Session | None:
    """A file without turn headings that is one reply (a model's answer saved as it came):
    read as one turn with no request, said by a ``bare-reply`` warning, rather than as a
    session of no turns whose edits nothing would apply. None when it holds no block, or
    prose between its blocks or a second footer (notes or documentation quoting blocks,
    not a reply: it stays a session of no turns, as before)."""
    reply = parse_reply(lines, 0, len(lines), signature=signature)
    if not reply.blocks:
        return None
    first = reply.blocks[0].span.start
    if (any(run.span.start > first and not run.after_footer for run in reply.stray)
            or any(p.rule == "second-footer" for p in reply.problems)):
        return None
    whole = Span(1, max(1, len(lines)))
    problem = ParseProblem("bare-reply", "no '## Turn N' heading: the file is read as one "
                           "reply (turn 1, no request)", Span(1, 1), "warning")
    return Session(source, "", "", (Turn(1, "", reply, whole, Span(1, 1)),),
                   (problem,))


# In a line signature: the lines that may start with "#", "`" or "~".
_HEADING_OR_FENCE = re.compile(r"[#`~]")


def _turn_headings(lines: Sequence[str], signature: str | None = None
                   ) -> list[tuple[int, int]]:
    """Indexes of ``## Turn N`` lines, ignoring any inside a code fence.

    ``signature`` is :func:`line_signature` of ``lines``: only the lines it says may start
    with one of those characters are looked at.
    """
    found: list[tuple[int, int]] = []
    fence: g.Fence | None = None
    if signature is None:
        signature = line_signature(lines)
    for m in _HEADING_OR_FENCE.finditer(signature):
        i = m.start()
        line = lines[i]
        first = line[:1]
        if first == "#" and fence is None:
            number = g.turn_number(line)
            if number is not None:
                found.append((i, number))
        elif first in "`~":
            if fence is None:
                fence = g.fence_open(line)
            elif fence.closes(line):
                fence = None
    return found


def _title(lines: Sequence[str], end: int) -> str:
    for line in lines[:end]:
        if line.startswith("# "):
            title = line[2:].strip()
            return title.split(":", 1)[1].strip() if title.lower().startswith("session:") else title
    return ""


def _turn(lines: Sequence[str], start: int, end: int, index: int,
          signature: str | None = None) -> Turn:
    i = start + 1
    request: list[str] = []
    while i < end and not lines[i].strip():
        i += 1
    while i < end and lines[i].startswith(">"):
        request.append(lines[i][2:] if lines[i].startswith("> ") else lines[i][1:])
        i += 1
    reply = parse_reply(lines, i, end, signature=signature)
    return Turn(index, "\n".join(request).strip(), reply, Span(start + 1, max(start + 1, end)),
                Span(start + 1, start + 1))


# -- JSON chat transcripts ---------------------------------------------------


def parse_transcript(text: str, source: str = "session.json") -> Session:
    """``[{"role", "content"}]`` as JSON, or one message per line (JSONL)."""
    messages = _messages(text, source)
    turns: list[Turn] = []
    request = ""
    for number, (lineno, role, content) in enumerate(messages, start=1):
        if role == "user":
            request = content
        elif role == "assistant":
            lines = split_lines(content)
            reply = parse_reply(lines)
            span = Span(lineno, lineno) if lineno else Span(number, number)
            turns.append(Turn(len(turns) + 1, request.strip(), reply, span))
            request = ""
    return Session(source, "", "", tuple(turns))


def _messages(text: str, source: str) -> list[tuple[int, str, str]]:
    import json  # here: only a JSON transcript needs it

    stripped = text.strip()
    if stripped.startswith("["):
        first_line = 1 + text[: len(text) - len(text.lstrip())].count("\n")
        try:
            data = load_json(stripped, source=source, first_line=first_line)
        except json.JSONDecodeError as exc:
            raise SessionFormatError(f"not valid JSON: {exc.msg} (column {exc.colno})",
                                     source=source, line=exc.lineno, rule="json") from None
        if not isinstance(data, list):
            raise SessionFormatError("a JSON transcript must be a list of messages",
                                     source=source, line=1, rule="transcript-shape")
        return [_message(item, source, 0) for item in data]
    out = []
    for lineno, line in enumerate(split_lines(text), start=1):
        if not line.strip():
            continue
        try:
            item = load_json(line, source=source, first_line=lineno)
        except json.JSONDecodeError as exc:
            raise SessionFormatError(f"not valid JSON: {exc.msg} (column {exc.colno})",
                                     source=source, line=lineno, rule="jsonl") from None
        out.append(_message(item, source, lineno))
    return out


def _message(item: object, source: str, lineno: int) -> tuple[int, str, str]:
    if not isinstance(item, dict) or "role" not in item:
        raise SessionFormatError('each message must be an object with "role" and "content"',
                                 source=source, line=lineno or None, rule="transcript-shape")
    role = str(item["role"])
    content = item.get("content", "")
    if isinstance(content, list):  # content parts: keep the text ones
        content = "\n".join(
            str(part.get("text", "")) for part in content
            if isinstance(part, dict) and part.get("type", "text") == "text"
        )
    if not isinstance(content, str):
        raise SessionFormatError('"content" must be a string or a list of text parts',
                                 source=source, line=lineno or None, rule="transcript-shape")
    return lineno, role, content
