"""Threat: a session rewrites ``reviewtui.toml`` so that reviewtui runs the model's command.

The ``[checks]`` that run are the ones read (and trusted) before any operation is applied,
pinned by content hash for the whole run; an operation on ``reviewtui.toml`` is flagged in
``check`` and in the workbench, and the file it writes is never trusted implicitly.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from reviewtui.cli import main
from reviewtui.core.model.records import CommandName, ConsoleCommand, Span
from reviewtui.shell.project import load_project
from reviewtui.shell.review import Review
from reviewtui.shell.trust import config_digest, is_trusted
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.project_checks import ProjectChecks

# Appends its name to a marker file: proof of which command ran.
MARK = "import sys\nopen(sys.argv[1], 'a').write(sys.argv[2] + '\\n')\n"


def _command(arena: Any, who: str) -> str:
    script = arena.work / "mark.py"
    script.write_text(MARK)
    words = [sys.executable, str(script), str(arena.work / "ran"), who]
    return " ".join(shlex.quote(w) for w in words) + " {path}"


def _config(command: str) -> str:
    return f"[checks]\n\"*.py\" = {json.dumps(command)}\n"


def _setup(arena: Any, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, str, str]:
    """(session, the reviewer's config text, the config text the model writes)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(arena.work / "xdg"))
    original = _config(_command(arena, "reviewer"))
    evil = _config(_command(arena, "model"))
    (arena.root / "reviewtui.toml").write_text(original)
    (arena.root / "app.py").write_text("x = 1\n")
    session = arena.work / "s.md"
    session.write_text(f"""\
# Session: checks

## Turn 1
> retune the checks

--- File: reviewtui.toml ---
{evil}
### Changed files:
- reviewtui.toml

## Turn 2
> and edit the code

--- File: app.py ---
<<<<<<< SEARCH
x = 1
=======
x = 2
>>>>>>> REPLACE

### Changed files:
- app.py
""")
    return session, original, evil


def _ran(arena: Any) -> list[str]:
    marker = arena.work / "ran"
    return marker.read_text().split() if marker.exists() else []


def test_apply_trust_checks_runs_the_checks_read_before_the_writes(
    arena: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    session, original, evil = _setup(arena, monkeypatch)
    main(["apply", str(session), "--root", str(arena.root), "--yes", "--trust-checks"])
    capsys.readouterr()
    assert (arena.root / "reviewtui.toml").read_text() == evil  # the reviewer accepted it all
    assert "model" not in _ran(arena)
    assert _ran(arena) == ["reviewer"]  # the pinned command, on app.py
    assert is_trusted(original.encode())
    assert not is_trusted(evil.encode())  # the written file is never trusted implicitly


def test_apply_after_the_edit_asks_for_trust_again(
    arena: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    session, _original, _evil = _setup(arena, monkeypatch)
    main(["apply", str(session), "--root", str(arena.root), "--yes", "--trust-checks"])
    (arena.root / "app.py").write_text("x = 1\n")
    capsys.readouterr()
    main(["apply", str(session), "--root", str(arena.root), "--yes"])  # no --trust-checks
    out = capsys.readouterr().out
    assert "project checks not run: this file is not trusted" in out
    assert _ran(arena) == ["reviewer"]


def test_check_flags_the_operation_that_edits_the_config(
    arena: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    session, _original, _evil = _setup(arena, monkeypatch)
    main(["check", str(session), "--root", str(arena.root), "--json"])
    doc = json.loads(capsys.readouterr().out)
    found = [f for t in doc["turns"] for f in t["findings"] if f["rule"] == "config-change"]
    assert len(found) == 1
    assert "changes what runs on the reviewer's machine" in found[0]["message"]
    main(["check", str(session), "--root", str(arena.root)])
    out = capsys.readouterr().out
    assert "config-change warning" in out


@pytest.mark.parametrize("args", [("mv", ("reviewtui.toml", "old.toml")),
                                  ("mv", ("new.toml", "reviewtui.toml")),
                                  ("rm", ("reviewtui.toml",)), ("rm", ("*.toml",)),
                                  ("rn", ("./reviewtui.toml", "x.toml"))])
def test_moves_and_removals_of_the_config_are_flagged(args: tuple[str, tuple[str, ...]]) -> None:
    from reviewtui.core.lint.project_config import touches_config

    name, argv = args
    cmd = ConsoleCommand(CommandName(name), argv, False, f":{name} {' '.join(argv)}",
                         Span(1, 1))
    assert touches_config(cmd)
    other = ConsoleCommand(CommandName.MV, ("a.py", "b.py"), False, ":mv a.py b.py", Span(1, 1))
    assert not touches_config(other)


def test_workbench_offers_the_commands_read_before_anything_was_written(
    arena: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    _session, original, evil = _setup(arena, monkeypatch)
    project = load_project(arena.root)
    # What a saved replay (or an accept) does before the screen asks for trust:
    (arena.root / "reviewtui.toml").write_text(evil)
    checks = ProjectChecks(project.config)
    assert checks.offer is not None
    assert "reviewer" in checks.question()
    assert "model" not in checks.question()
    checks.answer(True)
    assert is_trusted(original.encode())
    assert not is_trusted(evil.encode())
    assert checks.checks == project.config.checks
    assert project.config.digest == config_digest(original.encode())


@pytest.mark.anyio
async def test_workbench_marks_the_config_edit(
    arena: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    from textual.widgets import Static

    session, _original, _evil = _setup(arena, monkeypatch)
    review = Review.open(session, arena.root, dry_run=True)
    app = ReviewApp(review, watch=False)
    try:
        async with app.run_test(size=(140, 40)) as pilot:
            await pilot.pause()
            if app.screen.__class__.__name__ == "TrustScreen":
                await pilot.press("n")
                await pilot.pause()
            screen = app.screen
            explanation = str(screen.query_one("#op-explain", Static).render())
            assert "changes what runs on the reviewer's machine" in explanation
            ops = screen.query_one("#ops")
            prompt = ops.get_option_at_index(0).prompt  # type: ignore[attr-defined]
            assert "!config" in str(prompt)
            await pilot.press("A")  # accepting the turn in bulk leaves it for a look
            await pilot.pause()
            assert review.decisions == {}
    finally:
        review.close()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"
