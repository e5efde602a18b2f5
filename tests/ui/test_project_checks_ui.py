"""Project checks in the workbench: the trust prompt, and findings under the explanation."""

from __future__ import annotations

import shlex
import sys
from pathlib import Path

import pytest
from textual.widgets import Static
from uikit import open_app, screen_of

from reviewtui.shell.trust import is_trusted
from reviewtui.ui.screens.dialogs import ConfirmScreen

pytestmark = pytest.mark.anyio

SIZE = (140, 40)

# Writes a marker (proof that it ran), then ruff-style JSON for every line with BAD.
LINT = """\
import json, sys
marker, path = sys.argv[1], sys.argv[2]
open(marker, "a").write("ran\\n")
found = [{"code": "X100", "message": "bad name", "location": {"row": n, "column": 1}}
         for n, line in enumerate(open(path).read().split("\\n"), 1) if "BAD" in line]
print(json.dumps(found))
"""

SESSION = """\
# Session: checks

## Turn 1
> name a thing badly

--- File: app.py ---
<<<<<<< SEARCH
x = 1
=======
x = 1
BAD = 2
>>>>>>> REPLACE
"""


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path, Path]:
    """(session folder, project root with a [checks] config, marker file)."""
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "xdg"))
    script = tmp_path / "lint.py"
    script.write_text(LINT)
    marker = tmp_path / "ran"
    command = " ".join(shlex.quote(w) for w in (sys.executable, str(script), str(marker)))
    root = tmp_path / "root"
    root.mkdir()
    (root / "app.py").write_text("x = 1\n")
    (root / "reviewtui.toml").write_text(f"[checks]\n\"*.py\" = {command + ' {path}'!r}\n")
    session = tmp_path / "session"
    session.mkdir()
    (session / "session.md").write_text(SESSION)
    return session, root, marker


def _explanation(app: object) -> str:
    return str(screen_of(app).query_one("#op-explain", Static).render())  # type: ignore[arg-type]


async def test_untrusted_checks_ask_and_no_runs_nothing(
        project: tuple[Path, Path, Path]) -> None:
    session, root, marker = project
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        assert "lint.py" in app.screen.question
        await pilot.press("n")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        assert not isinstance(app.screen, ConfirmScreen)
        assert "project checks" not in _explanation(app)
    assert not marker.exists()
    assert not is_trusted((root / "reviewtui.toml").read_bytes())


async def test_trusting_runs_the_checks_and_shows_findings(
        project: tuple[Path, Path, Path]) -> None:
    session, root, marker = project
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("y")
        await pilot.pause()
        await app.workers.wait_for_complete()
        await pilot.pause()
        text = _explanation(app)
        assert "project checks of app.py" in text
        assert "line 2, column 1: X100 bad name" in text
        assert "introduced by this operation" in text
    assert is_trusted((root / "reviewtui.toml").read_bytes())
    assert marker.exists()

    again = open_app(session, root, dry_run=True)  # trusted now: no question
    async with again.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert not isinstance(again.screen, ConfirmScreen)
        await again.workers.wait_for_complete()
        await pilot.pause()
        assert "X100 bad name" in _explanation(again)


async def test_enter_does_not_trust(project: tuple[Path, Path, Path]) -> None:
    session, root, marker = project
    app = open_app(session, root, dry_run=True)
    async with app.run_test(size=SIZE) as pilot:
        await pilot.pause()
        assert isinstance(app.screen, ConfirmScreen)
        await pilot.press("enter")
        await pilot.pause()
        await app.workers.wait_for_complete()
        assert not isinstance(app.screen, ConfirmScreen)
    assert not marker.exists()
    assert not is_trusted((root / "reviewtui.toml").read_bytes())
