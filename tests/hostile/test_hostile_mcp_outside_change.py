"""An automatic gate's accept that does not land (red-team finding 06): after the user
changed a line the agent had changed, a whole-file write was answered `applied` while
the engine kept the disk version (a conflict), and status/diff showed it as written."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewtui.shell.agent_tools import AgentTools
from reviewtui.shell.live import Gate, LiveSession


@pytest.mark.parametrize("gate", [Gate.RECORD, Gate.AUTO])
def test_a_write_that_conflicts_is_not_answered_applied(tmp_path: Path, gate: Gate) -> None:
    root = tmp_path / "root"
    root.mkdir()
    target = root / "a.txt"
    target.write_text("head 0\nbody 0\n")
    tools = AgentTools(LiveSession(root, tmp_path / "s.jsonl", gate=gate, wait=0))
    try:
        first = tools.mutate({"tool": "edit", "path": "a.txt", "search": "head 0",
                              "replace": "head 1"}, "task")
        assert first.startswith("applied"), first
        target.write_text("head USER\nbody 0\n")  # the user fixes the agent's line
        answer = tools.mutate({"tool": "write", "path": "a.txt",
                               "content": "whole new file\n"}, "task")
        status = tools.status().splitlines()
        diff = tools.diff("a.txt")
    finally:
        tools.live.close()
    assert target.read_text() == "head USER\nbody 0\n"
    assert answer.startswith("pending review · a.txt"), answer
    assert "nothing was written" in answer
    assert status == ["op 1.1 edit a.txt: accepted", "op 1.2 write a.txt: pending review"]
    assert "whole new file" not in diff
