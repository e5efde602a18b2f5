"""Threat: outside text that steers the terminal the report is printed on.

A check command in ``reviewtui.toml`` holding ``ESC [ 1 K`` and a carriage return erased
itself from ``check``'s "not trusted (commands: ...)" note and showed a harmless command in
its place, just before the reader ran ``--trust-checks``; a path could set the window title
or clear the screen. The report commands now spell out every control character (``\\u001b``)
and keep only newlines and tabs; ``export`` still writes data byte for byte.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest
from inputkit import cli

ERASE = "\x1b[1K\r"
DECOY = "ruff check {path}"
COMMAND = f"sh -c 'touch pwned' {{path}} {ERASE}{DECOY}"
RAW = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]")
TITLE_PATH = "a\x1b]0;PWNED\x07\x1b[2J.txt"
RTL_PATH = "src/evil\u202etxt.py"


def _session(work: Path, path: str = "app.py", request: str = "r \x1b[31mred\x1b[0m") -> Path:
    session = work / "s.md"
    session.write_text(f"## Turn 1\n> {request}\n\n--- File: {path} ---\nx = 2\n\n"
                       f"### Changed files:\n- {path}\n")
    return session


def test_a_check_command_cannot_hide_itself_in_the_trust_note(
        arena: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(arena.work / "xdg"))
    (arena.root / "app.py").write_text("x = 1\n")
    (arena.root / "reviewtui.toml").write_text(f"[checks]\n\"*.py\" = {json.dumps(COMMAND)}\n")
    for argv in (("check",), ("apply", "--yes")):
        run = cli(capsys, *argv, _session(arena.work), "--root", arena.root)
        (note,) = [line for line in run.out.splitlines() if "not trusted" in line]
        assert not RAW.search(run.out + run.err)
        assert "sh -c 'touch pwned' {path} \\u001b[1K\\u000druff check {path}" in note
    assert not (arena.root / "pwned").exists()


def test_a_command_cannot_draw_a_line_of_its_own(
        arena: Any, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(arena.work / "xdg"))
    (arena.root / "app.py").write_text("x = 1\n")
    forged = "evil {path}\nreviewtui.toml: note: no checks configured"
    (arena.root / "reviewtui.toml").write_text(f"[checks]\n\"*.py\" = {json.dumps(forged)}\n")
    run = cli(capsys, "check", _session(arena.work), "--root", arena.root)
    assert not [line for line in run.out.splitlines() if line.startswith("reviewtui.toml")]
    assert "evil {path}\\u000areviewtui.toml: note" in run.out


@pytest.mark.parametrize("path", [TITLE_PATH, RTL_PATH], ids=["osc-title", "bidi"])
def test_paths_and_requests_are_printed_visibly(
        arena: Any, capsys: pytest.CaptureFixture[str], path: str) -> None:
    session = _session(arena.work, path)
    for argv in (("check",), ("apply", "--yes"), ("lint",)):
        extra = ("--root", arena.root) if argv[0] != "lint" else ()
        run = cli(capsys, *argv, session, *extra)
        assert not RAW.search(run.out + run.err), (argv, run.out)
    assert list(arena.root.iterdir()) == []


def test_the_json_report_still_reads_back_as_written(
        arena: Any, capsys: pytest.CaptureFixture[str]) -> None:
    run = cli(capsys, "check", _session(arena.work, RTL_PATH), "--root", arena.root, "--json")
    assert not RAW.search(run.out)
    (op,) = json.loads(run.out)["turns"][0]["ops"]
    assert op["path"] == RTL_PATH


def test_an_error_line_names_the_input_visibly(
        arena: Any, capsys: pytest.CaptureFixture[str]) -> None:
    missing = arena.work / "gone\x1b[2J.md"
    for argv in (("check",), ("export", "--format", "patch")):
        run = cli(capsys, argv[0], missing, *argv[1:])
        assert run.code == 2
        assert not RAW.search(run.err)
        assert "gone\\u001b[2J.md" in run.err


def test_export_keeps_the_bytes_of_what_it_exports(
        arena: Any, capsys: pytest.CaptureFixture[str]) -> None:
    (arena.root / "win.txt").write_bytes(b"one\r\ntwo\r\n")
    session = arena.work / "s.md"
    session.write_text("## Turn 1\n> r\n\n--- File: win.txt ---\n<<<<<<< SEARCH\ntwo\n=======\n"
                       "2\n>>>>>>> REPLACE\n\n### Changed files:\n- win.txt\n")
    run = cli(capsys, "export", session, "--root", arena.root, "--format", "patch")
    assert run.code == 0, run.err
    assert "+2\r\n" in run.out


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_the_trust_dialog_spells_the_command_out(
        arena: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """The workbench's trust question: the terminal never receives the command's ESC."""
    from reviewtui.shell.review import Review
    from reviewtui.ui.app import ReviewApp

    monkeypatch.setenv("XDG_CONFIG_HOME", str(arena.work / "xdg"))
    (arena.root / "app.py").write_text("x = 1\n")
    (arena.root / "reviewtui.toml").write_text(f"[checks]\n\"*.py\" = {json.dumps(COMMAND)}\n")
    review = Review.open(_session(arena.work, request="r"), arena.root, dry_run=True)
    app = ReviewApp(review, watch=False)
    try:
        async with app.run_test(size=(160, 40)) as pilot:
            await pilot.pause()
            assert type(app.screen).__name__ == "TrustScreen"
            shown = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
            assert not RAW.search(shown)
            squashed = re.sub(r"[\s│█▌▐]", "", shown)
            assert "sh-c'touchpwned'{path}\\u001b[1K\\u000druffcheck{path}" in squashed
            await pilot.press("n")
    finally:
        review.close()


@pytest.mark.anyio
@pytest.mark.parametrize("size", [(100, 30), (160, 45)])
async def test_the_workbench_sends_no_outside_control_character_to_the_terminal(
        arena: Any, monkeypatch: pytest.MonkeyPatch, size: tuple[int, int]) -> None:
    """A request, a file's content and a replacement holding ESC sequences, a one-byte CSI,
    a carriage return, a bell and a bidi override: every line the workbench draws, on the
    review screen and in the help and statistics screens, holds none of them (one line
    filter for the whole app: ui/control_filter.py)."""
    from reviewtui.shell.review import Review
    from reviewtui.ui.app import ReviewApp

    monkeypatch.setenv("XDG_CONFIG_HOME", str(arena.work / "xdg"))
    hostile = "\x1b[2J\x1b]0;PWNED\x07\x9b1K\rgone\u202eevil"
    (arena.root / "app.py").write_text(f"x = 1  # {hostile}\ny = 2\n")
    session = arena.work / "s.md"
    session.write_text(f"## Turn 1\n> ask {hostile}\n\nSure {hostile}.\n\n"
                       "--- File: app.py ---\n<<<<<<< SEARCH\ny = 2\n=======\n"
                       f"y = 3  # {hostile}\n>>>>>>> REPLACE\n\n### Changed files:\n- app.py\n")
    review = Review.open(session, arena.root, dry_run=True)
    app = ReviewApp(review, watch=False)
    try:
        async with app.run_test(size=size) as pilot:
            await pilot.pause()
            seen = []
            for keys in ((), ("question_mark",), ("escape", "S")):
                for key in keys:
                    await pilot.press(key)
                    await pilot.pause()
                shown = "\n".join(strip.text for strip in app.screen._compositor.render_strips())
                assert not RAW.search(shown), (keys, RAW.findall(shown))
                seen.append(shown)
            assert "gone" in seen[0]  # the text around them is shown
            assert "ask" in seen[0]
    finally:
        review.close()
