"""Threat: output piped into a reader that stops early (``reviewtui check ... | head -1``).

Before: a ``BrokenPipeError`` traceback. Now reviewtui does what ``cat`` and ``git`` do
(they die of SIGPIPE): it stops quietly, and its status is 141, the one a shell shows for
them (``set -o pipefail`` sees it). Each test runs the real command with its stdout a real
pipe whose reading end is closed: early (before any output) or after the first line.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

EXIT_PIPE = 141


def _session(work: Path, operations: int = 1000) -> Path:
    """A session with enough output (one failing edit per file) to fill any pipe buffer."""
    blocks = [f"--- File: f{i}.txt ---\n<<<<<<< SEARCH\nnot there {i}\n=======\nnew\n"
              ">>>>>>> REPLACE\n" for i in range(operations)]
    session = work / "s.md"
    session.write_text("## Turn 1\n> r\n\n" + "\n".join(blocks))
    return session


def _run_into_closed_pipe(argv: list[str], *, after_first_line: bool) -> tuple[int, str, str]:
    """Run ``reviewtui ARGV`` with stdout a pipe we stop reading: (status, first line, stderr)."""
    read_end, write_end = os.pipe()
    child = subprocess.Popen([sys.executable, "-m", "reviewtui", *argv], stdout=write_end,
                             stderr=subprocess.PIPE)
    os.close(write_end)
    first = b""
    with os.fdopen(read_end, "rb") as reader:
        if after_first_line:
            first = reader.readline()
    # the reading end is closed now: any further write by the child fails with EPIPE
    _, err = child.communicate(timeout=120)
    return child.returncode, first.decode(), err.decode()


def _argv(command: str, session: Path, root: Path) -> list[str]:
    return {
        "check": ["check", str(session), "--root", str(root)],
        "stats": ["stats", str(session), str(session), "--root", str(root)],
        "export": ["export", str(session), "--root", str(root), "--format", "markdown"],
        "export-json": ["export", str(session), "--root", str(root), "--format", "json"],
    }[command]


@pytest.mark.parametrize("command", ["check", "stats", "export", "export-json"])
def test_a_pipe_closed_before_any_output_ends_quietly_like_cat(arena, command: str) -> None:
    status, _, err = _run_into_closed_pipe(_argv(command, _session(arena.work), arena.root),
                                           after_first_line=False)
    assert (status, err) == (EXIT_PIPE, "")  # no traceback, not even at the exit's flush


@pytest.mark.parametrize("command", ["check", "export", "export-json"])
def test_a_pipe_closed_after_the_first_line_ends_quietly_like_cat(arena, command: str) -> None:
    """Output far larger than a pipe holds (64 KiB), so a write fails after the close.

    (A short output, such as stats' table, may fit in the pipe before the reader leaves:
    then nothing fails and the run ends normally, as ``cat`` would.)
    """
    status, first, err = _run_into_closed_pipe(
        _argv(command, _session(arena.work), arena.root), after_first_line=True)
    assert first.strip()  # the reader did get its line
    assert (status, err) == (EXIT_PIPE, "")


def test_check_still_reports_its_findings_into_an_open_pipe(arena) -> None:
    session = _session(arena.work, operations=3)
    done = subprocess.run([sys.executable, "-m", "reviewtui", "check", str(session), "--root",
                           str(arena.root)], capture_output=True, check=False, timeout=120)
    assert (done.returncode, done.stderr) == (1, b"")
    assert done.stdout.decode().count(": not_found") == 3


@pytest.mark.parametrize("command", ["export", "export-json", "apply"])
def test_a_session_given_as_a_named_pipe_is_read_once(arena, command: str) -> None:
    """A tool streaming its session through a FIFO: it is read once, and nothing opens it
    again (the export opened it a second time to look for a git header, and apply to hash
    it: each waited for a writer for ever, QA s41 helper-127)."""
    import threading

    (arena.root / "x.txt").write_text("a\nb\n")
    fifo = arena.work / "session.diff"
    os.mkfifo(fifo)
    text = b"--- a/x.txt\n+++ b/x.txt\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"

    def feed() -> None:
        with fifo.open("wb") as writer:
            writer.write(text)

    threading.Thread(target=feed, daemon=True).start()
    argv = (["apply", str(fifo), "--root", str(arena.root), "--yes"] if command == "apply"
            else _argv(command, fifo, arena.root))
    done = subprocess.run([sys.executable, "-m", "reviewtui", *argv], capture_output=True,
                          timeout=60, stdin=subprocess.DEVNULL, check=False)
    assert done.returncode == 0, done.stderr
    if command == "apply":
        assert (arena.root / "x.txt").read_text() == "a\nc\n"
    else:  # the report says the one operation is in the accepted result; nothing written
        assert (b"| 1 | x.txt \xc2\xb7 Edit 1 | accepted | applied |" in done.stdout
                if command == "export" else b'"status": "applied"' in done.stdout)
        assert (arena.root / "x.txt").read_text() == "a\nb\n"
