"""The syntax report of ``apply`` (``diagnose_landed``) on bench_apply's 191-edit case: ten
10,000-line Python files made of the standard library, 191 three-line SEARCH/REPLACE edits.

Two kinds of edit, each timed three ways in the same run (CPU time, median of REPEAT runs,
every cache emptied before each):

* ``tokens + regions``: what ``apply`` does (``core/syntax/pytokens.py`` first, then the
  edited definitions alone, ``core/syntax/pyregions.py``; a whole parse when neither proves it);
* ``regions alone``: the token check turned off (the report before it existed);
* ``whole parse``: each file's final version parsed whole (``symtable``), no shortcut.

Edits: ``comment`` appends ``# edit N`` to the middle line (bench_apply's own edits);
``code`` renames the first name on it (``x`` -> ``x_e7``), which changes code and now and then
breaks a file (a renamed ``nonlocal``), so that file gets the whole parse it needs.

Run: ``.venv/bin/python bench/bench_syntax_landed.py``.
"""

from __future__ import annotations

import contextlib
import io
import keyword
import re
import statistics
import sys
import tempfile
import time
from collections.abc import Callable, Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import bench_apply as b  # noqa: E402
import reviewtui.cli.commands as commands  # noqa: E402
from reviewtui.cli import main  # noqa: E402
from reviewtui.core.engine import OpResult  # noqa: E402
from reviewtui.core.review import diagnostics  # noqa: E402
from reviewtui.core.review.landed import diagnose_landed  # noqa: E402
from reviewtui.core.syntax import pytokens  # noqa: E402

REPEAT = 9
_WORD = re.compile(r"\b[A-Za-z_]\w*\b")


def _renamed(line: str, n: int) -> str:
    for found in _WORD.finditer(line):
        if not keyword.iskeyword(found.group()) and found.group() not in ("self", "cls"):
            return f"{line[: found.end()]}_e{n}{line[found.end():]}"
    return f"{line}  # edit {n}"


def case(kind: str) -> b.Case:
    sources = b.real_files(400)
    made = b.make_case("191", [b.glued(sources, 10_000, i * 7) for i in range(10)], 20, 10, 1)
    made.turns[-1] = made.turns[-1][:1]
    if kind == "code":  # each centre is at least 4 lines from the others: no block overlaps
        n = 0
        for turn in made.turns:
            for at, (path, search, _replace) in enumerate(turn):
                n += 1
                turn[at] = (path, search, [search[0], _renamed(search[1], n), search[2]])
    made.expected = {}
    return b._reexpect(made)


def landed(made: b.Case) -> list[OpResult]:
    """The results ``apply`` hands to ``diagnose_landed`` (one real run, captured)."""
    seen: list[list[OpResult]] = []
    real = commands.diagnose_landed

    def capture(results: Sequence[OpResult]) -> dict[object, object]:
        seen.append(list(results))
        return {}

    commands.diagnose_landed = capture  # type: ignore[assignment]
    try:
        with tempfile.TemporaryDirectory() as scratch:
            work = Path(scratch)
            root = b.write_root(made, work)
            session = work / "session.md"
            session.write_text(b.session_text(made))
            with contextlib.redirect_stdout(io.StringIO()):
                main(["apply", "--yes", "--root", str(root), str(session)])
            if not b.check_root(root, made):
                raise SystemExit("apply did not write the intended files")
    finally:
        commands.diagnose_landed = real
    return seen[0]


def _cpu(run: Callable[[], object]) -> float:
    times = []
    for _ in range(REPEAT):
        diagnostics._text_cache.clear()
        diagnostics._cache.clear()
        start = time.process_time()
        run()
        times.append(time.process_time() - start)
    return statistics.median(times)


def whole(results: list[OpResult]) -> None:
    last = {r.outcome.path: r for r in results}
    for result in last.values():
        texts = diagnostics.change_texts(result)
        assert texts is not None
        assert texts[2] is not None
        diagnostics._python(texts[2])


def main_() -> None:
    print(f"{'edits':8} {'tokens + regions':>17} {'regions alone':>14} {'whole parse':>12}"
          f"  files reported")
    for kind in ("comment", "code"):
        results = landed(case(kind))
        ours = _cpu(lambda: diagnose_landed(results))  # noqa: B023
        real = pytokens.quiet_changes
        pytokens.quiet_changes = lambda *args: set()  # type: ignore[assignment]
        try:
            regions = _cpu(lambda: diagnose_landed(results))  # noqa: B023
        finally:
            pytokens.quiet_changes = real
        parse = _cpu(lambda: whole(results))  # noqa: B023
        reported = len(diagnose_landed(results))
        print(f"{kind:8} {ours * 1e3:14.1f} ms {regions * 1e3:11.1f} ms {parse * 1e3:9.1f} ms"
              f"  {reported}   ({regions / ours:.1f}x faster than regions alone,"
              f" {parse / ours:.1f}x than a whole parse)")


if __name__ == "__main__":
    main_()
