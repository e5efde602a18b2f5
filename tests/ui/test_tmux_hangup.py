"""Closing the terminal ends the workbench, also when it runs under ``make``.

Started as ``make demo`` is, the terminal's hang-up reaches make's shell, not the
workbench; Textual's input thread then reads the dead terminal in a loop at full CPU, for
ever (found in a real tmux: a workbench left from a killed session ran for half an hour).
The workbench checks every second that its terminal is still there and exits when it is
not. Real tmux (a private server), not Pilot: Pilot has no terminal to lose. Skipped,
loudly, when tmux or make is not installed.
"""

from __future__ import annotations

import os
import shlex
import shutil
import signal
import subprocess
import sys
import time
import uuid
from pathlib import Path

import pytest

TMUX, MAKE = shutil.which("tmux"), shutil.which("make")
pytestmark = pytest.mark.skipif(
    TMUX is None or MAKE is None,
    reason="tmux or make is not installed: the terminal hang-up test cannot run "
    "(apt-get install tmux make)")

SESSION = """\
## Turn 1
> Fix the greeting.

--- File: hello.py ---
<<<<<<< SEARCH
print("helo")
=======
print("hello")
>>>>>>> REPLACE
"""


def _pids_with(token: str) -> list[int]:
    """Processes whose command line names ``token`` (the test's own folder)."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            argv = (entry / "cmdline").read_bytes().split(b"\0")
        except OSError:
            continue
        if argv and "python" in argv[0].decode(errors="replace") and any(
                token.encode() in arg for arg in argv):
            found.append(int(entry.name))
    return found


@pytest.mark.slow
def test_a_workbench_under_make_exits_when_its_terminal_is_closed(tmp_path: Path) -> None:
    assert TMUX is not None
    assert MAKE is not None
    root, session = tmp_path / "root", tmp_path / "session.md"
    root.mkdir()
    (root / "hello.py").write_text('print("helo")\n')
    session.write_text(SESSION)
    own = {"XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "TERM": "xterm-256color"}
    settings = " ".join(f"{key}={shlex.quote(value)}" for key, value in own.items())
    (tmp_path / "Makefile").write_text(
        f"run:\n\tenv {settings} {shlex.quote(sys.executable)} -m reviewtui open "
        f"{shlex.quote(str(session))} --root {shlex.quote(str(root))} --no-watch\n")
    server = f"reviewtui-hangup-{uuid.uuid4().hex[:8]}"  # a private tmux server
    tmux = [TMUX, "-L", server]
    subprocess.run([*tmux, "new-session", "-d", "-x", "100", "-y", "30",
                    f"cd {shlex.quote(str(tmp_path))} && {shlex.quote(MAKE)} run"],
                   check=True, env={**os.environ, **own})
    pids: list[int] = []
    try:
        deadline = time.monotonic() + 30
        screen = ""
        while time.monotonic() < deadline and "checkpoint" not in screen:
            time.sleep(0.3)
            screen = subprocess.run([*tmux, "capture-pane", "-p"], capture_output=True,
                                    text=True).stdout
        assert "checkpoint" in screen, f"the workbench did not start:\n{screen}"
        pids = _pids_with(str(tmp_path))
        assert pids, "the workbench's process was not found"
        subprocess.run([*tmux, "kill-server"], check=True)  # the terminal goes away
        deadline = time.monotonic() + 15
        while time.monotonic() < deadline and _pids_with(str(tmp_path)):
            time.sleep(0.2)
        assert _pids_with(str(tmp_path)) == [], "the workbench outlived its terminal"
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)
        for pid in _pids_with(str(tmp_path)):  # never leave a spinning workbench behind
            os.kill(pid, signal.SIGKILL)
