"""``apply`` prints the session's warnings, as ``check`` does (QA s45 helper-138 #9): a
Claude Code call with no tool_result (the session ended after the tool ran, perhaps) is
not replayed, and apply said "1 of 1 operation applied" and nothing of it. A change the
session made, or may have made, that the replay does not make (that call; a sub-agent's
edits kept in its own transcript, a notebook edit, a shell edit: QA s47 helper-148 F2) is
said in the summary too, and apply exits 1; other warnings leave the exit code as the
operations make it."""

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
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 1
    out = capsys.readouterr().out
    assert (f"{session}:4: tool-no-result warning this Edit of a.txt has no tool_result"
            in out), out
    assert ("1 of 1 operation applied; 1 file written, 0 removed; 1 warning (above), 1 of "
            "them a change the session made or may have made that the replay does not "
            "make under") in out
    assert (root / "a.txt").read_text() == "y\n"


def _call(n: int, name: str, data: dict[str, object]) -> str:
    return _line(n, "assistant", {"role": "assistant", "content": [
        {"type": "tool_use", "id": f"t{n}", "name": name, "input": data}]})


def _done(n: int, outcome: object = None) -> str:
    row = json.loads(_line(n + 100, "user", {"role": "user", "content": [
        {"type": "tool_result", "tool_use_id": f"t{n}", "content": "Done"}]}))
    if outcome is not None:
        row["toolUseResult"] = outcome
    return json.dumps(row)


@pytest.mark.parametrize(("name", "data", "outcome", "said"), [
    ("Task", {"description": "fix line1", "prompt": "uppercase line1"},
     {"status": "completed", "agentId": "ab12cd34"}, "agent-ab12cd34.jsonl"),
    ("NotebookEdit", {"notebook_path": CWD + "/n.ipynb", "new_source": "x"}, None,
     "claude-not-replayed warning"),
    ("Bash", {"command": "sed -i s/line1/LINE1/ a.txt"}, None, "claude-shell warning"),
], ids=["task", "notebook", "shell"])
def test_apply_exits_1_for_a_change_it_did_not_make(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], name: str,
        data: dict[str, object], outcome: object, said: str) -> None:
    """QA s47 helper-148 F2: the sub-agent's line1 stayed, the later LINE3 was written,
    exit 0 and nothing said; a notebook or sed edit: exit 0, nothing said."""
    rows = [_line(1, "user", {"role": "user", "content": "go"}), _call(2, name, data),
            _done(2, outcome),
            _call(3, "Edit", {"file_path": CWD + "/a.txt", "old_string": "line3",
                              "new_string": "LINE3"}), _done(3)]
    session = tmp_path / "s.jsonl"
    session.write_text("\n".join(rows) + "\n")
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("line1\nline2\nline3\n")
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 1
    out = capsys.readouterr().out
    assert said in out, out
    assert "1 of them a change the session made or may have made" in out
    assert (root / "a.txt").read_text() == "line1\nline2\nLINE3\n"
