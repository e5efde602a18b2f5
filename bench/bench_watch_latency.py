"""Outside change -> updated outcome: latency through the real watcher.

A 60-file project (200 lines a file) under review, with half of its operations accepted
(so their files hold the review's own content). Fifty times, a file is rewritten from
outside -- alternately one with only pending operations (its outside content becomes
the new base and the outcomes are re-evaluated) and one the review wrote (the change
becomes an outside layer) -- and the time is taken until ``Review.outside_changed`` has
returned through ``follow_review`` with that path among the outside changes. The
baseline, measured in the same run, is ``outside_changed`` called directly for the same
kind of change: the cost of the review itself, without the watcher.

Run: .venv/bin/python bench/bench_watch_latency.py
"""

from __future__ import annotations

import asyncio
import statistics
import tempfile
import time
from pathlib import Path

from reviewtui.core.engine import Decision
from reviewtui.shell.replay import ReplayReport
from reviewtui.shell.review import Review
from reviewtui.shell.watch import DEBOUNCE_MS, STEP_MS, follow_review

TARGET_MS = 300.0
CHANGES = 50
FILES = 60
TURNS = 3


def content(i: int, tag: str = "") -> bytes:
    lines = [f"# module {i}", f"VALUE = {i}"] + [f"line_{i}_{n} = {n}  # {tag}" for n in range(198)]
    return ("\n".join(lines) + "\n").encode()


def session_text() -> str:
    out = ["# Session: latency\n"]
    per_turn = FILES // TURNS
    for t in range(TURNS):
        out.append(f"\n## Turn {t + 1}\n> change values\n")
        for f in range(t * per_turn, (t + 1) * per_turn):
            out.append(f"\n--- File: pkg/m{f:02}.py ---\n<<<<<<< SEARCH\nVALUE = {f}\n=======\n"
                       f"VALUE = {f + 100}\n>>>>>>> REPLACE\n")
        out.append("\n### Changed files:\n- pkg\n")
    return "".join(out)


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(q * (len(ordered) - 1)))]


async def measure(review: Review, root: Path) -> tuple[list[float], list[float]]:
    arrived: dict[str, float] = {}
    event = asyncio.Event()

    def on_report(report: ReplayReport) -> None:
        for path in report.outside:
            arrived[path] = time.perf_counter()
        event.set()

    stop = asyncio.Event()
    task = asyncio.create_task(follow_review(review, stop_event=stop, on_report=on_report))
    await asyncio.sleep(0.3)  # let the watcher start
    watched: list[float] = []
    direct: list[float] = []
    for n in range(CHANGES):
        index = (n // 2) % (FILES // 2) + (FILES // 2 if n % 2 else 0)  # pending / accepted
        rel = f"pkg/m{index:02}.py"
        current = (root / rel).read_bytes()
        changed = current.replace(b"line_", b"LINE_", 1).replace(b"# \n", f"# {n}\n".encode(), 1)
        arrived.pop(rel, None)
        started = time.perf_counter()
        (root / rel).write_bytes(changed)
        while rel not in arrived:
            event.clear()
            await asyncio.wait_for(event.wait(), 5)
        watched.append((arrived[rel] - started) * 1000)
        await asyncio.sleep(0.03)
        # The baseline: the same kind of change, handed to the review directly.
        again = changed.replace(b"# \n", f"# direct {n}\n".encode(), 1)
        (root / rel).write_bytes(again)
        started = time.perf_counter()
        report = review.outside_changed([rel])
        direct.append((time.perf_counter() - started) * 1000)
        assert rel in report.outside, report
        await asyncio.sleep(0.12)  # let the watcher's own event for that write pass
    stop.set()
    await task
    return watched, direct


def main() -> None:
    with tempfile.TemporaryDirectory(prefix="reviewtui-bench-") as tmp:
        base = Path(tmp)
        session = base / "s.md"
        session.write_text(session_text())
        root = base / "proj"
        for i in range(FILES):
            (root / "pkg").mkdir(parents=True, exist_ok=True)
            (root / f"pkg/m{i:02}.py").write_bytes(content(i))
        with Review.open(session, root, state_path=base / "state.json") as review:
            keys = [r.key for t in review.display.turns for r in t.results]
            review.decide_many([(key, Decision.accept()) for key in keys[len(keys) // 2 :]])
            watched, direct = asyncio.run(measure(review, root))
    med, p95 = statistics.median(watched), percentile(watched, 0.95)
    base_med = statistics.median(direct)
    print(f"watch latency over {CHANGES} outside changes (debounce {DEBOUNCE_MS} ms, "
          f"step {STEP_MS} ms), {FILES} files of 200 lines")
    print(f"  watcher + outside_changed: median {med:7.1f} ms   p95 {p95:7.1f} ms   "
          f"max {max(watched):7.1f} ms")
    print(f"  baseline (outside_changed called directly): median {base_med:7.1f} ms   "
          f"p95 {percentile(direct, 0.95):7.1f} ms")
    print(f"  watcher overhead: {med / base_med:5.1f}x the baseline")
    verdict = "met" if med < TARGET_MS else "MISSED"
    print(f"  target: median < {TARGET_MS:.0f} ms -> {verdict} ({med / TARGET_MS:.2f} of it)")


if __name__ == "__main__":
    main()
