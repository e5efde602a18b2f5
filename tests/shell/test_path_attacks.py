"""Path attacks against the real disk: nothing outside the root (or in .git/) is touched.

A canary file and a folder sit next to the project; the session tries to reach them
with ``../``, absolute paths, a symlinked file, a symlinked folder and ``.git/`` paths,
through ``reviewtui apply`` and through ``Review.decide`` (forced accepts and edits).
"""

from __future__ import annotations

import os
import shutil
from pathlib import Path

import pytest

from diskkit import Cmd, Ed, Full, make_project, write_session
from reviewtui.cli import main
from reviewtui.core.engine import Decision
from reviewtui.core.errors import DecisionRefused
from reviewtui.core.model.outcome import Status
from reviewtui.core.review.rebase import ConflictKind
from reviewtui.shell.review import Review

CANARY = b"canary: must never change\n"
OUTSIDE = b"outside\n"


def attack_ops(canary: Path) -> list[Full | Ed | Cmd]:
    return [
        Cmd(":rm ../canary.txt"),
        Cmd(":mv a.txt ../moved.txt"),
        Cmd(":mv link_dir/target.txt inside.txt"),
        Full("../canary.txt", "pwned\n"),
        Full("sub/../../canary.txt", "pwned\n"),
        Full(str(canary), "pwned\n"),
        Ed("link_file", "canary: must never change", "pwned"),
        Full("link_dir/target.txt", "pwned\n"),
        Full("link_dir/new.txt", "pwned\n"),
        Ed("link_dir/target.txt", "outside", "pwned"),
        Full(".git/config", "pwned\n"),
        Full(".git/hooks/pre-commit", "pwned\n"),
        Full(".GIT/config", "pwned\n"),
        Full("link_file", "pwned\n"),
    ]


@pytest.fixture
def arena(tmp_path: Path) -> tuple[Path, Path]:
    (tmp_path / "canary.txt").write_bytes(CANARY)
    (tmp_path / "outside_dir").mkdir()
    (tmp_path / "outside_dir/target.txt").write_bytes(OUTSIDE)
    root = make_project(tmp_path / "proj", {"a.txt": "a\n", ".git/config": "[core]\n",
                                            "sub/x.txt": "x\n"})
    (root / "link_file").symlink_to("../canary.txt")
    (root / "link_dir").symlink_to(tmp_path / "outside_dir")
    session = write_session(tmp_path / "session", [attack_ops(tmp_path / "canary.txt"),
                                                   [Full("sub/x.txt", "later\n")]])
    return session, root


def snapshot(tmp_path: Path) -> dict[str, tuple[bytes | str, int]]:
    """Everything under tmp_path except the session folder: content (or link) and mtime."""
    out: dict[str, tuple[bytes | str, int]] = {}
    for path in sorted(tmp_path.rglob("*")):
        rel = path.relative_to(tmp_path).as_posix()
        if rel.startswith("session"):
            continue
        info = path.lstat()
        if path.is_symlink():
            out[rel] = (os.readlink(path), info.st_mtime_ns)
        elif path.is_file():
            out[rel] = (path.read_bytes(), info.st_mtime_ns)
    return out


def test_apply_touches_nothing_outside(arena: tuple[Path, Path],
                                       capsys: pytest.CaptureFixture[str]) -> None:
    session, root = arena
    tmp = root.parent
    before = snapshot(tmp)
    code = main(["apply", str(session), "--root", str(root), "--yes", "--turns", "1"])
    out = capsys.readouterr().out
    assert code == 1
    assert "0 of 14 operations applied; 0 files written, 0 removed" in out
    assert snapshot(tmp) == before
    assert (tmp / "canary.txt").read_bytes() == CANARY


def test_forced_decisions_touch_nothing_outside(arena: tuple[Path, Path],
                                                opened: list[Review]) -> None:
    session, root = arena
    tmp = root.parent
    before = snapshot(tmp)
    review = Review.open(session, root)
    opened.append(review)
    keys = [(1, pos) for pos in range(14)]
    for decision in (Decision.accept(force=True), Decision.edit(("pwned",))):
        with pytest.raises(DecisionRefused):  # an accept that cannot land is not recorded
            review.decide_many([(key, decision) for key in keys])
        report = review.decide_many([(key, decision) for key in keys], skip_unappliable=True)
        assert sorted(report.skipped) == keys
    assert review.decisions == {}
    for key in keys:
        assert review.outcome(key).status in (Status.REFUSED, Status.NOT_FOUND), key
    assert snapshot(tmp) == before
    rules = {review.outcome(k).rule for k in keys}
    assert {"parent-escape", "absolute-path", "symlink", "symlink-escape", "git-dir"} <= rules


def test_a_folder_swapped_for_a_link_mid_review_is_not_written_through(
    arena: tuple[Path, Path], opened: list[Review]
) -> None:
    session, root = arena
    tmp = root.parent
    review = Review.open(session, root)
    opened.append(review)
    shutil.rmtree(root / "sub")
    (root / "sub").symlink_to(tmp / "outside_dir")  # after the review read the project
    before = snapshot(tmp)
    report = review.decide((2, 0), Decision.accept())
    assert report.written == []
    assert report.conflicts == ["sub/x.txt"]
    assert review.conflicts["sub/x.txt"].kind is ConflictKind.UNWRITABLE
    assert "symbolic link" in review.conflicts["sub/x.txt"].message
    assert review.outcome((2, 0)).status is Status.CONFLICT
    assert snapshot(tmp) == before
    assert not (tmp / "outside_dir/x.txt").exists()
