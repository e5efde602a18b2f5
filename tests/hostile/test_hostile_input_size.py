"""Threat: a huge input file (a 200 MB session took 28 s to reject or parse).

Input files (sessions in every format, replies for ``lint``, files for ``view``, review
state files) are measured before they are read and refused over 64 MB (``REVIEWTUI_MAX_
INPUT_MB`` raises it): one line naming the file, its size and the limit, exit 2. Something
that cannot be measured (a pipe, a device) is read up to the limit and no further. The big
files here are sparse: nothing is written to the disk but their size.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from inputkit import cli, one_line_error, tree_digest

MB = 1024 * 1024
FORMATS = ("fileops", "chat", "apply_patch", "aider", "unified", "claude", "toolcalls")
NAMES = ("session.md", "session.json", "session.jsonl", "session.claude.jsonl",
         "session.patch", "session.diff", ".aider.chat.history.md")


def _sparse(path: Path, size: int) -> Path:
    with path.open("wb") as handle:
        handle.truncate(size)
    return path


def _refusal(path: Path, what: str = "session file", size: str = "200.0", limit: int = 64,
             hint: int = 200) -> str:
    return (f"reviewtui: {path}: {what} is {size} MB, over the {limit} MB limit; set "
            f"REVIEWTUI_MAX_INPUT_MB={hint} (megabytes) to read it anyway [file-too-large]")


@pytest.mark.parametrize("fmt", FORMATS)
def test_every_format_is_refused_before_reading(arena, capsys: pytest.CaptureFixture[str],
                                                fmt: str) -> None:
    session = _sparse(arena.work / "big.txt", 200 * MB)
    run = cli(capsys, "check", session, "--root", arena.root, "--format", fmt)
    assert run.code == 2
    assert one_line_error(run) == _refusal(session)


@pytest.mark.parametrize("name", NAMES)
def test_a_session_directory_names_the_file_inside(arena, capsys: pytest.CaptureFixture[str],
                                                   name: str) -> None:
    directory = arena.work / "session"
    directory.mkdir()
    session = _sparse(directory / name, 200 * MB)
    for command in (("check",), ("apply", "--yes", "--root", arena.root),
                    ("export", "--format", "patch"), ("stats",)):
        run = cli(capsys, command[0], directory, *command[1:])
        assert run.code == 2
        assert one_line_error(run) == _refusal(session)


def test_lint_and_view_name_what_they_read(arena, capsys: pytest.CaptureFixture[str]) -> None:
    big = _sparse(arena.work / "reply.md", 200 * MB)
    run = cli(capsys, "lint", big)
    assert run.code == 2
    assert one_line_error(run) == _refusal(big, "reply file")
    run = cli(capsys, "view", big)
    assert run.code == 2
    assert one_line_error(run) == _refusal(big, "file")


def test_a_huge_state_file_is_refused_and_left_as_it_is(
        arena, capsys: pytest.CaptureFixture[str]) -> None:
    (arena.root / "a.txt").write_text("old\n")
    session = arena.work / "s.md"
    session.write_text("## Turn 1\n> r\n\n--- File: a.txt ---\nnew\n")
    state = _sparse(arena.work / "s.review.json", 200 * MB)
    before = tree_digest(arena.root)
    run = cli(capsys, "apply", session, "--root", arena.root, "--yes", "--state", state)
    assert run.code == 2
    assert one_line_error(run) == _refusal(state, "review state")
    assert state.stat().st_size == 200 * MB  # neither moved aside nor replaced
    assert sorted(p.name for p in arena.work.iterdir()) == ["s.md", "s.review.json"]
    assert tree_digest(arena.root) == before


def test_the_limit_can_be_raised(arena, capsys: pytest.CaptureFixture[str],
                                 monkeypatch: pytest.MonkeyPatch) -> None:
    session = arena.work / "s.md"
    session.write_text("## Turn 1\n> r\n\n--- File: a.txt ---\n" + "x\n" * MB)  # 2 MB
    monkeypatch.setenv("REVIEWTUI_MAX_INPUT_MB", "1")
    run = cli(capsys, "check", session, "--root", arena.root)
    assert run.code == 2
    assert one_line_error(run) == _refusal(session, size="2.0", limit=1, hint=3)
    monkeypatch.setenv("REVIEWTUI_MAX_INPUT_MB", "2.5")
    run = cli(capsys, "check", session, "--root", arena.root)
    assert (run.code, run.err) == (1, "")  # read: a missing footer is a finding


@pytest.mark.parametrize("value", ["abc", "0", "-5", "nan", "1e99"])
def test_a_bad_limit_is_a_usage_error(arena, capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch, value: str) -> None:
    session = arena.work / "s.md"
    session.write_text("## Turn 1\n> r\n")
    monkeypatch.setenv("REVIEWTUI_MAX_INPUT_MB", value)
    run = cli(capsys, "check", session, "--root", arena.root)
    assert run.code == 2
    assert one_line_error(run) == (f"reviewtui: REVIEWTUI_MAX_INPUT_MB={value!r} is not a size "
                                   "in megabytes (e.g. 256) [max-input]")


def test_an_endless_device_is_read_only_up_to_the_limit(
        arena, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("REVIEWTUI_MAX_INPUT_MB", "1")
    run = cli(capsys, "check", "/dev/zero", "--root", arena.root)
    assert run.code == 2
    assert one_line_error(run) == ("reviewtui: /dev/zero: session file is larger than the 1 MB "
                                   "limit; set REVIEWTUI_MAX_INPUT_MB=2 (megabytes) to read it "
                                   "anyway [file-too-large]")
