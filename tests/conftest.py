"""Test-wide setup: snapshot SVGs live in the top-level ``snapshots/`` folder."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import pytest_textual_snapshot

SNAPSHOT_DIR = Path(__file__).resolve().parents[1] / "snapshots"
CORPUS = Path(__file__).resolve().parents[2] / "shared" / "corpus"


class _TopLevelSVGExtension(pytest_textual_snapshot.SVGImageExtension):  # type: ignore[misc]
    @classmethod
    def dirname(cls, *, test_location: Any) -> str:
        return str(SNAPSHOT_DIR / test_location.basename)


# snap_compare looks the extension up on the plugin module at call time.
pytest_textual_snapshot.SVGImageExtension = _TopLevelSVGExtension


def _scratch_in_memory() -> None:
    """Put every test's scratch files (``tmp_path``, ``tempfile``, child processes) on tmpfs.

    On this machine class ``/tmp`` sits on a virtual disk where creating a file costs about
    0.5 ms, twenty times a tmpfs; the suite creates tens of thousands (project trees, git
    exports, state files), so that alone was a large share of its time. The tests do the same
    work on either file system; only where the bytes live changes. A ``TMPDIR`` the caller
    set, or ``--basetemp``, wins; without a writable ``/dev/shm`` nothing changes.
    """
    import os
    import tempfile

    shm = Path("/dev/shm")
    if os.environ.get("TMPDIR") or not (shm.is_dir() and os.access(shm, os.W_OK | os.X_OK)):
        return
    os.environ["TMPDIR"] = str(shm)
    tempfile.tempdir = None  # gettempdir() reads TMPDIR again


_scratch_in_memory()  # before the private folders below are made


def _no_wall_clock_deadlines() -> None:
    """Hypothesis examples get no time limit.

    By default Hypothesis fails an example that runs longer than 200 ms: a wall-clock
    assertion in disguise. With three workers on two cores (and anything else the machine
    runs) a property test of the matcher went over it once (s50: a red suite, the same
    property clean over 20,000 examples alone), which would stop a landing for nothing.
    The examples still run; only the clock is not judged. The same for the health check
    that times data generation.
    """
    from hypothesis import HealthCheck, settings

    settings.register_profile("reviewtui", deadline=None,
                              suppress_health_check=[HealthCheck.too_slow])
    settings.load_profile("reviewtui")


_no_wall_clock_deadlines()


def _private_user_folders() -> None:
    """Keep the tests away from the user's own reviewtui settings and state.

    The workbench remembers its layout in ``$XDG_CONFIG_HOME/reviewtui/layout.toml``; a panel
    hidden in a real session must not change what a snapshot test draws, and no test may
    write into the real config or state folders. Each test process gets its own empty ones.
    """
    import atexit
    import os
    import shutil
    import tempfile

    base = Path(tempfile.mkdtemp(prefix="reviewtui-tests-home-"))
    atexit.register(shutil.rmtree, base, ignore_errors=True)
    for name, folder in (("XDG_CONFIG_HOME", "config"), ("XDG_STATE_HOME", "state")):
        (base / folder).mkdir()
        os.environ[name] = str(base / folder)


_private_user_folders()


_FRAME_DUE = "_reviewtui_test_frame_due"


def _headless_frames_drawn_once_per_pilot_step() -> None:
    """A headless app draws the frame each Pilot step ends on, not every frame on the way.

    Textual renders every screen update (up to 60 a second) into strips and hands them to
    the headless driver, which throws them away: in the UI tests that was ~40% of their
    CPU. Here the top screen's updates are noted instead, and the frame is drawn once when
    a Pilot step (``press``, ``pause``, ``click``, ``wait_for_scheduled_animations``; see
    below) has settled, so every state a test can look at is still rendered, by the same
    code, from the same dirty regions (the compositor keeps them until a frame is drawn).
    A widget whose ``render`` fails still fails the test, at that step. Layout, resizes,
    background screens' refreshes, screenshots and snapshots (which render themselves)
    and apps on a real terminal (the tmux and browser tests) are unchanged.
    ``REVIEWTUI_TEST_EVERY_FRAME`` set turns this off.
    """
    import os

    if os.environ.get("REVIEWTUI_TEST_EVERY_FRAME"):
        return
    from textual.screen import Screen

    draw = Screen._compositor_refresh

    def noted(self: Screen[Any]) -> None:
        app = self.app
        if app.is_headless and not app.is_inline and self is app.screen:
            setattr(app, _FRAME_DUE, True)
            self._dirty_widgets.clear()  # their regions are in the compositor already
            app._update_mouse_over(self)
            return
        draw(self)

    Screen._compositor_refresh = noted  # type: ignore[method-assign]
    Screen._reviewtui_draw = draw  # type: ignore[attr-defined]


def _draw_the_frame_due(app: Any) -> None:
    """Draw the top screen's frame if an update was noted since the last one."""
    if not getattr(app, _FRAME_DUE, False) or not app.is_running:
        return
    setattr(app, _FRAME_DUE, False)
    screen = app.screen
    with screen._context():
        screen._reviewtui_draw()


_headless_frames_drawn_once_per_pilot_step()


def _pilot_waits_for_review_jobs() -> None:
    """A Pilot key press or pause also waits for the workbench's review jobs.

    Decisions, undo/redo, restores and outside changes run in a worker
    (:mod:`reviewtui.ui.review_jobs`), and keys pressed meanwhile are replayed once it is
    done. Textual's Pilot waits for queued messages, not for workers: without this, a test
    pressing ``y`` would look at the screen before the decision was made. A test that means
    to look while a job runs uses ``app.jobs`` directly.
    """
    from textual.pilot import Pilot

    async def settled(pilot: Pilot[Any]) -> None:
        jobs = getattr(pilot.app, "jobs", None)
        while jobs is not None and jobs.backlog:
            await jobs.wait_idle()
            await pilot._wait_for_screen()  # the messages the last job's refresh posted
        _draw_the_frame_due(pilot.app)

    def waiting(method: Any) -> Any:
        async def wrapper(self: Pilot[Any], *args: Any, **kwargs: Any) -> Any:
            result = await method(self, *args, **kwargs)
            await settled(self)
            return result

        wrapper.__wrapped__ = method  # type: ignore[attr-defined]
        return wrapper

    for name in ("press", "pause", "click", "wait_for_scheduled_animations"):
        setattr(Pilot, name, waiting(getattr(Pilot, name)))


_pilot_waits_for_review_jobs()


def _pilot_idle_checks_every_5_ms() -> None:
    """Pilot's idle check samples the process every 5 ms instead of every 20 ms.

    Every ``pilot.press`` waits twice per key, and ``pilot.pause`` once, for Textual's
    ``wait_for_idle``: it sleeps ``SLEEP_GRANULARITY`` and calls the process idle when its CPU
    time grew by less than ``SLEEP_IDLE`` (a twentieth of it) meanwhile. At 20 ms a key press
    costs at least 40 ms of sleeping, and the UI tests press thousands of keys. The test of
    idleness stays the same (the process used under 5% of a core over the last sample); only
    the sample is shorter. Pilot still waits for every queued message (``_wait_for_screen``),
    for animations, and (above) for the review jobs, which is what the tests rely on.
    """
    import os

    if os.environ.get("REVIEWTUI_TEST_IDLE_20MS"):
        return
    from textual import _wait

    _wait.SLEEP_GRANULARITY = 1 / 200
    _wait.SLEEP_IDLE = _wait.SLEEP_GRANULARITY / 20.0


_pilot_idle_checks_every_5_ms()


def _css_parsed_once_per_process() -> None:
    """Textual parses each stylesheet source once per test process, not once per app.

    Every app a test starts parses the CSS of each widget class it mounts and of its own
    ``.tcss`` files again (its cache lives on the app's ``Stylesheet``): ~0.05 s of the
    ~0.25 s of CPU an app start costs, and the suite starts hundreds. The parse is a
    function of what is keyed here -- the text, where it came from, its flags and scope,
    and the theme's variables (substituted while parsing) -- so a result for the same key
    is the same rules; an error is raised each time, as before, since only results are
    kept. Rule sets are only read once parsed (one app already shares them between all its
    widgets). ``REVIEWTUI_TEST_CSS_PER_APP`` set turns this off.
    """
    import os

    if os.environ.get("REVIEWTUI_TEST_CSS_PER_APP"):
        return
    from textual.css.stylesheet import Stylesheet

    parse_rules = Stylesheet._parse_rules
    parsed: dict[tuple[Any, ...], Any] = {}

    def shared(self: Stylesheet, css: str, read_from: Any, is_default_rules: bool = False,
               tie_breaker: int = 0, scope: str = "") -> Any:
        key = (css, read_from, is_default_rules, tie_breaker, scope,
               tuple(sorted(self._variables.items())))
        rules = parsed.get(key)
        if rules is None:
            rules = parsed[key] = parse_rules(self, css, read_from, is_default_rules,
                                              tie_breaker, scope)
        return rules

    Stylesheet._parse_rules = shared  # type: ignore[method-assign]


_css_parsed_once_per_process()


@pytest.fixture
def collector_on() -> Iterator[None]:
    """The cyclic garbage collector on for the test (tests of how reviewtui pauses it),
    and off again after if it was off."""
    was = gc.isenabled()
    gc.enable()
    yield
    if not was:
        gc.disable()


@pytest.fixture
def walks(collector_on: None) -> Iterator[list[int]]:
    """The generations the collector walked during the test (a list that grows as it
    does), with collections made to come often."""
    seen: list[int] = []

    def note(phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            seen.append(info["generation"])

    threshold = gc.get_threshold()
    gc.set_threshold(20, 2, 2)
    gc.callbacks.append(note)
    try:
        yield seen
    finally:
        gc.callbacks.remove(note)
        gc.set_threshold(*threshold)


@pytest.fixture
def region_parses(monkeypatch: pytest.MonkeyPatch) -> list[list[str]]:
    """The regions apply's Python check parses from now on (``pyregions._parses``), in
    order, each as its lines (a list that grows as the test runs)."""
    from reviewtui.core.syntax import pyregions

    parsed: list[list[str]] = []
    real = pyregions._parses

    def spy(lines: list[str], *args: object) -> bool | str:
        parsed.append(list(lines))
        return real(lines, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(pyregions, "_parses", spy)
    return parsed


@pytest.fixture
def line_turns(tmp_path: Path) -> tuple[Path, Path]:
    """(session, root): 60 turns, each changing one line of ``a.txt``."""
    from diskkit import line_turns_session

    return line_turns_session(tmp_path, 60)


def pytest_collection_finish(session: pytest.Session) -> None:
    """What collection made (imported modules, test functions, strategies) is frozen.

    It lives as long as the process, and every walk of the oldest generation went through
    it again: about 1 s of the collector's time in a 28 s run of the core's property tests.
    The product's own freezes (``gc_paused``, the workbench's collector) work as before; a
    test that unfreezes hands all of it back, as it did with theirs.
    """
    gc.collect()
    gc.freeze()


@pytest.hookimpl(trylast=True)  # after pytest's own reordering by fixture scope
def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Tests marked ``slow`` run first, in their usual order; the rest follow unchanged.

    ``make test`` runs the suite on two workers and ends when the slower one ends; a test
    of several seconds started near the end would leave the other worker idle meanwhile.
    Started first, the long tests overlap with the other worker's short ones, and the
    end of the run is made of short tests that xdist's work stealing spreads evenly.
    """
    items.sort(key=lambda item: item.get_closest_marker("slow") is None)


SAMPLES = Path(__file__).resolve().parents[1] / "sample_sessions"
_SET_ASIDE = Path(__file__).resolve().parents[1] / ".tests-set-aside-states"
_STATE_GLOBS = ("*.review.json", "*.review.json.written", "*.review.json.corrupt-*",
                "*.review.blobs")


def _states_beside(folder: Path) -> list[Path]:
    return sorted({p for pattern in _STATE_GLOBS for p in folder.rglob(pattern)})


def _move_tree(source: Path, target: Path) -> None:
    """Every state under ``source`` moved to the same place under ``target`` (one left
    where it would overwrite another is kept where it is)."""
    for path in _states_beside(source):
        if not path.exists():  # (inside a blob folder moved already)
            continue
        to = target / path.relative_to(source)
        if to.exists():
            continue
        to.parent.mkdir(parents=True, exist_ok=True)
        path.rename(to)


def pytest_configure(config: pytest.Config) -> None:
    """A review of a sample session opened in this checkout (the README's walk-through)
    keeps its state beside the sample; the tests that open the samples in place would then
    resume it and see its decisions (seven failed after such a review, 2026-12-07). The
    states are set aside for the run in ``.tests-set-aside-states/`` and put back after it;
    a run that was killed leaves them there, and the next run puts them back first."""
    if hasattr(config, "workerinput"):  # (xdist workers: the controller did it)
        return
    if _SET_ASIDE.is_dir():
        _move_tree(_SET_ASIDE, SAMPLES)
    if _states_beside(SAMPLES):
        _move_tree(SAMPLES, _SET_ASIDE)
        print(f"\nreview states beside the sample sessions set aside in {_SET_ASIDE} "
              "for the run; they are put back after it")


def pytest_unconfigure(config: pytest.Config) -> None:
    if hasattr(config, "workerinput") or not _SET_ASIDE.is_dir():
        return
    _move_tree(_SET_ASIDE, SAMPLES)
    import shutil

    if not any(p.is_file() for p in _SET_ASIDE.rglob("*")):
        shutil.rmtree(_SET_ASIDE, ignore_errors=True)
