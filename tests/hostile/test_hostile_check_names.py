"""Threat: a trusted project check runs what a session's *file name* says.

The reviewer trusts a ``reviewtui.toml`` for its commands; the names of the files they run
on come from the session (an agent, a downloaded transcript). A check written as a shell
script (``sh -c '... {path}'``) ran a name like ``m$(touch x).py`` as a command, and a
tool that loads its config from the working directory (``eslint {path}``) ran a session's
``eslint.config.js`` (QA s46 helper-141 F0, F12). A file is checked under a fixed name
of its own extensions, alone in its scratch directory.
"""

from __future__ import annotations

import json
import shlex
import sys
from pathlib import Path
from typing import Any

import pytest

from reviewtui.cli import main
from reviewtui.shell.checks import check_change, scratch_name

# Prints a finding naming what it was given and what its working directory holds.
SHOW = ("import os, sys\n"
        "print(sys.argv[1] + ':1:1: given ' + sys.argv[1] + ' beside ' "
        "+ ','.join(sorted(os.listdir('.'))))\n")


def _show(arena: Any) -> str:
    script = arena.work / "show.py"
    script.write_text(SHOW)
    return f"{shlex.quote(sys.executable)} {shlex.quote(str(script))} {{path}}"


def test_a_name_with_a_command_in_it_never_runs_through_a_shell_check(
        arena: Any, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(arena.work / "xdg"))
    marker = arena.work / "PWNED"
    script = f"sh -c {shlex.quote(_show(arena) + ' >&2; exit 1')}"
    (arena.root / "reviewtui.toml").write_text(f'[checks]\n"*.py" = {json.dumps(script)}\n')
    name = f"m$(touch${{IFS}}{marker}).py"
    session = arena.work / "s.md"
    session.write_text(f"## Turn 1\n> add\n\n--- File: {name} ---\n```python\nx = 1\n```\n")
    code = main(["check", str(session), "--root", str(arena.root), "--trust-checks"])
    out = capsys.readouterr().out
    assert not marker.exists()
    # The check ran, on the file under its scratch name: its finding is new (exit 1).
    assert "given reviewtui-check.py beside reviewtui-check.py" in out, out
    assert code == 1


@pytest.mark.parametrize("name", ["eslint.config.js", ".eslintrc.js", "conftest.py",
                                  "pkg/pyproject.toml", "a b/c;d.py", "-rf.py"])
def test_a_checked_file_is_alone_under_a_name_no_tool_loads(arena: Any, name: str) -> None:
    command = _show(arena)
    found = check_change(name, None, "x = 1\n", command)
    assert [(d.line, d.introduced) for d in found] == [(1, True)]
    given = scratch_name(name)
    assert found[0].message == f"given {given} beside {given}"
    assert given.startswith("reviewtui-check")
    assert Path(name).name not in found[0].message


@pytest.mark.parametrize(("name", "given"), [
    ("src/app.test.ts", "reviewtui-check.test.ts"), ("types.d.ts", "reviewtui-check.d.ts"),
    ("Dockerfile", "reviewtui-check"), ("x.$(id).py", "reviewtui-check.py"),
    ("a.tar.gz", "reviewtui-check.tar.gz"), ("weird.p y", "reviewtui-check")])
def test_the_scratch_name_keeps_plain_extensions_only(name: str, given: str) -> None:
    assert scratch_name(name) == given
