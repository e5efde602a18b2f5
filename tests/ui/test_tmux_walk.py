"""A walk through the workbench in a real terminal (tmux, 100x30), not Pilot.

It reads a 200-character changed line completely from the captured screen (wrapping
must show every character), places an ambiguous edit at its second location with `c`
then `y`, quits, and checks the disk. Skipped, loudly, when tmux is not installed.
"""

from __future__ import annotations

import json
import os
import shlex
import shutil
import subprocess
import sys
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

TMUX = shutil.which("tmux")
pytestmark = pytest.mark.skipif(
    TMUX is None, reason="tmux is not installed: the real-terminal walk-through cannot run "
    "(apt-get install tmux)")

VALUES = ",".join(f"v{n:03d}" for n in range(39))  # no spaces: wrapped pieces join exactly
LONG = f"x=[{VALUES}]"  # 200 characters
CHANGED = LONG.replace("v030", "NEW")
SESSION = f"""\
# Session: tmux walk

## Turn 1
> Change one value in a long list.

--- File: long.py ---
<<<<<<< SEARCH
{LONG}
=======
{CHANGED}
>>>>>>> REPLACE

## Turn 2
> Zero the stock only where it is restocked.

--- File: stock.py ---
<<<<<<< SEARCH
    item.qty = 0
=======
    item.qty = None
>>>>>>> REPLACE
"""
STOCK = "def reset(item):\n    item.qty = 0\n\n\ndef restock(item):\n    item.qty = 0\n"


@pytest.fixture
def terminal(tmp_path: Path) -> Iterator[Callable[..., str]]:
    """Start reviewtui in a detached 100x30 tmux session; yield a key sender that
    returns the screen, and kill the session afterwards."""
    assert TMUX is not None
    name = f"reviewtui-walk-{uuid.uuid4().hex[:8]}"
    session, root = tmp_path / "session", tmp_path / "root"
    session.mkdir()
    root.mkdir()
    (session / "session.md").write_text(SESSION)
    (root / "long.py").write_text(f"a = 1\n{LONG}\nb = 2\n")
    (root / "stock.py").write_text(STOCK)
    own = {"XDG_CONFIG_HOME": str(tmp_path / "config"),
           "XDG_STATE_HOME": str(tmp_path / "state"), "TERM": "xterm-256color"}
    env = {**os.environ, **own}
    # Set in the command itself: a tmux server already running (another session on this
    # machine) starts the command with the server's environment, not this client's, and
    # the workbench would read and rewrite the real ~/.config/reviewtui/layout.toml.
    settings = " ".join(f"{key}={shlex.quote(value)}" for key, value in own.items())
    command = (f"env {settings} {shlex.quote(sys.executable)} -m reviewtui open "
               f"{shlex.quote(str(session))} --root {shlex.quote(str(root))} --no-watch; "
               "echo reviewtui-exited; sleep 30")
    subprocess.run([TMUX, "new-session", "-d", "-s", name, "-x", "100", "-y", "30",
                    command], check=True, env=env)

    def screen() -> str:
        out = subprocess.run([TMUX, "capture-pane", "-p", "-t", name], check=True,
                             capture_output=True, text=True)
        return out.stdout

    def wait_for(text: str) -> str:
        # Waits for the app, never asserts on time: the budget only ends a hung test.
        deadline = time.monotonic() + 60
        shown = screen()
        while text not in shown and time.monotonic() < deadline:
            time.sleep(0.2)
            shown = screen()
        assert text in shown, f"{text!r} never appeared:\n{shown}"
        return shown

    def send(*keys: str, expect: str) -> str:
        for key in keys:
            subprocess.run([TMUX, "send-keys", "-t", name, key], check=True)
            time.sleep(0.3)
        return wait_for(expect)

    send.root = root  # type: ignore[attr-defined]
    send.session = session  # type: ignore[attr-defined]
    wait_for("checkpoint 1/2")
    try:
        yield send
    finally:
        subprocess.run([TMUX, "kill-session", "-t", name], check=False,
                       capture_output=True)


def _added_text(shown: str) -> str:
    """The text of every `+` line of a unified diff on the screen, pieces joined."""
    pieces = []
    for line in shown.splitlines():
        marker = line.find("+ ")
        if marker < 0 or line[:marker].strip(" ↪0123456789"):
            continue  # not a diff row (its gutter holds only numbers and ↪)
        pieces.append(line[marker + 2 :])
    return "".join(piece.rstrip() for piece in pieces)


@pytest.mark.slow
def test_walk_read_a_long_line_and_place_an_ambiguous_edit(
        terminal: Callable[..., str]) -> None:
    send = terminal
    root: Path = send.root  # type: ignore[attr-defined]
    # Full width and unified: the changed line wraps under one gutter.
    # Waits for a unified continuation row at the left edge: a split view wraps with `↪`
    # too, and on a loaded machine V may not have been drawn yet when `↪` first shows.
    shown = send("b", "V", expect="\n  ↪ + ")
    assert CHANGED in _added_text(shown), shown
    assert "NEW" in shown
    # Turn 2: the SEARCH is in two places; c shows the second, y places the edit there.
    send("J", expect="ambiguous")
    send("c", expect="location 2 of 2")
    send("y", expect="placed by reviewer at lines 6-6")
    assert (root / "stock.py").read_text() == STOCK.replace(
        "def restock(item):\n    item.qty = 0", "def restock(item):\n    item.qty = None")
    assert (root / "long.py").read_text() == f"a = 1\n{LONG}\nb = 2\n"  # never accepted
    send("q", expect="reviewtui-exited")
    saved = json.loads((send.session / "session.md.review.json").read_text())  # type: ignore[attr-defined]
    item = saved["log"][-1]["items"][0]
    assert (item["turn"], item["placement"]) == (2, [6, 6])
