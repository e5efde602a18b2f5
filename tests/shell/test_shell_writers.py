"""Who holds a file open for writing (``shell/writers.py``): the lease and the ``/proc`` scan
answer alike, on real processes holding real files."""

from __future__ import annotations

import signal
import subprocess
import sys
from pathlib import Path

import pytest

from heldkit import held_open
from reviewtui.shell import writers

pytestmark = pytest.mark.skipif(not Path("/proc/self/fdinfo").is_dir(),
                                reason="no /proc: who holds a file open cannot be told here")


@pytest.mark.parametrize("scan", [True, False], ids=["lease-then-scan", "lease-only"])
@pytest.mark.parametrize(("mode", "held"), [("r+b", True), ("ab", True), ("wb", True),
                                            ("rb", False)])
def test_a_file_open_for_writing_is_held_one_open_for_reading_is_not(
        tmp_path: Path, mode: str, held: bool, scan: bool) -> None:
    target, other = tmp_path / "a.txt", tmp_path / "b.txt"
    target.write_text("a\n")
    other.write_text("b\n")
    paths = {str(target), str(other)}
    assert writers.held_for_writing(paths, scan=scan) == set()
    with held_open(target, mode):
        assert writers.held_for_writing(paths, scan=scan) == ({str(target)} if held else set())
        assert writers._scanned(paths) == ({str(target)} if held else set())  # same answer
    assert writers.held_for_writing(paths, scan=scan) == set()


def test_what_a_lease_cannot_tell_goes_to_the_scan_only_when_asked(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch
                                                                   ) -> None:
    """A file system without leases (or a file of another owner): the lease says nothing;
    ``scan`` looks in ``/proc``, the replay's check before each write does not."""
    target = tmp_path / "a.txt"
    target.write_text("a\n")
    monkeypatch.setattr(writers, "_lease_says", lambda path: None)
    with held_open(target, "r+b"):
        assert writers.held_for_writing({str(target)}) == {str(target)}
        assert writers.held_for_writing({str(target)}, scan=False) == set()


def test_a_lease_leaves_no_signal_behind_when_the_file_is_opened_meanwhile(
        tmp_path: Path) -> None:
    """The lease's break signal is SIGURG (ignored unless handled), not SIGIO (which ends
    the process): a writer opening the file while it is held is not blocked for long and
    this process is not stopped. Here a writer hammers the file while it is asked about."""
    assert signal.getsignal(signal.SIGURG) == signal.SIG_DFL
    target = tmp_path / "a.txt"
    target.write_text("a\n")
    code = ("import sys, time\nend = time.monotonic() + 1.0\nn = 0\n"
            "while time.monotonic() < end:\n"
            "    open(sys.argv[1], 'ab').close(); n += 1\nprint(n)\n")
    with subprocess.Popen([sys.executable, "-c", code, str(target)],
                          stdout=subprocess.PIPE) as program:
        asked = 0
        while program.poll() is None:
            writers.held_for_writing({str(target)}, scan=False)
            asked += 1
        out = program.stdout.read() if program.stdout else b""
    assert program.returncode == 0
    assert int(out) > 100  # both went on: nobody waited out a lease break
    assert asked > 100
