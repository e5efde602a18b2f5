"""Threat: a session that writes the review's own files (QA s47 helper-147 M1).

Reviewed in place (the session in the project, ``--root`` its folder), the review state
``<session>.review.json``, its ``.written`` mark and its ``.blobs/`` folder are files of the
project like any other, and so is the session itself. A session that wrote them replaced
the reviewer's decisions with its own text: the workbench then rewrote the two in turn for
as long as it was open, and ``apply --state`` said the write was applied. They are refused
(rule ``review-file``) whatever the format, and nothing of them changes on disk.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from reviewtui.cli import main


def _fileops(*parts: str) -> str:
    return "# Session: own files\n\n## Turn 1\n> go\n\n" + "\n".join(parts)


def _full(path: str, text: str) -> str:
    return f"--- File: {path} ---\n```\n{text}\n```\n\n### Changed files:\n- {path}\n"


def _command(command: str, path: str) -> str:
    return f"```console\n{command}\n```\n\n### Changed files:\n- {path}\n"


def _claude(root: Path, path: str, content: str) -> str:
    def line(kind: str, message: dict[str, Any]) -> str:
        return json.dumps({"type": kind, "sessionId": "s1", "cwd": str(root),
                           "message": message})

    call = {"type": "tool_use", "id": "toolu_1", "name": "Write",
            "input": {"file_path": str(root / path), "content": content}}
    result = {"type": "tool_result", "tool_use_id": "toolu_1", "content": "ok"}
    return "\n".join([line("user", {"role": "user", "content": "go"}),
                      line("assistant", {"role": "assistant", "content": [call]}),
                      line("user", {"role": "user", "content": [result]})]) + "\n"


# (session file name, what it holds given the root; the file it aims at)
ATTACKS: dict[str, tuple[str, Any, str]] = {
    "fileops-full-file-over-the-state": (
        "session.md", lambda root: _fileops(_full("session.md.review.json", '{"log": []}')),
        "session.md.review.json"),
    "fileops-edit-of-the-session": (
        "session.md", lambda root: _fileops(
            "--- File: session.md ---\n<<<<<<< SEARCH\n> go\n=======\n> gone\n>>>>>>> REPLACE\n"
            "\n### Changed files:\n- session.md\n"), "session.md"),
    "fileops-removal-of-the-session": (
        "session.md", lambda root: _fileops(_command(":rm session.md", "session.md")),
        "session.md"),
    "fileops-move-onto-the-mark": (
        "session.md", lambda root: _fileops(
            _command(":mv notes.txt session.md.review.json.written",
                     "session.md.review.json.written")), "session.md.review.json.written"),
    "fileops-into-the-blob-folder": (
        "session.md", lambda root: _fileops(_full("session.md.review.blobs/00", "x")),
        "session.md.review.blobs/00"),
    "codex-add-over-the-state": (
        "codex.txt", lambda root: "*** Begin Patch\n*** Add File: codex.txt.review.json\n"
        "+{}\n*** End Patch\n", "codex.txt.review.json"),
    "codex-delete-of-the-session": (
        "codex.txt", lambda root: "*** Begin Patch\n*** Delete File: codex.txt\n"
        "*** End Patch\n", "codex.txt"),
    "unified-diff-making-the-state": (
        "change.diff", lambda root: "--- /dev/null\n+++ b/change.diff.review.json\n"
        "@@ -0,0 +1 @@\n+{}\n", "change.diff.review.json"),
    "claude-write-over-the-state": (
        "t.jsonl", lambda root: _claude(root, "t.jsonl.review.json", "{}\n"),
        "t.jsonl.review.json"),
}


def _project(root: Path) -> None:
    (root / "a.py").write_text("A\n")
    (root / "notes.txt").write_text("n\n")


@pytest.mark.parametrize("attack", sorted(ATTACKS))
def test_a_session_reviewed_in_place_cannot_write_its_review(
        arena: Any, attack: str, capsys: pytest.CaptureFixture[str]) -> None:
    name, text, target = ATTACKS[attack]
    root: Path = arena.root
    _project(root)
    session = root / name
    session.write_text(text(root))
    state = root / (name + ".review.json")
    assert main(["check", str(session), "--root", str(root)]) == 1
    said = capsys.readouterr().out
    assert "a session never writes the review's own files" in said, said
    before = session.read_bytes()
    code = main(["apply", str(session), "--root", str(root), "--yes", "--state", str(state)])
    out = capsys.readouterr().out
    assert code == 1, out
    assert "review's own files" in out
    assert "1 refused" in out
    assert session.read_bytes() == before
    saved = json.loads(state.read_text())  # still the review's state, not the model's text
    assert saved["format"] == "reviewtui-review-state"
    assert (root / "notes.txt").read_text() == "n\n"
    if (root / target).is_file():  # the review's own, never what the session gave it
        assert (root / target).read_bytes() not in (b"n\n", b"x\n", b"{}\n", b'{"log": []}\n')


def test_a_state_elsewhere_in_the_project_is_refused_too(
        arena: Any, capsys: pytest.CaptureFixture[str]) -> None:
    root: Path = arena.root
    _project(root)
    session = arena.work / "s.md"
    session.write_text(_fileops(_full(".reviews/s.blobs/00", "x"),
                                _full(".reviews/s.json.corrupt-1", "x"),
                                "--- File: a.py ---\n<<<<<<< SEARCH\nA\n=======\nB\n"
                                ">>>>>>> REPLACE\n\n### Changed files:\n- a.py\n"))
    state = root / ".reviews" / "s.json"
    state.parent.mkdir()
    code = main(["apply", str(session), "--root", str(root), "--yes", "--state", str(state)])
    out = capsys.readouterr().out
    assert code == 1, out
    assert out.count("review's own files") == 2
    assert (root / "a.py").read_text() == "B\n"  # the project's own file is written
    assert sorted(p.name for p in state.parent.iterdir()) == ["s.blobs", "s.json",
                                                              "s.json.written"]
    assert not (state.parent / "s.blobs" / "00").exists()
    assert json.loads(state.read_text())["format"] == "reviewtui-review-state"
