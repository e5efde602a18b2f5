"""Diff speed: ``build_diff`` and the DiffView's first paint on 1k and 20k-line files.

Each case is a Python-like file against a version with a few scattered edits, with
every line changed, or (a harder input for the line diff) with every third function
edited. For each it prints:

- ``build_diff``: the median time to build the rows (pairing and word spans included),
  with its ratio to a plain ``difflib.SequenceMatcher(None, a, b).get_opcodes()`` on the
  same lines, measured in this run (the baseline finds the blocks only; it neither
  pairs lines nor marks words, and it is quadratic on big files with many changes).
- ``set_diff``, ``40 rows`` and ``paint``: the call, rendering one screen of rows on a
  cold strip cache, and the call plus the repaint of a 120x40 headless app
  (``App.run_test``), with every unchanged run expanded as for a whole file and the
  colours ready; ``idle`` is a repaint with nothing changed (the pilot's own cost, the
  baseline for ``paint``); ``end``: the End key and the repaint at the last row.
- ``colour``: pygments highlighting of both texts (the worker's job, done off the event
  loop; the view paints plain until it lands).

What the bench itself holds (every earlier case's lines, rows and colours) is frozen
before each app's timed parts, as the workbench freezes what it keeps between keys
(``ui/collector.py``): a collector's walk of the bench's own objects landed in the paint
window (a full one took the 20,000-line paint from ~45 to ~115 ms) and said nothing of
the view. Walks of what the view itself makes are still timed. (Frozen, not collected
first: a collection returned memory that the paint then faulted back in, ~20 ms more on
a 1,000-line paint.)

Targets: a 20,000-line full-file diff builds in well under a second (< 500 ms here)
and paints in under 100 ms. Run: ``.venv/bin/python bench/bench_diff.py``.
"""

from __future__ import annotations

import asyncio
import gc
import statistics
import time
from collections.abc import Callable
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import partial

from textual.app import App, ComposeResult

from reviewtui.core.text.diff import build_diff
from reviewtui.ui.highlight import clear_cache, highlight_lines
from reviewtui.ui.widgets.diff_view import DiffView

SIZES = (1_000, 20_000)
BUILD_TARGET_MS = 500.0  # 20k lines
PAINT_TARGET_MS = 100.0
EVERYTHING = frozenset(range(1_000_000))


def make_file(size: int) -> list[str]:
    """Python-like functions of six lines, each with its own names."""
    lines: list[str] = []
    n = 0
    while len(lines) < size:
        lines += [
            f"def handler_{n}(request, retries={n % 7}):",
            f'    payload = decode_{n}(request.body, "utf-8")',
            f"    if payload.size > {n}:",
            f'        return respond_{n}(payload, status="ok")',
            "    return None",
            "",
        ]
        n += 1
    return lines[:size]


@dataclass(frozen=True)
class Case:
    name: str
    before: list[str]
    after: list[str]


def make_cases(size: int) -> list[Case]:
    before = make_file(size)
    few = list(before)
    for n in range(1, 11):  # ten edits spread over the file
        index = n * size // 11 // 6 * 6 + 2
        few[index] = few[index].replace(">", ">=")
    every = [line.replace("payload", "data") + "  # reviewed" if line else line
             for line in before]
    striped = [line.replace("payload", "body") if (n // 6) % 3 == 0 else line
               for n, line in enumerate(before)]
    return [Case("few changes", before, few), Case("all changed", before, every),
            Case("every 3rd function", before, striped)]


def plain_opcodes(before: list[str], after: list[str]) -> object:
    """The baseline: difflib's line diff as it comes."""
    return SequenceMatcher(None, before, after).get_opcodes()


def median_ms(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        run()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


class BenchApp(App[None]):
    def compose(self) -> ComposeResult:
        yield DiffView()


@dataclass(frozen=True)
class Paint:
    set_diff: float  # the call itself
    rows: float  # rendering one screen of rows (40 render_line calls, cold cache)
    paint: float  # set_diff, then the headless app's repaint (pilot.pause)
    idle: float  # a repaint with nothing changed: the pilot's own overhead
    end: float  # the End key and the repaint at the last row


async def paint_ms(case: Case) -> Paint:
    model = build_diff(case.before, case.after, expanded=EVERYTHING)
    before_text, after_text = "\n".join(case.before), "\n".join(case.after)
    # Colours are computed ahead (timed apart, as the worker does it off the loop).
    highlight_lines("bench.py", before_text)
    highlight_lines("bench.py", after_text)
    app = BenchApp()
    async with app.run_test(size=(120, 40)) as pilot:
        view = app.query_one(DiffView)
        view.focus()
        await pilot.pause()
        # (see the module's doc: the bench's own objects are not walked)
        gc.freeze()
        began = time.perf_counter()
        view.refresh()
        await pilot.pause()
        idle = time.perf_counter() - began

        began = time.perf_counter()
        view.set_diff(model, path="bench.py", before_text=before_text, after_text=after_text)
        called = time.perf_counter() - began
        await pilot.pause()
        painted = time.perf_counter() - began

        view.set_mode("unified")  # clears the strip cache
        view.set_mode("split")
        began = time.perf_counter()
        for y in range(view.scrollable_content_region.height):
            view.render_line(y)
        rows = time.perf_counter() - began

        began = time.perf_counter()
        await pilot.press("end")
        await pilot.pause()
        ended = time.perf_counter() - began
        if view.cursor_row != len(model.rows) - 1:
            raise SystemExit(f"{case.name}: End did not reach the last row")
    gc.unfreeze()
    return Paint(called * 1000, rows * 1000, painted * 1000, idle * 1000, ended * 1000)


def colour_ms(case: Case) -> float:
    clear_cache()
    began = time.perf_counter()
    highlight_lines("bench.py", "\n".join(case.before))
    highlight_lines("bench.py", "\n".join(case.after))
    return (time.perf_counter() - began) * 1000


def main() -> None:
    print(f"{'lines':>6}  {'case':<19} {'build_diff':>10} {'difflib':>9} {'ratio':>7}"
          f" {'rows':>6} {'set_diff':>8} {'40 rows':>8} {'paint':>8} {'idle':>7}"
          f" {'end':>7} {'colour':>8}  notes")
    asyncio.run(paint_ms(make_cases(100)[0]))  # warm up: the first app loads its CSS
    for size in SIZES:
        repeat = 9 if size < 10_000 else 3
        for case in make_cases(size):
            built = median_ms(partial(build_diff, case.before, case.after), repeat)
            base = median_ms(partial(plain_opcodes, case.before, case.after), repeat)
            model = build_diff(case.before, case.after)
            coloured = colour_ms(case)
            paint = asyncio.run(paint_ms(case))
            notes = "; ".join(model.notes)
            flags = []
            if size == SIZES[-1] and built >= BUILD_TARGET_MS:
                flags.append("BUILD TARGET MISSED")
            if paint.paint >= PAINT_TARGET_MS:
                flags.append("PAINT TARGET MISSED")
            print(f"{size:>6}  {case.name:<19} {built:>7.1f} ms {base:>6.1f} ms"
                  f" {built / base:>6.2f}x {len(model.rows):>6} {paint.set_diff:>5.1f} ms"
                  f" {paint.rows:>5.1f} ms {paint.paint:>5.1f} ms {paint.idle:>4.1f} ms"
                  f" {paint.end:>4.1f} ms {coloured:>5.0f} ms  {notes}"
                  f"{'  ' + ', '.join(flags) if flags else ''}")
    print("build_diff: rows of the default view (context 3); difflib: SequenceMatcher(None,"
          " a, b).get_opcodes(), the plain line diff, measured in this run")
    print("paint: set_diff + repaint of a 120x40 headless app with every run expanded; "
          "idle: a repaint with nothing changed (the pilot's own cost)")
    print(f"targets: build_diff < {BUILD_TARGET_MS:.0f} ms at {SIZES[-1]:,} lines; "
          f"paint < {PAINT_TARGET_MS:.0f} ms")


if __name__ == "__main__":
    main()
