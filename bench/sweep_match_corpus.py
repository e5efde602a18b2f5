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

``--engine`` takes the same edits through ``reviewtui apply`` instead of the matcher
alone: each file written with LF, CRLF, CRLF and a BOM, or no final newline, a third of
them indented with tabs (chosen per file), ``TURNS`` turns per file (default 4), each edit
generated against the file as the turns before it left it and sent only if the matcher
lands it alone; every file must end byte for byte as the last turn meant (a wrong file is
one that ends otherwise).

Run: ``.venv/bin/python bench/sweep_match_corpus.py [SEEDS] [FIRST_SEED] [--engine
[TURNS]]`` (defaults: 2 seeds from 1000; about 20 s a seed). Another interpreter's stdlib
is another corpus: run it with that interpreter (with reviewtui importable). Not part of
``make bench``: it measures correctness, not speed.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import random
import sys
import tempfile
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


_ENDINGS = ("lf", "crlf", "crlf-bom", "lf-noeol", "crlf-noeol")
_MARKERS = ("=======", "<<<<<<<", ">>>>>>>", "--- File:", "## ")


def _encode(lines: tuple[str, ...], ending: str) -> bytes:
    eol = "\r\n" if "crlf" in ending else "\n"
    kept = lines[:-1] if "noeol" in ending and lines and lines[-1] == "" else lines
    return (b"\xef\xbb\xbf" if "bom" in ending else b"") + eol.join(kept).encode("utf-8")


def _engine_seed(mc: Any, seed: int, turns: int) -> tuple[int, list[str]]:
    """One seed through ``reviewtui apply``: (edits sent, the files that ended wrong)."""
    from reviewtui.cli import main as cli

    rng = random.Random(f"{seed}-engine")
    tabbed_kinds = ("spaces-for-tabs", "spaces-dedented")
    plan: dict[str, tuple[str, list[tuple[str, ...]], list[Any]]] = {}
    for number, path in enumerate(mc._stdlib_files()):
        lines = mc._read(path)
        if any(line.startswith(_MARKERS) or "=======" in line for line in lines):
            continue  # a line the session format would read as its own
        # A third of the files indented with tabs, from the first version on: the
        # generator's tab kinds edit the tabbed file, which tabbing again leaves as it is.
        tabbed = rng.random() < 0.3
        if tabbed:
            lines = mc._tabbed(lines)
        kinds = (*(kind for kind in mc.EXPRESSION if tabbed or kind not in tabbed_kinds),
                 "elision")
        versions, edits = [lines], []
        for _ in range(turns):
            kind = rng.choice(kinds)
            counts: dict[int, Any] = {}
            edit = (mc._elision_edit(rng, versions[-1], counts) if kind == "elision"
                    else mc._expression_edit(rng, versions[-1], counts, kind))
            if edit is not None and edit.lines != versions[-1]:
                edit = None  # tabbing again changed a line an earlier turn indented mixed
            if edit is not None:
                result = mc.match_edit(edit.lines, edit.search, edit.replace)
                if mc._judge(kind, edit, result) != "correct":
                    edit = None  # not landed alone: a refusal is not what this checks
            edits.append(edit)
            versions.append(versions[-1] if edit is None else edit.intended)
        plan[f"f{number}_{path.stem}.py"] = (rng.choice(_ENDINGS), versions, edits)
    sent = 0
    with tempfile.TemporaryDirectory(prefix="sweep-engine-") as name:
        root = Path(name) / "root"
        root.mkdir()
        text = []
        for turn in range(turns):
            text.append(f"## Turn {turn + 1}\n> edits\n")
            for file, (_, _, edits) in plan.items():
                edit = edits[turn]
                if edit is not None:
                    sent += 1
                    text.append(f"--- File: {file} ---\n<<<<<<< SEARCH\n"
                                + "\n".join(edit.search) + "\n=======\n"
                                + "\n".join(edit.replace) + "\n>>>>>>> REPLACE\n")
        for file, (ending, versions, _) in plan.items():
            (root / file).write_bytes(_encode(versions[0], ending))
        session = Path(name) / "session.md"
        session.write_text("\n".join(text))
        with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
            cli(["apply", "--yes", "--partial", "--root", str(root), str(session)])
        wrong = [_ended_wrong(file, ending, versions, edits, (root / file).read_bytes())
                 for file, (ending, versions, edits) in plan.items()
                 if (root / file).read_bytes() != _encode(versions[-1], ending)]
    return sent, wrong


def _ended_wrong(file: str, ending: str, versions: list[tuple[str, ...]], edits: list[Any],
                 got: bytes) -> str:
    """What a wrong file holds against each version, and the turns sent to it."""
    import difflib

    lines = got.decode("utf-8-sig").replace("\r\n", "\n").split("\n")
    if "noeol" in ending:
        lines.append("")  # as the versions end (see _encode)
    closest = min(range(len(versions)), key=lambda k: sum(
        1 for _ in difflib.unified_diff(list(versions[k]), lines, n=0)))
    diff = list(difflib.unified_diff(list(versions[closest]), lines, n=0, lineterm=""))[2:]
    sent = ", ".join(f"turn {n + 1}" for n, edit in enumerate(edits) if edit is not None)
    return (f"{file} ({ending}; sent {sent}): closest to version {closest}, which differs "
            f"by\n  " + "\n  ".join(repr(line) for line in diff[:12]))


def main() -> int:
    words = [word for word in sys.argv[1:] if not word.startswith("--")]
    engine = "--engine" in sys.argv
    seeds = int(words[0]) if words else 2
    first = int(words[1]) if len(words) > 1 else 1000
    turns = int(words[2]) if len(words) > 2 else 4
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
        if engine:
            sent, ended_wrong = _engine_seed(mc, seed, turns)
            total += sent
            wrong += len(ended_wrong)
            failures += ended_wrong
            print(f"seed {seed}: {sent:6d} edits through apply, {turns} turns a file, "
                  f"{len(ended_wrong)} files wrong ({time.perf_counter() - began:.0f} s)",
                  flush=True)
            continue
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
