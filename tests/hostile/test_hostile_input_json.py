"""Threat: JSON nested 100,000 deep in a session or a review state file.

Before: ``RecursionError`` tracebacks from ``json.loads`` (chat, toolcalls, Claude Code,
state files). Now every JSON read of outside text goes through ``core.limits.load_json``:
past 256 levels it is one line naming the file and line, rule ``json-too-deep``, exit 2; a
state file that deep is corrupt like any unreadable one (moved aside, named, a fresh review).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from inputkit import cli, one_line_error, tree_digest

# The documented bound (README, "Limits"); the unit tests below check core.limits uses it.
MAX_JSON_DEPTH = 256
DEEP = "[" * 100_000 + "]" * 100_000
CHAT = '{"role": "user", "content": "hi"}'
TOOL = '{"tool": "write", "path": "a.txt", "content": "x\\n"}'
CLAUDE = '{"type": "user", "sessionId": "s", "message": {"role": "user", "content": "hi"}}'

# name: (file name, text, line of the deep value, --format)
SESSIONS = {
    "chat-json": ("s.json", f"[{CHAT},\n{DEEP}]\n", 2, "chat"),
    "chat-jsonl": ("s.jsonl", f'{CHAT}\n{{"role": "assistant", "content": {DEEP}}}\n', 2,
                   "chat"),
    "toolcalls": ("s.jsonl", f'{TOOL}\n{TOOL[:-1]}, "x": {DEEP}}}\n', 2, "toolcalls"),
    "toolcalls-first-line": ("s.jsonl", f'{{"tool": "write", "x": {DEEP}}}\n{TOOL}\n', 1,
                             "toolcalls"),
    "claude": ("s.claude.jsonl", f'{CLAUDE}\n{{"type": "assistant", "message": {DEEP}}}\n', 2,
               "claude"),
}


def _message(source: Path, line: int) -> str:
    return (f"reviewtui: {source}:{line}: JSON nested deeper than {MAX_JSON_DEPTH} levels "
            "[json-too-deep]")


@pytest.mark.parametrize("case", sorted(SESSIONS))
@pytest.mark.parametrize("detect", [True, False], ids=["auto", "forced"])
def test_a_deep_session_is_one_line_naming_file_and_line(
        arena, capsys: pytest.CaptureFixture[str], case: str, detect: bool) -> None:
    name, text, line, fmt = SESSIONS[case]
    session = arena.work / name
    session.write_text(text)
    fmt_args = () if detect else ("--format", fmt)
    run = cli(capsys, "check", session, "--root", arena.root, *fmt_args)
    assert run.code == 2
    assert one_line_error(run) == _message(session, line)
    run = cli(capsys, "apply", session, "--root", arena.root, "--yes", *fmt_args)
    assert run.code == 2
    assert one_line_error(run) == _message(session, line)
    assert list(arena.root.iterdir()) == []


# -- state files ------------------------------------------------------------------------


def _session(arena) -> Path:  # type: ignore[no-untyped-def]
    (arena.root / "a.txt").write_text("old\n")
    session = arena.work / "s.md"
    session.write_text("## Turn 1\n> r\n\n--- File: a.txt ---\nnew\n\n### Changed files:\n"
                       "- a.txt\n")
    return session


BAD_STATES = {
    "deep": (DEEP, f"line 1: JSON nested deeper than {MAX_JSON_DEPTH} levels [json-too-deep]"),
    "giant number": ('{\n"version":\n' + "9" * 5000 + "}",
                     "line 3: JSON number too large: 5,000 digits (at most 4,300) "
                     "[number-too-large]"),
}


@pytest.mark.parametrize("bad", sorted(BAD_STATES))
def test_opening_a_bad_state_moves_it_aside_and_names_it(
        arena, capsys: pytest.CaptureFixture[str], bad: str) -> None:
    session = _session(arena)
    state = arena.work / "s.review.json"
    content, why = BAD_STATES[bad]
    state.write_text(content)
    run = cli(capsys, "apply", session, "--root", arena.root, "--yes", "--state", state)
    assert run.code == 0
    problem = one_line_error(run)
    assert problem.startswith(f"reviewtui: {state}: the review state cannot be read ({why}); "
                              "it was moved aside to s.review.json.corrupt-")
    (aside,) = arena.work.glob("s.review.json.corrupt-*")
    assert aside.read_text() == content  # nothing lost
    assert json.loads(state.read_text())  # the fresh review's state
    assert (arena.root / "a.txt").read_text() == "new\n"


@pytest.mark.parametrize("command", ["export", "stats"])
def test_reading_a_deep_state_for_a_report_stops_with_its_name(
        arena, capsys: pytest.CaptureFixture[str], command: str) -> None:
    session = _session(arena)
    state = arena.work / "s.md.review.json"  # the default state of s.md
    state.write_text("\n" + DEEP)
    before = tree_digest(arena.work)
    args = ("--format", "patch") if command == "export" else ()
    run = cli(capsys, command, session, "--root", arena.root, *args)
    assert run.code == 2
    assert one_line_error(run) == _message(state, 2)
    assert tree_digest(arena.work) == before  # a report never moves the state aside


# -- the bound itself ---------------------------------------------------------------------


def _nested(depth: int) -> str:
    return "[" * depth + "]" * depth


def test_the_bound_is_exact() -> None:
    from reviewtui.core.errors import InputLimitError
    from reviewtui.core.text import limits
    from reviewtui.core.text.limits import load_json

    assert limits.MAX_JSON_DEPTH == MAX_JSON_DEPTH
    assert load_json(_nested(MAX_JSON_DEPTH)) is not None
    with pytest.raises(InputLimitError) as info:
        load_json(_nested(MAX_JSON_DEPTH + 1), source="x.json", first_line=7)
    assert (info.value.source, info.value.line, info.value.rule) == ("x.json", 7,
                                                                     "json-too-deep")


def test_brackets_inside_strings_do_not_count() -> None:
    from reviewtui.core.text.limits import load_json

    text = json.dumps({"code": "[" * 5000 + '\\"{' * 3000, "n": [[1]]})
    assert load_json(text) == json.loads(text)


def test_the_line_is_where_the_bound_is_crossed() -> None:
    from reviewtui.core.errors import InputLimitError
    from reviewtui.core.text.limits import load_json

    text = '{\n "a": 1,\n "b":\n' + "[\n" * 300 + "]" * 300 + "}"
    with pytest.raises(InputLimitError) as info:
        load_json(text, first_line=10)
    # "{" is level 1, so the 256th "[" (on line 3 + 256 of the text) is one level too deep
    assert info.value.line == 10 + 2 + MAX_JSON_DEPTH
