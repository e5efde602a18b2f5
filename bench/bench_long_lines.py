"""Matching near very long lines: minified SVG, JS and JSON (issue 14; issue 13's "bounded
matching on long lines").

Real repositories hold one-line files and files with one huge line (an SVG path, a
minified bundle, a JSON fixture). Two hunks next to a 47 KB line of a 95 KB SVG once took
24 s of CPU in ``check``: token-level difflib on that one line is quadratic. This bench
generates such files and times ``match_edit`` on the edits a drifted diff produces there:

* **near**: the hunk's context differs a little from the file (its long line too), so the
  near-match stage compares the long lines;
* **not found**: the hunk belongs elsewhere, so the diagnosis scores candidate windows
  that hold the long lines;
* **exact**, **expression** (trailing whitespace), for reference.

Baseline, measured in the same run: what the old comparison cost, token-level
``difflib.SequenceMatcher(autojunk=False)`` over the long line's tokens (the old
``normalise._matched_tokens``), at sizes small enough to finish, with the growth factor
per doubling; then ``match_edit`` at the same sizes and up to 200 KB lines. Every
outcome is printed too: speed must not change an answer (near matches stay
``needs_review``).

Run: ``.venv/bin/python bench/bench_long_lines.py``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from difflib import SequenceMatcher
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from reviewtui.core.match import match_edit  # noqa: E402
from reviewtui.core.match.normalise import line_tokens  # noqa: E402


def _svg_path(rng: random.Random, size: int) -> str:
    parts: list[str] = []
    length = 0
    while length < size:
        x, y = rng.randint(0, 999), rng.randint(0, 999)
        part = f"L{x}.{rng.randint(0, 99)} {y}.{rng.randint(0, 99)}"
        parts.append(part)
        length += len(part) + 1
    return '  <path fill="#333" d="M0 0 ' + " ".join(parts) + ' Z"/>'


def _js_bundle(rng: random.Random, size: int) -> str:
    out: list[str] = []
    length = 0
    while length < size:
        name = "".join(rng.choice("abcdefghij") for _ in range(2))
        piece = f"function {name}{rng.randint(0, 99)}(e,t){{return e+t*{rng.randint(0, 9)}}};"
        out.append(piece)
        length += len(piece)
    return "".join(out)


def _json_blob(rng: random.Random, size: int) -> str:
    items: list[str] = []
    length = 0
    while length < size:
        item = f'{{"id":{rng.randint(0, 99999)},"tag":"t{rng.randint(0, 50)}"}}'
        items.append(item)
        length += len(item) + 1
    return '  "items": [' + ",".join(items) + "],"


def _file(kind: str, size: int) -> list[str]:
    rng = random.Random(size)
    maker = {"svg": _svg_path, "js": _js_bundle, "json": _json_blob}[kind]
    lines = [f'  <rect id="r{i}" x="{i}" width="10" height="10"/>' for i in range(30)]
    lines.append(maker(rng, size))
    lines += [f'  <rect id="r{i}" x="{i}" width="10" height="10"/>' for i in range(30, 60)]
    lines.append(maker(rng, size))
    return ["<root>", *lines, "</root>"]


def _drift(line: str) -> str:
    """The same long line with a few characters changed near its middle."""
    mid = len(line) // 2
    return line[:mid] + "9" + line[mid + 1 : mid + 40] + "7" + line[mid + 41 :]


def cases(kind: str, size: int) -> dict[str, tuple[list[str], list[str], list[str]]]:
    lines = _file(kind, size)
    at = 31  # the first long line
    near_search = [lines[at - 2], lines[at - 1].replace("10", "11", 1), _drift(lines[at]),
                   lines[at + 1], lines[at + 2]]
    near_replace = [*near_search[:3], lines[at + 1].replace("10", "20"), lines[at + 2]]
    missing = ["<g id='legend'>", lines[at - 1].replace("r29", "q29"), _drift(lines[at]),
               "</g>"]
    exact = lines[at - 1 : at + 2]
    return {
        "near": (lines, near_search, near_replace),
        "not found": (lines, missing, ["<g/>"]),
        "exact": (lines, exact, [exact[0], exact[1], exact[2].replace("10", "30")]),
        "expression": (lines, [line + " " for line in exact], exact),
    }


def _time(fn: Callable[[], object], repeat: int = 3) -> float:
    runs = []
    for _ in range(repeat):
        started = time.process_time()
        fn()
        runs.append(time.process_time() - started)
    return statistics.median(runs)


def baseline(sizes: list[int]) -> None:
    print("baseline: token-level difflib on one long line and its drifted copy "
          "(the old comparison)")
    previous = None
    for size in sizes:
        line = _file("svg", size)[31]
        a, b = list(line_tokens(line)), list(line_tokens(_drift(line)))
        seconds = _time(lambda a=a, b=b: SequenceMatcher(None, a, b, autojunk=False)
                        .get_matching_blocks(), repeat=1)
        growth = f"x{seconds / previous:.1f} per doubling" if previous else ""
        print(f"  {size / 1000:6.1f} KB line, {len(a):6} tokens: {seconds * 1000:9.1f} ms  "
              f"{growth}")
        previous = seconds


def ours(sizes: list[int], kinds: list[str]) -> dict[tuple[str, int, str], float]:
    print("\nmatch_edit next to long lines (median CPU ms of 3; outcome)")
    figures: dict[tuple[str, int, str], float] = {}
    for kind in kinds:
        for size in sizes:
            for name, (lines, search, replace) in cases(kind, size).items():
                result = match_edit(lines, search, replace, path=f"x.{kind}")
                seconds = _time(lambda lines=lines, search=search, replace=replace,
                                kind=kind: match_edit(lines, search, replace,
                                                      path=f"x.{kind}"))
                figures[(kind, size, name)] = seconds
                where = (f"lines {result.start + 1}-{result.end}"
                         if result.status.value in ("applied", "needs_review") else
                         f"{len(result.candidates)} candidates")
                similar = (f", {round(result.similarity * 100)}% similar"
                           if result.similarity is not None else "")
                print(f"  {kind:4} {size / 1000:6.1f} KB  {name:10} {seconds * 1000:8.2f} ms  "
                      f"{result.status}{similar} ({result.method or '-'}, {where})")
    return figures


def main() -> None:
    small = [2_500, 5_000, 10_000, 20_000]
    baseline(small)
    figures = ours([*small, 47_000, 100_000, 200_000], ["svg", "js", "json"])
    print("\nratio ours/baseline-at-same-size and growth per doubling (near, svg):")
    base = {}
    for size in small:
        line = _file("svg", size)[31]
        a, b = list(line_tokens(line)), list(line_tokens(_drift(line)))
        base[size] = _time(lambda a=a, b=b: SequenceMatcher(None, a, b, autojunk=False)
                           .get_matching_blocks(), repeat=1)
    for size in small:
        ratio = figures[("svg", size, "near")] / base[size] if base[size] else float("nan")
        print(f"  {size / 1000:6.1f} KB: ours {figures[('svg', size, 'near')] * 1000:7.2f} ms, "
              f"baseline {base[size] * 1000:8.1f} ms, ratio {ratio:.3f}")
    grow = figures[("svg", 200_000, "near")] / max(figures[("svg", 100_000, "near")], 1e-9)
    print(f"  ours 100 KB -> 200 KB: x{grow:.1f} (linear is x2)")


if __name__ == "__main__":
    main()
