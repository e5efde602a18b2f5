"""Matching speed: ``match_edit`` on generated files of 1k, 10k and 100k lines.

For each size it times an exact edit, each expression-only kind (trailing whitespace,
curly quotes, dropped indentation, spaces typed for tabs, spurious blank lines) and the
no-match diagnostics, and prints the median in milliseconds with the ratio to a plain
``str.find`` of the SEARCH text over the same joined text, measured in this run. The
baseline searches the SEARCH as it should have been typed (a typographic needle makes
``str.find`` return at once on an ASCII text, which would say nothing), so each ratio is
"what the forgiveness costs over a plain find of the right text". A second ratio is to
``str.find`` twice (first hit, then the rest of the text): what proving uniqueness costs.

Exact is timed twice: on a file version seen for the first time (a scan of the line
list) and on one seen again (a tuple's joined text is cached on its second sighting, see
``reviewtui.core.match.exact``).

Targets: exact within 5x of ``str.find``; diagnostics under 50 ms at 10k lines.
Run: ``make bench`` (or ``.venv/bin/python bench/bench_match.py``).
"""

from __future__ import annotations

import shutil
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from reviewtui.core.match import match_edit
from reviewtui.core.outcome import Status

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
    print(f"{'lines':>7}  {'case':<24} {'match_edit':>11} {'str.find':>9} {'ratio':>7}"
          f" {'find x2':>9} {'ratio':>6}")
    for size, name, matched, find, twice in rows:
        ratio = matched / find
        note = ""
        if name.startswith("exact") and size == SIZES[-1]:
            note = f"  target <= {EXACT_TARGET:.0f}x: {'ok' if ratio <= EXACT_TARGET else 'MISSED'}"
        elif name.startswith("diagnostics") and size == 10_000:
            ok = matched < DIAGNOSIS_TARGET_MS
            note = f"  target < {DIAGNOSIS_TARGET_MS:.0f} ms: {'ok' if ok else 'MISSED'}"
        print(f"{size:>7}  {name:<24} {matched:>8.3f} ms {find:>6.3f} ms {ratio:>6.1f}x"
              f" {twice:>6.3f} ms {matched / twice:>5.1f}x{note}")
    print(f"targets: exact within {EXACT_TARGET:.0f}x of str.find on {SIZES[-1]:,} lines; "
          f"diagnostics under {DIAGNOSIS_TARGET_MS:.0f} ms at 10,000 lines")


def main() -> None:
    rows = []
    for size in SIZES:
        repeat = 31 if size < 100_000 else 9
        for case in make_cases(size):
            matched, find, twice = bench_case(case, repeat)
            if case.name == "exact":
                first = first_sight_ms(case, repeat)
                rows.append((size, "exact, first sight", first, find, twice))
                case_name = "exact, seen again"
            else:
                case_name = case.name
            rows.append((size, case_name, matched, find, twice))
    report(rows)
    if shutil.which("apply_patch") is None and shutil.which("codex") is None:
        print("Codex comparison not run: neither apply_patch nor codex is installed.")


if __name__ == "__main__":
    main()
