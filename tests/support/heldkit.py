"""Another process holding a file open, for the tests of files held open for writing."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

# Open the file in the mode given, maybe write argv[3] over it in place, say so, keep it
# open until stdin ends.
_HOLDER = ("import sys\nf = open(sys.argv[1], sys.argv[2])\n"
           "if len(sys.argv) > 3:\n"
           "    f.seek(0); f.write(sys.argv[3].encode()); f.truncate(); f.flush()\n"
           "print('open', flush=True)\nsys.stdin.read()\n")


@contextmanager
def held_open(path: Path, mode: str = "r+b", *, written: bytes | None = None) -> Iterator[None]:
    """Another process has ``path`` open in ``mode`` until the block ends (then closes it
    without writing more); with ``written``, it first writes that over the file in place
    (an editor saving into the file it keeps open)."""
    extra = [written.decode()] if written is not None else []
    with subprocess.Popen([sys.executable, "-c", _HOLDER, str(path), mode, *extra],
                          stdin=subprocess.PIPE, stdout=subprocess.PIPE) as program:
        assert program.stdout is not None
        assert program.stdin is not None
        try:
            assert program.stdout.readline() == b"open\n"
            yield
        finally:
            program.stdin.close()
            program.wait(timeout=10)
