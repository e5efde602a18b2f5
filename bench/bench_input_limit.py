"""The input size limit: how fast each session format is read, and what refusing costs.

For each format prints the import speed (MB/s) on a generated input of about 10 MB, its
ratio to ``str.splitlines()`` over the same text (the baseline, same run) and the seconds a
session at the 64 MB limit would take to import. Then the cost of refusing a 200 MB file
(sparse: measured, never read) against reading it. Target: every format reads a session at
the limit in under 15 s, and a refusal costs under 1 ms. Run: ``.venv/bin/python
bench/bench_input_limit.py``.
"""

from __future__ import annotations

import json
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_import import make_claude, make_diff, make_patches  # noqa: E402
from bench_parse import make_session  # noqa: E402
from reviewtui.core.errors import InputLimitError  # noqa: E402
from reviewtui.core.importers import import_session  # noqa: E402
from reviewtui.core.text.limits import DEFAULT_MAX_INPUT_BYTES  # noqa: E402
from reviewtui.shell.loader import read_input  # noqa: E402

TARGET_SECONDS_AT_LIMIT = 15.0
MB = 1024 * 1024


def make_toolcalls(count: int) -> str:
    lines = []
    for n in range(count):
        lines.append({"turn": n + 1, "request": f"change {n}"})
        lines.append({"tool": "str_replace", "path": f"src/f{n % 40}.py",
                      "old": f"old {n}\n" * 5, "new": f"new {n}\n" * 5})
        lines.append({"tool": "write", "path": f"docs/n{n}.md", "content": "line\n" * 40})
    return "".join(json.dumps(line) + "\n" for line in lines)


def make_chat(count: int) -> str:
    messages = []
    for n in range(count):
        messages.append({"role": "user", "content": f"change {n}"})
        messages.append({"role": "assistant", "content": (
            f"--- File: src/f{n % 40}.py ---\n<<<<<<< SEARCH\n" + f"old {n}\n" * 5
            + "=======\n" + f"new {n}\n" * 5 + ">>>>>>> REPLACE\n")})
    return json.dumps(messages)


def once(work: Callable[[], object]) -> float:
    """CPU seconds: the machine may be shared, and parsing is all CPU."""
    start = time.process_time()
    work()
    return time.process_time() - start


def wall(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def main() -> None:
    inputs = [
        ("fileops", make_session(10)),
        ("chat", make_chat(25_000)),
        ("apply_patch", make_patches(12_000)),
        ("unified", make_diff(25_000)),
        ("claude", make_claude(12_000)),
        ("toolcalls", make_toolcalls(25_000)),
    ]
    limit_mb = DEFAULT_MAX_INPUT_BYTES / MB
    print(f"import speed, and a session at the {limit_mb:.0f} MB limit:")
    worst = 0.0
    for fmt, text in inputs:
        size = len(text.encode()) / MB
        baseline = once(text.splitlines)
        elapsed = once(lambda text=text, fmt=fmt: import_session(text, "bench", format=fmt))
        at_limit = elapsed / size * limit_mb
        worst = max(worst, at_limit)
        print(f"  {fmt:<12} {size:5.1f} MB  {size / elapsed:6.1f} MB/s  "
              f"({elapsed / baseline:5.1f}x splitlines)  -> {at_limit:5.1f} s at the limit")
    verdict = "meets" if worst < TARGET_SECONDS_AT_LIMIT else "MISSES"
    print(f"  -> {verdict} the {TARGET_SECONDS_AT_LIMIT:.0f} s target (slowest: {worst:.1f} s)")

    with tempfile.TemporaryDirectory() as scratch:
        big = Path(scratch) / "big.jsonl"
        with big.open("wb") as handle:
            handle.truncate(200 * MB)  # sparse: only its size is on disk

        def refuse() -> None:
            try:
                read_input(big)
            except InputLimitError:
                return
            raise AssertionError("not refused")

        refused = min(wall(refuse) for _ in range(5))
        read = wall(big.read_bytes)
        print(f"a 200 MB file: refused in {refused * 1000:.3f} ms, against {read * 1000:.0f} ms "
              f"to read it ({read / refused:,.0f}x)")


if __name__ == "__main__":
    main()
