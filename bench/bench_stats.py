"""The statistics screen and opening the review on the real 4 MB Aider history (issue 13).

    .venv/bin/python bench/bench_stats.py [--root AIDER_CHECKOUT]

The transcript is ``../shared/corpus/aider-chat-history/chat-history.md``: 1,776 turns, 639
operations. Its edits are meant for Aider's own source: with ``--root`` naming a checkout
of it (``git clone https://github.com/Aider-AI/aider``) they land, and the syntax check has
real files to parse; without it the project is an empty folder and most edits fail. The
checkout is copied to a scratch folder first: nothing is written to it.

Prints, each once (wall clock, this process):

* the baseline: importing the transcript alone (``import_session``), the floor of any
  command on it;
* ``Review.open`` (parse, evaluate, take the lock);
* the statistics in the two rounds the screen shows them: every count but the syntax
  errors (``session_stats(..., syntax=False)``, with the lint findings it reports), then
  the syntax errors (``with_syntax``), and the sum, what the screen cost before;
* the screen itself, driven headless: from pressing ``S`` to the counts on screen, and
  to the syntax errors added.
"""

from __future__ import annotations

import argparse
import asyncio
import shutil
import sys
import tempfile
import time
from pathlib import Path

from reviewtui.core.export import Accepted
from reviewtui.core.importers import import_session
from reviewtui.core.review.stats import session_stats, with_syntax
from reviewtui.shell.review import Review

CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"
HISTORY = CORPUS / "aider-chat-history" / "chat-history.md"
TARGET = 1.0


def timed(label: str, seconds: float, note: str = "") -> float:
    print(f"  {label:52} {seconds:7.2f} s{note}")
    return seconds


async def screen(session: Path, root: Path) -> tuple[float, float]:
    from textual.widgets import Static

    from reviewtui.ui.app import ReviewApp

    review = Review.open(session, root)
    app = ReviewApp(review, watch=False)
    async with app.run_test(size=(120, 40)) as pilot:
        await app.workers.wait_for_complete()
        await pilot.pause()
        started = time.perf_counter()
        await pilot.press("S")
        counts = syntax = 0.0
        while True:
            await asyncio.sleep(0.01)
            heads = app.screen.query("#stats-head")
            if heads and not counts:
                counts = time.perf_counter() - started
            if heads and "checking which" not in str(heads.first(Static).content):
                syntax = time.perf_counter() - started
                break
    review.close()
    return counts, syntax


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--root", type=Path, help="a checkout of Aider's source (copied)")
    args = parser.parse_args()
    if not HISTORY.is_file():
        print(f"bench_stats: skipped LOUDLY: {HISTORY} is missing (the shared corpus)")
        return 0
    with tempfile.TemporaryDirectory(prefix="bench-stats-") as name:
        tmp = Path(name)
        session = tmp / "chat-history.md"
        shutil.copy(HISTORY, session)
        root = tmp / "root"
        if args.root is not None:
            shutil.copytree(args.root, root, symlinks=True,
                            ignore=shutil.ignore_patterns(".git"))
            where = f"a copy of {args.root}"
        else:
            root.mkdir()
            where = "an empty project (pass --root AIDER_CHECKOUT for landed edits)"
        print(f"the 4 MB Aider history ({HISTORY.stat().st_size / 1e6:.1f} MB) on {where}")
        text = session.read_text("utf-8")
        started = time.perf_counter()
        import_session(text, "aider")
        floor = timed("baseline: import_session alone", time.perf_counter() - started)
        started = time.perf_counter()
        review = Review.open(session, root)
        opened = time.perf_counter() - started
        timed("Review.open", opened, f"   x{opened / floor:.1f} of the baseline, target "
              f"< {TARGET:.0f} s: {'meets' if opened < TARGET else 'MISSES'}")
        started = time.perf_counter()
        accepted = Accepted.of(review.display, str(review.loaded.file), reviewed=True)
        quick = session_stats(accepted, review.time_spent(), syntax=False)
        counts = timed("statistics, every count but syntax errors",
                       time.perf_counter() - started)
        started = time.perf_counter()
        full = with_syntax(quick, accepted)
        syntax = timed("statistics, the syntax errors added", time.perf_counter() - started)
        timed("statistics, both (what the screen waited for before)", counts + syntax)
        review.close()
        print(f"  ({full.total.operations} operations, {full.total.landed} landed, "
              f"{full.total.syntax_errors} introduce syntax errors)")
        shutil.rmtree(tmp / "state", ignore_errors=True)
        on_screen, with_errors = asyncio.run(screen(session, root))
        timed("the screen: S to the counts shown", on_screen,
              f"   target < {TARGET:.0f} s: {'meets' if on_screen < TARGET else 'MISSES'}")
        timed("the screen: S to the syntax errors shown", with_errors)
    return 0


if __name__ == "__main__":
    sys.exit(main())
