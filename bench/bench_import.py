"""Import speed: Aider's 4 MB chat history (the shared corpus), and generated inputs.

For each input prints the best of a few runs and the ratio to a plain
``str.splitlines()`` over the same text, measured in the same run. Target for the Aider
history: under 1 s. Run: ``make bench`` (the Aider figure needs ../shared/corpus).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from pathlib import Path

from reviewtui.core.importers import import_session

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
AIDER_HISTORY = CORPUS / "aider-chat-history" / "chat-history.md"
TARGET_SECONDS = 1.0
RUNS = 3


def best(work: Callable[[], object]) -> float:
    times = []
    for _ in range(RUNS):
        start = time.perf_counter()
        work()
        times.append(time.perf_counter() - start)
    return min(times)


def make_patches(count: int) -> str:
    parts = []
    for n in range(count):
        parts.append("\n".join([
            f"Turn {n}: update module {n}.",
            "*** Begin Patch",
            f"*** Update File: src/mod_{n % 50}.py",
            f"@@ def handler_{n}():",
            "     value = compute()",
            f"-    return value + {n}",
            f"+    return value + {n + 1}",
            f"*** Add File: docs/note_{n}.md",
            *(f"+line {k} of note {n}" for k in range(20)),
            "*** End Patch",
            "",
        ]))
    return "\n".join(parts)


def make_diff(count: int) -> str:
    parts = []
    for n in range(count):
        parts.append("\n".join([
            f"diff --git a/src/f{n}.py b/src/f{n}.py",
            "index 1111111..2222222 100644",
            f"--- a/src/f{n}.py",
            f"+++ b/src/f{n}.py",
            f"@@ -{n + 1},7 +{n + 1},7 @@ def f():",
            *(f" context line {k}" for k in range(3)),
            f"-    old {n}",
            f"+    new {n}",
            *(f" context line {k}" for k in range(3, 6)),
        ]))
    return "\n".join(parts) + "\n"


def make_claude(count: int) -> str:
    lines = []
    for n in range(count):
        lines.append({"type": "user", "cwd": "/p", "message": {"role": "user",
                                                              "content": f"change {n}"}})
        lines.append({"type": "assistant", "cwd": "/p", "message": {"role": "assistant",
                      "content": [{"type": "tool_use", "id": f"t{n}", "name": "Edit", "input": {
                          "file_path": f"/p/src/f{n % 40}.py", "old_string": f"old {n}\n" * 5,
                          "new_string": f"new {n}\n" * 5}}]}})
        lines.append({"type": "user", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": f"t{n}", "content": "ok" * 200}]}})
    return "".join(json.dumps(line) + "\n" for line in lines)


def report(label: str, text: str, fmt: str) -> float:
    baseline = best(text.splitlines)
    elapsed = best(lambda: import_session(text, label, format=fmt))
    session = import_session(text, label, format=fmt)
    ops = sum(len(t.reply.ops) for t in session.turns)
    size = len(text.encode()) / 1e6
    print(f"{label:<28} {size:5.1f} MB {len(session.turns):6d} turns {ops:6d} ops  "
          f"{elapsed * 1000:7.1f} ms  ({elapsed / baseline:5.1f}x splitlines)")
    return elapsed


def main() -> None:
    print(f"importing (best of {RUNS}):")
    if AIDER_HISTORY.is_file():
        text = AIDER_HISTORY.read_text("utf-8")
        elapsed = report("aider chat-history.md", text, "aider")
        verdict = "meets" if elapsed < TARGET_SECONDS else "MISSES"
        print(f"  -> {verdict} the {TARGET_SECONDS:.0f} s target for the 4 MB Aider history")
    else:
        print(f"aider chat-history.md        skipped: {AIDER_HISTORY} is missing")
    report("apply_patch (generated)", make_patches(8000), "apply_patch")
    report("unified diff (generated)", make_diff(20000), "unified")
    report("claude jsonl (generated)", make_claude(5000), "claude")


if __name__ == "__main__":
    main()
