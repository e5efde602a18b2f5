"""``apply`` prints the session's warnings, as ``check`` does (QA s45 helper-138 #9): a
Claude Code call with no tool_result (the session ended after the tool ran, perhaps) is
not replayed, and apply said "1 of 1 operation applied" and nothing of it. The exit code
stays what the operations make it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewtui.cli import main

CWD = "/home/dev/proj"


def _line(n: int, kind: str, message: dict[str, object]) -> str:
    return json.dumps({"type": kind, "uuid": f"u{n}", "sessionId": "s", "cwd": CWD,
                       "isSidechain": False, "message": message})


def _edit(tool_id: str, old: str, new: str) -> dict[str, object]:
    return {"role": "assistant", "content": [{
        "type": "tool_use", "id": tool_id, "name": "Edit",
        "input": {"file_path": CWD + "/a.txt", "old_string": old, "new_string": new}}]}


def test_apply_says_which_call_it_did_not_replay(tmp_path: Path,
                                                 capsys: pytest.CaptureFixture[str]) -> None:
    rows = [_line(1, "user", {"role": "user", "content": "go"}),
            _line(2, "assistant", _edit("t1", "x", "y")),
            _line(3, "user", {"role": "user", "content": [{
                "type": "tool_result", "tool_use_id": "t1",
                "content": "The file has been updated."}]}),
            _line(4, "assistant", _edit("t2", "y", "z"))]
    session = tmp_path / "s.jsonl"
    session.write_text("\n".join(rows) + "\n")
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("x\n")
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 0
    out = capsys.readouterr().out
    assert (f"{session}:4: tool-no-result warning this Edit of a.txt has no tool_result"
            in out), out
    assert "1 of 1 operation applied; 1 file written, 0 removed; 1 warning (above)" in out
    assert (root / "a.txt").read_text() == "y\n"
