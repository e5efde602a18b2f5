"""Kill tests for the live coupling: either side dies, nothing decided is lost, no file torn.

* the real ``reviewtui mcp`` process is SIGKILLed while a call waits for the reviewer: the
  call stays recorded, a restarted server reports it pending, and the reviewer's later
  decision reaches the disk and the next ``status``;
* a session line cut short by a killed writer is dropped by the next append;
* a writer (the workbench's review) is SIGKILLed at several points of a decision that
  writes many files: every file is either before or after, never torn, and a reopen
  finishes the replay of what was saved as decided.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import anyio
import pytest

from reviewtui.core.engine import Decision
from reviewtui.shell.agent_tools import AgentTools
from reviewtui.shell.live import Gate, LiveSession
from reviewtui.shell.live_paths import prepare_live_session
from reviewtui.shell.loader import load_session
from reviewtui.shell.review import Review

CALC = "def add(a, b):\n    return a + b\n"


def _pids_with(marker: str) -> list[int]:
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            cmdline = (entry / "cmdline").read_bytes().decode(errors="replace")
        except OSError:
            continue
        if marker in cmdline and "mcp" in cmdline and int(entry.name) != os.getpid():
            found.append(int(entry.name))
    return found


@pytest.mark.anyio
async def test_server_killed_while_waiting_for_the_reviewer(tmp_path: Path) -> None:
    # Imported here: the MCP package costs ~1 s of every xdist worker's collection.
    from mcp.client import Client
    from mcp.client.stdio import StdioServerParameters

    root = tmp_path / "root"
    root.mkdir()
    (root / "calc.py").write_text(CALC)
    session = tmp_path / "killed-server.jsonl"
    params = StdioServerParameters(
        command=sys.executable,
        args=["-m", "reviewtui", "mcp", "--root", str(root), "--session", str(session),
              "--gate", "review", "--wait", "60"],
        # The workbench\'s environment (its state folder holds the key a live
        # state is sealed with; mcp passes only HOME, PATH... by default).
        env=dict(os.environ))
    killed = False

    async def kill_when_recorded() -> None:
        nonlocal killed
        with anyio.fail_after(30):
            while not (session.exists() and b'"tool":"edit"' in session.read_bytes()):
                await anyio.sleep(0.05)
        await anyio.sleep(0.2)  # the server is now waiting for a decision
        pids = _pids_with(str(session))
        assert pids, "the server process was not found"
        for pid in pids:
            os.kill(pid, signal.SIGKILL)
        killed = True

    failure: BaseException | None = None
    try:
        async with Client(params) as client, anyio.create_task_group() as tg:
            tg.start_soon(kill_when_recorded)
            await client.call_tool("edit", {"path": "calc.py", "search": "    return a + b",
                                            "replace": "    return a + b + 1"})
    except Exception as exc:  # the connection dies with the server
        failure = exc
    assert failure is not None, "the call answered although its server was killed"
    assert "Connection closed" in repr(failure)
    assert killed
    assert (root / "calc.py").read_text() == CALC  # nothing written without the reviewer
    loaded = load_session(session, format="toolcalls")
    assert [op.path for turn in loaded.session.turns for op in turn.reply.ops] == ["calc.py"]

    # A restarted server sees the call pending; the reviewer decides; the agent learns it.
    tools = AgentTools.open(root, session, gate=Gate.REVIEW, wait=0)
    assert tools.status() == "op 1.1 edit calc.py: pending review"
    state = prepare_live_session(session, root)
    with Review.open(session, root, state_path=state, format="toolcalls") as review:
        review.decide((1, 0), Decision.accept())
    assert (root / "calc.py").read_text() == CALC.replace("a + b", "a + b + 1")
    assert AgentTools.open(root, session).status() == "op 1.1 edit calc.py: accepted"


def test_a_line_cut_short_by_a_killed_writer_is_dropped(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "calc.py").write_text(CALC)
    session = tmp_path / "torn.jsonl"
    live = LiveSession(root, session, gate=Gate.REVIEW, wait=0)
    live.record({"tool": "edit", "path": "calc.py", "search": "def add(a, b):",
                 "replace": "def add(a, b):  # 1"})
    with session.open("ab") as handle:
        handle.write(b'{"tool":"edit","path":"calc.py","sea')  # killed mid-write
    rec = live.record({"tool": "write", "path": "new.txt", "content": "n\n"})
    assert rec.key == (1, 1)
    text = session.read_text()
    assert text.count('"tool":"edit"') == 1
    ops = [op for turn in load_session(session, format="toolcalls").session.turns
           for op in turn.reply.ops]
    assert [op.path for op in ops] == ["calc.py", "new.txt"]


_WRITER = """
import sys
from pathlib import Path
from reviewtui.core.engine import Decision
from reviewtui.shell.review import Review
session, root, state = map(Path, sys.argv[1:4])
review = Review.open(session, root, state_path=state, format="toolcalls")
keys = [(t.index, p) for t in review.session.turns for p, _ in enumerate(t.reply.ops)]
print("ready", flush=True)
sys.stdin.readline()
review.decide_many([(k, Decision.accept()) for k in keys])
print("done", flush=True)
review.close()
"""


@pytest.mark.parametrize("delay_ms", [0, 60, 250, 500, 900])
def test_workbench_killed_mid_decision(tmp_path: Path, delay_ms: int) -> None:
    root = tmp_path / "root"
    root.mkdir()
    files = 40
    before = {f"m{n}.py": f"value = {n}\n" * 200 for n in range(files)}
    for name, text in before.items():
        (root / name).write_text(text)
    session = tmp_path / "live.jsonl"
    live = LiveSession(root, session, gate=Gate.REVIEW, wait=0)
    for n in range(files):
        live.record({"tool": "write", "path": f"m{n}.py", "content": f"value = -{n}\n" * 300},
                    "rewrite everything")
    after = {f"m{n}.py": f"value = -{n}\n" * 300 for n in range(files)}
    state = prepare_live_session(session, root)
    with subprocess.Popen([sys.executable, "-c", _WRITER, str(session), str(root),
                           str(state)], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                          text=True) as child:
        assert child.stdout is not None
        assert child.stdin is not None
        assert child.stdout.readline().strip() == "ready"
        child.stdin.write("go\n")
        child.stdin.flush()
        time.sleep(delay_ms / 1000)
        child.send_signal(signal.SIGKILL)
        child.wait(timeout=30)
    for name in before:
        assert (root / name).read_text() in (before[name], after[name]), f"{name} is torn"
    # Reopening finishes whatever was decided (the decision is saved before any write).
    tools = AgentTools.open(root, session, wait=0)
    decided = "accepted" in tools.status()
    with Review.open(session, root, state_path=state, format="toolcalls") as review:
        assert bool(review.decisions) == decided
    for name in before:
        expected = after[name] if decided else before[name]
        assert (root / name).read_text() == expected
