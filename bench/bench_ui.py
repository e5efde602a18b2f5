"""The workbench under load: a generated 500-turn, 5,000-operation session.

Drives the app headless (``App.run_test``) and prints: opening the review (parse +
two evaluations), the first paint, moving between operations and checkpoints, one
decision (evaluate + replay + save), and opening a 20,000-line full-file diff.
Baseline, measured in the same run: an empty App's first paint. Run: ``make bench``
(``--keys``: only the keys below).

Then ``y``, ``u`` and redo on a review that writes (not a dry run): each key's time from
the key event (sent as the terminal driver delivers one) until the file on disk changed,
no review job runs or waits, every widget took in its messages and the screen drew what
changed; and the event loop's longest stall meanwhile (a 2 ms ticker records how late
each tick wakes -- while the loop is blocked, nothing is drawn and no key is read -- and
the loop thread's CPU between two ticks, which a loaded machine's waits for a core do not
inflate; so the process's CPU during each key is shown too, all threads and the bench's
polling counted). After each key the loop is watched a further ``TAIL`` seconds (work
the key left for later), then through a pause of ``collector.QUIET`` seconds: the
collector's walk waits for such a pause in the keys, and its block is shown apart. The
first rounds press the same keys through ``Pilot.press``, whose idle
waits (until the process's CPU is quiet) are the Pilot's own cost. Baselines in the same run: the
same steps called on the ``Review`` directly (the engine's own cost, no UI) and the
ticker on an idle loop. ``n`` and its undo (``u(n)``) likewise, on the operation after
(a reject writes the review state, not the project). The workbench re-evaluates the turns
around the one on screen first and the later ones after drawing (``ui/evaluating.py``):
when every turn was evaluated again is shown too (the ``Review`` call alone evaluates them
all at once, as a headless command does). ``--scale``: the keys alone, on issue
13's 5,000-turn / 50,000-operation session made from real files (as ``bench_apply.py``
makes it); ``--scale --half``: the same with the first half of its operations accepted
before the app opens (25,000 decisions in force, a review well under way), the keys pressed
on the second half. The app runs with a scratch config folder: the user's remembered layout (a
hidden turn list, unified diffs) would change what a key redraws.
"""

from __future__ import annotations

import asyncio
import contextlib
import inspect
import os
import shutil
import statistics
import sys
import tempfile
import time
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import Any

from textual import events
from textual.app import App
from textual.worker import WorkerCancelled, WorkerFailed

from reviewtui.core.engine import Decision, Verdict
from reviewtui.shell.review import Review
from reviewtui.ui import collector
from reviewtui.ui.app import ReviewApp
from reviewtui.ui.screens.main import MainScreen

TURNS = 500
OPS_PER_TURN = 10
FILES = 100
TARGET_FIRST_PAINT = 1.0
TARGET_KEY = 0.050  # key -> disk written and screen updated, median (issue 13)
TARGET_STALL = 0.050  # the event loop's longest block during a key
ROUNDS = 8  # y, u, redo on each of this many operations
PILOT_ROUNDS = 3  # first, the same through Pilot.press (its idle waits: the Pilot's cost)
KEYS = ("y", "u", "redo", "n", "u(n)")  # accept, undo, redo; reject, undo (the next op)
TARGETED = KEYS  # issue 13: every decision, undo and redo
TAIL = 0.2  # seconds after a key settled in which the loop is watched too (work it deferred)


def make_session(folder: Path) -> Path:
    """Turn t edits file (t*k) % FILES: each edit changes one line the previous left."""
    base = folder / "base"
    for f in range(FILES):
        path = base / f"pkg{f // 10}" / f"mod{f:03}.py"
        path.parent.mkdir(parents=True, exist_ok=True)
        lines = [f"def f{n}(x):\n    return x + {n}\n\n" for n in range(OPS_PER_TURN * 4)]
        path.write_text(f"# module {f}\n" + "".join(lines))
    big = base / "big.py"
    big.write_text("".join(f"value_{n} = {n}\n" for n in range(20_000)))
    parts = ["# Session: generated load test", ""]
    for t in range(1, TURNS + 1):
        f = t % FILES
        rel = f"pkg{f // 10}/mod{f:03}.py"
        version = (t - 1) // FILES
        parts += [f"## Turn {t}", f"> Bump module {f} (round {version}).", "",
                  f"--- File: {rel} ---"]
        for n in range(OPS_PER_TURN):
            k = n * 4
            parts += [f"Edit {n + 1}", "<<<<<<< SEARCH", f"    return x + {k}"
                      + ("" if version == 0 else f"  # r{version}"),
                      "=======", f"    return x + {k}  # r{version + 1}", ">>>>>>> REPLACE", ""]
        parts += ["### Changed files:", f"- {rel}", ""]
    parts += [f"## Turn {TURNS + 1}", "> Rewrite the big file.", "", "--- File: big.py ---",
              "```python", *(f"value_{n} = {n * 2}" for n in range(20_000)), "```", ""]
    session = folder / "session.md"
    session.write_text("\n".join(parts))
    return folder


async def first_paint_baseline() -> float:
    empty: App[None] = App()
    start = time.perf_counter()
    async with empty.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
    return time.perf_counter() - start


async def drive(folder: Path) -> dict[str, float | list[float]]:
    figures: dict[str, float | list[float]] = {}
    root = Path(tempfile.mkdtemp(prefix="reviewtui-bench-root-"))
    shutil.copytree(folder / "base", root, dirs_exist_ok=True)
    start = time.perf_counter()
    review = Review.open(folder, root, dry_run=True)
    figures["open review"] = time.perf_counter() - start
    app = ReviewApp(review, watch=False)
    start = time.perf_counter()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        figures["first paint (until the Pilot is idle)"] = time.perf_counter() - start
        screen = app.screen
        assert isinstance(screen, MainScreen)
        assert screen.first_frame_at is not None
        figures["first frame drawn"] = screen.first_frame_at - start
        idle = []
        for _ in range(30):
            t0 = time.perf_counter()
            await pilot.press("f12")  # bound to nothing: the Pilot's own cost per key
            await pilot.pause()
            idle.append(time.perf_counter() - t0)
        figures["unbound key (pilot overhead)"] = idle
        moves = []
        for _ in range(30):
            t0 = time.perf_counter()
            await pilot.press("J")
            await pilot.pause()
            moves.append(time.perf_counter() - t0)
        figures["next operation"] = moves
        scrubs = []
        for _ in range(30):
            t0 = time.perf_counter()
            await pilot.press("full_stop")
            await pilot.pause()
            scrubs.append(time.perf_counter() - t0)
        figures["next checkpoint"] = scrubs
        decisions = []
        for turn_pos in (TURNS - 1, TURNS // 2, 0):
            screen.select(turn_pos, 0)
            t0 = time.perf_counter()
            await pilot.press("y")
            await pilot.pause()
            decisions.append(time.perf_counter() - t0)
        figures["decision (last, middle, first turn)"] = decisions
        t0 = time.perf_counter()
        screen.select(TURNS, 0)
        figures["select it (UI thread, diff in a worker)"] = time.perf_counter() - t0
        await workers_done(app)
        await pilot.pause()
        figures["20k-line full-file diff shown"] = time.perf_counter() - t0
        t0 = time.perf_counter()
        await pilot.press("end")
        await pilot.pause()
        figures["scroll to its end"] = time.perf_counter() - t0
    review.close()
    shutil.rmtree(root)
    return figures


class LoopLag:
    """The event loop's longest stall: a ticker that records how late each tick wakes,
    and how much CPU the loop's thread spent between two ticks (on a loaded machine the
    lateness also counts the time the process waited for a core; the CPU does not)."""

    TICK = 0.002

    def __init__(self) -> None:
        self.worst = 0.0
        self.worst_cpu = 0.0
        self.task: asyncio.Task[None] | None = None
        self.ticked = asyncio.Event()

    async def _tick(self) -> None:
        while True:
            expected = time.perf_counter() + self.TICK
            cpu = time.thread_time()
            await asyncio.sleep(self.TICK)
            self.worst = max(self.worst, time.perf_counter() - expected)
            self.worst_cpu = max(self.worst_cpu, time.thread_time() - cpu)
            self.ticked.set()

    async def take_settled(self) -> tuple[float, float]:
        """:meth:`take`, once the tick under way has ended: the loop's last stretch before
        now (a key's final redraw) is counted in it, not in what comes next."""
        self.ticked.clear()
        await self.ticked.wait()
        return self.take()

    def start(self) -> None:
        self.task = asyncio.get_running_loop().create_task(self._tick())

    def take(self) -> tuple[float, float]:
        """The worst lateness and CPU between ticks since the last call (and start again)."""
        worst, self.worst = self.worst, 0.0
        cpu, self.worst_cpu = self.worst_cpu, 0.0
        return worst, cpu

    def stop(self) -> None:
        if self.task is not None:
            self.task.cancel()


async def workers_done(app: App[None]) -> None:
    """Wait for the app's workers; one cancelled by a newer one in its group is done too."""
    for worker in list(app.workers):
        with contextlib.suppress(WorkerCancelled, WorkerFailed):
            await worker.wait()


async def settle(app: ReviewApp, until: Callable[[], bool], timeout: float = 60.0) -> float:
    """Poll (1 ms) until ``until()`` holds and no review job runs or waits (the worker
    queue), then until the screen has taken in every message and drawn what changed.
    Returns when the first of the two held (the job done, its result on disk)."""
    deadline = time.perf_counter() + timeout
    jobs = getattr(app, "jobs", None)
    # The disk is read only while no job runs (reading it every millisecond would take
    # the job's thread turns it needs).
    while (jobs is not None and jobs.backlog) or not until():
        assert time.perf_counter() < deadline, "the key never took effect"
        await asyncio.sleep(0.001)
    done = time.perf_counter()
    screen = app.screen
    while True:
        await screen_messages_done(app)
        if not (screen._dirty_widgets or screen._layout_required  # noqa: SLF001
                or screen._repaint_required or screen._scroll_required):  # noqa: SLF001
            return done
        assert time.perf_counter() < deadline, "the screen never settled"
        await asyncio.sleep(0.001)


class _Reached:
    """A callback that sets an event. Its signature is given, not looked up: Textual
    inspects every callback's signature (~0.1 ms), and the bench asks every widget of the
    screen at each poll -- that was the bench's own cost, counted in the key's time."""

    __signature__ = inspect.Signature()

    def __init__(self) -> None:
        self.event = asyncio.Event()

    def __call__(self) -> None:
        self.event.set()


async def screen_messages_done(app: App[None]) -> None:
    """Until the app and every widget of the screen handled the messages queued so far
    (what the Pilot waits for after its idle waits, without them)."""
    pending: list[asyncio.Event] = []
    for node in (app, *app.screen.walk_children(with_self=True)):
        reached = _Reached()
        if node.call_later(reached):
            pending.append(reached.event)
    for done in pending:
        await done.wait()


def send_key(app: App[None], key: str, char: str | None) -> None:
    """A key event into the app as the terminal driver delivers one: no Pilot waits."""
    event = events.Key(key, char)
    event.set_sender(app)
    assert app._driver is not None  # noqa: SLF001
    app._driver.send_message(event)  # noqa: SLF001


async def keys(folder: Path, half: bool = False) -> dict[str, list[float]]:
    """y, u, redo through the app on a writing review; the loop's worst stall for each.
    ``half``: the first half of the operations accepted first, the keys on the second."""
    figures: dict[str, list[float]] = {}
    root = Path(tempfile.mkdtemp(prefix="reviewtui-bench-root-"))
    shutil.copytree(folder / "base", root, dirs_exist_ok=True)
    shutil.copy(folder / "session.md", root.parent / f"{root.name}-session.md")
    session = root.parent / f"{root.name}-session.md"
    review = Review.open(session, root)
    start = 0  # the first turn keyed
    if half:
        every = [r.key for turn in review.display.turns for r in turn.results]
        review.decide_many([(key, Decision.accept()) for key in every[: len(every) // 2]],
                           skip_unappliable=True)
        start = len(review.display.turns) // 2
    # Baseline: the same steps on the Review itself (no UI, no worker).
    engine: dict[str, list[float]] = {name: [] for name in KEYS}
    for turn_pos in range(start + PILOT_ROUNDS + ROUNDS, start + PILOT_ROUNDS + 2 * ROUNDS):
        key, other = (r.key for r in review.display.turns[turn_pos].results[:2])
        for name, step in (("y", lambda k=key: review.decide(k, Decision.accept())),
                           ("u", review.undo), ("redo", review.redo),
                           ("n", lambda k=other: review.decide(k, Decision.reject())),
                           ("u(n)", review.undo)):
            t0 = time.perf_counter()
            step()
            engine[name].append(time.perf_counter() - t0)
    app = ReviewApp(review, watch=False)
    # Each frame the screen composes (headless, nothing is written, but the frame is
    # made): the first one after the key's job is done is when the step is first shown.
    frames: list[float] = []
    compose_frame = app._display  # noqa: SLF001

    def display(screen: Any, renderable: Any) -> None:
        if renderable is not None:
            frames.append(time.perf_counter())
        compose_frame(screen, renderable)

    app._display = display  # type: ignore[method-assign]  # noqa: SLF001
    lag = LoopLag()
    async with app.run_test(size=(120, 40)) as pilot:
        await pilot.pause()
        await workers_done(app)
        screen = app.screen
        assert isinstance(screen, MainScreen)
        lag.start()
        await asyncio.sleep(0.3)
        lag.take()
        await asyncio.sleep(0.3)
        idle_late, idle_cpu = lag.take()
        figures["idle loop: ticker lateness (baseline)"] = [idle_late]
        figures["idle loop: CPU between ticks (baseline)"] = [idle_cpu]
        for name in KEYS:
            figures[f"{name}: key -> disk + screen"] = []
            figures[f"{name}: key -> first frame after the job"] = []
            figures[f"{name}: CPU of the process meanwhile"] = []
            figures[f"{name}: longest loop block"] = []
            figures[f"{name}: longest loop block, CPU"] = []
            figures[f"{name}: longest loop block after it"] = []
            figures[f"{name}: every later turn evaluated again"] = []
            figures[f"{name}: longest loop block in the pause after"] = []
            figures[f"{name}: through Pilot.press"] = []
        for turn_pos in range(start, start + PILOT_ROUNDS + ROUNDS):
            first, second = review.display.turns[turn_pos].results[:2]
            path = root / str(getattr(first.op, "path", ""))
            before = path.read_bytes()

            def written(want_before: bool, p: Path = path, b: bytes = before) -> bool:
                return (p.read_bytes() == b) == want_before

            def verdict(want: Verdict, key: tuple[int, int] = second.key) -> bool:
                return review.result(key).decision.verdict is want

            steps: list[tuple[str, str, Callable[[], bool]]] = [
                ("y", "y", partial(written, False)), ("u", "u", partial(written, True)),
                ("redo", "U", partial(written, False)),
                ("n", "n", partial(verdict, Verdict.REJECTED)),
                ("u(n)", "u", partial(verdict, Verdict.PENDING))]
            for name, press, until in steps:
                if name in ("y", "n"):  # the operation shown: the first, then the second
                    screen.select(turn_pos, 0 if name == "y" else 1)
                    await pilot.pause()
                    await workers_done(app)
                await lag.take_settled()
                t0, cpu0 = time.perf_counter(), time.process_time()
                if turn_pos < start + PILOT_ROUNDS:  # the same key through the Pilot: its cost
                    await pilot.press(press)
                else:
                    send_key(app, press, press)
                done = await settle(app, until)
                took = time.perf_counter() - t0
                shown = next((t for t in frames if t >= done), time.perf_counter()) - t0
                used = time.process_time() - cpu0
                if turn_pos < start + PILOT_ROUNDS:
                    figures[f"{name}: through Pilot.press"].append(took)
                    continue
                figures[f"{name}: key -> disk + screen"].append(took)
                figures[f"{name}: key -> first frame after the job"].append(shown)
                figures[f"{name}: CPU of the process meanwhile"].append(used)
                late, cpu = await lag.take_settled()
                figures[f"{name}: longest loop block"].append(late)
                figures[f"{name}: longest loop block, CPU"].append(cpu)
                # What a key leaves for later (the collector's walks, redraws, the later
                # turns' re-evaluation: ui/evaluating.py) blocks the loop just as much if
                # the next key comes then.
                caught = await evaluated_again(review, t0, TAIL)
                figures[f"{name}: every later turn evaluated again"].append(caught)
                figures[f"{name}: longest loop block after it"].append(
                    (await lag.take_settled())[0])
                # The collector's walk waits for a pause in the keys (collector.QUIET):
                # where it went, the loop is blocked while the reviewer reads.
                await asyncio.sleep(collector.QUIET)
                figures[f"{name}: longest loop block in the pause after"].append(
                    (await lag.take_settled())[0])
        lag.stop()
    for name, values in engine.items():
        figures[f"{name}: Review call alone (baseline)"] = values
    review.close()
    shutil.rmtree(root)
    session.unlink()
    return figures


async def evaluated_again(review: Review, t0: float, watch: float) -> float:
    """Seconds from ``t0`` (a key) until the display had evaluated every turn again (a
    change re-evaluates the turns around the one on screen first); waits ``watch`` seconds
    at least, and at most 10 s."""
    caught = None
    until = time.perf_counter() + watch
    while caught is None or time.perf_counter() < until:
        if caught is None and review.evaluation_complete:
            caught = time.perf_counter() - t0
        if time.perf_counter() > until + 10:
            return float("nan")
        await asyncio.sleep(0.002)
    return caught


def show(name: str, value: float | list[float]) -> None:
    if isinstance(value, list):
        print(f"{name:38} median {statistics.median(value) * 1000:8.1f} ms   "
              f"max {max(value) * 1000:8.1f} ms")
    else:
        print(f"{name:38} {value * 1000:8.1f} ms")


def make_scale_session(folder: Path) -> Path:
    """Issue 13's scale case, as ``bench_apply.py`` and ``bench_first_frame.py`` make it:
    5,000 turns of ten SEARCH/REPLACE edits over 200 real standard-library modules."""
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from bench_apply import make_case, real_files, session_text, write_root

    case = make_case("scale", real_files(200, max_lines=400), 5000, 10, 3)
    write_root(case, folder).rename(folder / "base")
    (folder / "session.md").write_text(session_text(case))
    return folder


def main() -> None:
    scale = "--scale" in sys.argv[1:]
    with tempfile.TemporaryDirectory() as tmp:
        for name in ("XDG_CONFIG_HOME", "XDG_STATE_HOME"):  # defaults, not the user's
            os.environ[name] = str(Path(tmp) / name.lower())
        folder = (make_scale_session if scale else make_session)(Path(tmp))
        keys_only = scale or "--keys" in sys.argv[1:]
        if not keys_only:
            baseline = asyncio.run(first_paint_baseline())
            figures = asyncio.run(drive(folder))
        half = scale and "--half" in sys.argv[1:]
        key_figures = asyncio.run(keys(folder, half))
    if scale:
        print("session: 5,000 turns, 50,000 operations, 200 files (real modules)"
              + ("; the first 25,000 accepted, the keys on turns 2,501 on" if half else ""))
    else:
        print(f"session: {TURNS + 1} turns, {TURNS * OPS_PER_TURN + 1} operations, "
              f"{FILES + 1} files")
    if not keys_only:
        opening(baseline, figures)
    show_keys(key_figures)


def opening(baseline: float, figures: dict[str, float | list[float]]) -> None:
    show("empty App first paint (baseline)", baseline)
    for name, value in figures.items():
        show(name, value)
    paint = figures["first frame drawn"]
    assert isinstance(paint, float)
    total = paint + float(figures["open review"])  # type: ignore[arg-type]
    print(f"open + first frame: {total:.2f} s (target < {TARGET_FIRST_PAINT:.0f} s), "
          f"{paint / baseline:.1f}x an empty app's first paint")


def show_keys(key_figures: dict[str, list[float]]) -> None:
    print(f"\nkeys on a writing review ({ROUNDS} operations, first turns: the most to "
          "re-evaluate)")
    for name, values in key_figures.items():
        show(name, values)
    for name in KEYS:
        took = statistics.median(key_figures[f"{name}: key -> disk + screen"])
        shown = statistics.median(key_figures[f"{name}: key -> first frame after the job"])
        alone = statistics.median(key_figures[f"{name}: Review call alone (baseline)"])
        block = max(key_figures[f"{name}: longest loop block"])
        cpu = max(key_figures[f"{name}: longest loop block, CPU"])
        after = max(key_figures[f"{name}: longest loop block after it"])
        paused = max(key_figures[f"{name}: longest loop block in the pause after"])
        again = statistics.median(key_figures[f"{name}: every later turn evaluated again"])
        used = statistics.median(key_figures[f"{name}: CPU of the process meanwhile"])
        target = (f"target <= {TARGET_KEY * 1000:.0f} ms; " if name in TARGETED else "")
        stall = f" (target <= {TARGET_STALL * 1000:.0f} ms)" if name in TARGETED else ""
        print(f"{name:5} median {took * 1000:.0f} ms, first frame after the job "
              f"{shown * 1000:.0f} ms ({target}"
              f"{took / alone:.2f}x the Review call alone; CPU {used * 1000:.0f} ms), "
              "longest loop block "
              f"{block * 1000:.0f} ms, {cpu * 1000:.0f} ms of it CPU{stall}; "
              f"{after * 1000:.0f} ms in the {TAIL:.1f} s after, {paused * 1000:.0f} ms "
              f"in the {collector.QUIET:.1f} s pause after that (the collector's walk); "
              f"every later turn evaluated again {again * 1000:.0f} ms after the key")


if __name__ == "__main__":
    main()
