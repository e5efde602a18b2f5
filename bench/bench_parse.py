"""Parsing speed: a generated ~5 MB session of thousands of turns.

Prints the time per MB and the ratio to a plain ``str.splitlines()`` pass over the
same text, measured in the same run (target: under 20x). Run: ``make bench``.
"""

from __future__ import annotations

import random
import statistics
import time

from reviewtui.core.protocol.session import parse_session

TARGET_RATIO = 20.0


def make_turn(rng: random.Random, n: int) -> str:
    code = [f"    value_{n}_{k} = compute({k}, '{rng.random():.6f}')"
            for k in range(rng.randint(2, 8))]
    body = "\n".join(f"line {n}.{k}: " + "x" * rng.randint(10, 70) for k in range(40))
    return "\n".join([
        f"## Turn {n}",
        f"> Please update module {n} and document it.",
        "",
        "```console",
        f":mv src/old_{n}.py src/mod_{n}.py",
        "```",
        "",
        f"--- File: src/mod_{n}.py ---",
        "Edit 1",
        "<<<<<<< SEARCH",
        *code,
        "=======",
        *(line.replace("compute", "compute_fast") for line in code),
        ">>>>>>> REPLACE",
        "",
        "Edit 2",
        "<<<<<<< SEARCH",
        f"def f_{n}():",
        "=======",
        f"def f_{n}(x: int) -> int:",
        ">>>>>>> REPLACE",
        "",
        f"--- File: docs/mod_{n}.md ---",
        "```markdown",
        body,
        "```",
        "",
        "### Changed files:",
        f"- src/mod_{n}.py",
        f"- docs/mod_{n}.md (new)",
        "",
    ])


def make_session(megabytes: float) -> str:
    rng = random.Random(7)
    parts = ["# Session: benchmark", ""]
    size = 0
    n = 0
    while size < megabytes * 1_000_000:
        n += 1
        turn = make_turn(rng, n)
        parts.append(turn)
        size += len(turn) + 1
    return "\n".join(parts)


def best_of(fn, runs: int = 5) -> float:  # type: ignore[no-untyped-def]
    times = []
    for _ in range(runs):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times), statistics.median(times)


def main() -> None:
    text = make_session(5.0)
    mb = len(text.encode()) / 1_000_000
    session = parse_session(text, "bench.md")
    ops = sum(len(t.reply.ops) for t in session.turns)
    base_best, base_median = best_of(lambda: text.splitlines())
    parse_best, parse_median = best_of(lambda: parse_session(text, "bench.md"), runs=3)
    print(f"session: {mb:.2f} MB, {len(session.turns)} turns, {ops} operations")
    print(f"str.splitlines : {base_best * 1000:8.1f} ms (median {base_median * 1000:.1f})")
    print(f"parse_session  : {parse_best * 1000:8.1f} ms (median {parse_median * 1000:.1f})"
          f"  = {parse_best * 1000 / mb:.1f} ms/MB")
    ratio = parse_best / base_best
    verdict = "ok" if ratio < TARGET_RATIO else "OVER TARGET"
    print(f"ratio to splitlines: {ratio:.1f}x (target < {TARGET_RATIO:.0f}x) {verdict}")
    # Linearity: half the text should take about half the time.
    half = text[: len(text) // 2]
    half_best, _ = best_of(lambda: parse_session(half, "bench.md"), runs=3)
    print(f"half the text  : {half_best * 1000:8.1f} ms (full/half = {parse_best / half_best:.2f},"
          " linear = 2.0)")


if __name__ == "__main__":
    main()
