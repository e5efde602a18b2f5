"""Syntax checks on tree-sitter: false alarms, detection, and the cost of one edit's check.

1. Per language, over the real-code corpus of ``tests/core/syntaxkit.py`` (the Pygments
   example files that ``make corpus`` fetches, plus code other packages installed on this
   machine): how many valid edits (a no-op, renaming an identifier everywhere, writing a
   statement line twice) got an *introduced* diagnostic (the target is 0), and how many
   injected breakages (a deleted closing ``}``/``end``/``fi``, a dropped quote, a line cut
   in half) were reported as introduced within 3 lines of the damage (target >= 95%).
2. The check of one edit in a 10,000-line JavaScript file (real npm code put end to end)
   and a 10,000-line Go file (generated: the machine has no Go code that big): cold (no
   tree cached), incremental (the tree before the edit cached, as when the previous
   operation's result is this one's input), against the bracket counter that did the job
   before (``bench/old_brackets.py``), timed in the same run. Three edits: a clean one, one
   that deletes a ``}``, and a clean one in a file that already has an error (where the
   old check also ran ``difflib`` over the whole file to place the old error).

Run: ``make corpus && .venv/bin/python bench/bench_syntax.py``.
"""

from __future__ import annotations

import random
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(HERE.parent / "tests" / "core"))

import syntaxkit  # noqa: E402

import old_brackets  # noqa: E402
from reviewtui.core.review.diagnostics import diagnose_change  # noqa: E402
from reviewtui.core.syntax import parsing  # noqa: E402

LINES = 10_000
REPEAT = 5
NPM = Path("/usr/lib/node_modules/npm")


def corpus_figures() -> None:
    corpus = syntaxkit.corpus()
    if not corpus:
        print(f"no corpus at {syntaxkit.corpus_root()}: run `make corpus` first")
        return
    print(f"{'language':<12} {'files':>5} {'lines':>6} {'valid edits':>11} {'introduced':>10} "
          f"{'breakages':>9} {'found':>6} {'rate':>6}")
    languages = 0
    for language, samples in corpus.items():
        valid = blamed = cases = found = 0
        for sample in samples:
            rng = random.Random(sample.path)
            variants = [sample.text]
            renamed = syntaxkit.rename_identifier(sample, rng)
            if renamed is not None:
                variants.append(renamed)
            duplicated = syntaxkit.duplicate_statement(sample, rng)
            if duplicated is not None:
                variants.append(duplicated[0])
            for text in variants:
                valid += 1
                blamed += any(d.introduced for d in diagnose_change(sample.path, sample.text,
                                                                    text))
            for _kind, broken, line in syntaxkit.breakages(sample, rng):
                cases += 1
                found += any(d.introduced and abs(d.line - line) <= 3
                             for d in diagnose_change(sample.path, sample.text, broken))
        rate = f"{100 * found / cases:.0f}%" if cases else "n/a"
        lines = sum(s.text.count("\n") + 1 for s in samples)
        languages += cases > 0
        print(f"{language:<12} {len(samples):>5} {lines:>6} {valid:>11} {blamed:>10} "
              f"{cases:>9} {found:>6} {rate:>6}")
    print(f"{languages} languages with breakages measured\n")


def js_file() -> str:
    """Real npm modules end to end (``;`` between them) up to LINES lines."""
    parts: list[str] = []
    total = 0
    for file in sorted(NPM.rglob("*.js")) if NPM.is_dir() else []:
        text = file.read_text("utf-8", "replace")
        parsed = parsing.parse("x.js", text)
        if parsed is None or parsed.tree.root_node.has_error:
            continue
        part = text.rstrip("\n") + "\n;\n"
        parts.append(part)
        total += part.count("\n")
        if total >= LINES:
            break
    if total < LINES:  # no npm here: generated functions of the same shape
        parts = [f"function f{n}(a, b) {{\n  const s = `${{a}}:${{b}}`;\n"
                 f"  if (a > {n}) {{\n    return [s, {{ k: a }}];\n  }}\n  return null;\n}}\n"
                 for n in range(LINES // 7 + 1)]
    return "".join(parts)


def go_file() -> str:
    funcs = [f"func F{n}(a int, b string) (int, error) {{\n\tif a > {n} {{\n"
             f"\t\treturn a, fmt.Errorf(\"%s: %d\", b, a)\n\t}}\n\treturn {n}, nil\n}}\n\n"
             for n in range(LINES // 7 + 1)]
    return "package big\n\nimport \"fmt\"\n\n" + "".join(funcs)


def _median(run: Callable[[], object], setup: Callable[[], object] = lambda: None) -> float:
    times = []
    for _ in range(REPEAT):
        setup()
        start = time.perf_counter()
        run()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1000


def _edits(text: str) -> dict[str, tuple[str, str]]:
    lines = text.split("\n")
    middle = len(lines) // 2
    target = next(i for i in range(middle, len(lines)) if "return" in lines[i])
    clean = [*lines[:target], lines[target].replace("return", "return  ", 1),
             *lines[target + 1 :]]
    brace = next(i for i in range(middle, len(lines)) if lines[i].strip() == "}")
    broken = [*lines[:brace], *lines[brace + 1 :]]
    # an error already there, near the top; then the clean edit in the middle
    top = next(i for i in range(len(lines)) if lines[i].strip() == "}")
    with_error = [*lines[:top], *lines[top + 1 :]]
    with_error_edited = [*with_error[: target - 1],
                         with_error[target - 1].replace("return", "return  ", 1),
                         *with_error[target:]]
    return {"clean edit": (text, "\n".join(clean)),
            "deletes a }": (text, "\n".join(broken)),
            "error already there": ("\n".join(with_error), "\n".join(with_error_edited))}


def timing(name: str, path: str, text: str) -> None:
    print(f"{name}: {text.count(chr(10)) + 1:,} lines, {len(text.encode()):,} bytes")
    print(f"  {'edit':<20} {'old brackets':>12} {'cold':>9} {'incremental':>11} "
          f"{'old/incr':>8}  introduced")
    for label, (before, after) in _edits(text).items():
        old = _median(lambda b=before, a=after: old_brackets.diagnose_change(b, a))
        cold = _median(lambda b=before, a=after: diagnose_change(path, b, a),
                       parsing.clear_cache)

        def warm(b: str = before) -> None:
            parsing.clear_cache()
            parsing.parse(path, b)

        incremental = _median(lambda b=before, a=after: diagnose_change(path, b, a), warm)
        found = [f"{d.line}: {d.message}" for d in diagnose_change(path, before, after)
                 if d.introduced]
        print(f"  {label:<20} {old:>10.1f}ms {cold:>7.1f}ms {incremental:>9.1f}ms "
              f"{old / incremental:>7.1f}x  {'; '.join(found)[:60] or '-'}")
    print()


def main() -> None:
    corpus_figures()
    timing("JavaScript (npm modules end to end)", "big.js", js_file())
    timing("Go (generated)", "big.go", go_file())


if __name__ == "__main__":
    main()
