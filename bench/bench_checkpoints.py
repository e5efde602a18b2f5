"""Checkpoint switching and memory of the virtual tree.

Builds 1,000 checkpoints of a 200-file tree (each changes 1-3 files through
``FileState.with_lines``, as the engine does), then times ``Checkpoints.switch`` between
random pairs against a baseline measured in the same run: a full comparison of two
plain ``path -> FileState`` dicts, i.e. what a copy-per-checkpoint design would do.
Memory is measured with tracemalloc against the bytes of the distinct file versions.

Run: .venv/bin/python bench/bench_checkpoints.py
"""

from __future__ import annotations

import random
import statistics
import time
import tracemalloc
from collections.abc import Callable, Mapping

from reviewtui.core import tree as tree_module
from reviewtui.core.tree import Checkpoints, DiffEntry, FileState, Tree

TARGET_MS = 5.0
SEED = 1234
CHECKPOINTS = 1_000
PAIRS = 2_000


def _content(rng: random.Random) -> bytes:
    lines = [f"line {i}: " + "x" * rng.randint(10, 60) for i in range(rng.randint(30, 90))]
    return ("\n".join(lines) + "\n").encode()


def nested_paths() -> list[str]:
    return [f"src/pkg{p}/mod{m}/file{f}.py" for p in range(10) for m in range(4) for f in range(5)]


def flat_paths(count: int = 200) -> list[str]:
    return [f"src/file{i}.py" for i in range(count)]


def build(paths: list[str], checkpoints: int, rng: random.Random) -> Checkpoints:
    base = Tree.from_files({p: FileState.from_bytes(_content(rng)) for p in paths})
    cps = Checkpoints([base])
    current = base
    for step in range(checkpoints - 1):
        changes: dict[str, FileState | None] = {}
        for path in rng.sample(paths, rng.randint(1, 3)):
            state = current.get(path)
            assert state is not None
            lines = list(state.lines)
            lines[rng.randrange(len(lines))] = f"changed at step {step}"
            changes[path] = state.with_lines(lines)
        current = current.apply(changes)
        cps.append(current)
    return cps


def full_compare(a: Mapping[str, FileState], b: Mapping[str, FileState]) -> dict[str, DiffEntry]:
    out: dict[str, DiffEntry] = {}
    for path in a.keys() | b.keys():
        x, y = a.get(path), b.get(path)
        if x is not y and x != y:
            out[path] = (x, y)
    return out


def _time_ms(fn: Callable[[int, int], object], a: int, b: int) -> float:
    start = time.perf_counter()
    fn(a, b)
    return (time.perf_counter() - start) * 1000


def compare(cps: Checkpoints, pairs: list[tuple[int, int]], label: str) -> None:
    flat = {i: dict(cps[i].items()) for pair in pairs for i in pair}  # materialised, untimed
    def baseline(a: int, b: int) -> dict[str, DiffEntry]:
        return full_compare(flat[a], flat[b])

    ours, base = [], []
    for a, b in pairs:
        ours.append(_time_ms(cps.switch, a, b))
        base.append(_time_ms(baseline, a, b))
        assert cps.switch(a, b).keys() == baseline(a, b).keys()
    med, worst = statistics.median(ours), max(ours)
    bmed, bworst = statistics.median(base), max(base)
    verdict = "PASS" if worst < TARGET_MS else "FAIL"
    print(f"  {label} (n={len(pairs)}): Tree.diff median {med:.4f} ms, max {worst:.4f} ms"
          f" | baseline dict compare median {bmed:.4f} ms, max {bworst:.4f} ms"
          f" | ratio (median, ours/baseline) {med / bmed:.2f}"
          f" | target max < {TARGET_MS:g} ms: {verdict}")


def random_pairs(n: int, count: int, rng: random.Random) -> list[tuple[int, int]]:
    return [(rng.randrange(n), rng.randrange(n)) for _ in range(count)]


def adjacent_pairs(n: int, count: int, rng: random.Random) -> list[tuple[int, int]]:
    return [(i, i + 1) for i in (rng.randrange(n - 1) for _ in range(count))]


def copy_per_checkpoint(cps: Checkpoints) -> list[dict[str, FileState]]:
    """The baseline design: each checkpoint copies its parent's dict and applies changes."""
    copies = [dict(cps[0].items())]
    for i in range(1, len(cps)):
        current = copies[-1].copy()
        for path, (_, new) in cps.switch(i - 1, i).items():
            if new is None:
                del current[path]
            else:
                current[path] = new
        copies.append(current)
    return copies


def _distinct_bytes(cps: Checkpoints) -> tuple[int, int]:
    seen: dict[int, FileState] = {}
    for i in range(len(cps)):
        for _, state in cps[i].items():
            seen[id(state)] = state
    return len(seen), sum(len(s.data) for s in seen.values())


def _drop_line_caches() -> None:
    # The bounded decode caches belong to the matcher's working set, not to checkpoints.
    tree_module._split_lines.cache_clear()
    tree_module._decode.cache_clear()


def memory(paths: list[str], label: str) -> None:
    _drop_line_caches()
    tracemalloc.start()
    cps = build(paths, CHECKPOINTS, random.Random(SEED))
    _drop_line_caches()
    ours = tracemalloc.get_traced_memory()[0]
    copies = copy_per_checkpoint(cps)
    with_copies = tracemalloc.get_traced_memory()[0]
    tracemalloc.stop()
    del copies  # alive until measured
    versions, data = _distinct_bytes(cps)
    mib = 1024 * 1024
    overhead, dicts = ours - data, with_copies - ours
    print(f"  {label}: {versions} distinct file versions = {data / mib:.2f} MiB of bytes;"
          f" all {len(cps)} checkpoints hold {ours / mib:.2f} MiB ({ours / data:.2f}x the"
          f" bytes): overhead {overhead / mib:.2f} MiB (file records + shared directories)"
          f" | baseline, one dict copy per checkpoint: {dicts / mib:.2f} MiB of dicts alone"
          f" | ratio (overhead / baseline dicts) {overhead / dicts:.2f}")


def main() -> None:
    rng = random.Random(SEED)
    print(f"checkpoint switching: {CHECKPOINTS} checkpoints, 1-3 files changed per checkpoint")
    layouts = [("nested 200 files (10 pkgs x 4 dirs x 5 files)", nested_paths()),
               ("flat 200 files in one directory (worst case for sharing)", flat_paths())]
    for label, paths in layouts:
        cps = build(paths, CHECKPOINTS, random.Random(SEED))
        print(f" {label}:")
        compare(cps, random_pairs(len(cps), PAIRS, rng), "random pairs")
        compare(cps, adjacent_pairs(len(cps), PAIRS, rng), "adjacent pairs")
    big = [f"pkg{p}/sub{s}/file{f}.txt" for p in range(40) for s in range(25) for f in range(20)]
    cps = build(big, 200, random.Random(SEED))
    print(" scaling: 20,000 files, 200 checkpoints:")
    compare(cps, random_pairs(len(cps), 200, rng), "random pairs")
    compare(cps, adjacent_pairs(len(cps), 200, rng), "adjacent pairs")
    print("memory (tracemalloc, decode caches dropped):")
    memory(nested_paths(), "nested 200 files")
    memory(flat_paths(), "flat 200 files")


if __name__ == "__main__":
    main()
