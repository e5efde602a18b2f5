"""Whose folder is it: the folders a removal may take with it.

Removing a file can leave its folders empty. Those the review made for a file it created
go with the file (taking back the creation takes them back too). A folder that was already
on disk when the review created a file in it is the user's and stays, even empty: one that
was empty when the review opened, one a deletion outside left empty, one the user made
while the review was open. A folder no creation met (the draft deleting the user's last
file in it) goes when emptied, as with git. Pure: the shell's disk layer reports what it
made and asks what it may remove (``shell/disk.py``), the state file keeps the ledger.
"""

from __future__ import annotations

from collections.abc import Iterable

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from typing import Any


def folders_of(path: str) -> list[str]:
    """The folders on the way to ``path``, outermost first ("a/b/c.txt": "a", "a/b")."""
    parts = path.split("/")[:-1]
    return ["/".join(parts[: n + 1]) for n in range(len(parts))]


class FolderLedger:
    """``made``: folders the review made and has not removed since; ``found``: folders
    that were on disk (or may have been) before the review created a file in them."""

    __slots__ = ("found", "made")

    def __init__(self, made: Iterable[str] = (), found: Iterable[str] = ()) -> None:
        self.made, self.found = set(made), set(found)

    def creating(self, paths: Iterable[str]) -> None:
        """Files are about to be created at ``paths``: every folder on their way that the
        review did not make is taken as found there. Noted before the write (and saved
        with the state before it): a folder the write then makes is moved to ``made``
        (:meth:`made_folder`), one it made without saying so stays, safely, the user's."""
        for path in paths:
            self.found.update(f for f in folders_of(path) if f not in self.made)

    def made_folder(self, folder: str) -> None:
        """The review just made ``folder`` (it was not there)."""
        self.made.add(folder)
        self.found.discard(folder)

    def may_remove(self, folder: str) -> bool:
        """Whether a removal that leaves ``folder`` empty may remove it too."""
        return folder not in self.found

    def removed_folder(self, folder: str) -> None:
        """The review removed ``folder``: made again later, it is made again."""
        self.made.discard(folder)

    @property
    def empty(self) -> bool:
        return not (self.made or self.found)

    def to_json(self) -> dict[str, list[str]]:
        return {"made": sorted(self.made), "found": sorted(self.found)}

    @classmethod
    def from_json(cls, data: Any) -> FolderLedger:
        """A saved ledger; anything unreadable reads as nothing known (folders then go
        when emptied, as before the ledger)."""
        if not isinstance(data, dict):
            return cls()

        def names(key: str) -> list[str]:
            value = data.get(key)
            if not isinstance(value, list):
                return []
            return [name for name in value if isinstance(name, str)]

        return cls(names("made"), names("found"))
