"""Start-up and the cost of replaying one small diff (issue 14; issue 13, "Headless start-up").

Replaying a real commit's diff with ``reviewtui apply --format unified`` cost 33-100 ms
of CPU against 1-4 ms for ``git apply``, plus ~0.3 s of start-up for any command. This
bench says where that goes, with baselines measured in the same run:

* process CPU (user + system of the child) of ``python -c "import json"`` (the floor of
  any Python command), ``reviewtui --help``, ``reviewtui check`` on a one-turn session
  (and, for comparison, the same ``check`` left to the interpreter's own exit instead of
  the entry point's ``os._exit``),
  ``reviewtui apply --format unified`` of a small generated diff, and ``git apply`` of the
  same diff (when git is installed); the baseline and ``check``, which the bound compares,
  run in turn over 15 rounds so that both see the same load;
* inside one process, after the imports: the work of ``check`` and ``apply`` alone (the
  project file differs in each run, so no per-content cache answers for it);
* where ``check``'s CPU goes in one child: importing, the building of the ``@record``
  classes inside that (``core/record.py``: its own bookkeeping plus one
  ``__init__`` per class, compiled once per shape), then ``main()``;
* ``python -X importtime`` of each headless path (``--help``, ``check``, ``apply``,
  ``stats``, ``export``): the import time in all (each module's least of the runs), the
  packages that cost most, and whether textual, rich, pygments or textual-serve were
  imported (they must not be);
* the ratio issue 13 sets a bound on: ``check``'s process CPU against the baseline plus
  the work alone (at most 2x);
* records at run time: ``__init__``, ``==`` and ``hash`` of a ``@record`` class against
  the same class built by the stock ``@dataclass`` (they must not be slower).

The package's modules are byte-compiled first (``compileall``): with
``PYTHONDONTWRITEBYTECODE`` set, as on the project's machines, every child would compile
them from source, which a user's installed copy never does.

Run: ``.venv/bin/python bench/bench_startup.py``.
"""

from __future__ import annotations

import compileall
import contextlib
import io
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

REPO = Path(__file__).resolve().parents[1]
RUNS = 5
PAIR_ROUNDS = 15
UI_STACK = frozenset({"textual", "rich", "pygments", "textual_serve"})
HEAVIEST = 6


def _one_child_cpu(cmd: list[str], cwd: Path) -> float:
    """CPU seconds (user + system) of one run of ``cmd`` as a child process."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    subprocess.run(cmd, cwd=cwd, capture_output=True, check=False)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def _child_cpu(cmd: list[str], cwd: Path) -> float:
    """Median CPU seconds (user + system) of ``cmd`` as a child process."""
    return statistics.median(_one_child_cpu(cmd, cwd) for _ in range(RUNS))


def _interleaved_cpu(cmds: list[list[str]], cwd: Path, rounds: int) -> list[float]:
    """Median child CPU of each command, the commands run in turn round after round.

    On a shared machine the load drifts within seconds; measured one after the other, a
    baseline and the command it is compared with can fall in different loads. In turn, each
    round's pair sees the same load, and the medians compare like with like.
    """
    samples: list[list[float]] = [[] for _ in cmds]
    for _ in range(rounds):
        for cmd, taken in zip(cmds, samples, strict=True):
            taken.append(_one_child_cpu(cmd, cwd))
    return [statistics.median(taken) for taken in samples]


def _project(tmp: Path) -> tuple[Path, Path, Path]:
    base = tmp / "base"
    base.mkdir()
    lines = [f"def f{i}(x):\n    return x + {i}\n\n" for i in range(200)]
    (base / "mod.py").write_text("".join(lines))
    session = tmp / "one-turn.md"
    session.write_text("## Turn 1\n--- File: mod.py ---\n<<<<<<< SEARCH\ndef f7(x):\n"
                       "    return x + 7\n=======\ndef f7(x):\n    return x + 70\n"
                       ">>>>>>> REPLACE\n")
    diff = tmp / "change.diff"
    diff.write_text("diff --git a/mod.py b/mod.py\n--- a/mod.py\n+++ b/mod.py\n"
                    "@@ -22,3 +22,3 @@\n \n def f7(x):\n-    return x + 7\n+    return x + 70\n"
                    "@@ -61,2 +61,2 @@\n def f20(x):\n-    return x + 20\n+    return x + 21\n")
    return base, session, diff


def main() -> None:
    python = sys.executable
    compileall.compile_dir(REPO / "src" / "reviewtui", quiet=1)
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as name:
        tmp = Path(name)
        base, session, diff = _project(tmp)
        reviewtui = [python, "-m", "reviewtui"]
        # The pair the bound compares, in turn (see _interleaved_cpu), over more rounds.
        floor, checked_cpu = _interleaved_cpu(
            [[python, "-c", "import json"],
             [*reviewtui, "check", str(session), "--root", str(base)]], tmp, PAIR_ROUNDS)
        rows = [("python -c 'import json' (baseline)", floor),
                ("reviewtui --help", _child_cpu([*reviewtui, "--help"], tmp)),
                ("reviewtui check (one-turn session)", checked_cpu),
                # For comparison: the same check ended by the interpreter's own exit (the
                # entry point ends a headless command with os._exit instead).
                ("  the same, with the interpreter's own exit",
                 _child_cpu([python, "-c", _USUAL_END, "check", str(session), "--root",
                             str(base)], tmp))]
        scratch = tmp / "apply"

        def fresh() -> None:
            shutil.rmtree(scratch, ignore_errors=True)
            shutil.copytree(base, scratch)

        fresh()
        applies = []
        for _ in range(RUNS):
            fresh()
            applies.append(_child_cpu([*reviewtui, "apply", str(diff), "--format", "unified",
                                       "--root", str(scratch), "--yes"], tmp))
        rows.append(("reviewtui apply --format unified (2 hunks)", statistics.median(applies)))
        git = shutil.which("git")
        if git:
            gits = []
            for _ in range(RUNS):
                fresh()
                gits.append(_child_cpu([git, "apply", "--unsafe-paths", "--directory",
                                        str(scratch.relative_to(tmp)), str(diff)], tmp))
            rows.append(("git apply (same diff)", statistics.median(gits)))
        print(f"process CPU, median of {RUNS} (user + system); the baseline and check: "
              f"median of {PAIR_ROUNDS} rounds, run in turn")
        for label, seconds in rows:
            print(f"  {label:44} {seconds * 1000:8.1f} ms   x{seconds / floor:5.1f} "
                  "of the python baseline")

        # The work alone, in this process, once everything is imported.
        sys.path.insert(0, str(REPO / "src"))
        from reviewtui.cli import main as cli_main

        made = iter(range(1 << 30))

        def work(args: list[str]) -> float:
            samples = []
            for _ in range(RUNS):
                fresh()
                # A comment line never written before: the per-content caches (syntax
                # checks, matcher indexes) miss, as they do in a fresh process. (Numbered
                # per call, the warm-up's five texts came back and the check's syntax
                # parse was left out of "the work": 1.3 ms against ~4 ms.)
                with (scratch / "mod.py").open("a") as mod:
                    mod.write(f"# run {next(made)}\n")
                started = time.process_time()
                with contextlib.redirect_stdout(io.StringIO()):
                    cli_main(args)
                samples.append(time.process_time() - started)
            return statistics.median(samples)

        checked = ["check", str(session), "--root", str(scratch)]
        work(checked)  # imports
        print("\nthe work alone, in-process after the imports (median CPU; the project "
              "file differs each run, so no cache answers)")
        print(f"  check (one-turn session)                    {work(checked) * 1000:8.1f} ms")
        applied = work(["apply", str(diff), "--format", "unified", "--root", str(scratch),
                        "--yes"])
        print(f"  apply --format unified (2 hunks)            {applied * 1000:8.1f} ms")

        check_cpu = rows[2][1]
        alone = work(checked)
        ratio = check_cpu / (floor + alone)
        print(f"\nreviewtui check: {check_cpu * 1000:.1f} ms against baseline + work = "
              f"{floor * 1000:.1f} + {alone * 1000:.1f} ms: x{ratio:.1f} (issue 13 bound: "
              f"x2.0, {'meets' if ratio <= 2.0 else 'MISSES'})")

        print("\nwhere check's process CPU goes (one child, median of "
              f"{RUNS}): {_split(python, session, base, tmp)}")

        fresh()
        paths = {
            "--help": ["--help"],
            "check": ["check", str(session), "--root", str(base)],
            "apply": ["apply", str(diff), "--format", "unified", "--root", str(scratch),
                      "--yes"],
            "stats": ["stats", str(session), "--root", str(base)],
            "export": ["export", str(session), "--root", str(base), "--format", "json"],
        }
        print(f"\npython -X importtime, per headless path (each module's least self time "
              f"of {RUNS} runs, summed per package; reviewtui by subpackage)")
        for label, args in paths.items():
            reports, codes = [], set()
            for _ in range(RUNS):  # each module's least self time over the runs: less noise
                fresh()
                done = subprocess.run([python, "-X", "importtime", "-m", "reviewtui", *args],
                                      capture_output=True, text=True, cwd=tmp)
                reports.append(done.stderr)
                codes.add(done.returncode)
            total, count, heaviest, ui = _importtime(reports)
            failed = "" if codes <= {0, 1} else f" (exit {sorted(codes)})"
            print(f"  {label:7} {total / 1000:6.1f} ms in {count:3d} modules; UI stack: "
                  f"{', '.join(ui) if ui else 'none'}{failed}")
            print("          " + ", ".join(f"{key} {micros / 1000:.1f}"
                                          for key, micros in heaviest))
        _record_speed()


_USUAL_END = "import sys; from reviewtui.cli import main; raise SystemExit(main())"

_SPLIT = """
import io, contextlib, sys, time
spent = [0, 0.0]
started = time.process_time()
import reviewtui.core.record as record
build = record._build
def timed(*args, **kwargs):
    began = time.process_time()
    try:
        return build(*args, **kwargs)
    finally:
        spent[0] += 1
        spent[1] += time.process_time() - began
record._build = timed
from reviewtui.cli import main
import reviewtui.cli.commands
imported = time.process_time()
with contextlib.redirect_stdout(io.StringIO()):
    main(sys.argv[1:])
done = time.process_time()
print(imported - started, spent[0], spent[1], int("dataclasses" in sys.modules),
      done - imported)
"""


def _split(python: str, session: Path, base: Path, tmp: Path) -> str:
    """Imports (and the @record building inside them) and the first run of main()."""
    rows = []
    for _ in range(RUNS):
        done = subprocess.run([python, "-c", _SPLIT, "check", str(session), "--root",
                               str(base)], capture_output=True, text=True, cwd=tmp)
        imports, classes, building, stock, running = done.stdout.split()
        rows.append((float(imports), int(classes), float(building), int(stock),
                     float(running)))
    imports, building, running = (statistics.median(r[k] for r in rows) for k in (0, 2, 4))
    stock = "yes" if any(r[3] for r in rows) else "no"
    return (f"importing reviewtui {imports * 1000:.1f} ms, of which building "
            f"{rows[0][1]} @record classes {building * 1000:.1f} ms (dataclasses imported: "
            f"{stock}); then main() {running * 1000:.1f} ms (parser, the lazy imports, "
            "the work)")


_RECORD_CASES = {
    "__init__, frozen, 5 fields": "Point(1, 's', (1,), 2, True)",
    "__init__, a default_factory": "Bag(1)",
    "==, 5 fields": "one == two",
    "hash, 5 fields": "hash(one)",
}


def _record_speed() -> None:
    """The methods of a record at run time (the engine makes hundreds of thousands):
    @record against the stock @dataclass, in alternating rounds, best of each."""
    import dataclasses
    import timeit

    from reviewtui.core.record import record

    def classes(decorator: Any) -> dict[str, Any]:
        @decorator(frozen=True, slots=True)
        class Point:
            a: int
            b: str
            c: tuple[int, ...]
            d: int = 0
            e: bool = False

        @decorator(slots=True)
        class Bag:
            a: int
            items: list[int] = dataclasses.field(default_factory=list)

        return {"Point": Point, "Bag": Bag, "one": Point(1, "s", (1,), 2, True),
                "two": Point(1, "s", (1,), 2, True)}

    made = {"dataclass": classes(dataclasses.dataclass), "record": classes(record)}
    best: dict[tuple[str, str], float] = {}
    number = 20_000
    for _ in range(15):
        for name, names in made.items():
            for case, statement in _RECORD_CASES.items():
                took = timeit.timeit(statement, globals=names, number=number) / number
                best[case, name] = min(took, best.get((case, name), took))
    print("\nrecords at run time (ns per call, best of 15 alternating rounds; must not be "
          "slower than the stock @dataclass)")
    for case in _RECORD_CASES:
        stock, ours = best[case, "dataclass"] * 1e9, best[case, "record"] * 1e9
        print(f"  {case:32} @dataclass {stock:6.0f}   @record {ours:6.0f}   "
              f"x{ours / stock:4.2f}")


def _importtime(reports: list[str]) -> tuple[int, int, list[tuple[str, int]], list[str]]:
    """(total µs, modules, the heaviest packages, UI-stack packages) of -X importtime
    reports of the same command: each module's self time is its least over the reports."""
    least: dict[str, int] = {}
    for stderr in reports:
        for line in stderr.splitlines():
            if not line.startswith("import time:") or "|" not in line or "self" in line:
                continue
            own, _, name = line[len("import time:"):].split("|")
            module = name.strip()
            least[module] = min(int(own), least.get(module, int(own)))
    by_package: dict[str, int] = defaultdict(int)
    modules = list(least)
    for module, own in least.items():
        parts = module.split(".")
        key = ".".join(parts[:3]) if parts[0] == "reviewtui" else parts[0]
        by_package[key] += own
    heaviest = sorted(by_package.items(), key=lambda kv: -kv[1])[:HEAVIEST]
    ui = sorted({m.split(".")[0] for m in modules} & UI_STACK)
    return sum(by_package.values()), len(modules), heaviest, ui


if __name__ == "__main__":
    main()
