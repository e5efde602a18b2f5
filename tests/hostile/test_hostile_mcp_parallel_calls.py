"""Parallel tool calls of `reviewtui mcp` (red-team finding 04): the SDK runs each call in a
worker thread, and they shared the one writer review unguarded. Every call must get the
answer that matches what happened on disk and in the session."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from reviewtui.shell.agent_tools import AgentTools
from reviewtui.shell.live import Gate, LiveSession

LINES = 20
FILES = 3


def project(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    for n in range(FILES):
        (root / f"f{n}.txt").write_text("".join(f"line {j}\n" for j in range(LINES)))
    return root


def test_parallel_edits_are_each_answered_as_they_landed(tmp_path: Path) -> None:
    root = project(tmp_path)
    tools = AgentTools(LiveSession(root, tmp_path / "s.jsonl", gate=Gate.RECORD, wait=0))
    calls = [{"tool": "edit", "path": f"f{n}.txt", "search": f"line {j}",
              "replace": f"LINE {j} changed"} for n in range(FILES) for j in range(LINES)]
    try:
        with ThreadPoolExecutor(max_workers=16) as pool:
            answers = list(pool.map(lambda call: tools.mutate(call, "task"), calls))
        status = tools.status().splitlines()
    finally:
        tools.live.close()
    assert all(a.startswith("applied") for a in answers), [
        a for a in answers if not a.startswith("applied")][:3]
    for n in range(FILES):
        assert (root / f"f{n}.txt").read_text() == "".join(
            f"LINE {j} changed\n" for j in range(LINES))
    assert len(status) == FILES * LINES
    assert all(row.endswith(": accepted") for row in status), status[:3]
