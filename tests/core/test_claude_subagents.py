"""Claude Code changes the transcript does not carry (QA s47 helper-148 F2).

Claude Code 2.x keeps a sub-agent's (``Task`` tool) lines in ``agent-<agentId>.jsonl``
beside the session file; the main transcript holds only the call and its result. The
call was passed over without a word: the sub-agent's edits were missing, and a later edit
of the same file landed without them, exit 0. It is now a warning naming that file, and,
with the notebook edits and shell edits the replay does not make either, a change the
session made that ``apply`` does not (``unmade``: exit 1)."""

from __future__ import annotations

import json
from typing import Any

import pytest

from reviewtui.core.importers.claude import import_claude

CWD = "/home/u/proj"


def _line(kind: str, message: dict[str, Any], **extra: Any) -> dict[str, Any]:
    return {"type": kind, "sessionId": "s1", "cwd": CWD, "message": message, **extra}


def _call(name: str, data: dict[str, Any], tid: str, **extra: Any) -> dict[str, Any]:
    return _line("assistant", {"role": "assistant", "content": [
        {"type": "tool_use", "id": tid, "name": name, "input": data}]}, **extra)


def _result(tid: str, *, outcome: Any = None, error: bool = False) -> dict[str, Any]:
    block: dict[str, Any] = {"type": "tool_result", "tool_use_id": tid, "content": "Done"}
    if error:
        block["is_error"] = True
    extra = {} if outcome is None else {"toolUseResult": outcome}
    return _line("user", {"role": "user", "content": [block]}, **extra)


def _problems(*rows: dict[str, Any]) -> list[tuple[str, str, bool, int]]:
    rows = (_line("user", {"role": "user", "content": "go"}), *rows)
    session = import_claude("".join(json.dumps(r) + "\n" for r in rows), "s.jsonl")
    return [(p.rule, p.severity, p.unmade, p.span.start)
            for turn in session.turns for p in turn.reply.problems]


TASK = {"description": "fix line1", "prompt": "uppercase line1", "subagent_type": "x"}


@pytest.mark.parametrize("tool", ["Task", "Agent"])
def test_a_sub_agent_with_its_own_transcript_is_a_warning_naming_it(tool: str) -> None:
    rows = (_call(tool, TASK, "t1"),
            _result("t1", outcome={"status": "completed", "agentId": "ab12cd34"}))
    session = import_claude("".join(json.dumps(r) + "\n" for r in (
        _line("user", {"role": "user", "content": "go"}), *rows)), "s.jsonl")
    (problem,) = session.turns[0].reply.problems
    assert (problem.rule, problem.severity, problem.unmade) == ("claude-subagent", "warning",
                                                                True)
    assert "agent-ab12cd34.jsonl beside this transcript" in problem.message
    assert "'fix line1'" in problem.message


def test_an_agent_id_that_is_no_file_name_is_not_made_one() -> None:
    rows = (_call("Task", TASK, "t1"), _result("t1", outcome={"agentId": "../../etc/x"}))
    session = import_claude("".join(json.dumps(r) + "\n" for r in (
        _line("user", {"role": "user", "content": "go"}), *rows)), "s.jsonl")
    (problem,) = session.turns[0].reply.problems
    assert "agent-" not in problem.message
    assert "'../../etc/x'" in problem.message


def test_a_sub_agent_without_an_id_or_inline_lines_is_a_warning() -> None:
    assert _problems(_call("Task", TASK, "t1"), _result("t1")) == [
        ("claude-subagent", "warning", True, 2)]
    assert _problems(_call("Task", TASK, "t1")) == [("claude-subagent", "warning", True, 2)]


def test_a_failed_sub_agent_changed_nothing() -> None:
    assert _problems(_call("Task", TASK, "t1"), _result("t1", error=True)) == []


def test_inline_sub_agent_lines_count_and_need_no_warning() -> None:
    """Before 2.x the sub-agent's own calls were in the transcript (isSidechain)."""
    edit = {"file_path": CWD + "/a.txt", "old_string": "a", "new_string": "b"}
    rows = (_call("Task", TASK, "t1"), _call("Edit", edit, "t2", isSidechain=True),
            _result("t2"), _result("t1"))
    assert _problems(*rows) == []
    session = import_claude("".join(json.dumps(r) + "\n" for r in (
        _line("user", {"role": "user", "content": "go"}), *rows)), "s.jsonl")
    assert len(session.turns[0].reply.ops) == 1


def test_notebook_and_shell_edits_are_unmade_warnings() -> None:
    assert _problems(_call("NotebookEdit", {"notebook_path": CWD + "/n.ipynb"}, "t1"),
                     _result("t1"),
                     _call("Bash", {"command": "sed -i s/x/y/ a.txt"}, "t2"),
                     _result("t2"),
                     _call("Bash", {"command": "ls"}, "t3"), _result("t3")) == [
        ("claude-not-replayed", "warning", True, 2), ("claude-shell", "warning", True, 4)]
