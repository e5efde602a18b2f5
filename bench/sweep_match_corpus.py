"""The matcher's corpus test, swept wide: every stdlib file, many seeds.

``tests/core/test_match_corpus.py`` generates edits over 40 standard-library files with
one seed, perturbs them the way models mistype, and counts a *wrong* result (a file
changed to anything but the intended one) as a failure. That sample is the suite's; this
script runs the same generator and judge over every stdlib file of 80-6,000 lines with
as many seeds as asked, so a rule that holds on the sample but not beyond shows up. On
2026-12-02 eleven seeds (136,061 edits) found 18 wrong files on that morning's code, all
re-indentations in tab-indented files (the generator tabs every file for one category);
the test's own sample had none.

Prints, per seed: edits, safe skips (refused, not found, ambiguous, needs review), wrong
and edits per second, then the first wrong cases in full.

Run: ``.venv/bin/python bench/sweep_match_corpus.py [SEEDS] [FIRST_SEED]`` (defaults:
2 seeds from 1000; about a minute each). Another interpreter's stdlib is another corpus:
run it with that interpreter (with reviewtui importable). Not part of ``make bench``: it
measures correctness, not speed.
"""

from __future__ import annotations

import importlib.util
import sys
import time
from pathlib import Path
from typing import Any

TEST = Path(__file__).resolve().parents[1] / "tests" / "core" / "test_match_corpus.py"
SHOWN = 10


def _corpus_module() -> Any:
    spec = importlib.util.spec_from_file_location("match_corpus_test", TEST)
    if spec is None or spec.loader is None:
        raise SystemExit(f"cannot load {TEST}")
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # (its dataclasses look their module up)
    spec.loader.exec_module(module)
    return module


def main() -> int:
    seeds = int(sys.argv[1]) if len(sys.argv) > 1 else 2
    first = int(sys.argv[2]) if len(sys.argv) > 2 else 1000
    mc = _corpus_module()
    mc.FILES = 10_000  # every usable file, not the test's sample
    total = wrong = 0
    failures: list[str] = []
    files = len(mc._stdlib_files())
    print(f"{files} stdlib files of 80-6,000 lines under {sys.prefix}")
    for seed in range(first, first + seeds):
        mc.SEED = seed
        mc._tabbed.cache_clear()
        began = time.perf_counter()
        table, found = mc._run_corpus()
        took = time.perf_counter() - began
        edits = sum(sum(counts.values()) for counts in table.values())
        skipped = sum(mc._skipped(counts) for counts in table.values())
        total += edits
        wrong += len(found)
        failures += found
        print(f"seed {seed}: {edits:6d} edits, {skipped:4d} skipped safely, "
              f"{len(found)} wrong ({edits / took:,.0f} edits/s)", flush=True)
    print(f"\n{total} edits over {seeds} seeds: {wrong} wrong")
    for failure in failures[:SHOWN]:
        print("\n" + failure)
    return 1 if wrong else 0


if __name__ == "__main__":
    raise SystemExit(main())
