"""Matching speed: ``match_edit`` on generated files of 1k, 10k and 100k lines.

For each size it times an exact edit, each expression-only kind (trailing whitespace,
curly quotes, dropped indentation, spaces typed for tabs, spurious blank lines) and the
no-match diagnostics, and prints the median in milliseconds with the ratio to a plain
``str.find`` of the SEARCH text over the same joined text, measured in this run. The
baseline searches the SEARCH as it should have been typed (a typographic needle makes
``str.find`` return at once on an ASCII text, which would say nothing), so each ratio is
"what the forgiveness costs over a plain find of the right text". A second ratio is to
``str.find`` twice (first hit, then the rest of the text): what proving uniqueness costs.

Each case is timed twice: on a file version seen for the first time and on one seen again
(a tuple's joined text is cached on its second sighting, see ``reviewtui.core.match.exact``;
the looser stages' index of the last two versions is kept, ``index_for`` in
``reviewtui.core.match.index``, and so is the diagnosis's joined window).

Targets: exact within 5x of ``str.find``; diagnostics under 50 ms at 10k lines, first sight.

Then, when Codex's own ``apply_patch`` is on this machine, the same edit as a
``*** Begin Patch`` update on the same files, exactly typed and with whitespace drift,
timed per call beside ``match_edit`` and checked for the intended file (see
``compare_codex``). Codex is never installed or committed here; the bench looks for it
in ``$REVIEWTUI_APPLY_PATCH``, on ``PATH`` and under ``/tmp/codex-npm``.

Run: ``make bench`` (or ``.venv/bin/python bench/bench_match.py``;
``--codex-only`` skips the first table).
"""

from __future__ import annotations

import difflib
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from reviewtui.core.match import match_edit
from reviewtui.core.model.outcome import Status

SIZES = (1_000, 10_000, 100_000)
EXACT_TARGET = 5.0  # x str.find
DIAGNOSIS_TARGET_MS = 50.0  # at 10k lines
CURLY = str.maketrans({'"': "\u201c"})


@dataclass(frozen=True)
class Case:
    name: str
    lines: tuple[str, ...]
    search: tuple[str, ...]
    replace: tuple[str, ...]
    expected: Status
    typed_right: tuple[str, ...]  # the SEARCH without the slip, for the baseline


def make_file(size: int, indent: str = "    ") -> tuple[str, ...]:
    """Python-like functions of six lines, each with its own names."""
    lines: list[str] = []
    n = 0
    while len(lines) < size:
        lines += [
            f"def handler_{n}(request, retries={n % 7}):",
            f'{indent}payload = decode_{n}(request.body, "utf-8")',
            f"{indent}if payload.size > {n}:",
            f'{indent}{indent}return respond_{n}(payload, status="ok")',
            f"{indent}return None",
            "",
        ]
        n += 1
    return tuple(lines[:size])


def make_cases(size: int) -> list[Case]:
    lines = make_file(size)
    tabbed = make_file(size, "\t")
    middle = (size // 2) // 6 * 6  # a function in the middle of the file
    search = lines[middle + 1 : middle + 4]
    replace = (search[0], search[1].replace(">", ">="), search[2])
    stale = tuple(line.replace("_", "__") for line in search)
    applied = Status.APPLIED
    tab_search = tabbed[middle + 1 : middle + 4]
    return [
        Case("exact", lines, search, replace, applied, search),
        Case("trailing-whitespace", lines, tuple(s + "  " for s in search), replace, applied,
             search),
        Case("unicode-punctuation", lines, tuple(s.translate(CURLY) for s in search),
             replace, applied, search),
        Case("indentation (dropped)", lines, tuple(s[4:] for s in search),
             tuple(s[4:] for s in replace), applied, search),
        Case("tabs-spaces", tabbed, search, replace, applied, tab_search),
        Case("blank-lines", lines, ("", *search, ""), ("", *replace, ""), applied, search),
        Case("diagnostics (no match)", lines, stale, replace, Status.NOT_FOUND, search),
    ]


def median_ms(run: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        began = time.perf_counter()
        run()
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def first_sight_ms(case: Case, repeat: int) -> float:
    """``match_edit`` on a file version it has not seen (no joined text cached yet)."""
    copies = [tuple(list(case.lines)) for _ in range(repeat)]
    times = []
    for lines in copies:
        began = time.perf_counter()
        match_edit(lines, case.search, case.replace)
        times.append(time.perf_counter() - began)
    return statistics.median(times) * 1000


def bench_case(case: Case, repeat: int) -> tuple[float, float, float]:
    result = match_edit(case.lines, case.search, case.replace)
    if result.status is not case.expected:
        raise SystemExit(f"{case.name}: expected {case.expected}, got {result.status} "
                         f"({result.method}: {result.hint})")
    text = "\n".join(case.lines)
    needle = "\n".join(case.typed_right)

    def find_twice() -> int:
        return text.find(needle, text.find(needle) + 1)

    find = median_ms(lambda: text.find(needle), repeat)
    twice = median_ms(find_twice, repeat)
    matched = median_ms(lambda: match_edit(case.lines, case.search, case.replace), repeat)
    return matched, find, twice


def report(rows: Sequence[tuple[int, str, float, float, float]]) -> None:
    print(f"{'lines':>7}  {'case':<38} {'match_edit':>11} {'str.find':>9} {'ratio':>7}"
          f" {'find x2':>9} {'ratio':>6}")
    for size, name, matched, find, twice in rows:
        ratio = matched / find
        note = ""
        if name.startswith("exact") and size == SIZES[-1]:
            note = f"  target <= {EXACT_TARGET:.0f}x: {'ok' if ratio <= EXACT_TARGET else 'MISSED'}"
        elif name.startswith("diagnostics") and name.endswith("first sight") and size == 10_000:
            ok = matched < DIAGNOSIS_TARGET_MS
            note = f"  target < {DIAGNOSIS_TARGET_MS:.0f} ms: {'ok' if ok else 'MISSED'}"
        print(f"{size:>7}  {name:<38} {matched:>8.3f} ms {find:>6.3f} ms {ratio:>6.1f}x"
              f" {twice:>6.3f} ms {matched / twice:>5.1f}x{note}")
    print(f"targets: exact within {EXACT_TARGET:.0f}x of str.find on {SIZES[-1]:,} lines; "
          f"diagnostics under {DIAGNOSIS_TARGET_MS:.0f} ms at 10,000 lines")


def bench_match() -> None:
    rows = []
    for size in SIZES:
        repeat = 31 if size < 100_000 else 9
        for case in make_cases(size):
            matched, find, twice = bench_case(case, repeat)
            # Every case also on a version never seen: the seen-again figure gets the
            # exact stage's joined text and the looser stages' index (and the diagnosis's
            # joined window) from the call before.
            first = first_sight_ms(case, repeat)
            rows.append((size, f"{case.name}, first sight", first, find, twice))
            rows.append((size, f"{case.name}, seen again", matched, find, twice))
    report(rows)


# -- Codex's apply_patch beside match_edit ---------------------------------------------
#
# The npm package @openai/codex ships a native binary that behaves as apply_patch when
# it is invoked under that name (argv[0]): it takes the patch text as its one argument
# and applies it in the current directory. ``npm install --prefix /tmp/codex-npm
# @openai/codex`` puts it under node_modules/@openai/codex-<platform>/vendor/<target>/
# bin/codex; any path to it works here, since the bench always passes argv[0]
# "apply_patch".

APPLY_PATCH_ENV = "REVIEWTUI_APPLY_PATCH"
CODEX_NPM = Path("/tmp/codex-npm")
PATCHED = "big.py"
HOW_TO_ENABLE = (
    f"to enable it: npm install --prefix {CODEX_NPM} @openai/codex (its native binary "
    "acts as apply_patch when invoked under that name), or set "
    f"{APPLY_PATCH_ENV} to an apply_patch executable or to the codex binary itself")


@dataclass(frozen=True)
class PatchCase:
    """One edit both tools are given: what the model typed, and what the file should be."""

    name: str
    lines: tuple[str, ...]
    search: tuple[str, ...]
    replace: tuple[str, ...]
    intended: tuple[str, ...]


def find_apply_patch() -> tuple[str, str] | None:
    """(the executable, where it was found), or None."""
    configured = os.environ.get(APPLY_PATCH_ENV)
    if configured:
        return configured, f"${APPLY_PATCH_ENV}"
    on_path = shutil.which("apply_patch")
    if on_path:
        return on_path, "PATH"
    candidates = [*sorted(CODEX_NPM.glob("bin/apply_patch")),
                  *sorted(CODEX_NPM.glob("node_modules/@openai/codex*/vendor/*/bin/codex"))]
    for candidate in candidates:
        if os.access(candidate, os.X_OK):
            return str(candidate), str(CODEX_NPM)
    return None


def run_apply_patch(executable: str, patch: str, cwd: str) -> subprocess.CompletedProcess[str]:
    # argv[0] decides what the codex binary does; ``executable`` is the file to run.
    return subprocess.run(["apply_patch", patch], executable=executable, cwd=cwd,
                          capture_output=True, text=True, timeout=60, check=False)


def codex_version(executable: str) -> str:
    try:
        done = subprocess.run(["codex", "--version"], executable=executable,
                              capture_output=True, text=True, timeout=30, check=False)
    except OSError:
        return ""
    return done.stdout.strip() if done.returncode == 0 else ""


def to_patch(path: str, search: Sequence[str], replace: Sequence[str]) -> str:
    """The SEARCH/REPLACE pair as a Codex update hunk: context, removed and added lines."""
    body: list[str] = []
    matcher = difflib.SequenceMatcher(None, search, replace, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            body += [" " + line for line in search[i1:i2]]
        else:
            body += ["-" + line for line in search[i1:i2]]
            body += ["+" + line for line in replace[j1:j2]]
    return "\n".join(["*** Begin Patch", f"*** Update File: {path}", "@@", *body,
                      "*** End Patch"])


def make_patch_cases(size: int) -> list[PatchCase]:
    lines = make_file(size)
    middle = (size // 2) // 6 * 6
    search = lines[middle + 1 : middle + 4]
    replace = (search[0], search[1].replace(">", ">="), search[2])
    intended = (*lines[: middle + 1], *replace, *lines[middle + 4 :])
    trailing = tuple(line + "  " for line in search)
    # The model dropped the function's indentation level from every line it typed.
    dropped = (tuple(line[4:] for line in search), tuple(line[4:] for line in replace))
    return [
        PatchCase("exact", lines, search, replace, intended),
        PatchCase("drift: trailing spaces", lines, trailing,
                  (trailing[0], replace[1], trailing[2]), intended),
        PatchCase("drift: indentation dropped", lines, *dropped, intended),
    ]


def verdict(produced: Sequence[str], intended: Sequence[str]) -> tuple[str, str]:
    """("yes"/"no, line N", and for a "no" the line as written beside the intended one)."""
    if tuple(produced) == tuple(intended):
        return "yes", ""
    at = next((k for k, (a, b) in enumerate(zip(produced, intended, strict=False)) if a != b),
              min(len(produced), len(intended)))
    got = produced[at] if at < len(produced) else "<end of file>"
    wanted = intended[at] if at < len(intended) else "<end of file>"
    return f"no, line {at + 1}", f"line {at + 1} is {got!r}, intended {wanted!r}"


Verdict = tuple[str, str]  # as ``verdict`` returns it


def time_reviewtui(case: PatchCase, repeat: int) -> tuple[float, Verdict]:
    def apply() -> list[str] | None:
        result = match_edit(case.lines, case.search, case.replace)
        if result.status is not Status.APPLIED:
            return None
        return [*case.lines[: result.start], *result.new_lines, *case.lines[result.end :]]

    produced = apply()
    if produced is None:
        result = match_edit(case.lines, case.search, case.replace)
        return median_ms(apply, repeat), (f"no, {result.status}", result.hint)
    return median_ms(apply, repeat), verdict(produced, case.intended)


def time_codex(executable: str, case: PatchCase, repeat: int,
               workdir: str) -> tuple[float, Verdict]:
    target = Path(workdir) / PATCHED
    original = "".join(line + "\n" for line in case.lines)
    patch = to_patch(PATCHED, case.search, case.replace)
    times = []
    outcome: Verdict | None = None
    for _ in range(repeat):
        target.write_text(original)  # every call starts from the same file, untimed
        began = time.perf_counter()
        done = run_apply_patch(executable, patch, workdir)
        times.append(time.perf_counter() - began)
        if outcome is None and done.returncode != 0:
            outcome = (f"no, exit {done.returncode}", (done.stderr or done.stdout).strip())
        elif outcome is None:
            outcome = verdict(target.read_text().split("\n")[:-1], case.intended)
    assert outcome is not None
    return statistics.median(times) * 1000, outcome


def spawn_floor_ms(repeat: int) -> float | None:
    """What starting any process costs from here: the floor under a per-call tool."""
    true = shutil.which("true")
    if true is None:
        return None
    return median_ms(lambda: subprocess.run([true], check=False), repeat)


def probe(executable: str, workdir: str) -> str | None:
    """None if ``executable`` applies a tiny patch as apply_patch should, else why not."""
    target = Path(workdir) / "probe.txt"
    target.write_text("hello\nworld\n")
    patch = to_patch("probe.txt", ("hello", "world"), ("hello", "there"))
    try:
        done = run_apply_patch(executable, patch, workdir)
    except OSError as err:
        return f"it could not be run ({err})"
    if done.returncode != 0 or target.read_text() != "hello\nthere\n":
        return f"it did not apply a probe patch (exit {done.returncode}: " \
               f"{(done.stderr or done.stdout).strip()[:80]})"
    target.unlink()
    return None


def compare_codex() -> None:
    found = find_apply_patch()
    if found is None:
        print(f"\nCodex apply_patch comparison not run: no apply_patch found (looked in "
              f"${APPLY_PATCH_ENV}, on PATH and under {CODEX_NPM}); {HOW_TO_ENABLE}.")
        return
    executable, where = found
    with tempfile.TemporaryDirectory(prefix="bench-apply-patch-") as workdir:
        problem = probe(executable, workdir)
        if problem is not None:
            print(f"\nCodex apply_patch comparison not run: {executable} (from {where}) was "
                  f"found but {problem}; {HOW_TO_ENABLE}.")
            return
        version = codex_version(executable) or "version unknown"
        print(f"\nCodex apply_patch ({version}; {executable}, found via {where})")
        print("Per call. apply_patch is a process spawn: its time includes starting the "
              "process,\nreading the file, matching and writing it back. reviewtui's is "
              "match_edit plus the splice,\nin this process, on lines already in memory "
              "(no disk I/O).")
        print(f"{'lines':>7}  {'case':<27} {'reviewtui':>10} {'intended':<10} "
              f"{'apply_patch':>11} {'intended':<14} {'ratio':>6}")
        notes: list[str] = []
        for size in SIZES:
            repeat = 15 if size < 100_000 else 7
            for case in make_patch_cases(size):
                ours, (our_file, our_note) = time_reviewtui(case, repeat)
                theirs, (their_file, their_note) = time_codex(executable, case, repeat, workdir)
                print(f"{size:>7}  {case.name:<27} {ours:>7.3f} ms {our_file:<10} "
                      f"{theirs:>8.2f} ms {their_file:<14} {theirs / ours:>5.0f}x")
                for tool, note in (("reviewtui", our_note), ("apply_patch", their_note)):
                    if note and size == SIZES[0]:
                        notes.append(f"  {tool}, {case.name}: {note}")
        print("ratio: apply_patch's time per call over reviewtui's")
        if notes:
            print("where the file is not the intended one (shown for the smallest size):")
            print("\n".join(notes))
        floor = spawn_floor_ms(31)
        if floor is not None:
            print(f"spawn floor: starting /bin/true from this process takes {floor:.2f} ms "
                  "per call")


def main() -> None:
    if "--codex-only" not in sys.argv[1:]:
        bench_match()
    compare_codex()


if __name__ == "__main__":
    main()
