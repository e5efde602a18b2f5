"""One big file edited many times: ``check``, ``stats`` and a review's decisions, with their
peak memory.

    .venv/bin/python bench/bench_big_file.py [--lines N] [--edits N]

The file is made of the C headers on this machine (``/usr/include/**/*.h``, glued end to
end to about 60,000 lines, read by tree-sitter); the session appends an empty statement
(`` ;``) to 150 member declarations, ten per turn, one File Ops SEARCH/REPLACE each. Each
command runs in its own process, timed and measured by ``/usr/bin/time`` (wall clock, peak
RSS); the review runs ``Review.open``, accepts every operation one by one and asks its
turn's syntax diagnostics after each accept, as the workbench's rows do.

Baselines in the same run: for memory, the bytes of the distinct file versions (issue 13:
at most 2x); for time, building every version's text once (a join and an encode per
version: the floor of any check that reads each version whole) and one tree-sitter parse
of the file. Found on a 59,000-line JavaScript file (2026-12-07): ``check`` 9.7 s and
1.55 GB, ``stats`` 18.8 s and 1.57 GB, the workbench 2.4 GB after 86 accepts.
"""

from __future__ import annotations

import argparse
import json
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src"
_LINE = re.compile(r"^\s+[A-Za-z_][\w \t*]*[\w\]]\s*;\s*$")  # a declaration in a struct


def big_file(lines: int) -> list[str]:
    out: list[str] = []
    for path in sorted(Path("/usr/include").rglob("*.h")):
        try:
            out.extend(path.read_text().splitlines())
        except (UnicodeDecodeError, OSError):
            continue
        if len(out) >= lines:
            break
    return out[:lines]


def make(where: Path, lines: int, edits: int) -> tuple[Path, Path, int]:
    body = big_file(lines)
    if len(body) < lines // 2:
        raise SystemExit(f"only {len(body)} lines of C headers under /usr/include")
    counts: dict[str, int] = {}
    for line in body:
        counts[line] = counts.get(line, 0) + 1
    spots = [i for i in range(1, len(body) - 1) if _LINE.match(body[i])
             and counts[body[i - 1]] == counts[body[i]] == counts[body[i + 1]] == 1]
    random.Random(1).shuffle(spots)
    picked: list[int] = []
    for spot in spots:
        if all(abs(spot - other) > 3 for other in picked):
            picked.append(spot)
        if len(picked) == edits:
            break
    base = where / "base"
    base.mkdir()
    (base / "big.h").write_text("\n".join(body) + "\n")
    turns = []
    for start in range(0, len(picked), 10):
        parts = [f"## Turn {start // 10 + 1}\n> edit\n\n--- File: big.h ---"]
        for n, at in enumerate(sorted(picked[start : start + 10]), 1):
            above, line, below = body[at - 1], body[at], body[at + 1]
            parts.append(f"Edit {n}:\n<<<<<<< SEARCH\n{above}\n{line}\n{below}\n=======\n"
                         f"{above}\n{line} ;\n{below}\n>>>>>>> REPLACE\n")
        parts.append("### Changed files:\n- big.h\n")
        turns.append("\n".join(parts))
    session = where / "session.md"
    session.write_text("\n".join(turns))
    return base, session, len(picked)


REVIEW = r"""
import json, resource, sys, time
from pathlib import Path
from reviewtui.core.engine import Decision
from reviewtui.core.review.diagnostics import diagnose_result
from reviewtui.shell.review import Review
root, session = Path(sys.argv[1]), Path(sys.argv[2])
start = time.perf_counter()
review = Review.open(session, root, persist=False)
keys = [r.key for t in review.draft.turns for r in t.results]
decide = []
for key in keys:
    began = time.perf_counter()
    review.decide(key, Decision.accept())
    for turn in review.draft.turns:
        if turn.index == key[0]:
            for result in turn.results:
                diagnose_result(result)
    decide.append(time.perf_counter() - began)
decide.sort()
print(json.dumps({"seconds": time.perf_counter() - start, "median": decide[len(decide) // 2],
                  "rss": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss}))
"""


def run(args: list[str]) -> tuple[float, int, str]:
    """Wall seconds, peak RSS (KiB, from ``/usr/bin/time``; 0 without it) and standard
    output of ``python args`` in a fresh process. (A headless command ends with
    ``os._exit``: it cannot report its own peak.)"""
    env = {"PYTHONPATH": str(SRC), "PATH": "/usr/bin:/bin"}
    timer = ["/usr/bin/time", "-f", "%M"] if Path("/usr/bin/time").exists() else []
    start = time.perf_counter()
    done = subprocess.run([*timer, sys.executable, *args], capture_output=True, text=True,
                          env=env, check=False)
    took = time.perf_counter() - start
    last = done.stderr.strip().splitlines()[-1:] if timer else []
    return took, int(last[0]) if last and last[0].isdigit() else 0, done.stdout


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--lines", type=int, default=60_000)
    parser.add_argument("--edits", type=int, default=150)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-big-") as tmp:
        base, session, edits = make(Path(tmp), options.lines, options.edits)
        text = (base / "big.h").read_text()
        size = len(text.encode())
        print(f"{options.lines:,}-line C header file ({size / 2**20:.1f} MB), {edits} edits "
              f"in {(edits + 9) // 10} turns", flush=True)
        sys.path.insert(0, str(SRC))
        from reviewtui.core.syntax.parsing import clear_cache, parse

        lines = text.splitlines()
        began = time.perf_counter()
        for _ in range(edits):
            ("\n".join(lines) + "\n").encode()  # each version's text, once
        floor = time.perf_counter() - began
        clear_cache()
        began = time.perf_counter()
        parse("big.h", text)
        one_parse = time.perf_counter() - began
        versions = size * (edits + 1)
        print(f"baselines: every version's text built once {floor:.2f} s; one tree-sitter "
              f"parse {one_parse:.2f} s; distinct versions {versions / 2**20:.0f} MB", flush=True)
        for name, args in (
                ("check", ["-m", "reviewtui", "check", "--root", str(base), str(session)]),
                ("stats", ["-m", "reviewtui", "stats", str(session), "--root", str(base)])):
            took, peak, _ = run(args)
            print(f"{name:7} {took:6.2f} s ({took / floor:5.1f}x the versions' texts), peak "
                  f"RSS {peak / 1024:5.0f} MiB ({peak * 1024 / versions:.2f}x the versions)",
                  flush=True)
        root = Path(tmp) / "root"
        root.mkdir()
        (root / "big.h").write_text(text)
        script = Path(tmp) / "review.py"
        script.write_text(REVIEW)
        took, _, out = run([str(script), str(root), str(session)])
        found = json.loads(out.strip().splitlines()[-1])
        print(f"review: open, {edits} accepts one by one, each with its turn's diagnostics: "
              f"{found['seconds']:.2f} s, a decision {found['median'] * 1000:.0f} ms median, "
              f"peak RSS {found['rss'] / 1024:.0f} MiB "
              f"({found['rss'] * 1024 / versions:.2f}x the versions)", flush=True)


if __name__ == "__main__":
    main()
