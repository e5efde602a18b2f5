"""``reviewtui apply`` at real sizes, beside the tools a user would pick instead.

Sessions are generated from real files on this machine (the Python standard library's
``.py`` files): every edit is a SEARCH/REPLACE of three unique lines, changing the
middle one. The cases:

- ``191 edits in 10k-line files``: ten files of 10,000 lines (real files glued end to
  end), 191 edits over 20 turns, each adding a comment (``# edit N``) to its middle line;
- ``191 code edits``: the same files and turns, each edit changing code on a line that
  holds one simple statement (its first integer constant, or a statement appended with
  ``;``), so every file still parses but the syntax report cannot prove it from the
  tokens alone;
- ``5,000 edits / 500 turns / 200 files``;
- growth: 500 -> 5,000 -> 50,000 operations (50, 500, 5,000 turns of ten edits over 200
  files); apply time per step and the process's peak memory against the bytes of the
  distinct file versions (base files plus every edit's result);
- one decision, undo and redo in a 5,000-operation session through ``Review`` (median;
  an accept, then a reject, each undone and redone), and in the growth cases of 5,000
  and 50,000 operations side by side (issue 13's scale target is the 50,000-operation
  one), there also with half the operations accepted first (a review well under way).

Baselines measured in the same run:

- aider's matcher in-process (``aider.coders.editblock_coder.do_replace``: read the file,
  apply its edits in order, write it) - install with
  ``python3 -m venv /tmp/aider-venv && /tmp/aider-venv/bin/pip install aider-chat``
  (the bench runs that venv's python; ``$REVIEWTUI_AIDER_PYTHON`` overrides). Without it
  the bench says so loudly and uses a minimal exact search/replace stand-in;
- Codex's ``apply_patch`` binary, one process per file with all of that file's hunks
  (found as in ``bench_match.py``: ``npm install --prefix /tmp/codex-npm @openai/codex``).

Each 191-edit case runs five rounds, the tools in turn within a round, and the medians
are compared (a single run of a fraction of a second swung 2x with a cold binary or a busy
neighbour); the larger cases run once. Every tool's result is checked against the
intended files. Targets (issue 13): apply
<= 1.5x aider and faster than Codex; decision/undo/redo median <= 50 ms; memory <= 2x the
distinct version bytes; each growth step at most linear (x10 ops -> <= ~x10 time).

Run: ``.venv/bin/python bench/bench_apply.py`` (``--quick`` skips the 50,000-op step,
``--191`` runs the two 191-edit cases alone).
"""

from __future__ import annotations

import ast
import compileall
import contextlib
import io
import json
import os
import random
import shutil
import statistics
import subprocess
import sys
import sysconfig
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_match import find_apply_patch, run_apply_patch  # noqa: E402

AIDER_PYTHON = os.environ.get("REVIEWTUI_AIDER_PYTHON", "/tmp/aider-venv/bin/python")
HERE = Path(__file__).resolve().parent


def _src() -> str:
    """Where the reviewtui being measured lives (PYTHONPATH may point at another copy)."""
    import reviewtui

    return str(Path(reviewtui.__file__).resolve().parents[1])


@dataclass
class Case:
    name: str
    files: dict[str, str]  # path -> base text
    turns: list[list[tuple[str, list[str], list[str]]]]  # per turn: (path, search, replace)
    expected: dict[str, str] = field(default_factory=dict)

    @property
    def ops(self) -> int:
        return sum(len(t) for t in self.turns)


def real_files(limit: int, max_lines: int | None = None) -> list[list[str]]:
    """Lines of real .py files of this machine's standard library (sorted, stable)."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    out: list[list[str]] = []
    for path in sorted(stdlib.rglob("*.py")):
        if "test" in path.parts or "site-packages" in path.parts:
            continue
        try:
            text = path.read_text("utf-8")
        except (OSError, UnicodeDecodeError):
            continue
        lines = [line.rstrip() for line in text.splitlines()]
        if len(lines) < 200 or "\t" in text or "\r" in text:
            continue
        out.append(lines[:max_lines] if max_lines else lines)
        if len(out) >= limit:
            break
    return out


def glued(sources: list[list[str]], size: int, start: int) -> list[str]:
    lines: list[str] = []
    i = start
    while len(lines) < size:
        # One module made of several: a __future__ import is only legal at the top.
        lines.extend(x for x in sources[i % len(sources)] if not x.startswith("from __future__"))
        i += 1
    return lines  # whole modules (just over ``size`` lines): the file still parses


def make_case(name: str, bodies: list[list[str]], n_turns: int, per_turn: int,
              seed: int, *, eligible: Callable[[list[str]], set[int]] | None = None,
              change: Callable[[str, int], str] | None = None) -> Case:
    """Edits of unique 3-line blocks, each file's targets apart, in random file order.

    ``eligible``: the lines of a file that may be an edit's middle line (default: any);
    ``change``: the middle line after edit number N (default: ``# edit N`` appended)."""
    rng = random.Random(seed)
    files = {f"pkg{i // 20}/mod{i}.py": body for i, body in enumerate(bodies)}
    current = {path: list(body) for path, body in files.items()}
    # Candidate centres per file: a unique, non-blank line with unique neighbours.
    free: dict[str, list[int]] = {}
    for path, lines in current.items():
        counts: dict[str, int] = {}
        for line in lines:
            counts[line] = counts.get(line, 0) + 1
        allowed = eligible(lines) if eligible is not None else None
        ok = [i for i in range(1, len(lines) - 1)
              if lines[i].strip() and counts[lines[i]] == 1 and counts[lines[i - 1]] == 1
              and counts[lines[i + 1]] == 1 and (allowed is None or i in allowed)]
        rng.shuffle(ok)
        free[path] = ok
    taken: dict[str, set[int]] = {p: set() for p in files}
    reuse: set[str] = set()  # files whose every centre is edited: edit them again
    turns: list[list[tuple[str, list[str], list[str]]]] = []
    paths = list(files)
    n_edit = 0
    for _ in range(n_turns):
        turn = []
        for _ in range(per_turn):
            for _attempt in range(50):
                path = rng.choice(paths)
                while (free[path] and path not in reuse
                       and any(abs(free[path][-1] - t) < 4 for t in taken[path])):
                    free[path].pop()
                if not free[path] and taken[path] and change is None:
                    # An edited centre stays unique (its line carries its edit number)
                    # and its neighbours are never centres: it can be edited again.
                    free[path] = sorted(taken[path])
                    rng.shuffle(free[path])
                    reuse.add(path)
                if free[path]:
                    break
            else:
                raise SystemExit(f"{name}: not enough unique lines for the edits")
            centre = free[path].pop()
            taken[path].add(centre)
            lines = current[path]
            n_edit += 1
            search = lines[centre - 1 : centre + 2]
            middle = (f"{search[1]}  # edit {n_edit}" if change is None
                      else change(search[1], n_edit))
            replace = [search[0], middle, search[2]]
            lines[centre] = replace[1]
            turn.append((path, search, replace))
        turns.append(turn)
    case = Case(name, {p: "\n".join(b) + "\n" for p, b in files.items()}, turns)
    case.expected = {p: "\n".join(b) + "\n" for p, b in current.items()}
    return case


_SIMPLE = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Return, ast.Pass,
           ast.Break, ast.Continue, ast.Raise, ast.Import, ast.Delete, ast.Assert)


def simple_statement_lines(lines: list[str]) -> set[int]:
    """0-based lines that hold one whole simple statement alone (no comment, no other
    statement, not continued): code edits go there, so the file still parses."""
    tree = ast.parse("\n".join(lines) + "\n")
    starts: dict[int, int] = {}
    found: set[int] = set()
    for node in ast.walk(tree):
        if not isinstance(node, ast.stmt):
            continue
        starts[node.lineno] = starts.get(node.lineno, 0) + 1
        if not isinstance(node, _SIMPLE) or node.lineno != node.end_lineno:
            continue
        line = lines[node.lineno - 1]
        indent = len(line) - len(line.lstrip(" "))
        if node.col_offset == indent and node.end_col_offset == len(line.rstrip().encode()):
            found.add(node.lineno)
    return {n - 1 for n in found if starts[n] == 1}


def code_change(line: str, n: int) -> str:
    """A change of code on a simple-statement line that keeps it valid Python: its first
    integer constant changed, or (without one) a statement appended after it."""
    indent = line[: len(line) - len(line.lstrip(" "))]
    code = line.strip()
    data = code.encode()
    for node in ast.walk(ast.parse(code)):
        if (isinstance(node, ast.Constant) and type(node.value) is int
                and node.end_col_offset is not None):
            new = str(node.value + n)
            old = data[node.col_offset : node.end_col_offset].decode()
            if new != old:
                return indent + (data[: node.col_offset].decode() + new
                                 + data[node.end_col_offset :].decode())
    return f"{line}; _e{n} = {n}"


def session_text(case: Case) -> str:
    out = []
    for n, turn in enumerate(case.turns, 1):
        out.append(f"## Turn {n}\n> edit\n")
        for path, search, replace in turn:
            out.append(f"--- File: {path} ---\n<<<<<<< SEARCH\n" + "\n".join(search)
                       + "\n=======\n" + "\n".join(replace) + "\n>>>>>>> REPLACE\n")
        out.append("### Changed files:\n" + "".join(
            f"- {path}\n" for path in dict.fromkeys(path for path, _, _ in turn)))
    return "\n".join(out)


def write_root(case: Case, where: Path) -> Path:
    root = where / "root"
    for path, text in case.files.items():
        target = root / path
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_text(text)
    return root


def check_root(root: Path, case: Case) -> bool:
    return all((root / p).read_text() == text for p, text in case.expected.items())


# --- reviewtui ----------------------------------------------------------------------

REPORT_SECONDS: list[float] = []  # the syntax report's share of each reviewtui_apply
ROUNDS = 5  # runs of each tool on a 191-edit case (the median is compared)


def reviewtui_apply(case: Case, work: Path) -> tuple[float, bool, int]:
    """In-process ``reviewtui apply --yes``: seconds, intended result, peak RSS (KiB) of a
    subprocess doing the same (the memory figure). The time of its syntax report (which
    neither aider nor Codex makes) is appended to ``REPORT_SECONDS``."""
    import reviewtui.cli.commands as commands  # (imports are start-up, not apply: aider's
    from reviewtui.cli import main  # figure leaves its own imports out too)

    root = write_root(case, work)
    session = work / "session.md"
    session.write_text(session_text(case))
    out = io.StringIO()
    report = commands.diagnose_landed  # type: ignore[attr-defined]
    spent = [0.0]

    def timed_report(results: object) -> object:
        began = time.perf_counter()
        try:
            return report(results)  # type: ignore[arg-type]
        finally:
            spent[0] += time.perf_counter() - began

    commands.diagnose_landed = timed_report  # type: ignore[attr-defined]
    try:
        start = time.perf_counter()
        with contextlib.redirect_stdout(out):
            main(["apply", "--yes", "--root", str(root), str(session)])
        took = time.perf_counter() - start
    finally:
        commands.diagnose_landed = report  # type: ignore[attr-defined]
    REPORT_SECONDS.append(spent[0])
    return took, check_root(root, case), 0


def reviewtui_memory(case: Case, work: Path) -> int:
    """Peak RSS (KiB) of ``reviewtui apply`` in its own process, minus a process that only
    imports reviewtui and reads the session (so the figure is the review's own)."""
    root = write_root(case, work / "mem")
    session = work / "mem" / "session.md"
    session.write_text(session_text(case))
    code = ("import resource,sys;from reviewtui.cli import main;"
            "import contextlib,io\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f" main(['apply','--yes','--root',{str(root)!r},{str(session)!r}])\n"
            "print(_hwm())")
    idle = ("import resource;import reviewtui.cli, reviewtui.shell.review;"
            f"open({str(session)!r}).read();"
            "print(_hwm())")
    # ru_maxrss survives exec (it would report this big parent): VmHWM is per process.
    hwm = ("def _hwm():\n"
           " for line in open('/proc/self/status'):\n"
           "  if line.startswith('VmHWM:'):\n"
           "   return int(line.split()[1])\n")
    code, idle = hwm + code, hwm + idle
    env = {**os.environ, "PYTHONPATH": _src()}
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, check=False)
    if done.returncode:
        print(f"    memory run failed: {done.stderr.strip()[-500:]}", flush=True)
        return 0
    used = int(done.stdout.split()[-1])
    base = int(subprocess.run([sys.executable, "-c", idle], capture_output=True, text=True,
                              env=env, check=True).stdout.split()[-1])
    print(f"    (peak RSS: apply {used / 1024:.1f} MiB, idle process {base / 1024:.1f} MiB)",
          flush=True)
    return used - base


def distinct_version_bytes(case: Case) -> int:
    total = sum(len(t.encode()) for t in case.files.values())
    current = {p: t for p, t in case.files.items()}
    for turn in case.turns:
        for path, search, replace in turn:
            current[path] = current[path].replace("\n".join(search), "\n".join(replace), 1)
            total += len(current[path].encode())
    return total


# --- aider ----------------------------------------------------------------------------

AIDER_SCRIPT = r"""
import json, sys, time
from pathlib import Path
from aider.coders.editblock_coder import do_replace
job = json.loads(Path(sys.argv[1]).read_text())
root = Path(job["root"])
start = time.perf_counter()
for turn in job["turns"]:
    for path, search, replace in turn:
        target = root / path
        content = target.read_text()
        new = do_replace(str(target), content, "\n".join(search) + "\n",
                         "\n".join(replace) + "\n", ("```", "```"))
        if new is None:
            print("FAILED", path, file=sys.stderr)
            continue
        target.write_text(new)
print(time.perf_counter() - start)
"""


def aider_available() -> bool:
    if not Path(AIDER_PYTHON).exists():
        return False
    done = subprocess.run([AIDER_PYTHON, "-c", "import aider.coders.editblock_coder"],
                          capture_output=True, check=False)
    return done.returncode == 0


def aider_apply(case: Case, work: Path) -> tuple[float, bool]:
    """aider's matcher in its own venv: time of the in-process loop only (no start-up)."""
    root = write_root(case, work / "aider")
    job = work / "aider-job.json"
    job.write_text(json.dumps({"root": str(root), "turns": case.turns}))
    script = work / "aider_apply.py"
    script.write_text(AIDER_SCRIPT)
    done = subprocess.run([AIDER_PYTHON, str(script), str(job)], capture_output=True,
                          text=True, check=False)
    if done.returncode:
        raise SystemExit(f"aider run failed: {done.stderr.strip()[-2000:]}")
    return float(done.stdout.split()[-1]), check_root(root, case)


def standin_apply(case: Case, work: Path) -> tuple[float, bool]:
    """NOT aider: exact search/replace (str.find + uniqueness), the floor of any matcher."""
    root = write_root(case, work / "standin")
    start = time.perf_counter()
    for turn in case.turns:
        for path, search, replace in turn:
            target = root / path
            content = target.read_text()
            needle = "\n".join(search) + "\n"
            at = content.find(needle)
            if at < 0 or content.find(needle, at + 1) >= 0:
                continue
            target.write_text(content[:at] + "\n".join(replace) + "\n"
                              + content[at + len(needle):])
    return time.perf_counter() - start, check_root(root, case)


# --- Codex ------------------------------------------------------------------------------

def codex_apply(case: Case, work: Path, executable: str) -> tuple[float, bool]:
    """One ``apply_patch`` process per file with all of its hunks in file order (a file
    whose edited line is edited again gets a second process from there on)."""
    root = write_root(case, work / "codex")
    text = dict(case.files)
    rounds: list[tuple[str, list[tuple[int, str]]]] = []
    open_round: dict[str, tuple[str, list[tuple[int, str]]]] = {}
    for turn in case.turns:
        for path, search, replace in turn:
            needle = "\n".join(search) + "\n"
            current = open_round.get(path)
            if current is None or current[0].find(needle) < 0:
                current = open_round[path] = (text[path], [])
                rounds.append((path, current[1]))
            # apply_patch wants a file's hunks in file order.
            current[1].append((current[0].find(needle), "@@\n" + f" {search[0]}\n"
                               f"-{search[1]}\n+{replace[1]}\n {search[2]}"))
            text[path] = text[path].replace(needle, "\n".join(replace) + "\n", 1)
    start = time.perf_counter()
    for path, parts in rounds:
        patch = "\n".join(["*** Begin Patch", f"*** Update File: {path}",
                           *(hunk for _, hunk in sorted(parts)), "*** End Patch"])
        run_apply_patch(executable, patch, str(root))
    return time.perf_counter() - start, check_root(root, case)


# --- decisions through Review --------------------------------------------------------------

def review_steps(case: Case, work: Path, rounds: int = 15, *,
                 half_accepted: bool = False, conflict: bool = False) -> dict[str, float]:
    """Median ms of each step; ``half_accepted``: the first half of the operations are
    accepted first (one bulk step), and the steps are timed on the second half: a review
    well under way, with tens of thousands of decisions in force. ``conflict`` (with
    ``half_accepted``): then a written line of the first accepted file is changed outside
    and that file's first edit rejected, which clashes with the change: every step is
    timed with that conflict standing."""
    from reviewtui.core.engine import Decision
    from reviewtui.shell.review import Review

    root = write_root(case, work / "steps")
    session = work / "steps" / "session.md"
    session.write_text(session_text(case))
    times: dict[str, list[float]] = {name: [] for name in (
        "decide", "undo", "redo", "reject", "reject undo", "reject redo")}
    rng = random.Random(7)
    with Review.open(session, root, persist=False) as review:
        keys = [(t.index, pos) for t in review.session.turns
                for pos in range(len(t.reply.ops))]
        if half_accepted:
            review.decide_many([(key, Decision.accept()) for key in keys[: len(keys) // 2]],
                               skip_unappliable=True)
            if conflict:
                first = review.result(keys[0])
                where = root / str(first.outcome.path)
                lines = where.read_text().split("\n")
                line = first.outcome.lines[0] if first.outcome.lines else 1
                lines[line - 1] += "  # changed outside"
                where.write_text("\n".join(lines))
                review.outside_changed([str(first.outcome.path)])
                review.decide(keys[0], Decision.reject())
                if not review.conflicts:
                    raise SystemExit("bench_apply: the conflict case made no conflict")
            keys = keys[len(keys) // 2:]
        for _ in range(rounds):
            # An accept (it lands pending already) and a reject (it changes the display
            # from its turn on), each undone and redone.
            for decision, (decided, undone, redone) in (
                    (Decision.accept(), ("decide", "undo", "redo")),
                    (Decision.reject(), ("reject", "reject undo", "reject redo"))):
                key = rng.choice(keys[: len(keys) // 2])
                start = time.perf_counter()
                review.decide(key, decision)
                times[decided].append(time.perf_counter() - start)
                start = time.perf_counter()
                review.undo()
                times[undone].append(time.perf_counter() - start)
                start = time.perf_counter()
                review.redo()
                times[redone].append(time.perf_counter() - start)
    return {name: statistics.median(values) * 1000 for name, values in times.items()}


# --- the report ------------------------------------------------------------------------------

def row(label: str, ours: float, others: list[tuple[str, float | None, bool | None]],
        ok: bool) -> None:
    parts = [f"{label:<34} reviewtui {ours:8.2f} s ({'intended' if ok else 'WRONG'})"]
    for name, took, good in others:
        if took is None:
            parts.append(f"{name}: not run")
        else:
            parts.append(f"{name} {took:7.2f} s ({'ok' if good else 'WRONG'}) "
                         f"ratio {ours / took:5.2f}x")
    print("  ".join(parts), flush=True)


def main() -> None:
    quick = "--quick" in sys.argv[1:]
    only_191 = "--191" in sys.argv[1:]  # the two 191-edit cases alone
    # Byte-compiled first, as an installed copy is: with PYTHONDONTWRITEBYTECODE set (as
    # on the project's machines) the modules ``apply`` imports lazily would otherwise be
    # compiled from source inside the timed run, every run.
    compileall.compile_dir(Path(_src()) / "reviewtui", quiet=1)
    have_aider = aider_available()
    codex = find_apply_patch()
    if not have_aider:
        print("!!! aider is not installed: the aider column is a MINIMAL EXACT SEARCH/REPLACE "
              "STAND-IN, not aider. Install: python3 -m venv /tmp/aider-venv && "
              "/tmp/aider-venv/bin/pip install aider-chat", flush=True)
    if codex is None:
        print("!!! Codex apply_patch not found: that comparison is skipped. Install: "
              "npm install --prefix /tmp/codex-npm @openai/codex", flush=True)
    baseline_name = "aider" if have_aider else "stand-in"

    def baseline(case: Case, work: Path) -> tuple[float, bool]:
        return aider_apply(case, work) if have_aider else standin_apply(case, work)

    sources = real_files(400)
    big = make_case("191 edits, 10k-line files", [glued(sources, 10_000, i * 7)
                                                   for i in range(10)], 20, 10, 1)
    big.turns[-1] = big.turns[-1][:1]  # 191 edits
    big.expected = {}
    big = _reexpect(big)
    # The same, but each edit changes code (a constant, or a statement appended on a
    # line that holds one): the syntax report cannot answer from the tokens alone.
    code = make_case("191 code edits, 10k-line files", [glued(sources, 10_000, i * 7)
                                                       for i in range(10)], 20, 10, 1,
                     eligible=simple_statement_lines, change=code_change)
    code.turns[-1] = code.turns[-1][:1]
    code = _reexpect(code)
    for text in code.expected.values():
        ast.parse(text)  # still valid Python: the report must find nothing
    if only_191:
        cases = [big, code]
    else:
        small_bodies = real_files(200, max_lines=400)
        cases = [big, code, make_case("5,000 edits / 500 turns / 200 files", small_bodies,
                                      500, 10, 2)]
    with tempfile.TemporaryDirectory(prefix="bench-apply-") as tmp:
        for n, case in enumerate(cases):
            # The 191-edit cases take a fraction of a second: one run of each tool swung
            # 2x between cases (a cold binary, a busy neighbour). They run ROUNDS times,
            # the tools in turn within each round, and the medians are compared.
            rounds = ROUNDS if n < 2 else 1
            mine: list[float] = []
            runs: dict[str, list[float]] = {}
            oks: dict[str, bool] = {}
            reports: list[float] = []
            for r in range(rounds):
                work = Path(tmp) / f"c{n}r{r}"
                work.mkdir()
                took, good = reviewtui_apply(case, work)[:2]
                mine.append(took)
                reports.append(REPORT_SECONDS[-1])
                oks["reviewtui"] = oks.get("reviewtui", True) and good
                measured = [(baseline_name, baseline(case, work))]
                if codex is not None:
                    measured.append(("codex apply_patch", codex_apply(case, work, codex[0])))
                for name, (took, good) in measured:
                    runs.setdefault(name, []).append(took)
                    oks[name] = oks.get(name, True) and good
            ours, ok = statistics.median(mine), oks["reviewtui"]
            others: list[tuple[str, float | None, bool | None]] = [
                (name, statistics.median(times), oks[name]) for name, times in runs.items()]
            row(f"{case.name} ({case.ops} ops)", ours, others, ok)
            if rounds > 1:
                print(f"   median of {rounds} rounds; each run: reviewtui "
                      + " ".join(f"{t:.3f}" for t in mine) + "; "
                      + "; ".join(f"{name} " + " ".join(f"{t:.3f}" for t in times)
                                  for name, times in runs.items()), flush=True)
            print("   target: <= 1.5x aider" + (", faster than codex" if n < 2 else ""),
                  flush=True)
            report = statistics.median(reports)
            rest = ", ".join(f"{ours - report:.2f} s = {(ours - report) / took:.2f}x {name}"
                             for name, took, _ in others if took)
            print(f"   of which the syntax report (which neither makes): {report:.2f} s; "
                  f"the rest {rest}", flush=True)
        if only_191:
            return
        steps = review_steps(cases[2], Path(tmp) / "c2")
        print("one step in the 5,000-op session through Review (median ms): "
              + ", ".join(f"{k} {v:.1f}" for k, v in steps.items()) + "  target <= 50 ms",
              flush=True)
        print("growth (ops: apply s, baseline s, ratio; peak RSS over idle / distinct "
              "version bytes):", flush=True)
        previous: float | None = None
        grown: dict[int, dict[str, float]] = {}  # ops -> step medians through Review
        for turns in (50, 500) if quick else (50, 500, 5000):
            case = make_case(f"growth {turns * 10}", small_bodies, turns, 10, 3)
            work = Path(tmp) / f"g{turns}"
            work.mkdir()
            ours, ok, _ = reviewtui_apply(case, work)
            base, base_ok = baseline(case, work)
            rss = reviewtui_memory(case, work) * 1024
            versions = distinct_version_bytes(case)
            step = f" x{ours / previous:.1f} for x10 ops;" if previous else ""
            print(f"  {case.ops:>6} ops: {ours:7.2f} s ({'intended' if ok else 'WRONG'}), "
                  f"{baseline_name} {base:6.2f} s ({'ok' if base_ok else 'WRONG'}), "
                  f"ratio {ours / base:5.2f}x;{step} memory {rss / 2**20:7.1f} MiB / "
                  f"{versions / 2**20:7.1f} MiB = {rss / versions:4.2f}x", flush=True)
            previous = ours
            if turns >= 500:
                grown[case.ops] = review_steps(case, work)
            if turns == 5000:
                half = review_steps(case, work, half_accepted=True)
                clash = review_steps(case, work / "clash", half_accepted=True, conflict=True)
            shutil.rmtree(work, ignore_errors=True)
        print("one step through Review as the session grows (median ms; target <= 50 ms at "
              "50,000 ops):", flush=True)
        for ops, figures in grown.items():
            print(f"  {ops:>6} ops: " + ", ".join(f"{k} {v:.1f}" for k, v in figures.items())
                  + ("" if ops < 50_000 else "  (target <= 50 ms)"), flush=True)
        if not quick:
            print("  50,000 ops, half of them accepted first (25,000 decisions in force): "
                  + ", ".join(f"{k} {v:.1f}" for k, v in half.items()), flush=True)
            print("  the same with a conflict standing (an outside change there clashes "
                  "with a reject): " + ", ".join(f"{k} {v:.1f}" for k, v in clash.items()),
                  flush=True)


def _reexpect(case: Case) -> Case:
    """Recompute the intended files after trimming a case's edits."""
    current = {p: t for p, t in case.files.items()}
    for turn in case.turns:
        for path, search, replace in turn:
            current[path] = current[path].replace("\n".join(search) + "\n",
                                                  "\n".join(replace) + "\n", 1)
    case.expected = current
    return case


if __name__ == "__main__":
    main()
