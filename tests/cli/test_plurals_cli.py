"""Plurals in what the commands print (issue 15): a one-turn, one-operation session reads
"1 turn, 1 operation", never "1 turns", "1 operations" or "operation(s)"."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.core.model.records import ConsoleCommand
from reviewtui.core.protocol.console import parse_command
from reviewtui.core.text.plural import plural

ONE = """\
# Session: one

## Turn 1
> Set x.

--- File: a.py ---
<<<<<<< SEARCH
x = 1
=======
x = 2
>>>>>>> REPLACE
"""
# A count of one followed by a plural noun, or a noun with "(s)".
WRONG = re.compile(r"\b1 (turns|operations|lines|files|decisions|syntax errors|lint findings)"
                   r"\b|\w\(s\)")


@pytest.fixture
def one(tmp_path: Path) -> tuple[Path, Path]:
    session = tmp_path / "session"
    session.mkdir()
    (session / "session.md").write_text(ONE)
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("x = 1\n")
    return session, root


@pytest.mark.parametrize("command", [
    ["check"], ["stats"], ["export", "--format", "markdown"],
    ["export", "--format", "context"]])
def test_one_of_each_reads_singular(one: tuple[Path, Path], command: list[str],
                                    capsys: pytest.CaptureFixture[str]) -> None:
    session, root = one
    main([command[0], str(session), "--root", str(root), *command[1:]])
    out = capsys.readouterr().out
    assert not WRONG.search(out), WRONG.search(out)


def test_check_summary_and_footer_finding(one: tuple[Path, Path],
                                          capsys: pytest.CaptureFixture[str]) -> None:
    session, root = one
    main(["check", str(session), "--root", str(root)])
    out = capsys.readouterr().out
    assert "1 turn, 1 operation: 1 apply" in out
    assert "footer after 1 operation;" in out


def test_stats_per_turn_reads_singular(one: tuple[Path, Path],
                                       capsys: pytest.CaptureFixture[str]) -> None:
    session, root = one
    main(["stats", str(session), "--root", str(root)])
    assert "turn 1: 1 operation, 1 landed" in capsys.readouterr().out


def test_console_argument_count_reads_singular() -> None:
    problem = parse_command(":mv a.py", 1, fenced=True)
    assert not isinstance(problem, ConsoleCommand)
    assert f"has {plural(1, 'argument')};" in problem.message
