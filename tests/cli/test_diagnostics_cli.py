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


UNDECIDED = """\
# Session: one break lands, one waits

## Turn 1
> change things

--- File: app.py ---
Edit 1
<<<<<<< SEARCH
    return 1
=======
    return (1
>>>>>>> REPLACE

--- File: shop.py ---
Edit 1
<<<<<<< SEARCH
def total(items):
    s = 0
    for i in items:
        s += i.cost
    return s
=======
def total(items):
    return sum(i.price for i in items
>>>>>>> REPLACE

### Changed files:
- app.py
- shop.py
"""


def test_check_says_which_syntax_breaks_wait_for_a_decision(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A near match needs a decision before it lands: its syntax error is counted, and said
    apart, so the count of those that land is the statistics' count."""
    (tmp_path / "session.md").write_text(UNDECIDED)
    base = tmp_path / "base"
    base.mkdir()
    (base / "app.py").write_text("def f():\n    return 1\n")
    (base / "shop.py").write_text("def total(items):\n    s = 0\n    for i in items:\n"
                                  "        s += i.price\n    return s\n")
    main(["check", str(tmp_path / "session.md"), "--root", str(base)])
    summary = capsys.readouterr().out.splitlines()[-1]
    assert "1 apply, 0 fail, 1 need a decision;" in summary
    assert summary.endswith("; 2 introduce syntax errors (1 of them needs a decision)"), summary
    main(["stats", str(tmp_path / "session.md"), "--root", str(base), "--json"])
    stats = json.loads(capsys.readouterr().out)
    assert stats["total"]["syntax_errors"] == 1, stats["total"]


REFUSED = """## Turn 1
> change a

--- File: m.py ---
<<<<<<< SEARCH
    a = 1
=======
def f():
    a = (2
>>>>>>> REPLACE

### Changed files:
- m.py
"""


def test_check_says_a_refused_syntax_break_fails_as_the_counts_say(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A refused edit (its REPLACE repeats the line above) counts as "fail": the syntax
    part says so too, not that it needs a decision (found by helper-73: "0 need a decision
    ... (1 of them needs a decision)")."""
    (tmp_path / "session.md").write_text(REFUSED)
    base = tmp_path / "base"
    base.mkdir()
    (base / "m.py").write_text("def f():\n    a = 1\n    return a\n")
    main(["check", str(tmp_path / "session.md"), "--root", str(base)])
    summary = capsys.readouterr().out.splitlines()[-1]
    assert "0 apply, 1 fail, 0 need a decision;" in summary
    assert summary.endswith("; 1 introduce syntax errors (1 of them fails)"), summary
