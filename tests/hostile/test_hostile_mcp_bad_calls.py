"""A call the session's reader would not read back must not poison the live session of
`reviewtui mcp` (red-team finding 02): it is answered with an error and never appended; a
session that already holds such a line (an older server wrote it) reads that line as a
problem of its turn; a session never grows past what a reading of it accepts."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reviewtui.core.lint.rules import lint_session
from reviewtui.shell.agent_tools import AgentTools
from reviewtui.shell.live import Gate, LiveSession
from reviewtui.shell.loader import load_session

BAD_CALLS: list[dict[str, Any]] = [
    {"tool": "line_replace", "path": "a.py", "from": "abc", "to": "1", "content": "z"},
    {"tool": "batch_edit", "path": "a.py", "operations": [{"operation": "bogus", "line": 1}]},
    {"tool": "batch_edit", "path": "a.py", "operations": [{"operation": "delete"}]},
    {"tool": "batch_edit", "path": "a.py", "operations": "delete line 1"},
    # Both line and line_range: one was silently dropped (QA pass s32, F13).
    {"tool": "batch_edit", "path": "a.py",
     "operations": [{"operation": "replace", "line": 1, "line_range": [2, 2],
                     "content": "# replaced"}]},
]
GOOD = {"tool": "edit", "path": "a.py", "search": "x = 1", "replace": "x = 5"}


def project(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("x = 1\ny = 2\n")
    return root


@pytest.mark.parametrize("bad", BAD_CALLS, ids=["line-ref", "unknown-op", "no-line",
                                                "not-a-list", "line-and-range"])
def test_a_call_the_reader_rejects_is_answered_and_not_recorded(
        tmp_path: Path, bad: dict[str, Any]) -> None:
    root = project(tmp_path)
    session = tmp_path / "s.jsonl"
    tools = AgentTools(LiveSession(root, session, gate=Gate.RECORD, wait=0))
    try:
        assert tools.mutate(GOOD, "task").startswith("applied")
        before = session.read_bytes()
        answer = tools.mutate(bad, "task")
        assert answer.startswith("error: the call was not recorded: "), answer
        assert "send it again" in answer
        assert session.read_bytes() == before
        again = tools.mutate({"tool": "write", "path": "n.py", "content": "n\n"}, "task")
        assert again.startswith("applied"), again
        assert "op 1.1 edit a.py: accepted" in tools.status()
    finally:
        tools.live.close()
    assert (root / "a.py").read_text() == "x = 5\ny = 2\n"
    assert (root / "n.py").read_text() == "n\n"


def test_a_session_an_older_server_poisoned_is_read_with_a_problem(tmp_path: Path) -> None:
    root = project(tmp_path)
    session = tmp_path / "old.jsonl"
    session.write_text('{"turn":1,"request":"r"}\n'
                       '{"tool":"line_replace","path":"a.py","from":"abc","to":"1"}\n'
                       '{"tool":"batch_edit","path":"a.py","operations":[{"operation":"x"}]}\n'
                       'not json at all\n'
                       '{"turn":2,"request":"q"}\n'
                       '{"tool":"write","path":"n.py","content":"n\\n"}\n')
    loaded = load_session(session, format="toolcalls", root=root)
    first, second = loaded.session.turns
    assert [p.span.start for p in first.reply.problems] == [2, 3, 4]
    assert "'abc' is not a line number" in first.reply.problems[0].message
    assert not first.reply.ops
    assert len(second.reply.ops) == 1
    findings = lint_session(loaded.session)
    assert {f.rule for f in findings} >= {"toolcall"}
    tools = AgentTools(LiveSession(root, session, gate=Gate.RECORD, wait=0))
    try:
        answer = tools.mutate(GOOD, "task")
        assert answer.startswith("applied"), answer
        assert "op 2.1 write n.py" in tools.status()
    finally:
        tools.live.close()


def test_a_session_never_grows_past_what_can_be_read_back(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REVIEWTUI_MAX_INPUT_MB", "0.01")  # about 10 KB
    root = project(tmp_path)
    session = tmp_path / "full.jsonl"
    tools = AgentTools(LiveSession(root, session, gate=Gate.RECORD, wait=0))
    try:
        assert tools.mutate(GOOD, "task").startswith("applied")
        before = session.read_bytes()
        answer = tools.mutate({"tool": "write", "path": "big.txt", "content": "y" * 20_000})
        assert answer.startswith("error: "), answer
        assert "the live session is full" in answer
        assert "nothing was recorded or written" in answer
        assert session.read_bytes() == before
        assert not (root / "big.txt").exists()
        small = tools.mutate({"tool": "write", "path": "n.py", "content": "n\n"}, "task")
        assert small.startswith("applied"), small
    finally:
        tools.live.close()
