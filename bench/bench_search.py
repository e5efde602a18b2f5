"""The search bar (``/``) on issue 13's 5,000-turn / 50,000-operation session.

Each keystroke in the bar counts the operations whose text holds the query. The bar used
to fold (``str.casefold``) all 50,000 texts again at each keystroke, on the event loop;
it now gathers and folds them once, in a thread, when it opens (``SearchIndex``).

Figures, in the same run:

* baseline: counting one query the old way (every text folded again), in-process;
* the same count from the index;
* in the workbench (headless, 120x40, after the background evaluation ended): from ``/``
  until the bar is up, until the texts are read and folded, then each keystroke of a
  query until its count is drawn, and the event loop's longest stall over all of it (a
  2 ms ticker, as in ``bench_ui.py``).

Target: no keystroke over 50 ms and no stall over 50 ms (issue 13's bound for keys).
Run: ``.venv/bin/python bench/bench_search.py``.
"""

from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from textual.widgets import Label  # noqa: E402

from bench_ui import LoopLag, make_scale_session, send_key, settle, workers_done  # noqa: E402
from reviewtui.core.review.search import SearchIndex  # noqa: E402
from reviewtui.shell.review import Review  # noqa: E402
from reviewtui.ui.app import ReviewApp  # noqa: E402
from reviewtui.ui.screens.main import MainScreen  # noqa: E402
from reviewtui.ui.screens.search import SearchScreen, search_texts  # noqa: E402

QUERY = "return self"
TARGET = 0.050


def fold_each_time(texts: list[str], query: str) -> int:
    needle = query.casefold()
    return sum(1 for text in texts if needle in text.casefold())


async def in_app(session: Path, root: Path) -> dict[str, list[float]]:
    figures: dict[str, list[float]] = {"bar up": [], "texts read": [], "keystroke": []}
    review = Review.open(session, root, dry_run=True)
    app = ReviewApp(review, watch=False)
    lag = LoopLag()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await workers_done(app)
        main = app.screen
        assert isinstance(main, MainScreen)
        lag.start()
        await asyncio.sleep(0.2)
        lag.take()
        started = time.perf_counter()
        send_key(app, "slash", "/")
        await settle(app, lambda: isinstance(app.screen, SearchScreen))
        figures["bar up"].append(time.perf_counter() - started)
        bar = app.screen
        assert isinstance(bar, SearchScreen)
        await settle(app, lambda: bar.ready)
        figures["texts read"].append(time.perf_counter() - started)
        count = bar.query_one("#search-count", Label)
        for typed in range(1, len(QUERY) + 1):
            char = QUERY[typed - 1]
            key_started = time.perf_counter()
            send_key(app, "space" if char == " " else char, char)
            await settle(app, lambda n=typed: bar.query_one("Input").value == QUERY[:n]
                         and "match" in str(count.render()))
            figures["keystroke"].append(time.perf_counter() - key_started)
        figures["loop's longest stall"] = [lag.take()[0]]
        lag.stop()
        print(f"  the bar's count for {QUERY!r}: {count.render()}")
    return figures


def main() -> None:
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("XDG_CONFIG_HOME", "XDG_STATE_HOME"):
            os.environ[name] = str(Path(tmp) / name.lower())
        folder = make_scale_session(Path(tmp))
        review = Review.open(folder / "session.md", folder / "base", dry_run=True)
        turns = list(review.session.turns)
        _, texts = search_texts(turns, review.decisions)
        print(f"session: {len(turns):,} turns, {len(texts):,} operations, "
              f"{sum(map(len, texts)) / 1e6:.1f} MB of searched text")
        old, new = [], []
        index = SearchIndex(texts)
        for _ in range(5):
            t0 = time.perf_counter()
            want = fold_each_time(texts, QUERY)
            old.append(time.perf_counter() - t0)
            t0 = time.perf_counter()
            got = len(index.matches(QUERY))
            new.append(time.perf_counter() - t0)
            assert got == want
        t0 = time.perf_counter()
        SearchIndex(texts)
        folding = time.perf_counter() - t0
        before, after = statistics.median(old), statistics.median(new)
        print(f"one count, in-process: every text folded again (baseline) "
              f"{before * 1000:.1f} ms; from the index {after * 1000:.1f} ms "
              f"(x{before / after:.1f} faster); folding the texts once {folding * 1000:.0f} ms")
        figures = asyncio.run(in_app(folder / "session.md", folder / "base"))
    for name, values in figures.items():
        print(f"  {name:24} median {statistics.median(values) * 1000:7.1f} ms   "
              f"max {max(values) * 1000:7.1f} ms")
    worst = max(max(figures["keystroke"]), figures["loop's longest stall"][0])
    print(f"keystrokes and stalls {'within' if worst <= TARGET else 'OVER'} "
          f"{TARGET * 1000:.0f} ms (worst {worst * 1000:.1f} ms)")


if __name__ == "__main__":
    main()
