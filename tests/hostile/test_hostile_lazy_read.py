"""Threat: a project file changes between the listing and its read.

``apply``, ``check``, ``export`` and ``restore`` list the project and read a file only
when the session needs its content (``core/model/unread.py``). Between the two, the file
can vanish, or it, or a folder on its way, can become a link out of the root. Promise:
the read goes through the same confined descriptors as every write (never through a
link), a file that is no longer there or no longer a file ends the command with one line
naming it and the rule, before anything is written; outside content never enters the
project. (The ``arena`` fixture checks that nothing outside the root changed.)
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path

import pytest
from disk_threat_kit import Arena
from inputkit import cli, one_line_error

import reviewtui.shell.project as project_module
from diskkit import Ed, make_project, tree_bytes, write_session
from reviewtui.shell.review import Review

FILES = {"a.py": "x = 1\n", "pkg/b.py": "y = 2\n", "pkg/c.py": "z = 3\n"}


def _after_listing(monkeypatch: pytest.MonkeyPatch, action: Callable[[], None]) -> None:
    """Run ``action`` right after the project is listed, before any file is read."""
    listed = project_module.read_snapshot

    def listing(root: Path, *, contents: bool = True):  # type: ignore[no-untyped-def]
        snap = listed(root, contents=contents)
        assert not contents, "a one-shot command lists the project without reading it"
        action()
        return snap

    monkeypatch.setattr(project_module, "read_snapshot", listing)


def _session(arena: Arena) -> Path:
    # a.py first, then pkg/b.py: a failure on the second must not leave the first written.
    return write_session(arena.work, [[Ed("a.py", "x = 1", "x = 10"),
                                       Ed("pkg/b.py", "y = 2", "y = 20")]])


@pytest.mark.parametrize("command", ["apply", "check"])
def test_a_file_gone_after_the_listing_is_named_and_nothing_is_written(
        arena: Arena, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        command: str) -> None:
    make_project(arena.root, FILES)
    session = _session(arena)
    _after_listing(monkeypatch, lambda: (arena.root / "pkg/b.py").unlink())
    extra = ["--yes"] if command == "apply" else []
    run = cli(capsys, command, *extra, "--root", arena.root, session)
    line = one_line_error(run)
    assert run.code != 0
    assert "pkg/b.py" in line
    assert "gone" in line
    assert "changed-while-reading" in line
    assert tree_bytes(arena.root) == {"a.py": b"x = 1\n", "pkg/c.py": b"z = 3\n"}


def _outside_session(arena: Arena) -> Path:
    """Edits of a.py and of pkg/target.txt, whose text the file outside the root
    (``canary_dir/target.txt``) holds too: read through a link, the edit would match."""
    make_project(arena.root, {**FILES, "pkg/target.txt": "outside\n"})
    return write_session(arena.work, [[Ed("a.py", "x = 1", "x = 10"),
                                       Ed("pkg/target.txt", "outside", "inside")]])


def _swap_file(arena: Arena) -> None:
    (arena.root / "pkg/target.txt").unlink()
    (arena.root / "pkg/target.txt").symlink_to(arena.canary_dir / "target.txt")


def _swap_folder(arena: Arena) -> None:
    os.rename(arena.root / "pkg", arena.work / "moved")
    (arena.root / "pkg").symlink_to(arena.canary_dir)


@pytest.mark.parametrize("swap", [_swap_file, _swap_folder], ids=["file", "folder"])
def test_a_file_or_folder_swapped_for_a_link_out_of_the_root_is_not_read_through(
        arena: Arena, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        swap: Callable[[Arena], None]) -> None:
    session = _outside_session(arena)
    _after_listing(monkeypatch, lambda: swap(arena))
    run = cli(capsys, "apply", "--yes", "--root", arena.root, session)
    line = one_line_error(run)
    assert run.code != 0
    assert "pkg/target.txt" in line
    assert "changed-while-reading" in line
    assert (arena.root / "a.py").read_bytes() == b"x = 1\n"


def test_a_file_changed_after_the_listing_is_edited_as_it_is_read(
        arena: Arena, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """Content read late is the content the edit is placed in and guarded by: an edit
    whose text is no longer there fails (nothing of it written), the rest lands."""
    make_project(arena.root, FILES)
    session = _session(arena)
    _after_listing(monkeypatch,
                   lambda: (arena.root / "pkg/b.py").write_bytes(b"y = 3  # changed\n"))
    run = cli(capsys, "apply", "--yes", "--root", arena.root, session)
    assert run.code != 0
    assert "Traceback" not in run.err
    assert tree_bytes(arena.root) == {"a.py": b"x = 10\n", "pkg/b.py": b"y = 3  # changed\n",
                                      "pkg/c.py": b"z = 3\n"}


def test_only_the_files_a_session_touches_are_read(
        arena: Arena, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    make_project(arena.root, {**FILES, **{f"big/m{i}.py": f"v = {i}\n" for i in range(200)}})
    session = _session(arena)
    reads: list[str] = []
    read = project_module.read_listed

    def counted(root: Path, rel: str) -> bytes:
        reads.append(rel)
        return read(root, rel)

    monkeypatch.setattr(project_module, "read_listed", counted)
    run = cli(capsys, "apply", "--yes", "--root", arena.root, session)
    assert run.code == 0, run.err
    assert sorted(reads) == ["a.py", "pkg/b.py"]
    assert (arena.root / "pkg/b.py").read_bytes() == b"y = 20\n"


def test_the_workbench_reads_what_the_session_names_when_it_opens(arena: Arena) -> None:
    """A review that watches the disk tells outside changes to the session's files from
    what they held when it opened: those are read then (``open``'s ``lazy``), the rest of
    the project when first needed; a live session (``open --live``) reads it whole."""
    make_project(arena.root, FILES)
    session = _session(arena)

    def unread(review: Review) -> set[str]:
        return {path for path, state in review.base.items()
                if getattr(state, "unread", False)}

    with Review.open(session, arena.root, dry_run=True, first_frame=True,
                     lazy=True) as review:
        assert unread(review) == {"pkg/c.py"}
    with Review.open(session, arena.root, dry_run=True, first_frame=True) as review:
        assert unread(review) == set()


def test_an_unreadable_file_is_named_as_such_and_only_when_the_session_needs_it(
        arena: Arena, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A file the reader may not read (permissions; simulated: the suite may run as root)
    stops the command only when the session needs it, with the disk's own reason, not as a
    change; one it does not need no longer stops an ``apply`` at all."""
    import reviewtui.shell.snapshot as snapshot
    from reviewtui.core.errors import DiskError

    make_project(arena.root, {**FILES, "secret.key": "k\n"})
    session = _session(arena)
    real = snapshot.read_file
    refused = {"secret.key"}

    def read_file(root: Path, rel: str):  # type: ignore[no-untyped-def]
        if rel in refused:
            raise DiskError("cannot read: Permission denied", source=rel, rule="unreadable")
        return real(root, rel)

    monkeypatch.setattr(snapshot, "read_file", read_file)
    run = cli(capsys, "apply", "--yes", "--root", arena.root, session)
    assert run.code == 0, run.err
    assert (arena.root / "pkg/b.py").read_bytes() == b"y = 20\n"

    refused.add("a.py")
    (arena.root / "a.py").write_bytes(b"x = 1\n")
    (arena.root / "pkg/b.py").write_bytes(b"y = 2\n")
    run = cli(capsys, "apply", "--yes", "--root", arena.root, session)
    line = one_line_error(run)
    assert run.code != 0
    assert "a.py" in line
    assert "Permission denied" in line
    assert "[unreadable]" in line
    assert "changed" not in line
    assert (arena.root / "pkg/b.py").read_bytes() == b"y = 2\n"  # nothing written
