"""The drawn lines of the last few diffs a ``DiffView`` showed, to show them again as drawn.

Undo and redo go back to the operation shown one key earlier (``y`` moved on from it,
``u`` returns to it), and each new diff drew every row on screen again: about a third of
the event loop's drawing for such a key on a long session. Here the strip cache of the
diff being left is kept, keyed by everything its strips are drawn from (the texts, the
rows, the marks, the fold labels, the gutter's width and kind, the highlighted lines and
the palette, the last three by identity: a new highlight or theme never matches); a diff
shown again with the same key gets its strips back. Anything else starts empty.
"""

from __future__ import annotations

from textual.cache import LRUCache
from textual.strip import Strip

from reviewtui.core.record import record
from reviewtui.core.text.diff import DiffModel

KEPT = 4  # diffs whose lines are kept besides the one on screen

StripCache = LRUCache[tuple[int, int, int, str, bool, bool, int], Strip]


@record(frozen=True, slots=True, eq=False)
class ShelfKey:
    """What the strips of a diff are drawn from: ``values`` compared by equality,
    ``looks`` (the highlighted lines, the palette) by identity."""

    values: tuple[object, ...]
    looks: tuple[object, ...]

    def matches(self, other: ShelfKey) -> bool:
        return (len(self.looks) == len(other.looks)
                and all(a is b for a, b in zip(self.looks, other.looks, strict=True))
                and self.values == other.values)


def shelf_key(model: DiffModel | None, mode: str, path: str, before: str, after: str,
              marks: frozenset[int], fold_context: dict[int, str], number_width: int,
              hashline: bool, looks: tuple[object, ...]) -> ShelfKey | None:
    """The key of a diff's strips (None: no diff, nothing to keep)."""
    if model is None:
        return None
    return ShelfKey((model, mode, path, before, after, marks,
                     tuple(sorted(fold_context.items())), number_width, hashline), looks)


class StripShelf:
    def __init__(self, size: int = KEPT) -> None:
        self._size = size
        self._kept: list[tuple[ShelfKey, StripCache]] = []

    def put(self, key: ShelfKey | None, cache: StripCache) -> None:
        """Keep ``cache`` (the strips drawn for ``key``), dropping the oldest kept."""
        if key is None or not len(cache):
            return
        self._kept = [(k, c) for k, c in self._kept if not k.matches(key)]
        self._kept.append((key, cache))
        del self._kept[:-self._size]

    def take(self, key: ShelfKey | None) -> StripCache | None:
        """The strips kept for ``key`` (no longer kept here), or None."""
        if key is None:
            return None
        for pos, (kept, cache) in enumerate(self._kept):
            if kept.matches(key):
                del self._kept[pos]
                return cache
        return None

    def clear(self) -> None:
        self._kept.clear()
