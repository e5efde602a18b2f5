"""Helpers for the bad-input threats (test_hostile_input_*.py): run the CLI, write sessions.

The CLI runs in-process through ``reviewtui.cli.main``: an exception that escapes it is the
traceback a user would see, and fails the test. Subprocesses only where the process itself
matters (a closed pipe).
"""

from __future__ import annotations

import hashlib
import os
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import pytest

from reviewtui.cli import main


@dataclass
class Run:
    code: int
    out: str
    err: str


def cli(capsys: pytest.CaptureFixture[str], *argv: str | Path) -> Run:
    """``reviewtui ARGV`` in-process: exit code, stdout, stderr."""
    capsys.readouterr()
    code = main([str(a) for a in argv])
    captured = capsys.readouterr()
    return Run(code, captured.out, captured.err)


def cli_subprocess(*argv: str | Path, env: dict[str, str] | None = None,
                   stdin: bytes | None = None, timeout: float = 60) -> Run:
    """``python -m reviewtui ARGV`` in a child process."""
    done = subprocess.run([sys.executable, "-m", "reviewtui", *map(str, argv)],
                          input=stdin, capture_output=True, timeout=timeout,
                          env={**os.environ, **(env or {})}, check=False)
    return Run(done.returncode, done.stdout.decode("utf-8", "replace"),
               done.stderr.decode("utf-8", "replace"))


def fileops(*blocks: str, request: str = "do it") -> str:
    """A one-turn File Ops Markdown session holding ``blocks``, and the footer that ends
    every whole reply (without it, the reply's last full file may be cut off: held)."""
    return f"## Turn 1\n> {request}\n\n" + "\n".join(blocks) + "\n### Changed files:\n- (above)\n"


def tree_digest(root: Path) -> dict[str, str]:
    """Relative path -> content hash of every file under ``root`` (what a write would change)."""
    return {str(p.relative_to(root)): hashlib.sha256(p.read_bytes()).hexdigest()
            for p in sorted(root.rglob("*")) if p.is_file()}


def one_line_error(run: Run) -> str:
    """The single stderr line of a refused input, checked to be one line and no traceback."""
    assert "Traceback" not in run.err
    lines = run.err.splitlines()
    assert len(lines) == 1, run.err
    return lines[0]
