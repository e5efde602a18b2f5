"""Threat: a crafted tree that names one entry twice.

Git's fsck calls it ``duplicateEntries``; a clone or fetch accepts it unless
``transfer.fsckObjects`` is on. ``ls-tree -r`` then lists two files ``x``, or a file ``x``
and a file under a folder ``x``: copying A's tree crashed with a ``FileExistsError``
traceback. Promise: such a tree is refused with one line naming the path and the rule
``git-duplicate-entry``, before anything is copied or kept.
"""

from __future__ import annotations

import os
import tempfile
from pathlib import Path

import pytest

from gitkit import commit_all, git, new_repo, raw_object, raw_tree
from reviewtui.cli import main


def _range(repo: Path, top: list[tuple[bytes, bytes, str]]) -> str:
    """``A..B``: A's tree is ``top`` as given; B adds ``a.txt`` to a sound tree."""
    base = git(repo, "commit-tree", raw_tree(repo, top), "-m", "crafted").strip()
    added = raw_tree(repo, [(b"100644", b"a.txt", raw_object(repo, b"blob", b"a\n"))])
    head = git(repo, "commit-tree", added, "-p", base, "-m", "B").strip()
    return f"{base}..{head}"


def _crafted(repo: Path, shape: str) -> str:
    one, two = (raw_object(repo, b"blob", data) for data in (b"1\n", b"2\n"))
    inner = raw_tree(repo, [(b"100644", b"y", one)])
    other = raw_tree(repo, [(b"100644", b"z", two)])
    link = raw_object(repo, b"blob", b"elsewhere")
    entries = {
        "two-files": [(b"100644", b"x", one), (b"100644", b"x", two)],
        "file-and-folder": [(b"100644", b"x", one), (b"40000", b"x", inner)],
        "link-and-folder": [(b"120000", b"x", link), (b"40000", b"x", inner)],
        "two-folders": [(b"40000", b"x", inner), (b"40000", b"x", other)],
    }[shape]
    return _range(repo, entries)


@pytest.mark.parametrize("shape", ["two-files", "file-and-folder", "link-and-folder",
                                   "two-folders"])
@pytest.mark.parametrize("command", [["apply", "--yes"], ["open", "--dry-run"], ["check"],
                                     ["stats"], ["export", "--format", "patch"]])
def test_a_tree_naming_an_entry_twice_is_refused_before_anything_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        shape: str, command: list[str]) -> None:
    repo = new_repo(tmp_path / "repo")
    (repo / "ok.txt").write_text("ok\n")
    commit_all(repo, "Base")
    spec = _crafted(repo, shape)
    (tmp_path / "tmp").mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    monkeypatch.setattr(tempfile, "tempdir", None)  # TMPDIR read again
    code = main([*command, "--git", spec, "--root", str(repo)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err
    assert len(err.strip().splitlines()) == 1, err
    assert "'x' twice" in err
    assert "[git-duplicate-entry]" in err
    assert os.listdir(tmp_path / "tmp") == []
    kept = repo / ".git" / "reviewtui"
    assert not kept.exists() or list(kept.iterdir()) == []


def test_the_same_name_in_two_folders_is_no_duplicate(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = new_repo(tmp_path / "repo")
    blob = raw_object(repo, b"blob", b"1\n")
    inner = raw_tree(repo, [(b"100644", b"x", blob)])
    spec = _range(repo, [(b"40000", b"a", inner), (b"40000", b"b", inner),
                         (b"100644", b"x", blob)])
    code = main(["check", "--git", spec, "--root", str(repo)])
    assert code == 0, capsys.readouterr()
