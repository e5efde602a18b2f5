"""Threat: a program saving a file in place is caught halfway, and the rest of its save is lost.

An editor that saves in place truncates the file and writes it in pieces. Found in a real
terminal (QA pass 79, express): a writer truncated ``response.js``, wrote 3,000 bytes,
paused 3 s, then wrote the rest; an accept during the pause took the 3,000 bytes as an
outside change, rebased over them and renamed its version over the path. The writer's
remaining bytes went into the replaced file and the user's save was lost (3 KB of 24 KB
left). A file another process holds open for writing is now left alone, with a notice,
until the watcher reports it again; the accept then lands on the whole save.

The writer here is a real process holding the file open (Linux says so in ``/proc``);
elsewhere the guard cannot know and the test says so.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from diskkit import Ed, make_project, write_session
from reviewtui.core.engine import Decision, Verdict
from reviewtui.shell.outside import MSG_BEING_WRITTEN
from reviewtui.shell.review import Review

BASE = b"ALPHA = 1\nBETA = 2\n\n\ndef gamma():\n    return 1\n"
A1 = (1, 0)

pytestmark = pytest.mark.skipif(not Path("/proc/self/fdinfo").is_dir(),
                                reason="no /proc: who holds a file open cannot be told here")

# Truncate, write the first part, say so, wait for a line on stdin, write the rest, close.
WRITER = """
import sys
first, rest = sys.argv[2].encode(), sys.argv[3].encode()
with open(sys.argv[1], "wb") as f:
    f.write(first); f.flush()
    print("half", flush=True)
    sys.stdin.readline()
    f.write(rest)
"""


def test_an_accept_during_a_save_under_way_waits_for_the_whole_save(tmp_path: Path) -> None:
    session = write_session(tmp_path / "session", [[Ed("app.py", "ALPHA = 1", "ALPHA = 10")]])
    root = make_project(tmp_path / "proj", {"app.py": BASE})
    with Review.open(session, root) as review:
        _save_under_way(review, root / "app.py")


def _save_under_way(review: Review, app: Path) -> None:
    saved = BASE.replace(b"BETA = 2", b"BETA = 3") + b"# " + b"x" * 5000 + b"\n"
    half = len(saved) // 3
    with subprocess.Popen(
            [sys.executable, "-c", WRITER, str(app), saved[:half].decode(),
             saved[half:].decode()], stdin=subprocess.PIPE, stdout=subprocess.PIPE) as writer:
        assert writer.stdout is not None
        assert writer.stdin is not None
        try:
            assert writer.stdout.readline() == b"half\n"
            report = review.outside_changed(["app.py"])  # the watcher sees the first part
            assert any(note == MSG_BEING_WRITTEN for _, note in report.events)
            report = review.decide(A1, Decision.accept())  # the reviewer accepts meanwhile
            assert any(note == MSG_BEING_WRITTEN for _, note in report.events)
            assert app.read_bytes() == saved[:half]  # nothing renamed over the save
            writer.stdin.write(b"go\n")
            writer.stdin.close()
            assert writer.wait(timeout=30) == 0
        finally:
            writer.kill()
    assert app.read_bytes() == saved
    review.outside_changed(["app.py"])  # the watcher reports the whole save
    assert review.decisions[A1].verdict is Verdict.ACCEPTED
    assert app.read_bytes() == saved.replace(b"ALPHA = 1", b"ALPHA = 10")  # over it all
    assert review.conflicts == {}
