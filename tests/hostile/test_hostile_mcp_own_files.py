"""With `reviewtui mcp --session` inside the project, the agent must not change the review's
own files (red-team finding 05): the live session, its review state and the state's blobs.
Every such change is refused at once and leaves no line in the session."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reviewtui.core.agent.own_files import own_file_named
from reviewtui.shell.agent_tools import AgentTools
from reviewtui.shell.live import Gate, LiveSession

SESSION = "logs/agent.jsonl"
OWN = (SESSION, "logs/agent.jsonl.review.json", "logs/agent.jsonl.review.blobs")


@pytest.mark.parametrize("path", [
    "logs/agent.jsonl", "./logs/ agent.jsonl", "logs/agent.jsonl.review.json",
    "logs/agent.jsonl.review.blobs/ab12", "logs/agent.jsonl.review.json.tmp-1",
    "logs/agent.jsonl.review.json.corrupt-2026", "logs", "x/../logs/agent.jsonl"])
def test_the_reviews_own_files_are_named(path: str) -> None:
    assert own_file_named(["a.py", path], SESSION, OWN) == path


@pytest.mark.parametrize("path", ["logs/other.txt", "agent.jsonl", "logs/agent.jsonlx",
                                  "../logs/agent.jsonl", "src/logs/agent.jsonl"])
def test_other_files_are_not(path: str) -> None:
    assert own_file_named([path], SESSION, OWN) is None


def project(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    (root / "app.py").write_text("DEBUG = False\n")
    (root / "notes.txt").write_text("n\n")
    return root


def attacks(session: str) -> list[dict[str, Any]]:
    state = session + ".review.json"
    return [{"tool": "write", "path": session, "content": '{"turn":1,"request":"typo"}\n'},
            {"tool": "write", "path": state, "content": "{}\n"},
            {"tool": "edit", "path": session, "search": "x", "replace": "y"},
            {"tool": "delete", "path": state},
            {"tool": "delete", "path": session},
            {"tool": "move", "from": session, "to": "gone.jsonl"},
            {"tool": "move", "from": "notes.txt", "to": session},
            {"tool": "write", "path": session + ".review.blobs/00", "content": "x\n"}]


@pytest.mark.parametrize("gate", [Gate.RECORD, Gate.AUTO])
@pytest.mark.parametrize("where", ["agent-session.jsonl", "logs/agent.jsonl"])
def test_the_agent_cannot_rewrite_the_live_session(
        tmp_path: Path, gate: Gate, where: str) -> None:
    root = project(tmp_path)
    tools = AgentTools(LiveSession(root, root / where, gate=gate, wait=0))
    try:
        first = tools.mutate({"tool": "edit", "path": "app.py", "search": "DEBUG = False",
                              "replace": "DEBUG = True"}, "task")
        assert first.startswith("applied"), first
        session = (root / where).read_bytes()
        state = (root / (where + ".review.json")).read_bytes()
        for call in attacks(where):
            answer = tools.mutate(call, "task")
            assert answer.startswith("error: path "), (call, answer)
            assert "this review's own file" in answer
        assert (root / where).read_bytes() == session
        assert (root / (where + ".review.json")).read_bytes() == state
        assert (root / "notes.txt").read_text() == "n\n"
        assert tools.status() == "op 1.1 edit app.py: accepted"
    finally:
        tools.live.close()
