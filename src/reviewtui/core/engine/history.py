"""Earlier versions of a file, for telling a stale SEARCH, computed only when asked."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence

from reviewtui.core.model.tree import Tree, versions_along
from reviewtui.core.typed import overload


class LazyHistory(Sequence[Sequence[str]]):
    """Earlier versions of a file, computed only if the matcher asks (on a failed match)."""

    def __init__(self, compute: Callable[[], Sequence[Sequence[str]]]) -> None:
        self._compute = compute
        self._items: Sequence[Sequence[str]] | None = None

    def _get(self) -> Sequence[Sequence[str]]:
        if self._items is None:
            self._items = self._compute()
        return self._items

    def __len__(self) -> int:
        return len(self._get())

    @overload
    def __getitem__(self, index: int) -> Sequence[str]: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[Sequence[str]]: ...
    def __getitem__(self, index: int | slice) -> Sequence[str] | Sequence[Sequence[str]]:
        return self._get()[index]


class ReadNow(LazyHistory):
    """Earlier versions asked for only if read before :meth:`close`: for a caller that
    knows any reading happens while the run still stands where it took ``compute``."""

    def close(self) -> None:
        if self._items is None:
            self._compute = _closed


def _closed() -> Sequence[Sequence[str]]:
    raise RuntimeError("earlier versions read after the run moved on")


def history_of(trees: Iterable[Tree], path: str, current: Tree) -> LazyHistory:
    """The earlier versions of ``path`` along ``trees`` (taken now, read when asked: a
    failed edit is diagnosed later, when the run has moved on). A list is taken as it is
    (``touches.history_trees`` makes a new one each time)."""
    taken = trees if isinstance(trees, list) else list(trees)
    return LazyHistory(lambda: earlier_versions(taken, path, current))


def earlier_versions(trees: Iterable[Tree], path: str, current: Tree) -> Sequence[Sequence[str]]:
    """Earlier distinct versions of ``path`` along ``trees`` (the checkpoints so far, or
    those where it can change: ``touches.py``), oldest first, for the stale diagnosis.

    Checkpoints share unchanged file objects, so a version is looked at once per
    change (identity), and de-duplicated by its lines (a set, not a list scan; the
    lines are what the matcher reads, and they need no bytes built).
    """
    now = current.get(path)
    seen: set[tuple[str, ...]] = set()
    out: list[tuple[str, ...]] = []
    for version in versions_along(trees, path):
        if version.binary or version == now:
            continue
        lines = version.lines
        if lines in seen:
            continue
        seen.add(lines)
        out.append(lines)
    return out
