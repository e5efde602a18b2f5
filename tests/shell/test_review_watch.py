"""Outside changes through the real watcher: rebase, conflict, delete, rename, formatter.

Each scenario runs the review's watcher as a plain asyncio task (``follow_review``) on a
real temporary project and waits for the report the change produces.
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import pytest

from diskkit import Ed, make_project, write_session
from heldkit import held_open
from reviewtui.core.engine import Decision
from reviewtui.core.errors import DecisionRefused
from reviewtui.core.model.outcome import Status
from reviewtui.core.review.rebase import ConflictKind
from reviewtui.shell.replay_report import ReplayReport
from reviewtui.shell.review import MSG_REBASED, Review
from reviewtui.shell.watch import follow_review

BASE = b"ALPHA = 1\nBETA = 2\n\n\ndef gamma():\n    return 'gamma'\n"
TURNS = [[Ed("app.py", "ALPHA = 1", "ALPHA = 10"),
          Ed("app.py", "    return 'gamma'", "    return 'G'")]]
A1, A2 = (1, 0), (1, 1)
PROBE = "zz-probe.txt"


class Watching:
    """The review with its watcher running; reports collected as they come."""

    def __init__(self, review: Review) -> None:
        self.review = review
        self.reports: list[ReplayReport] = []
        self.stop = asyncio.Event()
        self.task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        self.task = asyncio.create_task(
            follow_review(self.review, stop_event=self.stop, on_report=self.reports.append))
        deadline = time.monotonic() + 5
        n = 0
        probe = self.review.root / PROBE
        while not any(PROBE in r.refreshed for r in self.reports):
            assert time.monotonic() < deadline, "the watcher never started"
            assert not self.task.done()
            n += 1
            probe.write_text(str(n))
            await asyncio.sleep(0.05)
        probe.unlink()
        # Settled once the deletion itself was taken in: no probe event is left to come.
        await self.until(lambda r: PROBE in r.refreshed and PROBE not in self.review.base)

    async def until(self, wanted: Callable[[ReplayReport], bool],
                    timeout: float = 3.0) -> ReplayReport:
        """The first report (new or already in) that satisfies ``wanted``."""
        deadline = time.monotonic() + timeout
        checked = 0
        while True:
            for report in self.reports[checked:]:
                if wanted(report):
                    self.reports.clear()
                    return report
            checked = len(self.reports)
            assert time.monotonic() < deadline, f"no such report; got {self.reports}"
            await asyncio.sleep(0.01)

    async def finish(self) -> None:
        self.stop.set()
        assert self.task is not None
        await asyncio.wait_for(self.task, 5)


def run(tmp_path: Path, scenario: Callable[[Watching, Path], Awaitable[None]]) -> None:
    session = write_session(tmp_path / "s", TURNS)
    root = make_project(tmp_path / "proj", {"app.py": BASE})

    async def main() -> None:
        with Review.open(session, root) as review:
            watching = Watching(review)
            await watching.start()
            try:
                await scenario(watching, root)
            finally:
                await watching.finish()

    asyncio.run(main())


def test_unrelated_outside_edit_then_accept_keeps_both(tmp_path: Path) -> None:
    async def scenario(w: Watching, root: Path) -> None:
        outside = BASE.replace(b"BETA = 2", b"BETA = 3")
        (root / "app.py").write_bytes(outside)
        report = await w.until(lambda r: "app.py" in r.outside)
        assert report.written == []
        w.review.decide(A1, Decision.accept())
        assert (root / "app.py").read_bytes() == outside.replace(b"ALPHA = 1", b"ALPHA = 10")

    run(tmp_path, scenario)


def test_outside_edit_after_accept_survives_the_next_decision(tmp_path: Path) -> None:
    async def scenario(w: Watching, root: Path) -> None:
        w.review.decide(A1, Decision.accept())
        ours = (root / "app.py").read_bytes()
        theirs = ours.replace(b"BETA = 2", b"BETA = 2  # reviewed")
        (root / "app.py").write_bytes(theirs)
        await w.until(lambda r: "app.py" in r.outside)
        report = w.review.decide(A2, Decision.accept())
        assert report.rebased == ["app.py"]
        assert f"app.py: {MSG_REBASED}" in report.messages
        assert (root / "app.py").read_bytes() == theirs.replace(b"'gamma'", b"'G'")

    run(tmp_path, scenario)


def test_outside_edit_of_the_edited_region_is_a_conflict(tmp_path: Path) -> None:
    async def scenario(w: Watching, root: Path) -> None:
        outside = BASE.replace(b"ALPHA = 1", b"ALPHA = 5")
        (root / "app.py").write_bytes(outside)
        await w.until(lambda r: "app.py" in r.outside)
        assert w.review.outcome(A1).status is not Status.APPLIED  # updated live
        with pytest.raises(DecisionRefused):  # an accept that cannot land is not recorded
            w.review.decide(A1, Decision.accept())
        assert A1 not in w.review.decisions
        assert (root / "app.py").read_bytes() == outside

    run(tmp_path, scenario)


def test_outside_edit_over_our_content_then_reject_is_a_conflict(tmp_path: Path) -> None:
    async def scenario(w: Watching, root: Path) -> None:
        w.review.decide(A1, Decision.accept())
        theirs = BASE.replace(b"ALPHA = 1", b"ALPHA = 10  # keep")
        (root / "app.py").write_bytes(theirs)
        await w.until(lambda r: "app.py" in r.outside)
        report = w.review.decide(A1, Decision.reject())
        assert report.conflicts == ["app.py"]
        assert w.review.conflicts["app.py"].kind is ConflictKind.OUTSIDE_EDIT
        assert (root / "app.py").read_bytes() == theirs

    run(tmp_path, scenario)


def test_outside_delete_and_rename(tmp_path: Path) -> None:
    async def scenario(w: Watching, root: Path) -> None:
        w.review.decide(A1, Decision.accept())
        os.rename(root / "app.py", root / "moved.py")
        report = await w.until(lambda r: "app.py" in r.outside)
        if "moved.py" in report.refreshed:  # both sides in one batch: named as a rename
            assert any("renamed outside to moved.py" in m for m in report.messages)
        assert w.review.conflicts["app.py"].kind is ConflictKind.DELETED
        assert w.review.outcome(A1).status is Status.CONFLICT
        assert "deleted outside" in w.review.outcome(A2).message
        with pytest.raises(DecisionRefused):  # not found: an accept would do nothing
            w.review.decide(A2, Decision.accept())
        assert not (root / "app.py").exists()  # nothing recreated
        (root / "moved.py").unlink()
        await w.until(lambda r: "moved.py" in r.refreshed)
        assert sorted(p.name for p in root.iterdir()) == []

    run(tmp_path, scenario)


def test_formatter_rewrite_right_after_replay_is_rebased(tmp_path: Path) -> None:
    async def scenario(w: Watching, root: Path) -> None:
        w.review.decide(A1, Decision.accept())
        # A formatter on save: rewrites the file at once, before the watcher reports.
        formatted = (root / "app.py").read_bytes().replace(b"\n\n\n", b"\n\n\n# formatted\n")
        (root / "app.py").write_bytes(formatted)
        await w.until(lambda r: "app.py" in r.outside)
        report = w.review.decide(A2, Decision.accept())
        assert report.rebased == ["app.py"]
        assert (root / "app.py").read_bytes() == formatted.replace(b"'gamma'", b"'G'")

    run(tmp_path, scenario)


def test_own_writes_reach_the_watcher_but_change_nothing(tmp_path: Path) -> None:
    async def scenario(w: Watching, root: Path) -> None:
        w.review.decide(A1, Decision.accept())
        w.review.decide(A2, Decision.accept())
        revision = w.review.revision
        first = await w.until(lambda r: True)  # the watcher did see our writes
        await asyncio.sleep(0.3)
        for report in [first, *w.reports]:
            assert (report.outside, report.refreshed, report.events) == ([], [], [])
        assert w.review.revision == revision
        assert w.review.conflicts == {}

    run(tmp_path, scenario)


@pytest.mark.skipif(not Path("/proc/self/fdinfo").is_dir(),
                    reason="no /proc: who holds a file open cannot be told here")
def test_a_save_held_open_is_taken_in_once_the_file_is_closed(tmp_path: Path) -> None:
    """A program writes the whole file and keeps it open a while: the watcher's events all
    come while it is held (not taken in), and closing gives no event; the watcher asks
    again until it is closed, then takes the save in, and an accept lands over it."""
    async def scenario(w: Watching, root: Path) -> None:
        app = root / "app.py"
        saved = BASE.replace(b"BETA = 2", b"BETA = 3")
        with held_open(app, written=saved):
            await w.until(lambda r: "app.py" in r.held)
            await asyncio.sleep(0.6)  # asked again meanwhile: still held, not taken in
            assert not any("app.py" in r.outside for r in w.reports)
        report = await w.until(lambda r: "app.py" in r.outside)
        assert report.held == []
        w.review.decide(A1, Decision.accept())
        assert app.read_bytes() == saved.replace(b"ALPHA = 1", b"ALPHA = 10")

    run(tmp_path, scenario)


@pytest.mark.skipif(not Path("/proc/self/fdinfo").is_dir(),
                    reason="no /proc: who holds a file open cannot be told here")
def test_an_accept_held_back_is_written_once_the_file_is_closed(tmp_path: Path) -> None:
    """A program holds the file open for writing and never writes: the accept is held
    back (QA pass 82, repro-3), and closing the file gives the watcher no event. The
    watcher asks about what the replay held back until it is closed, then writes it."""

    async def scenario(w: Watching, root: Path) -> None:
        app = root / "app.py"
        with held_open(app):
            assert w.review.decide(A1, Decision.accept()).held == ["app.py"]
            await asyncio.sleep(0.6)  # asked again meanwhile: still held, not written
            assert app.read_bytes() == BASE
        await w.until(lambda r: "app.py" in r.written)
        assert app.read_bytes() == BASE.replace(b"ALPHA = 1", b"ALPHA = 10")
        assert w.review.held_paths == frozenset()

    run(tmp_path, scenario)


def test_a_file_held_again_after_its_release_is_asked_about_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Two files held in one batch; ``a`` is released (taken in) while ``b`` is still held,
    then ``a`` is held again by a second save: the watcher asks about ``a`` again until it
    is released (it was left out while the first batch's retry, still asking about ``b``,
    kept it as "waiting": found by helper-81 in tmux)."""
    import reviewtui.shell.watch as watch

    asked: list[frozenset[str]] = []
    held_now: set[str] = set()
    events: asyncio.Queue[set[str]] = asyncio.Queue()

    class Fake:
        root = Path(".")
        held: frozenset[str] = frozenset()  # as Review.held_paths: what it found held

        @property
        def held_paths(self) -> frozenset[str]:
            return self.held

        def outside_changed(self, paths: Any) -> ReplayReport:
            paths = frozenset(paths)
            asked.append(paths)
            self.held = (self.held - paths) | (paths & held_now)
            return ReplayReport(held=sorted(paths & held_now))

    async def fake_root(root: Path, *, stop_event: asyncio.Event, **_: object) -> Any:
        while True:
            paths = await events.get()
            if stop_event.is_set():
                return
            yield paths

    monkeypatch.setattr(watch, "watch_root", fake_root)
    monkeypatch.setattr(watch, "HELD_RETRY_S", 0.01)

    async def main() -> None:
        stop = asyncio.Event()
        task = asyncio.create_task(follow_review(Fake(), stop_event=stop))
        held_now.update({"a", "b"})
        await events.put({"a", "b"})
        await asyncio.sleep(0.05)
        held_now.discard("a")  # a closed: taken in at the next ask
        await asyncio.sleep(0.05)
        held_now.add("a")  # a second save of a, while b is still held
        await events.put({"a"})
        await asyncio.sleep(0.05)
        held_now.discard("a")
        held_now.discard("b")
        await asyncio.sleep(0.05)
        stop.set()
        await events.put(set())
        await asyncio.wait_for(task, 2)
        # After the second event, a is asked about on its own until it is released.
        later = asked[[i for i, p in enumerate(asked) if p == {"a"}][0] + 1:]
        assert any("a" in p for p in later), asked

    asyncio.run(main())
