"""Claude Code session transcripts (``~/.claude/projects/<project>/<session>.jsonl``).

One JSON object a line. A ``"type": "user"`` line whose message content is the user's
text (not a ``tool_result``) starts a turn; the assistant's ``tool_use`` blocks that
follow become its operations, in order:

* ``Edit`` (``file_path``, ``old_string``, ``new_string``, ``replace_all``): an
  :class:`Edit` whose SEARCH is the exact text (``substring``), found anywhere in the
  file, inside lines too; ``replace_all`` replaces every occurrence;
* ``MultiEdit`` (``file_path``, ``edits``): one such edit per entry, in order;
* ``Write`` (``file_path``, ``content``): a :class:`FullFile`, final newline as written.

Absolute paths become relative to the project ``root`` (or else to the ``cwd`` of the
session's first line that records one: where Claude Code was started; a later line's
``cwd`` follows the shell's ``cd`` and is not the project); a path outside both stays
absolute, and the engine refuses it. A relative path is first joined to its own line's
``cwd``, as Claude Code resolves it.

Each call is paired with its ``tool_result`` by ``tool_use_id``. Only a call whose result
says it succeeded is replayed: one with ``is_error`` (not read first, rejected by the
user, ``old_string`` not found...) did not change the file, so it becomes a
``tool-failed`` problem quoting Claude Code's error; one with no result at all (a
transcript cut short, a permission prompt never answered) may or may not have run, so it
is not replayed either (``tool-no-result``): writing a change the agent never made is
worse than showing one it may have made.
Sub-agent (``isSidechain``) and meta lines never start a turn; their edits count. Claude
Code 2.x keeps a sub-agent's own lines in ``agent-<agentId>.jsonl`` beside the transcript
instead, and the main transcript holds only the ``Task`` call and its result: its edits
are not here, and the call is a warning naming that file (``claude-subagent``).
Shell commands that may change files (``claude-shell``) and notebook edits
(``claude-not-replayed``) are warnings, not replayed. Each of these, and a call with no
result, is a change the agent made or may have made that the replay does not make
(``ParseProblem.unmade``): ``apply`` says so and exits 1.
"""

from __future__ import annotations

import posixpath
import re
from collections.abc import Sequence
from typing import Any

from reviewtui.core.engine.placement import split_text
from reviewtui.core.errors import InputLimitError
from reviewtui.core.importers.common import (
    _WINDOWS_ABS,
    format_error,
    problem,
    relative_path,
    reply_from_ops,
)
from reviewtui.core.model.records import (
    Edit,
    FullFile,
    Operation,
    ParseProblem,
    Session,
    Span,
    Turn,
)
from reviewtui.core.record import field, record, replace
from reviewtui.core.text.limits import load_json
from reviewtui.core.text.lines import iter_lines, split_lines

TOOL_FAILED = "tool-failed"
NO_RESULT = "tool-no-result"
BAD_LINE = "claude-bad-line"
BAD_INPUT = "claude-bad-input"
SHELL = "claude-shell"
NOT_REPLAYED = "claude-not-replayed"
NO_TRANSCRIPT = "no-transcript"
DUPLICATE = "claude-duplicate"
USER_MODIFIED = "claude-user-modified"
SUBAGENT = "claude-subagent"
# The tool that runs a sub-agent: "Task" in Claude Code 2.x ("Agent" read the same: a
# newer name for it).
_SUBAGENT_TOOLS = frozenset({"Task", "Agent"})
# An agentId as Claude Code makes them (hex); anything else is not put in a file name.
_AGENT_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")

_TYPES = frozenset({"user", "assistant", "summary", "system"})
# Fields of Claude Code's own on its other line types (file-history-snapshot,
# queue-operation...); a chat message (which may have a type too) has a role instead.
_SESSION_FIELDS = frozenset({"sessionId", "messageId", "snapshot"})
_NOT_PROMPTS = ("<local-command-stdout>", "<local-command-stderr>", "<command-name>",
                "<command-message>", "Caveat: The messages below were generated",
                "[Request interrupted by user")
# A Bash command that may change files (noted, never run): a command that writes, after
# ``sudo`` or variable assignments, git commands that rewrite the work tree, formatters,
# and output redirected into a file (QA s44 helper-134 M2: ``git reset --hard`` between two
# edits went unnoted, and the replay's file differed from Claude Code's). Possessive, so a
# long line is read in linear time (tests/core/test_regex_linear.py).
_CHANGING_SHELL = re.compile(
    r"(?:^|[;&|(]\s*+)(?:sudo\s++)?+(?:\w++=\S*+\s++)*+(?:rm|mv|cp|touch|truncate|patch|tee|dd"
    r"|chmod|ln|unzip|git\s++(?:mv|rm|checkout|restore|apply|stash|reset|clean|revert|"
    r"cherry-pick|merge|rebase|pull|am|switch)|sed\s++-i|perl\s++-pi|black|prettier|gofmt|"
    r"rustfmt|ruff\s++format|xargs\s++(?:rm|mv|sed))\b"
    r"|(?:^|[;&|(]\s*+)find\s(?:[^;&|-]++|-(?!delete\b))*+-delete\b"
    r"|[^\d&>]>>?+\s*+(?!/dev/null\b|&)[\w./~$\"']")


@record(slots=True)
class _Use:
    """One tool call: its operations, where it was, and what came back."""

    name: str
    line: int
    path: str
    ops: list[Operation] = field(default_factory=list)
    # The line of its tool_result (0: none seen) and, when it is an error, the error text.
    result_line: int = 0
    error: str | None = None
    # The user changed the proposed change before accepting it: a note of what was
    # replayed, or (``unknown``) why it is not (the transcript does not say into what).
    modified: str = ""
    unknown: bool = False
    agent: str = ""  # a sub-agent call's agentId (its result's toolUseResult)


@record(slots=True)
class _Turn:
    request: str
    line: int
    uses: list[_Use] = field(default_factory=list)
    notes: list[ParseProblem] = field(default_factory=list)
    last: int = 0
    inline_agents: bool = False  # sub-agent lines in this transcript (isSidechain)


def looks_like_claude(text: str) -> bool:
    """The first parsable lines carry Claude Code's ``type`` and ``message`` (or ``sessionId``);
    a line of another type counts when it has a field of Claude Code's own (a
    ``file-history-snapshot`` or ``queue-operation`` line: QA s47 helper-148 F12, five of
    them first and the transcript was refused as a chat)."""
    seen = 0
    for line in iter_lines(text):
        if not line.strip():
            continue
        seen += 1
        if seen > 5:
            break
        try:
            item = load_json(line)
        except (ValueError, InputLimitError):  # the reader says which line and why
            continue
        if not isinstance(item, dict):
            continue
        kind = item.get("type")
        if isinstance(kind, str) and kind in _TYPES and (
                "message" in item or "sessionId" in item or kind == "summary"):
            return True
        if isinstance(kind, str) and kind and "role" not in item \
                and _SESSION_FIELDS & item.keys():
            return True
    return False


def import_claude(text: str, source: str, *, root: str | None = None) -> Session:
    lines = split_lines(text)
    turns: list[_Turn] = []
    uses: dict[str, tuple[_Turn, _Use]] = {}
    title = ""
    start_cwd: str | None = None
    cwd: str | None = None  # (the line's own: Claude Code's, after the shell's cd)
    parsed = 0
    early: list[ParseProblem] = []
    # Claude Code logs some entries more than once, verbatim (the same uuid; a tool call
    # with its result, as in anthropics/claude-code#5034): the call ran once, and was
    # replayed twice, exit 0 (QA s44 helper-134 H1). An entry is read once: the same uuid
    # with the same content (a line reusing a uuid with other content is read as itself).
    entries: dict[str, tuple[int, object]] = {}
    for lineno, raw in enumerate(lines, start=1):
        if not raw.strip():
            continue
        try:
            item = load_json(raw, source=source, first_line=lineno)
        except ValueError as exc:
            note = problem(BAD_LINE, f"not a JSON object ({exc}); the line is skipped", lineno,
                           severity="warning")
            (turns[-1].notes if turns else early).append(note)
            continue
        if not isinstance(item, dict):
            continue
        parsed += 1
        uuid = item.get("uuid")
        if isinstance(uuid, str) and uuid:
            first = entries.setdefault(uuid, (lineno, item))
            if first[0] != lineno and first[1] == item:
                _logged_again(item, first[0], lineno, turns, early)
                continue
        if isinstance(item.get("cwd"), str):
            start_cwd = item["cwd"] if start_cwd is None else start_cwd
            cwd = item["cwd"]
        kind = item.get("type")
        message = item.get("message")
        content = message.get("content") if isinstance(message, dict) else None
        if kind == "summary" and not title:
            title = str(item.get("summary", ""))
        elif kind == "user":
            prompt = _prompt(item, content)
            if prompt is not None:
                turns.append(_Turn(prompt, lineno))
            elif isinstance(content, list):
                _results(content, uses, lineno, item.get("toolUseResult"))
        elif kind == "assistant" and isinstance(content, list):
            if not turns:
                turns.append(_Turn("", lineno))
            if item.get("isSidechain"):  # (the sub-agent's lines are here: they count)
                turns[-1].inline_agents = True
            bases = (root, start_cwd)
            for block in content:
                if isinstance(block, dict) and block.get("type") == "tool_use":
                    if (known := uses.get(str(block.get("id", "")))) is not None \
                            and block.get("id"):  # (the same call under another entry)
                        turns[-1].notes.append(_again(str(block["id"]), known[1].line,
                                                      lineno))
                        continue
                    use = _tool_use(block, lineno, bases, turns[-1].notes, cwd)
                    if use is not None:
                        turns[-1].uses.append(use)
                        uses[str(block.get("id", ""))] = (turns[-1], use)
        if turns:
            turns[-1].last = lineno
    if not parsed:
        raise format_error(source, None, NO_TRANSCRIPT, "no JSON object on any line: this is "
                           "not a Claude Code transcript")
    if early:
        if not turns:
            turns.append(_Turn("", early[0].span.start))
        turns[0].notes[:0] = early
    return Session(source, title, "", tuple(_turn(n + 1, t) for n, t in enumerate(turns)),
                   format="claude")


def _again(call: str, first: int, lineno: int) -> ParseProblem:
    return problem(DUPLICATE, f"tool call {call or '(no id)'} is logged again here (first on line "
                   f"{first}): it ran once, and is replayed once", lineno, severity="info")


def _logged_again(item: dict[str, Any], first: int, lineno: int, turns: list[_Turn],
                  early: list[ParseProblem]) -> None:
    """A note where a repeated entry held a tool call (a repeated prompt or result is
    passed over without one)."""
    message = item.get("message")
    content = message.get("content") if isinstance(message, dict) else None
    calls = [str(block.get("id", "")) for block in content or ()
             if isinstance(block, dict) and block.get("type") == "tool_use"] \
        if isinstance(content, list) else []
    for call in calls:
        (turns[-1].notes if turns else early).append(_again(call, first, lineno))


def _turn(index: int, turn: _Turn) -> Turn:
    ops = [op for use in turn.uses if _replayed(use) for op in use.ops]
    span = Span(turn.line, max(turn.line, turn.last))
    notes = sorted([*turn.notes, *(_not_replayed(u) for u in turn.uses
                                   if u.ops and not _replayed(u)),
                    *(_subagent(u) for u in turn.uses if u.name in _SUBAGENT_TOOLS
                      and u.error is None and (u.agent or not turn.inline_agents)),
                    *(problem(USER_MODIFIED, u.modified, u.line, u.result_line, severity="info")
                      for u in turn.uses if u.modified and _replayed(u))],
                   key=lambda p: p.span.start)
    return Turn(index, turn.request, reply_from_ops(ops, span, notes), span,
                Span(turn.line, turn.line))


def _prompt(item: dict[str, Any], content: object) -> str | None:
    """The user's text when this line is a prompt; None for tool results and meta lines."""
    if item.get("isSidechain") or item.get("isMeta"):
        return None
    if isinstance(content, str):
        text = content
    elif isinstance(content, list):
        if any(isinstance(b, dict) and b.get("type") == "tool_result" for b in content):
            return None
        parts = [str(b.get("text", "")) if b.get("type") == "text" else f"[{b.get('type')}]"
                 for b in content if isinstance(b, dict)]
        text = "\n".join(parts)
    else:
        return None
    text = text.strip()
    if text.startswith(_NOT_PROMPTS):
        return None
    return text


def _replayed(use: _Use) -> bool:
    return bool(use.result_line) and use.error is None and not use.unknown


def _results(content: Sequence[object], uses: dict[str, tuple[_Turn, _Use]],
             lineno: int, outcome: object) -> None:
    """Record on each call what its tool_result says (the first result of an id counts);
    ``outcome``: the line's ``toolUseResult``, what Claude Code did (one result a line)."""
    results = [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]
    for block in results:
        found = uses.get(str(block.get("tool_use_id", "")))
        if found is None or found[1].result_line:
            continue
        use = found[1]
        use.result_line = lineno
        if block.get("is_error"):
            use.error = _result_text(block.get("content"))
        elif use.name in _SUBAGENT_TOOLS:
            agent = outcome.get("agentId") if isinstance(outcome, dict) else None
            if isinstance(agent, str) and len(results) == 1:
                use.agent = agent
        elif isinstance(outcome, dict) and outcome.get("userModified") is True:
            _user_modified(use, outcome if len(results) == 1 else {})


def _user_modified(use: _Use, outcome: dict[str, Any]) -> None:
    """The user changed the proposed edit before accepting it (QA s46 helper-142 H2: the
    model's proposal was replayed over what the user accepted, exit 0). Claude Code's
    ``toolUseResult`` then holds the strings it wrote: replayed when they differ from the
    proposal (so they are the user's); else what was written is unknown: not replayed."""
    op = use.ops[0] if len(use.ops) == 1 else None
    if use.name == "Edit" and isinstance(op, Edit):
        old, new = outcome.get("oldString"), outcome.get("newString")
        if isinstance(old, str) and isinstance(new, str) and (
                old != "\n".join(op.search_lines) or new != "\n".join(op.replace_lines)):
            use.ops = [replace(op, search_lines=tuple(old.split("\n")),
                               replace_lines=tuple(new.split("\n")))]
            use.modified = (f"the user changed this Edit of {use.path} before accepting it: "
                            "replayed as accepted (the tool result's strings)")
            return
    elif use.name == "Write" and isinstance(op, FullFile):
        content = outcome.get("content")
        if isinstance(content, str) and content != op.content:
            lines, final = split_text(content)
            use.ops = [replace(op, lines=lines, final_newline=final or not content)]
            use.modified = (f"the user changed this Write of {use.path} before accepting it: "
                            "replayed as accepted (the tool result's content)")
            return
    use.unknown = True


def _subagent(use: _Use) -> ParseProblem:
    """A sub-agent ran: what it changed is not in this transcript (QA s47 helper-148 F2: its
    edits were missing, and a later edit of the same file landed without them, exit 0).
    Its own transcript is not read: it is another file, named here for the reviewer."""
    what = f"a sub-agent ({use.name} {use.path!r})" if use.path else f"a sub-agent ({use.name})"
    if use.agent and _AGENT_ID.fullmatch(use.agent):
        where = (f"its lines are in agent-{use.agent}.jsonl beside this transcript, which is "
                 "not read here (review that file too)")
    elif use.agent:
        where = f"its lines are in its own transcript (agentId {use.agent[:64]!r}), not read here"
    else:
        where = "its lines are not in this transcript"
    ran = "ran" if use.result_line else "was started (no result: it may have run)"
    return problem(SUBAGENT, f"{what} {ran} and what it changed is not replayed: {where}; "
                   "later edits of the files it changed land without its changes", use.line,
                   use.result_line, severity="warning", unmade=True)


def _not_replayed(use: _Use) -> ParseProblem:
    """Why a call's change is not replayed: Claude Code failed it, no result says it ran,
    or the user changed it into something the transcript does not hold."""
    if use.unknown:
        return problem(USER_MODIFIED, f"the user changed this {use.name} of {use.path} "
                       "before accepting it, and the transcript does not hold what was "
                       "written instead: not replayed", use.line, use.result_line,
                       severity="warning", unmade=True)
    if use.error is not None:
        return problem(TOOL_FAILED, f"Claude Code did not make this {use.name} of {use.path} "
                       f"(its tool_result is an error), so it is not replayed: {use.error}",
                       use.line, use.result_line, severity="warning")
    return problem(NO_RESULT, f"this {use.name} of {use.path} has no tool_result (the "
                   "transcript ends before it): whether Claude Code made the change is "
                   "unknown, so it is not replayed", use.line, severity="warning",
                   unmade=True)


def _result_text(content: object) -> str:
    if isinstance(content, list):
        content = " ".join(str(b.get("text", "")) for b in content if isinstance(b, dict))
    text = re.sub(r"</?tool_use_error>", "", str(content or "")).strip()
    text = " ".join(text.split())
    return text[:200] + ("..." if len(text) > 200 else "")


def _in_cwd(path: str, cwd: str | None) -> str:
    """A relative ``file_path`` where Claude Code took it: in its working folder at that
    line (the line's ``cwd``, which follows the shell's ``cd``), then made relative to the
    project as an absolute one is (QA s47 helper-148 F1: after ``cd sub``, an Edit of
    ``a.txt`` changed the project's ``a.txt``, Claude Code ``sub/a.txt``, exit 0)."""
    if not cwd or path.startswith("/") or _WINDOWS_ABS.match(path) \
            or not (cwd.startswith("/") or _WINDOWS_ABS.match(cwd)):
        return path
    return posixpath.join(cwd.replace("\\", "/") if _WINDOWS_ABS.match(cwd) else cwd, path)


def _tool_use(block: dict[str, Any], lineno: int, bases: tuple[str | None, ...],
              notes: list[ParseProblem], cwd: str | None = None) -> _Use | None:
    name = str(block.get("name", ""))
    data = block.get("input")
    data = data if isinstance(data, dict) else {}
    if name == "Bash":
        command = str(data.get("command", ""))
        if _CHANGING_SHELL.search(command):
            shown = " ".join(command.split())[:100]
            notes.append(problem(SHELL, f"a shell command that may change files is not "
                                 f"replayed: {shown!r}; what it changed is not in this "
                                 "replay", lineno, severity="warning", unmade=True))
        return None
    if name == "NotebookEdit":
        notes.append(problem(NOT_REPLAYED, "a NotebookEdit of "
                             f"{data.get('notebook_path', '?')!r} is not replayed (notebook "
                             "cells are not text edits): the notebook stays as it was",
                             lineno, severity="warning", unmade=True))
        return None
    if name in _SUBAGENT_TOOLS:  # (its note waits for its result: _subagent)
        description = data.get("description")
        return _Use(name, lineno, description[:80] if isinstance(description, str) else "")
    if name not in ("Edit", "MultiEdit", "Write"):
        return None
    raw_path = data.get("file_path")
    if not isinstance(raw_path, str) or not raw_path:
        notes.append(problem(BAD_INPUT, f"a {name} call without a file_path", lineno))
        return None
    path = relative_path(_in_cwd(raw_path, cwd), bases)
    use = _Use(name, lineno, path)
    span = Span(lineno, lineno)
    if name == "Write":
        content = data.get("content")
        if not isinstance(content, str):
            notes.append(problem(BAD_INPUT, f"a Write of {path} without text content", lineno))
            return None
        lines, final = split_text(content)
        use.ops.append(FullFile(path, lines, span, final_newline=final or not content,
                                literal=True))
        return use
    entries = [data] if name == "Edit" else data.get("edits")
    if not isinstance(entries, list):
        notes.append(problem(BAD_INPUT, f"a MultiEdit of {path} without an edits list", lineno))
        return None
    for entry in entries:
        old = entry.get("old_string") if isinstance(entry, dict) else None
        new = entry.get("new_string") if isinstance(entry, dict) else None
        if not isinstance(old, str) or not isinstance(new, str):
            notes.append(problem(BAD_INPUT, f"an edit of {path} without old_string and "
                                 "new_string", lineno))
            return None
        use.ops.append(Edit(path, 1, None, tuple(old.split("\n")), tuple(new.split("\n")),
                            span, span, span, substring=True, eats_newline=True,
                            replace_all=bool(entry.get("replace_all")), literal=True))
    return use
