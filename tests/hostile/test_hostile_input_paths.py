"""Threat: a path no file system can hold, or deep enough to overflow the tree's walks.

Before: 1,200 components raised RecursionError in the tree rebuild; a 300-byte name was
"applied" by ``check``, crashed ``apply`` with ENAMETOOLONG, and a saved accept crashed
every reopen. Now the path rules refuse them up front (rules ``path-too-deep``,
``name-too-long``, ``path-too-long``), so they never reach the disk or a decision.
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from inputkit import cli, fileops, tree_digest

from reviewtui.core.errors import PathRefused
from reviewtui.core.paths.safety import normalize_path

# The documented bounds (README, "Limits"); test_the_bounds_are_those_of_a_file_system
# checks core.paths uses them.
MAX_NAME_BYTES, MAX_PATH_BYTES, MAX_PATH_DEPTH = 255, 4095, 256

DEEP = "/".join(["d"] * 1200) + "/f.txt"
LONG_NAME = "n" * 300 + ".txt"
LONG_PATH = "/".join(["c" * 250] * 20) + "/f.txt"

CASES = [(DEEP, "path-too-deep"), (LONG_NAME, "name-too-long"), (LONG_PATH, "path-too-long")]


def _write(work: Path, name: str, text: str) -> Path:
    session = work / name
    session.write_text(text, encoding="utf-8")
    return session


@pytest.mark.parametrize(("path", "rule"), CASES, ids=[rule for _, rule in CASES])
def test_check_refuses_the_path_with_its_rule_and_the_session_line(
        arena, capsys: pytest.CaptureFixture[str], path: str, rule: str) -> None:
    session = _write(arena.work, "s.md", fileops(f"--- File: {path} ---\nhello\n"))
    as_json = cli(capsys, "check", session, "--root", arena.root, "--json")
    assert as_json.code == 1
    (op,) = json.loads(as_json.out)["turns"][0]["ops"]
    assert (op["status"], op["rule"]) == ("refused", rule)
    as_text = cli(capsys, "check", session, "--root", arena.root)
    assert as_text.code == 1
    refused = [line for line in as_text.out.splitlines()
               if f": refused (rule {rule}) - " in line]
    assert len(refused) == 1
    assert refused[0].startswith(f"{session}:{op['span'][0]}: turn 1 ")
    assert len(refused[0].split(" - ", 1)[1]) < 300  # the message shortens the path


@pytest.mark.parametrize(("path", "rule"), CASES, ids=[rule for _, rule in CASES])
def test_apply_writes_nothing_and_a_saved_review_reopens(
        arena, capsys: pytest.CaptureFixture[str], path: str, rule: str) -> None:
    (arena.root / "keep.txt").write_text("kept\n")
    before = tree_digest(arena.root)
    session = _write(arena.work, "s.md", fileops(f"--- File: {path} ---\nhello\n"))
    state = arena.work / "s.review.json"
    for _ in range(2):  # the second run reopens the review the first one saved
        run = cli(capsys, "apply", session, "--root", arena.root, "--yes", "--state", state,
                  "--json")
        assert run.code == 1, run.err
        doc = json.loads(run.out)
        assert doc["written"] == []
        op = doc["turns"][0]["ops"][0]
        assert (op["status"], op["rule"], op["written"]) == ("refused", rule, False)
    assert tree_digest(arena.root) == before


def test_a_move_to_a_name_too_long_keeps_the_source(
        arena, capsys: pytest.CaptureFixture[str]) -> None:
    (arena.root / "notes.txt").write_text("the only copy\n")
    session = _write(arena.work, "s.md", fileops(f"```console\n:mv notes.txt {LONG_NAME}\n```\n"))
    run = cli(capsys, "check", session, "--root", arena.root, "--json")
    assert run.code == 1, run.err
    assert json.loads(run.out)["turns"][0]["ops"][0]["rule"] == "name-too-long"
    run = cli(capsys, "apply", session, "--root", arena.root, "--yes")
    assert (run.code, run.err) == (1, "")
    assert (arena.root / "notes.txt").read_text() == "the only copy\n"
    assert [p.name for p in arena.root.iterdir()] == ["notes.txt"]


CLAUDE = (
    '{"type": "user", "sessionId": "s", "message": {"role": "user", "content": "write"}}\n'
    '{"type": "assistant", "sessionId": "s", "message": {"role": "assistant", "content": '
    '[{"type": "tool_use", "id": "t1", "name": "Write", "input": {"file_path": "PATH", '
    '"content": "x\\n"}}]}}\n'
    '{"type": "user", "sessionId": "s", "message": {"role": "user", "content": '
    '[{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}}\n'
)
FORMATS = {
    "apply_patch": ("s.patch", "*** Begin Patch\n*** Add File: PATH\n+x\n*** End Patch\n"),
    "unified": ("s.diff", "--- /dev/null\n+++ b/PATH\n@@ -0,0 +1 @@\n+x\n"),
    "toolcalls": ("s.jsonl", '{"tool": "write", "path": "PATH", "content": "x\\n"}\n'),
    "claude": ("s.claude.jsonl", CLAUDE),
}


@pytest.mark.parametrize("fmt", sorted(FORMATS))
def test_every_format_meets_the_same_rule(arena, capsys: pytest.CaptureFixture[str],
                                          fmt: str) -> None:
    name, text = FORMATS[fmt]
    session = _write(arena.work, name, text.replace("PATH", LONG_NAME))
    run = cli(capsys, "check", session, "--root", arena.root, "--json", "--format", fmt)
    assert run.code == 1, run.err
    ops = [op for turn in json.loads(run.out)["turns"] for op in turn["ops"]]
    assert [(op["status"], op["rule"]) for op in ops] == [("refused", "name-too-long")]
    run = cli(capsys, "apply", session, "--root", arena.root, "--yes", "--format", fmt)
    assert (run.code, run.err) == (1, "")
    assert list(arena.root.iterdir()) == []


# -- the rule's bounds ------------------------------------------------------------------


def test_the_bounds_are_those_of_a_file_system() -> None:
    from reviewtui.core.paths import safety as paths

    assert (paths.MAX_NAME_BYTES, paths.MAX_PATH_BYTES, paths.MAX_PATH_DEPTH) == (
        MAX_NAME_BYTES, MAX_PATH_BYTES, MAX_PATH_DEPTH)
    assert normalize_path("a" * MAX_NAME_BYTES) == "a" * MAX_NAME_BYTES
    assert normalize_path("/".join(["d"] * (MAX_PATH_DEPTH - 1)) + "/f")
    longest = "/".join(["c" * 200] * 20)[:MAX_PATH_BYTES].rstrip("/")
    assert normalize_path(longest) == longest


@pytest.mark.parametrize(("raw", "rule"), [
    ("a" * (MAX_NAME_BYTES + 1), "name-too-long"),
    ("é" * 128, "name-too-long"),  # 256 bytes in UTF-8, 128 characters
    ("src/" + "x" * 256 + "/a.py", "name-too-long"),
    ("/".join(["d"] * MAX_PATH_DEPTH) + "/f", "path-too-deep"),
    ("/".join(["c" * 200] * 21), "path-too-long"),
])
def test_past_the_bounds_the_rule_is_named(raw: str, rule: str) -> None:
    with pytest.raises(PathRefused) as info:
        normalize_path(raw)
    assert info.value.rule == rule
    assert info.value.path == raw  # the message shortens it; the error keeps it whole
    assert len(str(info.value)) < 300


def test_dot_dot_does_not_count_towards_depth() -> None:
    assert normalize_path("a/../" * 2000 + "f.txt") == "f.txt"


def test_a_project_nested_deeper_than_any_path_is_one_message(
        arena, capsys: pytest.CaptureFixture[str]) -> None:
    """os.walk recurses per level: a base/ 1,200 folders deep used to end in RecursionError."""
    made = 0
    fd = os.open(arena.root, os.O_RDONLY)
    try:
        for _ in range(1200):  # past PATH_MAX: made one level at a time, by descriptor
            os.mkdir("d", dir_fd=fd)
            made += 1
            inner = os.open("d", os.O_RDONLY, dir_fd=fd)
            os.close(fd)
            fd = inner
        os.close(fd)
        session = _write(arena.work, "s.md", fileops("--- File: a.txt ---\nhello\n"))
        run = cli(capsys, "check", session, "--root", arena.root)
        assert run.code == 2
        assert "Traceback" not in run.err
        assert run.err.strip().endswith("levels under d/ [path-too-deep]"), run.err
    finally:
        # A recursive removal (pytest's own cleanup included) would meet the same limit.
        _remove_deep(arena.root, made)


def _remove_deep(top: Path, depth: int) -> None:
    """Undo the tree iteratively (a recursive removal would meet the same limit)."""
    if depth == 0:
        return
    fds = [os.open(top, os.O_RDONLY)]
    for _ in range(depth - 1):
        fds.append(os.open("d", os.O_RDONLY, dir_fd=fds[-1]))
    while fds:
        fd = fds.pop()
        os.rmdir("d", dir_fd=fd)
        os.close(fd)
