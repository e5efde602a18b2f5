"""``WriteBatch``: a replay's atomic writes with temp files prepared and fsynced ahead and
folder fsyncs deferred -- the same files as the one-at-a-time path, and the same promises.

Each shortcut is compared with the slow path (``atomic_write`` without a batch) and
attacked where it differs from it: the time between preparing a temp file and taking it.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from diskkit import Cmd, Ed, make_project, write_session
from reviewtui.core.engine import Decision
from reviewtui.core.errors import DiskError
from reviewtui.shell import disk, write_batch
from reviewtui.shell.disk import atomic_write, is_temp_name
from reviewtui.shell.review import Review
from reviewtui.shell.write_batch import WriteBatch


def _tree(root: Path) -> dict[str, tuple[bytes, int]]:
    return {p.relative_to(root).as_posix(): (p.read_bytes(), p.stat().st_mode & 0o777)
            for p in sorted(root.rglob("*")) if p.is_file()}


def _temps(root: Path) -> list[Path]:
    return [p for p in root.rglob("*") if is_temp_name(p.name)]


names = st.sampled_from(["a.txt", "b.py", "d/c.txt", "d/e/f.txt", "n/new.txt"])
contents = st.sampled_from([b"", b"one\n", b"two\n", b"one\ntwo\n", b"\x00bin"])
modes = st.sampled_from([None, 0o644, 0o755])


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(start=st.dictionaries(names, contents, max_size=5),
       writes=st.lists(st.tuples(names, contents, modes, st.booleans()), max_size=6,
                       unique_by=lambda w: w[0]),
       prepare_wrong=st.booleans())
def test_a_batch_writes_what_single_writes_write(
        start: dict[str, bytes], writes: list[tuple[str, bytes, int | None, bool]],
        prepare_wrong: bool) -> None:
    """Same disk, same return values, no temp file left, whichever writes were prepared
    (and with other bytes prepared than written, when ``prepare_wrong``)."""
    outcomes: list[list[bool]] = []
    trees = []
    with tempfile.TemporaryDirectory() as base:
        for batched in (False, True):
            root = Path(base) / ("batched" if batched else "single")
            root.mkdir()
            for rel, data in start.items():
                atomic_write(root, rel, data)
            results = []
            if batched:
                with WriteBatch(root) as batch:
                    batch.prepare((rel, data + b"!" if prepare_wrong else data)
                                  for rel, data, _, ahead in writes if ahead)
                    for rel, data, mode, _ in writes:
                        results.append(atomic_write(root, rel, data, mode, batch=batch))
            else:
                for rel, data, mode, _ in writes:
                    results.append(atomic_write(root, rel, data, mode))
            outcomes.append(results)
            trees.append(_tree(root))
            assert not _temps(root)
    assert outcomes[0] == outcomes[1]
    assert trees[0] == trees[1]


def test_a_prepared_temp_file_is_taken_only_in_its_own_folder(tmp_path: Path) -> None:
    """The folder swapped for another between preparing and writing: the write lands in
    the folder now at that name, the prepared temp file is removed from the old one."""
    root = tmp_path / "root"
    (root / "d").mkdir(parents=True)
    (root / "d/f.txt").write_bytes(b"old\n")
    with WriteBatch(root) as batch:
        batch.prepare([("d/f.txt", b"new\n")])
        (root / "d").rename(tmp_path / "moved")
        (root / "d").mkdir()
        (root / "d/f.txt").write_bytes(b"other\n")
        assert atomic_write(root, "d/f.txt", b"new\n", expected=b"other\n", batch=batch)
    assert (root / "d/f.txt").read_bytes() == b"new\n"
    assert [p.name for p in (tmp_path / "moved").iterdir()] == ["f.txt"]
    assert (tmp_path / "moved/f.txt").read_bytes() == b"old\n"
    assert not _temps(tmp_path)


def test_a_prepared_temp_file_swapped_for_a_link_is_not_renamed(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "f.txt").write_bytes(b"old\n")
    secret = tmp_path / "secret"
    secret.write_bytes(b"secret\n")
    with WriteBatch(root) as batch:
        batch.prepare([("f.txt", b"new\n")])
        [temp] = _temps(root)
        temp.unlink()
        temp.symlink_to(secret)
        assert atomic_write(root, "f.txt", b"new\n", expected=b"old\n", batch=batch)
    assert not (root / "f.txt").is_symlink()
    assert (root / "f.txt").read_bytes() == b"new\n"
    assert secret.read_bytes() == b"secret\n"


def test_folder_fsyncs_are_deferred_once_per_folder_and_come_before_a_removal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Through a replay (what ``put`` does with its batch): three files written, one
    removed; the folders renamed into are fsynced once each, and before the unlink."""
    root = make_project(tmp_path / "p", {rel: "old\n" for rel in
                                         ("a.txt", "b.txt", "d/c.txt", "d/gone.txt")})
    session = write_session(tmp_path / "s", [
        [Ed(rel, "old", "new") for rel in ("a.txt", "b.txt", "d/c.txt")],
        [Cmd(":rm d/gone.txt")]])
    events: list[str] = []
    inside = str(root)

    def synced(fd: int) -> None:
        where = os.readlink(f"/proc/self/fd/{fd}")
        if where.startswith(inside):  # the project's folders, not the review's own files
            events.append(f"fsync {where}")

    with Review.open(session, root, persist=False) as review:
        keys = [r.key for turn in review.display.turns for r in turn.results]
        monkeypatch.setattr(write_batch, "_fsync", synced)
        monkeypatch.setattr(disk, "_fsync", synced)
        monkeypatch.setattr(disk, "_before_rename", lambda _fd, name: events.append(name))
        review.decide_many([(key, Decision.accept()) for key in keys])
    top, sub = f"fsync {root}", f"fsync {root / 'd'}"
    # Both folders written into are fsynced (once each) before the removal's unlink;
    # the removal's own folder fsync follows it.
    assert events == ["a.txt", "b.txt", "c.txt", top, sub, "gone.txt", sub]
    assert _tree(root) == {"a.txt": (b"new\n", 0o644), "b.txt": (b"new\n", 0o644),
                           "d/c.txt": (b"new\n", 0o644)}


def test_a_failed_fsync_ahead_fails_that_write_and_leaves_no_temp_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    (tmp_path / "f.txt").write_bytes(b"old\n")
    real = os.fsync

    def failing(fd: int) -> None:
        if is_temp_name(os.path.basename(os.readlink(f"/proc/self/fd/{fd}"))):
            raise OSError(5, "Input/output error")
        real(fd)

    monkeypatch.setattr(os, "fsync", failing)
    with WriteBatch(tmp_path) as batch:
        batch.prepare([("f.txt", b"new\n")])
        with pytest.raises(DiskError, match="Input/output error"):
            atomic_write(tmp_path, "f.txt", b"new\n", batch=batch)
    assert (tmp_path / "f.txt").read_bytes() == b"old\n"
    assert not _temps(tmp_path)


def test_unused_prepared_temp_files_are_removed(tmp_path: Path) -> None:
    (tmp_path / "d").mkdir()
    with WriteBatch(tmp_path) as batch:
        batch.prepare([("f.txt", b"x"), ("d/g.txt", b"y"), ("missing/h.txt", b"z"),
                       ("../escape.txt", b"w")])
        assert len(_temps(tmp_path)) == 2  # no folder made, nothing outside the root
    assert not _temps(tmp_path)
    assert not (tmp_path / "missing").exists()
    assert not (tmp_path.parent / "escape.txt").exists()
