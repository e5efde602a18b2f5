"""A Claude Code MultiEdit lands whole or not at all, as Claude Code made it (QA s47
helper-148 F4: its first edit was written and its second held as ambiguous, a file
Claude Code never had)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewtui.cli import main


def _transcript(edits: list[dict[str, str]], *, single: bool = False) -> str:
    calls = ([{"type": "tool_use", "id": f"t{n}", "name": "Edit",
               "input": {"file_path": "/p/a.txt", **edit}} for n, edit in enumerate(edits)]
             if single else [{"type": "tool_use", "id": "t0", "name": "MultiEdit",
                              "input": {"file_path": "/p/a.txt", "edits": edits}}])
    results = [{"type": "tool_result", "tool_use_id": call["id"], "content": "ok"}
               for call in calls]
    # (Claude Code writes each call of a message on its own line)
    lines = [{"type": "user", "cwd": "/p", "message": {"role": "user", "content": "fix"}},
             *({"type": "assistant", "cwd": "/p",
                "message": {"role": "assistant", "content": [call]}} for call in calls),
             {"type": "user", "cwd": "/p", "message": {"role": "user", "content": results}}]
    return "".join(json.dumps(line) + "\n" for line in lines)


@pytest.mark.parametrize("single", [False, True])
def test_a_multi_edit_with_an_edit_that_does_not_land_writes_none_of_it(
        tmp_path: Path, single: bool, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "r"
    root.mkdir()
    (root / "a.txt").write_text("a b#c\nx bc\n")
    session = tmp_path / "s.jsonl"
    session.write_text(_transcript([{"old_string": "b#", "new_string": "b"},
                                    {"old_string": "bc", "new_string": "BC"}], single=single))
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 1
    out = capsys.readouterr().out
    if single:  # (two calls: the first ran alone in Claude Code too)
        assert (root / "a.txt").read_text() == "a bc\nx bc\n"
    else:
        assert (root / "a.txt").read_text() == "a b#c\nx bc\n"
        assert "held back: file not whole" in out
    # Every edit of the call landing: all written.
    (root / "a.txt").write_text("a b#c\nx yz\n")
    session.write_text(_transcript([{"old_string": "b#", "new_string": "b"},
                                    {"old_string": "yz", "new_string": "YZ"}], single=single))
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 0
    assert (root / "a.txt").read_text() == "a bc\nx YZ\n"
