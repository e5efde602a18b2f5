"""Headless commands never import the UI stack, and ``--help`` not even the engine
(issue 14, "Speed on real data"; issue 13, "Headless start-up").

Each command runs in a fresh interpreter with ``-X importtime``, whose report names every
module imported, so the check sees exactly what a user's process loads.
"""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
TOUR = REPO / "sample_sessions" / "workshop-tour"
UI_STACK = ("textual", "textual_serve", "rich", "pygments", "markdown_it")


def imported(args: list[str], cwd: Path) -> tuple[set[str], str]:
    done = subprocess.run([sys.executable, "-X", "importtime", "-m", "reviewtui", *args],
                          capture_output=True, text=True, cwd=cwd, timeout=120)
    modules = {line.rsplit("|", 1)[1].strip() for line in done.stderr.splitlines()
               if line.startswith("import time:") and "|" in line}
    return modules, done.stdout + done.stderr[-2000:]


@pytest.mark.parametrize("command", ["check", "apply", "lint", "stats", "export", "view"])
def test_headless_commands_do_not_import_the_ui(command: str, tmp_path: Path) -> None:
    root = tmp_path / "root"
    shutil.copytree(TOUR / "base", root)
    args = {
        "check": ["check", str(TOUR)],
        "apply": ["apply", str(TOUR), "--root", str(root), "--yes"],
        "lint": ["lint", str(TOUR / "session.md")],
        "stats": ["stats", str(TOUR)],
        "export": ["export", str(TOUR), "--format", "patch"],
        "view": ["view", str(TOUR / "session.md"), "--range", "1-3"],
    }[command]
    modules, output = imported(args, tmp_path)
    assert "reviewtui.cli" in modules, output  # the report is real
    assert any(m.startswith("reviewtui.core") for m in modules), output
    loaded = sorted(m for m in modules if m.split(".")[0] in UI_STACK)
    assert loaded == [], f"{command} imported {loaded}"


def test_help_imports_neither_the_engine_nor_the_ui(tmp_path: Path) -> None:
    modules, output = imported(["--help"], tmp_path)
    assert "reviewtui.cli" in modules, output
    heavy = sorted(m for m in modules if m.startswith(("reviewtui.core.engine",
                                                       "reviewtui.core.match",
                                                       "reviewtui.shell"))
                   or m.split(".")[0] in UI_STACK)
    assert heavy == []


def test_the_export_formats_the_parser_offers_are_the_engines() -> None:
    from reviewtui.cli.export import FORMATS as OFFERED
    from reviewtui.core.export import FORMATS

    assert OFFERED == FORMATS
