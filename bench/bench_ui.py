"""The workbench under load: a generated 500-turn, 5,000-operation session.

Drives the app headless (``App.run_test``) and prints: opening the review (parse +
two evaluations), the first paint, moving between operations and checkpoints, one
decision (evaluate + replay + save), and opening a 20,000-line full-file diff.
Baseline, measured in the same run: an empty App's first paint. Run: ``make bench``.
"""

from __future__ import annotations

import asyncio
import shutil
import statistics
import tempfile
import time
from pathlib import Path

from textual.app import App

from reviewtui.shell.review import Review
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.screens.main import MainScreen

TURNS = 500
OPS_PER_TURN = 10
FILES = 100
TARGET_FIRST_PAINT = 1.0


def make_session(folder: Path) -> Path:
    """Turn t edits file (t*k) % FILES: each edit changes one line the previous left."""
    base = folder / "base"
    for f in range(FILES):
        path = base / f"pkg{f // 10}" / f"mod{f:03}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        lines = [f"def f{n}(x):\n    return x + {n}\n\n" for n in range(OPS_PER_TURN * 4)]
        path.write_text(f"# module {f}\n" + "".join(lines))
    big = base / "big.py"
    big.write_text("".join(f"value_{n} = {n}\n" for n in range(20_000)))
    parts = ["# Session: generated load test", ""]
    for t in range(1, TURNS + 1):
        f = t % FILES
        rel = f"pkg{f // 10}/mod{f:03}.py"
        version = (t - 1) // FILES
        parts += [f"## Turn {t}", f"> Bump module {f} (round {version}).", "",
                  f"--- File: {rel} ---"]
        for n in range(OPS_PER_TURN):
            k = n * 4
            parts += [f"Edit {n + 1}", "<<<<<<< SEARCH", f"    return x + {k}"
                      + ("" if version == 0 else f"  # r{version}"),
                      "=======", f"    return x + {k}  # r{version + 1}", ">>>>>>> REPLACE", ""]
        parts += ["### Changed files:", f"- {rel}", ""]
    parts += [f"## Turn {TURNS + 1}", "> Rewrite the big file.", "", "--- File: big.py ---",
              "```python", *(f"value_{n} = {n * 2}" for n in range(20_000)), "```", ""]
    session = folder / "session.md"
    session.write_text("\n".join(parts))
    return folder


async def first_paint_baseline() -> float:
    start = time.perf_counter()
    async with App().run_test(size=(120, 40)) as pilot:
        await pilot.pause()
    return time.perf_counter() - start


async def drive(folder: Path) -> dict[str, float | list[float]]:
    figures: dict[str, float | list[float]] = {}
    root = Path(tempfile.mkdtemp(prefix="reviewtui-bench-root-"))
    shutil.copytree(folder / "base", root, dirs_exist_ok=True)
    start = time.perf_counter()
    review = Review.open(folder, root, dry_run=True)
    figures["open review"] = time.perf_counter() - start
    app = ReviewApp(review, watch=False)
    start = time.perf_counter()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        figures["first paint (until the Pilot is idle)"] = time.perf_counter() - start
        screen = app.screen
        assert isinstance(screen, MainScreen)
        assert screen.first_frame_at is not None
        figures["first frame drawn"] = screen.first_frame_at - start
        idle = []
        for _ in range(30):
            t0 = time.perf_counter()
            await pilot.press("f12")  # bound to nothing: the Pilot's own cost per key
            await pilot.pause()
            idle.append(time.perf_counter() - t0)
        figures["unbound key (pilot overhead)"] = idle
        moves = []
        for _ in range(30):
            t0 = time.perf_counter()
            await pilot.press("J")
            await pilot.pause()
            moves.append(time.perf_counter() - t0)
        figures["next operation"] = moves
        scrubs = []
        for _ in range(30):
            t0 = time.perf_counter()
            await pilot.press("full_stop")
            await pilot.pause()
            scrubs.append(time.perf_counter() - t0)
        figures["next checkpoint"] = scrubs
        decisions = []
        for turn_pos in (TURNS - 1, TURNS // 2, 0):
            screen.select(turn_pos, 0)
            t0 = time.perf_counter()
            await pilot.press("y")
            await pilot.pause()
            decisions.append(time.perf_counter() - t0)
        figures["decision (last, middle, first turn)"] = decisions
        t0 = time.perf_counter()
        screen.select(TURNS, 0)
        figures["select it (UI thread, diff in a worker)"] = time.perf_counter() - t0
        await app.workers.wait_for_complete()
        await pilot.pause()
        figures["20k-line full-file diff shown"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        await pilot.press("end")
        await pilot.pause()
        figures["scroll to its end"] = time.perf_counter() - t0
    review.close()
    shutil.rmtree(root)
    return figures


def show(name: str, value: float | list[float]) -> None:
    if isinstance(value, list):
        print(f"{name:38} median {statistics.median(value) * 1000:8.1f} ms   "
              f"max {max(value) * 1000:8.1f} ms")
    else:
        print(f"{name:38} {value * 1000:8.1f} ms")


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        folder = make_session(Path(tmp))
        baseline = asyncio.run(first_paint_baseline())
        figures = asyncio.run(drive(folder))
    print(f"session: {TURNS + 1} turns, {TURNS * OPS_PER_TURN + 1} operations, "
          f"{FILES + 1} files")
    show("empty App first paint (baseline)", baseline)
    for name, value in figures.items():
        show(name, value)
    paint = figures["first frame drawn"]
    assert isinstance(paint, float)
    total = paint + float(figures["open review"])  # type: ignore[arg-type]
    print(f"open + first frame: {total:.2f} s (target < {TARGET_FIRST_PAINT:.0f} s), "
          f"{paint / baseline:.1f}x an empty app's first paint")


if __name__ == "__main__":
    main()
