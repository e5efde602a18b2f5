"""Syntax diagnostics in ``check`` and ``apply --strict``."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewtui.cli import main

SESSION = """\
# Session: breaks and fixes

## Turn 1
> change things

--- File: app.py ---
Edit 1
<<<<<<< SEARCH
    return 1
=======
    return (1
>>>>>>> REPLACE

--- File: conf.json ---
Edit 1
<<<<<<< SEARCH
  "a": 1
=======
  "a": 2
>>>>>>> REPLACE

### Changed files:
- app.py
- conf.json
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "session.md").write_text(SESSION)
    base = tmp_path / "base"
    base.mkdir()
    (base / "app.py").write_text("def f():\n    return 1\n")
    (base / "conf.json").write_text('{\n  "a": 1\n}\n')
    return tmp_path


def test_check_json_has_diagnostics_per_operation(project: Path,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", str(project / "session.md"), "--root", str(project / "base"), "--json"])
    doc = json.loads(capsys.readouterr().out)
    first, second = doc["turns"][0]["ops"]
    (diag,) = first["diagnostics"]
    assert diag["check"] == "python"
    assert diag["line"] == 2
    assert diag["introduced"] is True
    assert second["diagnostics"] == []


def test_check_text_mentions_introduced_errors(project: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", str(project / "session.md"), "--root", str(project / "base")])
    out = capsys.readouterr().out
    assert "python: app.py:2:" in out
    assert "(introduced by this operation)" in out
    assert "1 introduce syntax errors" in out


def test_apply_strict_skips_operations_that_break_syntax(
        project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = project / "root"
    root.mkdir()
    (root / "app.py").write_text("def f():\n    return 1\n")
    (root / "conf.json").write_text('{\n  "a": 1\n}\n')
    code = main(["apply", str(project / "session.md"), "--root", str(root), "--yes",
                 "--strict"])
    assert code == 1  # one operation left pending
    assert (root / "app.py").read_text() == "def f():\n    return 1\n"
    assert (root / "conf.json").read_text() == '{\n  "a": 2\n}\n'
    out = capsys.readouterr().out
    assert "1 of 2 operations applied" in out
    # The held-back edit is never reported as applied, and the summary says why.
    assert "applied (exact)" not in out
    assert "skipped - held back by --strict" in out
    assert "skipped 1: 1 by --strict (syntax error)" in out


def test_apply_without_strict_writes_both(project: Path) -> None:
    root = project / "root"
    root.mkdir()
    (root / "app.py").write_text("def f():\n    return 1\n")
    (root / "conf.json").write_text('{\n  "a": 1\n}\n')
    assert main(["apply", str(project / "session.md"), "--root", str(root), "--yes"]) == 0
    assert (root / "app.py").read_text() == "def f():\n    return (1\n"
