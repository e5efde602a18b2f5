"""Another process holding a file open, for the tests of files held open for writing."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# Open the file in the mode given, say so, keep it open until stdin ends.
_HOLDER = ("import sys\nf = open(sys.argv[1], sys.argv[2])\nprint('open', flush=True)\n"
           "sys.stdin.read()\n")


@contextmanager
def held_open(path: Path, mode: str = "r+b") -> Iterator[None]:
    """Another process has ``path`` open in ``mode`` until the block ends (then closes it
    without writing)."""
    with subprocess.Popen([sys.executable, "-c", _HOLDER, str(path), mode],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE) as program:
        assert program.stdout is not None
        assert program.stdin is not None
        try:
            assert program.stdout.readline() == b"open\n"
            yield
        finally:
            program.stdin.close()
            program.wait(timeout=10)
