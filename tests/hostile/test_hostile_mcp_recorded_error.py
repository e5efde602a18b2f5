"""Promise: the agent is told what became of its change. A call recorded in the live
session whose evaluation then failed (the project's reviewtui.toml malformed while the
user edits it) was answered ``error: ...``, as a call never recorded is, though it stayed
in the session pending review: the agent sent it again, or worked around a change the
reviewer could still accept (QA s46 helper-141 F3)."""

from __future__ import annotations

from pathlib import Path

from reviewtui.shell.agent_tools import AgentTools
from reviewtui.shell.live import Gate, LiveSession


def test_a_recorded_call_that_cannot_be_evaluated_says_it_is_recorded(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("a = 1\n")
    (root / "reviewtui.toml").write_text('[reserved\npaths = ["x"]\n')  # mid-edit
    session = tmp_path / "s.jsonl"
    tools = AgentTools(LiveSession(root, session, gate=Gate.RECORD, wait=0))
    answer = tools.mutate({"tool": "edit", "path": "a.py", "search": "a = 1",
                           "replace": "a = 2"})
    assert answer.startswith("recorded as op 1.1, pending review"), answer
    assert "reviewtui.toml" in answer
    assert "do not send the change again" in answer
    assert session.read_text().count('"tool":"edit"') == 1
    (root / "reviewtui.toml").write_text('[reserved]\npaths = ["x"]\n')
    assert "op 1.1 edit a.py" in tools.status()
