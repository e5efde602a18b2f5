"""Threat: numbers of more than 4,300 digits in turn numbers, edit numbers, hunk headers, JSON.

Before: CPython's ``ValueError`` told the user to call ``sys.set_int_max_str_digits()`` and
named no line. Now every number read from outside text goes through
``core.limits.parse_int`` (JSON through its ``parse_int`` hook): one line naming the file,
the line and the rule ``number-too-large``, exit 2.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from inputkit import cli, cli_subprocess, one_line_error

BIG = "9" * 5000
TOOL = '{"tool": "write", "path": "a.txt", "content": "x\\n"}'
CLAUDE = '{"type": "user", "sessionId": "s", "message": {"role": "user", "content": "hi"}}'

# name: (file name, text, line of the number, what the number is)
SESSIONS = {
    "turn heading": ("s.md", f"# Session\n\n## Turn {BIG}\n> r\n\n--- File: a.txt ---\nx\n", 3,
                     "turn number"),
    "edit label": ("s.md", f"## Turn 1\n> r\n\n--- File: a.txt ---\nEdit {BIG}\n<<<<<<< SEARCH\n"
                   "x\n=======\ny\n>>>>>>> REPLACE\n", 5, "edit number"),
    "hunk header": ("s.diff", f"--- a/a.txt\n+++ b/a.txt\n@@ -1,1 +{BIG},1 @@\n-x\n+y\n", 3,
                    "hunk header number"),
    "toolcalls json": ("s.jsonl", f'{TOOL}\n{TOOL[:-1]}, "n": {BIG}}}\n', 2, "JSON number"),
    "toolcalls turn": ("s.jsonl", f'{{"turn": {BIG}, "request": "r"}}\n{TOOL}\n', 1,
                       "JSON number"),
    "toolcalls line ref": ("s.jsonl", f'{TOOL}\n{{"tool": "line_replace", "path": "a.txt", '
                           f'"from": "{BIG}", "to": "{BIG}", "content": "y\\n"}}\n', 2,
                           "line number"),
    "claude json": ("s.claude.jsonl", f'{CLAUDE}\n{CLAUDE[:-1]}, "n": -{BIG}}}\n', 2,
                    "JSON number"),
    "chat json": ("s.json", f'[{{"role": "user", "content": "hi"}},\n\n{{"role": "user", '
                  f'"n": {BIG}}}]\n', 3, "JSON number"),
}


def _message(source: Path, line: int, what: str) -> str:
    return (f"reviewtui: {source}:{line}: {what} too large: 5,000 digits (at most 4,300) "
            "[number-too-large]")


@pytest.mark.parametrize("case", sorted(SESSIONS))
def test_a_giant_number_is_one_line_naming_file_and_line(
        arena, capsys: pytest.CaptureFixture[str], case: str) -> None:
    name, text, line, what = SESSIONS[case]
    session = arena.work / name
    session.write_text(text)
    for command in (("check",), ("apply", "--yes")):
        run = cli(capsys, *command, session, "--root", arena.root)
        assert run.code == 2
        assert one_line_error(run) == _message(session, line, what)
        assert "set_int_max_str_digits" not in run.err
    assert list(arena.root.iterdir()) == []


def test_lint_names_the_line_of_a_giant_edit_number(
        arena, capsys: pytest.CaptureFixture[str]) -> None:
    reply = arena.work / "reply.md"
    reply.write_text(f"--- File: a.txt ---\n\nEdit {BIG}\n<<<<<<< SEARCH\nx\n=======\ny\n"
                     ">>>>>>> REPLACE\n")
    run = cli(capsys, "lint", reply)
    assert run.code == 2
    assert one_line_error(run) == _message(reply, 3, "edit number")


def test_a_giant_number_in_the_project_config_names_it(
        arena, capsys: pytest.CaptureFixture[str]) -> None:
    directory = arena.work / "session"
    (directory / "base").mkdir(parents=True)
    (directory / "session.md").write_text("## Turn 1\n> r\n\n--- File: a.txt ---\nx\n")
    config = directory / "reviewtui.toml"
    config.write_text(f"[reserved]\npaths = []\nlimit = {BIG}\n")
    run = cli(capsys, "check", directory)
    assert run.code == 2
    assert one_line_error(run) == (f"reviewtui: {config}:3: not valid TOML: an integer longer "
                                   "than 64 bits [toml]")


def test_a_json_file_with_a_giant_number_is_valid_json(
        arena, capsys: pytest.CaptureFixture[str]) -> None:
    """JSON allows any length: the syntax check must neither crash nor call it an error."""
    session = arena.work / "s.md"
    session.write_text(f"## Turn 1\n> r\n\n--- File: data.json ---\n{{\"n\": {BIG}}}\n\n"
                       "### Changed files:\n- data.json\n")
    run = cli(capsys, "check", session, "--root", arena.root)
    assert (run.code, run.err) == (0, "")
    assert "syntax" not in run.out


def test_the_bound_follows_a_lower_interpreter_setting(arena) -> None:
    session = arena.work / "s.md"
    session.write_text(f"## Turn {'7' * 1000}\n> r\n\n--- File: a.txt ---\nx\n")
    run = cli_subprocess("check", session, "--root", arena.root,
                         env={"PYTHONINTMAXSTRDIGITS": "640"})
    assert run.code == 2
    assert one_line_error(run) == (f"reviewtui: {session}:1: turn number too large: 1,000 "
                                   "digits (at most 640) [number-too-large]")


def test_up_to_the_bound_a_number_is_read(arena, capsys: pytest.CaptureFixture[str]) -> None:
    session = arena.work / "s.md"
    session.write_text(f"## Turn {'9' * 4300}\n> r\n\n--- File: a.txt ---\nx\n")
    run = cli(capsys, "check", session, "--root", arena.root, "--json")
    assert run.code == 1, run.err  # read; only the footer and the numbering are findings
    assert '"turn-number"' in run.out
