"""`diff` with a path normalize_path refuses (red-team finding 07) raised out of the tool: a
bare "Error executing tool diff" and a traceback in the server log. It answers like `read`."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewtui.shell.agent_tools import AgentTools
from reviewtui.shell.live import Gate, LiveSession


@pytest.mark.parametrize("path", ["../x", "/etc/passwd", ".git/config", "a\\b.py"])
def test_diff_of_a_refused_path_answers_the_reason(tmp_path: Path, path: str) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("x = 1\n")
    tools = AgentTools(LiveSession(root, tmp_path / "s.jsonl", gate=Gate.RECORD, wait=0))
    try:
        assert tools.mutate({"tool": "edit", "path": "a.py", "search": "x = 1",
                             "replace": "x = 2"}).startswith("applied")
        answer = tools.diff(path)
        assert answer.startswith(f"error: path {path!r} is refused: "), answer
        assert answer.split(" is refused: ")[1] == tools.read(path).split(" is refused: ")[1]
        assert "+x = 2" in tools.diff("./a.py")
    finally:
        tools.live.close()
