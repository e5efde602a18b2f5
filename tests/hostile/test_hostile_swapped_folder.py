"""Threat: a folder of the root is swapped for a symbolic link while reviewtui writes.

Checking a path and then using it leaves a gap: the folder can be moved away and a link
put in its place in between, and the temp file (or the rename, or the unlink) then lands
wherever the link points. Writes and removals now go through folder descriptors opened
with ``O_NOFOLLOW`` from the root, checked to still be linked under the root just before
the rename, and cleaned up through the same descriptor.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from disk_threat_kit import Arena

from diskkit import Cmd, Ed, make_project, write_session
from reviewtui.core.engine import Decision
from reviewtui.core.errors import DiskError
from reviewtui.shell.disk import atomic_write, remove_file
from reviewtui.shell.review import Review


def _swap(arena: Arena, folder: str) -> Callable[[], None]:
    """Move ``root/folder`` out of the root (to arena.work) and link the canary folder
    in its place: both halves of the usual attack."""
    def swap() -> None:
        os.rename(arena.root / folder, arena.work / "moved")
        (arena.root / folder).symlink_to(arena.canary_dir)
    return swap


def _hook(monkeypatch: pytest.MonkeyPatch, name: str, when: Callable[[Any], bool],
          action: Callable[[], None]) -> list[bool]:
    """Run ``action`` once, on the first call of ``os.<name>`` whose first argument
    ``when`` likes (a path, or a descriptor for fsync)."""
    real = getattr(os, name)
    fired: list[bool] = []

    def hooked(*args: Any, **kwargs: Any) -> Any:
        if not fired and args and when(args[0]):
            fired.append(True)
            action()
        return real(*args, **kwargs)

    monkeypatch.setattr(os, name, hooked)
    return fired


def _is_temp(path: Any) -> bool:
    return isinstance(path, str | Path) and os.fsdecode(path).endswith(".reviewtui-tmp")


def _temp_of_x(path: Any) -> bool:
    """A temp file for x.txt (not the state file's, which is written first)."""
    return _is_temp(path) and "x.txt" in os.fsdecode(path)


def _leftovers(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.rglob("*") if _is_temp(p.name))


@pytest.mark.parametrize("moment", ["temp-created", "temp-synced"])
def test_a_folder_swapped_for_a_link_mid_write_gets_nothing_and_keeps_no_temp_file(
    arena: Arena, monkeypatch: pytest.MonkeyPatch, moment: str
) -> None:
    make_project(arena.root, {"sub/x.txt": "x\n"})
    if moment == "temp-created":
        fired = _hook(monkeypatch, "open", _is_temp, _swap(arena, "sub"))
    else:
        # The first fsync is the temp file's, after its bytes are written.
        fired = _hook(monkeypatch, "fsync", lambda _fd: True, _swap(arena, "sub"))
    with pytest.raises(DiskError):
        atomic_write(arena.root, "sub/x.txt", b"pwned\n")
    assert fired
    assert _leftovers(arena.work / "moved") == []
    assert (arena.work / "moved/x.txt").read_bytes() == b"x\n"
    # The arena fixture checks that the linked canary folder is byte for byte unchanged.


def test_a_replay_into_a_swapped_folder_is_a_conflict(
    arena: Arena, monkeypatch: pytest.MonkeyPatch
) -> None:
    make_project(arena.root, {"sub/x.txt": "x\n"})
    session = write_session(arena.work, [[Ed("sub/x.txt", "x", "y")]])
    review = Review.open(session, arena.root, state_path=arena.work / "s.review.json")
    try:
        fired = _hook(monkeypatch, "open", _temp_of_x, _swap(arena, "sub"))
        report = review.decide((1, 0), Decision.accept())
        assert fired
        assert report.written == []
        assert report.conflicts == ["sub/x.txt"]
        assert _leftovers(arena.work / "moved") == []
        assert (arena.work / "moved/x.txt").read_bytes() == b"x\n"
    finally:
        review.close()


def test_a_removal_never_unlinks_through_a_swapped_folder(
    arena: Arena, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The canary folder holds a target.txt too: the unlink must not reach it."""
    make_project(arena.root, {"sub/target.txt": "ours\n", "keep.txt": "k\n"})
    session = write_session(arena.work, [[Cmd(":rm sub/target.txt")]])
    review = Review.open(session, arena.root, state_path=arena.work / "s.review.json")
    try:
        fired = _hook(monkeypatch, "unlink",
                      lambda p: isinstance(p, str | Path) and str(p).endswith("target.txt"),
                      _swap(arena, "sub"))
        review.decide((1, 0), Decision.accept())
        assert fired
        assert (arena.canary_dir / "target.txt").read_bytes() == b"outside\n"
    finally:
        review.close()


def test_remove_file_refuses_a_link_on_the_way(arena: Arena) -> None:
    (arena.root / "sub").symlink_to(arena.canary_dir)
    with pytest.raises(DiskError) as info:
        remove_file(arena.root, "sub/target.txt")
    assert info.value.rule == "symlink"
