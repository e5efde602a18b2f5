"""The workbench's first frame on a 5,000-turn / 50,000-operation session (issue 13).

The session is generated from real files on this machine as in ``bench_apply.py``: 200
standard-library modules (up to 400 lines each), 5,000 turns of ten SEARCH/REPLACE edits.

Figures, measured in the same run:

* baseline: the session read into turns (``load_session``), nothing evaluated;
* open, workbench-ready: ``Review.open(first_frame=True, lazy=True)`` in dry run, as
  ``open`` opens (the files the session names read, the draft, and the display up to the
  first turn);
* first frame: from the start of opening to the review screen's first frame drawn (a
  Pilot, 120x40);
* background evaluation: from the first frame until every turn is evaluated by the
  app's slices (``ui/evaluating.py``), and the event loop's longest stall meanwhile
  (a task that sleeps 5 ms and measures how late it wakes);
* with ``--full``: ``Review.open`` evaluating everything first (what ``check`` and
  ``apply`` do, and the workbench did before its first frame).

Each figure is wall-clock time, then the process's CPU time over the same interval (on a
shared machine the CPU time is the steadier one); the load is also given per 1,000
operations. ``--first-frame-only`` stops at the first frame (no background evaluation).

Target: first frame < 2 s; no stall over ~50 ms beyond the Pilot's own.
Run: ``.venv/bin/python bench/bench_first_frame.py [--turns N] [--full] [--first-frame-only]``.
"""

from __future__ import annotations

import asyncio
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_apply import make_case, real_files, session_text, write_root  # noqa: E402
from reviewtui.shell.loader import load_session  # noqa: E402
from reviewtui.shell.review import Review  # noqa: E402
from reviewtui.ui.app import ReviewApp  # noqa: E402
from reviewtui.ui.screens.main import MainScreen  # noqa: E402

TARGET = 2.0


async def workbench(session: Path, root: Path, background: bool = True
                    ) -> tuple[dict[str, float], dict[str, float]]:
    """Wall-clock figures, and the CPU time of those that have one."""
    figures: dict[str, float] = {}
    cpu: dict[str, float] = {}
    start, cpu_start = time.perf_counter(), time.process_time()
    review = Review.open(session, root, dry_run=True, first_frame=True, lazy=True)
    figures["open, workbench-ready"] = time.perf_counter() - start
    cpu["open, workbench-ready"] = time.process_time() - cpu_start
    app = ReviewApp(review, watch=False)
    stalls: list[float] = []

    async def heartbeat() -> None:
        while True:
            t0 = time.perf_counter()
            await asyncio.sleep(0.005)
            stalls.append(time.perf_counter() - t0 - 0.005)

    async with app.run_test(size=(120, 40)) as pilot:
        while True:
            await pilot.pause()
            screen = app.screen
            if isinstance(screen, MainScreen) and screen.first_frame_at is not None:
                break
        figures["first frame"] = screen.first_frame_at - start
        cpu["first frame"] = time.process_time() - cpu_start  # up to the pause seeing it
        figures["turns evaluated at the first frame"] = review.evaluated_turns
        if not background:
            review.close()
            return figures, cpu
        beat = asyncio.create_task(heartbeat())
        began = time.perf_counter()
        while not review.evaluation_complete:
            await asyncio.sleep(0.05)
        figures["background evaluation"] = time.perf_counter() - began
        beat.cancel()
        figures["longest event-loop stall meanwhile"] = max(stalls, default=0.0)
    review.close()
    return figures, cpu


def main() -> None:
    turns = 5000
    if "--turns" in sys.argv:
        turns = int(sys.argv[sys.argv.index("--turns") + 1])
    case = make_case(f"{turns} turns", real_files(200, max_lines=400), turns, 10, 3)
    with tempfile.TemporaryDirectory(prefix="bench-first-frame-") as tmp:
        work = Path(tmp)
        root = write_root(case, work)
        session = work / "session.md"
        session.write_text(session_text(case))
        start, cpu_start = time.perf_counter(), time.process_time()
        load_session(session)
        base, base_cpu = time.perf_counter() - start, time.process_time() - cpu_start
        print(f"{case.ops} operations, {turns} turns, {len(case.files)} files")
        print(f"  {'baseline: load_session':40s}{base:8.3f} s (cpu {base_cpu:.3f} s; per 1,000 "
              f"ops {base / case.ops * 1e6:.1f} ms, cpu {base_cpu / case.ops * 1e6:.1f} ms)")
        figures, cpu = asyncio.run(workbench(session, root,
                                             background="--first-frame-only" not in sys.argv))
        for name, value in figures.items():
            if name.startswith("turns"):
                print(f"  {name:40s}{value:8.0f}")
                continue
            ratio = f"{value / base:6.1f}x" if not name.startswith("longest") else ""
            spent = f"  (cpu {cpu[name]:.3f} s)" if name in cpu else ""
            print(f"  {name:40s}{value:8.3f} s {ratio}{spent}")
        ok = figures["first frame"] < TARGET
        print(f"  target: first frame < {TARGET:.0f} s: {'met' if ok else 'NOT met'}")
        if "--full" in sys.argv:
            start = time.perf_counter()
            with Review.open(session, root, dry_run=True):
                pass
            full = time.perf_counter() - start
            print(f"  {'open evaluating everything':40s}{full:8.2f} s {full / base:6.1f}x")


if __name__ == "__main__":
    main()
