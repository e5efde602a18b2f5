"""A file of the project known by its name and mode, its bytes read on first use.

A command (``apply``, ``check``, ``export``; the workbench for what its session does not
name) touches a few files of a project that may hold thousands: reading all of them first
cost ~40 ms on redis (1,624 files, 20 MB) for a commit whose work took ~6, and a checkout of
a million lines would cost seconds and its size in memory (or a commit's tree, read from
git's objects: ``shell/git_tree.py``). An :class:`UnreadFile` stands in the tree for such a
file: its name and mode are known (the listing gave them), and anything that needs more --
its bytes, text, lines, digest, whether it is binary, its line endings, equality with
another version -- reads it then, through the function the shell gave, exactly once; from
then on it is the :class:`~reviewtui.core.model.filestate.FileState` that ``from_bytes``
makes of those bytes.

So no reader can see an unread file as empty or as anything but its bytes: the fields that
describe the content are left unset until the read, and any access to one reads first
(``__getattr__`` runs only for a field that is unset). A read that fails raises the
shell's error (a :class:`~reviewtui.core.errors.DiskError` naming the file); the next
access tries again. Nothing here touches the disk itself: the core stays pure.
"""

from __future__ import annotations

import _thread
from collections.abc import Callable

from reviewtui.core.model.filestate import FileState

_lock = _thread.allocate_lock()  # (one read per file even when workers ask at once)
# The fields from_bytes derives from the bytes: unset until the read.
_CONTENT = ("_data", "bom", "eol", "newline", "final_newline", "binary")


class UnreadFile(FileState):
    """A :class:`FileState` whose bytes ``read()`` gives on first use (see the module)."""

    __slots__ = ("_read",)

    _read: Callable[[], bytes] | None

    def __init__(self, read: Callable[[], bytes], mode: int = 0o644) -> None:
        put = object.__setattr__
        put(self, "_read", read)
        put(self, "_lines", None)
        put(self, "_store", None)
        put(self, "_clean", None)
        put(self, "_digest", None)
        put(self, "encoding", "utf-8")
        put(self, "mode", mode & 0o777)
        put(self, "revision", 0)
        put(self, "lineage", None)

    @property
    def unread(self) -> bool:
        """Whether the bytes are still on disk only (for tests and benches: nothing else
        needs to know)."""
        return self._read is not None

    def __getattr__(self, name: str) -> object:
        # Only an unset slot (or a property that met one) gets here: read, then look again.
        if name.startswith("__") or self._read is None:
            raise AttributeError(name)
        self._fill()
        return object.__getattribute__(self, name)

    def _fill(self) -> None:
        with _lock:
            read = self._read
            if read is None:
                return  # read meanwhile by another thread
            made = FileState.from_bytes(read(), mode=self.mode)
            for name in _CONTENT:
                object.__setattr__(self, name, object.__getattribute__(made, name))
            object.__setattr__(self, "_read", None)  # (the reader and its path let go)

    def __repr__(self) -> str:
        if self._read is not None:
            return f"UnreadFile(mode={self.mode:o})"
        return super().__repr__()

    # FileState's __eq__/__hash__ are kept: they read both sides' content.
    __hash__ = FileState.__hash__
