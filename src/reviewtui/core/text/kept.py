"""Values remembered for objects by their identity, within a count and a budget of bytes.

A version's text decoded from its bytes (``core/model/filestate.py``), a text's UTF-8
bytes and content key (``core/text/content.py``): each is worked out once for the object
it comes from and asked for again and again. Keyed by the object itself (hashing the
content to find an entry would cost what the entry saves); the object is held, so its id
is not reused while the entry lives. The oldest entries go first once there are more than
``count`` or they hold more than ``budget`` bytes together, the latest always kept: by
count alone, the versions of a 3 MB file held gigabytes.
"""

from __future__ import annotations

import _thread
from collections import OrderedDict


class KeptByIdentity:
    """``owner`` -> a value, for the most recent owners (safe across threads: the
    workbench reads versions from workers too)."""

    __slots__ = ("_budget", "_count", "_entries", "_lock", "_size")

    def __init__(self, count: int, budget: int) -> None:
        self._count, self._budget = count, budget
        self._entries: OrderedDict[int, tuple[object, object, int]] = OrderedDict()
        self._size = 0
        self._lock = _thread.allocate_lock()

    def get(self, owner: object) -> object | None:
        """The value kept for this very object, or None."""
        with self._lock:
            entry = self._entries.get(id(owner))
            if entry is None or entry[0] is not owner:
                return None
            self._entries.move_to_end(id(owner))
            return entry[1]

    def put(self, owner: object, value: object, held: int) -> None:
        """Keep ``value`` for ``owner``; ``held``: the bytes the entry keeps alive."""
        with self._lock:
            replaced = self._entries.pop(id(owner), None)
            if replaced is not None:
                self._size -= replaced[2]
            self._entries[id(owner)] = (owner, value, held)
            self._size += held
            while len(self._entries) > 1 and (len(self._entries) > self._count
                                              or self._size > self._budget):
                self._size -= self._entries.popitem(last=False)[1][2]

    @property
    def held(self) -> int:
        """The bytes the entries keep alive together, as they were told."""
        return self._size

    def __len__(self) -> int:
        return len(self._entries)
