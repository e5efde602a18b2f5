"""The engine's cost per edit as files grow: chunked line store against whole tuples.

The edits are ``bench_apply.py``'s 191-edit case (20 turns over ten files glued from real
standard-library modules, each edit a three-line SEARCH/REPLACE), with the files made
just over 1,000, 10,000 and 50,000 lines long (whole modules glued). For each length, in
the same run:

* ``chunked``: what the engine does, ``match_edit`` on ``FileState.line_view`` and
  ``FileState.splice`` (the lines in shared chunks, ``core/model/chunks.py``; a file
  under ~2,000 lines keeps a plain tuple), then the tree's equality check of the old and
  new version;
* ``tuple``: what the engine did before the chunked store: the same matcher on a tuple
  of the file's lines, the new version's tuple made by slicing and concatenating, the
  tuples compared, a FileState made of it.

Figures are process CPU time per edit (the files' reading and splitting left out), the
median over several rounds: "all in" is the 191 edits' total over 191; "typical" is the
median edit. The chunked store pays a set-up per file in its first two searches (each
chunk scanned, then its look-up built: about four scans of the file), which "all in"
holds and "typical" leaves out. Issue 13's target: the typical cost of an edit
independent of the file's length.

Run: ``.venv/bin/python bench/bench_lines.py [--rounds N]``.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_apply import Case, glued, make_case, real_files  # noqa: E402
from reviewtui.core.match.cascade import match_edit  # noqa: E402
from reviewtui.core.model.filestate import FileState  # noqa: E402

SIZES = (1_000, 10_000, 50_000)


def edits(case: Case) -> list[tuple[str, list[str], list[str]]]:
    return [edit for turn in case.turns for edit in turn][:191]


def chunked(case: Case) -> tuple[list[float], dict[str, bytes]]:
    states = {p: FileState.from_bytes(t.encode()) for p, t in case.files.items()}
    for state in states.values():
        state.line_view  # noqa: B018  (split and chunked outside the timing)
    clock = time.process_time
    times = []
    for path, search, replace in edits(case):
        start = clock()
        current = states[path]
        found = match_edit(current.line_view, search, replace)
        new = current.splice(found.start, found.end, found.new_lines)
        if new == current:
            raise SystemExit(f"an edit of {path} changed nothing")
        states[path] = new
        times.append(clock() - start)
    return times, {p: s.data for p, s in states.items()}


def tuples(case: Case) -> tuple[list[float], dict[str, bytes]]:
    """The engine before the chunked store: a version holding a whole tuple of lines."""
    states = {p: FileState.from_bytes(t.encode()) for p, t in case.files.items()}
    for state in states.values():
        state.lines  # noqa: B018  (split outside the timing)
    clock = time.process_time
    times = []
    for path, search, replace in edits(case):
        start = clock()
        current = states[path]
        lines = current.lines
        found = match_edit(lines, search, replace)
        added = tuple(found.new_lines)
        new_lines = lines[: found.start] + added + lines[found.end :]
        if added == lines[found.start : found.end] or new_lines == lines:
            raise SystemExit(f"an edit of {path} changed nothing")
        states[path] = FileState(None, bom=current.bom, eol=current.newline,
                                 newline=current.newline, final_newline=True,
                                 mode=current.mode, revision=current.revision + 1,
                                 lines=new_lines, clean=True)
        times.append(clock() - start)
    return times, {p: s.data for p, s in states.items()}


def main() -> None:
    rounds = int(sys.argv[sys.argv.index("--rounds") + 1]) if "--rounds" in sys.argv else 9
    sources = real_files(400)
    print("per edit, median CPU over", rounds, "rounds of 191 edits in ten files:")
    previous: float | None = None
    prev_size = 1
    previous_usual = 1.0
    for size in SIZES:
        case = make_case(f"{size}", [glued(sources, size, i * 7) for i in range(10)],
                         20, 10, 1)
        ours: list[list[float]] = []
        base: list[list[float]] = []
        for _ in range(rounds):  # interleaved, so both see the same machine
            times, ours_out = chunked(case)
            ours.append(times)
            times, base_out = tuples(case)
            base.append(times)
            if ours_out != base_out:
                raise SystemExit(f"{size} lines: the two ways disagree on the result")

        def all_in(runs: list[list[float]]) -> float:
            return statistics.median(sum(times) / len(times) for times in runs)

        def typical(runs: list[list[float]]) -> float:
            return statistics.median(statistics.median(times) for times in runs)

        mine, theirs = all_in(ours), all_in(base)
        usual, usual_base = typical(ours), typical(base)
        growth = (f"; x{mine / previous:.2f} all in, x{usual / previous_usual:.2f} typical "
                  f"for x{size // prev_size} lines" if previous else "")
        print(f"  {size:>6} lines: chunked {mine * 1e6:6.1f} us all in, {usual * 1e6:6.1f} us "
              f"typical; tuple {theirs * 1e6:7.1f} / {usual_base * 1e6:7.1f} us; ratio "
              f"{mine / theirs:4.2f}x / {usual / usual_base:4.2f}x{growth}", flush=True)
        previous_usual = usual
        previous, prev_size = mine, size


if __name__ == "__main__":
    main()
