"""`reviewtui mcp`: round trips through the real server, arrival in the workbench, tokens.

1. Round trip of an `edit` under `--gate auto` (no workbench open: the server is the
   writer), from the SDK client's `call_tool` to its answer, over stdio to the real
   `reviewtui mcp` process, on a 20-file project of 500-line Python files. Baseline in the
   same run: a `read` of a 10-line range of the same files (the protocol, the process and a
   disk read, without recording, evaluating or writing). Target: median < 50 ms.
2. Tool call to operation visible in a headless workbench (`ReviewApp`, live, gate
   review) on the same kind of project: from `call_tool` until the operation is in the
   workbench's review. Target: median < 300 ms.
3. Growth: an `edit` under `--gate auto` in-process (`AgentTools.mutate`, no protocol) as
   the live session grows, on 20 files of 500 lines: the median of 10 calls after 100,
   1,000 and 2,000 calls, and each against the 100-call figure (baseline, same run). A
   call records, evaluates, writes and saves: what grows with the session is the state
   and the review, not the reading of the session (read on from where it stopped). Then
   with a workbench open (a review following the session under its own `--gate auto`,
   as `open --live` does), after 100, 300 and 600 calls: the server waits for the
   workbench's decision and reads the whole review to answer (it grows with the session).
3b. A call by line numbers (`line_replace` with the disk's revision) on the same kind of
   session after 100 edits, against the last 10 edits (baseline, same run): it first looks
   at the review's version of the file, to carry its numbers there when that differs
   (`core/agent/frames.py`); then the same after the user changed the file outside (its
   numbers carried past that change).
4. Tokens on the `validation-message` sample (one message reworded in a 268-line file):
   an agent that searches and edits with `edit`, against one that reads the file whole
   and writes it back whole; arguments sent plus answers received, estimated as one token
   per four characters (`reviewtui.core.lint.tokens`).

Run: .venv/bin/python bench/bench_mcp.py
"""

from __future__ import annotations

import json
import os
import random
import shutil
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import anyio
from mcp.client import Client
from mcp.client.stdio import StdioServerParameters

from reviewtui.core.engine import Decision
from reviewtui.core.lint.tokens import estimate_tokens
from reviewtui.shell.live_paths import prepare_live_session
from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp

REPO = Path(__file__).resolve().parents[1]
SAMPLE = REPO / "sample_sessions" / "validation-message" / "base"
FILES = 20
CALLS = 30


def make_project(where: Path) -> Path:
    root = where / "root"
    root.mkdir(parents=True)
    rng = random.Random(7)
    for n in range(FILES):
        body = "".join(f"def f{i}_{rng.randint(0, 10**6)}(x):\n    return x + {i}\n\n\n"
                       for i in range(125))
        (root / f"m{n}.py").write_text(body)
    return root


def params(root: Path, session: Path, gate: str) -> StdioServerParameters:
    return StdioServerParameters(
        command=sys.executable,
        args=["-m", "reviewtui", "mcp", "--root", str(root), "--session", str(session),
              "--gate", gate, "--wait", "30"],
        # The workbench\'s environment (its state folder holds the key a live
        # state is sealed with; mcp passes only HOME, PATH... by default).
        env=dict(os.environ))


def text_of(result: Any) -> str:
    return "\n".join(part.text for part in result.content if hasattr(part, "text"))


async def round_trips(work: Path) -> tuple[list[float], list[float]]:
    root = make_project(work)
    edits: list[float] = []
    reads: list[float] = []
    async with Client(params(root, work / "auto.jsonl", "auto")) as client:
        await client.call_tool("ls", {})  # warm the server
        for i in range(CALLS):
            path = f"m{i % FILES}.py"
            t0 = time.perf_counter()
            await client.call_tool("read", {"path": path, "first": 10 + i, "last": 19 + i})
            reads.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            answer = text_of(await client.call_tool("edit", {
                "path": path, "search": f"    return x + {i + 1}",
                "replace": f"    return x + {i + 1} + 0", "intent": "bench"}))
            edits.append(time.perf_counter() - t0)
            assert answer.startswith("applied"), answer
    return edits, reads


async def arrivals(work: Path) -> list[float]:
    root = make_project(work / "arrive")
    session = work / "review.jsonl"
    state = prepare_live_session(session, root)
    review = Review.open(session, root, state_path=state, format="toolcalls")
    app = ReviewApp(review, watch=False, live="review")
    seen: list[float] = []
    async with app.run_test(size=(140, 40)) as pilot, \
            Client(params(root, session, "review")) as client:
        await client.call_tool("ls", {})
        for i in range(10):
            before = sum(len(t.results) for t in app.review.display.turns)
            t0 = time.perf_counter()
            done = anyio.Event()

            async def call(i: int = i, done: anyio.Event = done) -> None:
                await client.call_tool("edit", {
                    "path": f"m{i}.py", "search": f"    return x + {i + 1}",
                    "replace": f"    return x + {i + 1} + 0", "intent": "bench"})
                done.set()

            async with anyio.create_task_group() as tg:
                tg.start_soon(call)
                while sum(len(t.results) for t in app.review.display.turns) == before:
                    await anyio.sleep(0.002)
                seen.append(time.perf_counter() - t0)
                await pilot.pause(0.05)
                key = (app.review.display.turns[-1].index,
                       len(app.review.display.turns[-1].results) - 1)
                app.review.decide(key, Decision.accept())
                await done.wait()
    return seen


TYPICAL: dict[str, int] = {}


async def tokens(work: Path) -> tuple[int, int]:
    """(search + edit agent, whole-file agent): tokens sent plus received."""
    results = []
    for style in ("edit", "whole"):
        root = work / f"tokens-{style}"
        shutil.copytree(SAMPLE, root)
        spent = 0
        async with Client(params(root, work / f"tokens-{style}.jsonl", "auto")) as client:

            async def call(name: str, args: dict[str, Any], count: bool = True) -> str:
                nonlocal spent
                answer = text_of(await client.call_tool(name, args))
                if count:
                    spent += estimate_tokens(json.dumps(args)) + estimate_tokens(answer)
                return answer

            await call("ls", {})
            old = "Please enter a valid email."
            new = "Enter an email address like name@company.com."
            if style == "edit":
                TYPICAL["search (one hit)"] = estimate_tokens(
                    await call("search", {"pattern": old}))
                TYPICAL["read of 40 lines"] = estimate_tokens(await call(
                    "read", {"path": "js/signup.js", "first": 1, "last": 40}, False))
                TYPICAL["read of a whole 268-line file"] = estimate_tokens(
                    await call("read", {"path": "js/signup.js"}, False))
                TYPICAL["failed edit with 3 candidates"] = estimate_tokens(await call(
                    "edit", {"path": "js/signup.js", "search": "const form = getForm();",
                             "replace": "x"}, False))
                answer = await call("edit", {"path": "js/signup.js",
                                             "search": f'  emailInvalid: "{old}",',
                                             "replace": f'  emailInvalid: "{new}",'})
                TYPICAL["applied edit"] = estimate_tokens(answer)
            else:
                await call("read", {"path": "js/signup.js"})
                text = (root / "js" / "signup.js").read_text().replace(old, new)
                answer = await call("write", {"path": "js/signup.js", "content": text})
            assert answer.startswith("applied"), answer
        results.append(spent)
    return results[0], results[1]


def growth(work: Path, marks: tuple[int, ...] = (100, 1000, 2000), *,
           workbench: bool = False) -> dict[int, float]:
    """Median seconds of the 10 calls before each mark (see the module's doc, 3).
    ``workbench``: a review of the session open meanwhile, following it under its own
    ``--gate auto`` as ``open --live`` does (``follow_session`` in a thread)."""
    import threading

    from reviewtui.shell.agent_tools import AgentTools
    from reviewtui.shell.live import Gate, LiveSession, follow_session
    from reviewtui.shell.live_paths import prepare_live_session

    name = "growth-open" if workbench else "growth"
    root = work / name
    root.mkdir()
    for f in range(FILES):
        (root / f"m{f}.py").write_text("".join(f"value_{i} = {i}\n" for i in range(500)))
    session = work / f"{name}.jsonl"
    state = prepare_live_session(session, root)
    stop = threading.Event()
    review = None
    if workbench:
        review = Review.open(session, root, state_path=state, format="toolcalls")
        jobs = threading.Lock()

        def run(job: Any) -> Any:
            with jobs:
                return job()

        threading.Thread(target=lambda: [None for _ in follow_session(
            review, "auto", cancelled=stop.is_set, run=run)], daemon=True).start()
    tools = AgentTools(LiveSession(root, session, gate=Gate.AUTO, wait=30))
    times: list[float] = []
    out: dict[int, float] = {}
    try:
        for k in range(max(marks)):
            f, i = k % FILES, k // FILES
            start = time.perf_counter()
            answer = tools.mutate({"tool": "edit", "path": f"m{f}.py",
                                   "search": f"value_{i} = {i}\n",
                                   "replace": f"value_{i} = {i + 1000}\n"}, f"task {k // 10}")
            times.append(time.perf_counter() - start)
            assert answer.startswith("applied"), answer
            if k + 1 in marks:
                out[k + 1] = statistics.median(times[-10:])
    finally:
        stop.set()
        tools.live.close()
        if review is not None:
            time.sleep(0.2)  # the follower's last poll
            review.close()
    return out


def line_calls(work: Path, warm: int = 100) -> tuple[list[float], list[float], list[float]]:
    """Seconds of the last 10 of ``warm`` edits, of 10 line calls, and of 10 line calls
    after an outside change to their file (see the module's doc, 3b)."""
    from reviewtui.core.model.edit_shapes import content_revision
    from reviewtui.shell.agent_tools import AgentTools
    from reviewtui.shell.live import Gate, LiveSession
    from reviewtui.shell.live_paths import prepare_live_session

    root = work / "lines"
    root.mkdir()
    for f in range(FILES):
        (root / f"m{f}.py").write_text("".join(f"value_{i} = {i}\n" for i in range(500)))
    session = work / "lines.jsonl"
    prepare_live_session(session, root)
    tools = AgentTools(LiveSession(root, session, gate=Gate.AUTO, wait=30))
    edits: list[float] = []
    plain: list[float] = []
    carried: list[float] = []
    try:
        for k in range(warm):
            f, i = k % FILES, k // FILES
            start = time.perf_counter()
            tools.mutate({"tool": "edit", "path": f"m{f}.py", "search": f"value_{i} = {i}\n",
                          "replace": f"value_{i} = {i + 1000}\n"}, "warm")
            edits.append(time.perf_counter() - start)
        for runs, outside in ((plain, False), (carried, True)):
            for k in range(10):
                path = root / f"m{k}.py"
                if outside:  # the user adds a line on top: numbers are carried past it
                    path.write_text(f"# user {k}\n" + path.read_text())
                line = 300 + (2 if outside else 0)
                call = {"tool": "line_replace", "path": f"m{k}.py", "from": line, "to": line,
                        "content": f"value_{line} = -1",
                        "expectedRevision": content_revision(path.read_bytes())}
                start = time.perf_counter()
                answer = tools.mutate(call, "lines")
                runs.append(time.perf_counter() - start)
                assert answer.startswith("applied"), answer
    finally:
        tools.live.close()
    return edits[-10:], plain, carried


def ms(values: list[float]) -> str:
    return f"{statistics.median(values) * 1000:.1f} ms median, p90 " \
        f"{sorted(values)[int(len(values) * 0.9)] * 1000:.1f} ms"


async def main() -> None:
    work = Path(tempfile.mkdtemp(prefix="bench-mcp-"))
    try:
        edits, reads = await round_trips(work)
        print(f"edit round trip (--gate auto, server writes): {ms(edits)}   target < 50 ms")
        print(f"  baseline, read of 10 lines over the same connection: {ms(reads)}   "
              f"ratio {statistics.median(edits) / statistics.median(reads):.1f}x")
        seen = await arrivals(work)
        print(f"tool call -> operation in the workbench (gate review): {ms(seen)}   "
              "target < 300 ms")
        grown = growth(work)
        print("edit call as the live session grows (in-process, gate auto): " + ", ".join(
            f"after {n:,} calls {t * 1000:.1f} ms (x{t / grown[100]:.1f})"
            for n, t in grown.items()) + "   (x: against 100 calls)")
        grown = growth(work, (100, 300, 600), workbench=True)
        print("  with a workbench following under its own --gate auto: " + ", ".join(
            f"after {n:,} calls {t * 1000:.1f} ms (x{t / grown[100]:.1f})"
            for n, t in grown.items()))
        edits, plain, carried = line_calls(work)
        print(f"line call (line_replace, the disk's revision) after 100 edits: {ms(plain)} "
              f"(x{statistics.median(plain) / statistics.median(edits):.1f} the last 10 "
              f"edits, {ms(edits)}); carried past an outside change: {ms(carried)} "
              f"(x{statistics.median(carried) / statistics.median(edits):.1f})")
        small, whole = await tokens(work)
        print(f"tokens on validation-message: search + edit {small}, read + write whole "
              f"file {whole} ({whole / small:.0f}x)")
        print("typical answers (tokens): " + ", ".join(f"{k} {v}" for k, v in TYPICAL.items()))
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    anyio.run(main)
