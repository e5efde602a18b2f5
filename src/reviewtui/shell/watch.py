"""Watching the project root for outside changes: ``async for paths in watch_root(root)``.

watchfiles' default debounce (1.6 s) is far too slow for a workbench that should show
an outside change within about 300 ms, so the debounce is 50 ms, checked every 10 ms.
Skipped: version control and tool folders (``.git/``, ``.venv/``, ``node_modules/``,
``__pycache__/`` and the like), the temporary files of our own atomic writes
(``.<name>.<hex>.reviewtui-tmp``, recognised exactly), review state files, editor swap
and backup files, and whatever the root's ``.gitignore`` ignores (see
:mod:`reviewtui.core.paths.gitignore` for the subset understood; the file is re-read when it
changes). The review's own writes still reach
:meth:`Review.outside_changed`, which recognises them by content hash.

Errors are raised, never swallowed: a root that is removed, or a watcher the system
refuses (too many files), ends the iteration with :class:`WatchError`. Headless use is
a plain asyncio task and the workbench's watcher worker: see :func:`follow_review`.
"""

from __future__ import annotations

import asyncio
import os
import re
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from functools import partial
from pathlib import Path
from typing import Protocol

import watchfiles

from reviewtui.core.errors import WatchError
from reviewtui.core.paths.gitignore import GitIgnore
from reviewtui.shell.disk import SKIP_DIRS, is_temp_name
from reviewtui.shell.replay_report import ReplayReport

DEBOUNCE_MS = 50
STEP_MS = 10
# How often the watcher wakes with nothing to report, to notice a vanished root.
_IDLE_CHECK_MS = 500
HELD_RETRY_S = 0.25  # a file another program is writing: asked about again this often
IGNORED_DIRS = SKIP_DIRS | {".tox", ".idea", ".hypothesis", ".nox"}
_IGNORED_NAMES = re.compile(
    r"(\.review\.json|\.review\.json\.corrupt-[\w-]+|\.py[cod]|\.sw.|~)$"
    r"|^(\.#.*|\.DS_Store|4913)$"  # 4913: the probe file vim writes before saving
)


class ChangeFilter:
    """The watchfiles filter: False for anything the workbench does not care about."""

    def __init__(self, root: Path) -> None:
        self.given = Path(os.path.abspath(root))
        self.root = root.resolve()
        self.gitignore = GitIgnore()
        self.reload()

    def reload(self) -> None:
        try:
            text = (self.root / ".gitignore").read_text("utf-8", errors="replace")
        except OSError:
            text = ""
        self.gitignore = GitIgnore.from_text(text)

    def relative(self, path: str) -> str | None:
        """The root-relative path the watcher reports, or None outside the root. Never
        through the path's own last name: ``ln -s other.py a.py`` changed ``a.py``, not
        ``other.py`` (resolving the whole path reported the link's target, unchanged, and
        the outside change went unseen). Only the folders above are resolved, for a root
        named through a link."""
        reported = Path(path)
        for root in (self.given, self.root):
            try:
                text = reported.relative_to(root).as_posix()
                break
            except ValueError:
                continue
        else:
            try:
                text = (reported.parent.resolve() / reported.name).relative_to(
                    self.root).as_posix()
            except (ValueError, OSError):
                return None
        return None if text == "." else text

    def wanted(self, rel: str, *, is_dir: bool = False) -> bool:
        parts = rel.split("/")
        if any(part in IGNORED_DIRS or part.endswith(".review.blobs") for part in parts):
            return False
        if _IGNORED_NAMES.search(parts[-1]) or is_temp_name(parts[-1]):
            return False
        return not self.gitignore.ignored(rel, is_dir=is_dir)

    def __call__(self, change: watchfiles.Change, path: str) -> bool:
        rel = self.relative(path)
        if rel is None:
            return True  # the root itself: its removal must get through
        is_dir = change is not watchfiles.Change.deleted and Path(path).is_dir()
        return self.wanted(rel, is_dir=is_dir)


async def watch_root(root: Path, *, stop_event: asyncio.Event | None = None,
                     debounce_ms: int = DEBOUNCE_MS, step_ms: int = STEP_MS
                     ) -> AsyncIterator[set[str]]:
    """Yield sets of root-relative POSIX paths that changed, until ``stop_event`` is set.

    Raises :class:`WatchError` when the root disappears or cannot be watched.
    """
    root = Path(root)
    if not root.is_dir():
        raise WatchError("cannot watch: the project root is not a directory", source=str(root),
                         rule="watch")
    change_filter = ChangeFilter(root)
    try:
        async for changes in watchfiles.awatch(
            root, watch_filter=change_filter, debounce=debounce_ms, step=step_ms,
            stop_event=stop_event, rust_timeout=_IDLE_CHECK_MS, yield_on_timeout=True,
            recursive=True,
        ):
            if not root.is_dir():
                raise WatchError("the project root was removed or moved away; the watcher "
                                 "stopped", source=str(root), rule="watch")
            paths = {rel for _, path in changes
                     if (rel := change_filter.relative(path)) is not None}
            if ".gitignore" in paths:
                change_filter.reload()
            if paths:
                yield paths
    except WatchError:
        raise
    except (OSError, RuntimeError) as exc:  # the notify backend's errors: limits, removal
        raise WatchError(f"the file watcher failed: {exc}", source=str(root),
                         rule="watch") from exc


class Reviewing(Protocol):
    """What :func:`follow_review` needs from a :class:`~reviewtui.shell.review.Review`."""

    @property
    def root(self) -> Path: ...

    @property
    def held_paths(self) -> frozenset[str]: ...

    def outside_changed(self, paths: Iterable[str]) -> ReplayReport: ...


Runner = Callable[[Callable[[], ReplayReport]], Awaitable[ReplayReport]]


async def outside_change(review: Reviewing, paths: Iterable[str], *,
                         run: Runner | None = None) -> ReplayReport:
    """Hand one batch of changed paths to ``review.outside_changed``, off the event loop.

    ``run`` runs the review's work and returns its result; by default a plain thread. The
    workbench passes its queue of review jobs, so that an outside change waits behind a
    decision being made instead of landing in the middle of it.
    """
    work = partial(review.outside_changed, frozenset(paths))
    return await (run or asyncio.to_thread)(work)


async def follow_review(review: Reviewing, *, stop_event: asyncio.Event,
                        on_report: Callable[[ReplayReport], None] | None = None,
                        debounce_ms: int = DEBOUNCE_MS, run: Runner | None = None) -> None:
    """Feed the watcher's changes to ``review.outside_changed`` until ``stop_event``.

    Run it as a task: ``asyncio.create_task(follow_review(review, stop_event=stop))``;
    the workbench runs it in its watcher worker. The review's disk work runs off the loop
    (see :func:`outside_change` for ``run``) so the loop keeps watching meanwhile.
    """
    async def ask_about_held() -> None:
        """Files another program holds open for writing (``held_paths``: seen changing, or
        held back by a decision's replay) give no event when it closes them: asked about
        every ``HELD_RETRY_S`` while there are any."""
        while not stop_event.is_set():
            await asyncio.sleep(HELD_RETRY_S)
            if held := review.held_paths:
                report = await outside_change(review, held, run=run)
                if on_report is not None:
                    on_report(report)

    asking = asyncio.create_task(ask_about_held())
    try:
        async for paths in watch_root(review.root, stop_event=stop_event,
                                      debounce_ms=debounce_ms):
            report = await outside_change(review, paths, run=run)
            if on_report is not None:
                on_report(report)
    finally:
        asking.cancel()
