"""A commit's tree read from git (``shell/git_tree.py``) is the project a copy of it was.

``check``, ``stats`` and ``export`` of ``--git A..B`` no longer copy A's tree into a folder:
an empty folder stands for it, listed from ``ls-tree`` and read from git's objects. Held
to the copy it replaced: the same files (bytes, modes), links, leftovers, folders left out,
path spellings and project config; a file is read only when its content is needed; the
commands print what they printed over a copy, and leave no folder or process behind.
"""

from __future__ import annotations

import os
import re
import stat
from pathlib import Path

import pytest

from gitkit import commit_all, git, new_repo
from reviewtui.cli import main
from reviewtui.core.record import replace
from reviewtui.shell.disk import temp_name
from reviewtui.shell.git import Repo, materialize
from reviewtui.shell.git_sources import open_range
from reviewtui.shell.git_tree import tree_listing
from reviewtui.shell.project import load_project, stand_in
from reviewtui.shell.review import Review
from reviewtui.shell.snapshot import DiskSnapshot


def _varied_repo(tmp_path: Path) -> tuple[Path, str]:
    repo = new_repo(tmp_path / "repo")
    files = {"a.py": b"x = 1\n", "pkg/b.py": b"y = 2\r\n", "pkg/deep/c.txt": b"\xff\x00bin",
             "node_modules/m/index.js": b"skip\n", "pkg/.venv/lib.py": b"skip\n",
             "s.review.blobs/x": b"skip\n", "Readme.md": b"r\n", "readme.MD": b"other\n",
             "run.sh": b"#!/bin/sh\n", "reviewtui.toml": b'[reserved]\npaths = ["pkg/b.py"]\n',
             f"pkg/{temp_name('left.py')}": b"half\n"}
    for rel, data in files.items():
        (repo / rel).parent.mkdir(parents=True, exist_ok=True)
        (repo / rel).write_bytes(data)
    (repo / "run.sh").chmod(0o755)
    (repo / "link-to-file").symlink_to("a.py")
    (repo / "pkg" / "up").symlink_to("..")
    (repo / "dangling").symlink_to("nowhere")
    (repo / ".venv").symlink_to("pkg")  # a link named like a folder never read
    git(repo, "add", "-f", "-A")
    git(repo, "commit", "-q", "-m", "varied")
    return repo, git(repo, "rev-parse", "HEAD").strip()


def test_the_listing_is_the_copy_s(tmp_path: Path) -> None:
    repo_dir, rev = _varied_repo(tmp_path)
    repo = Repo.at(repo_dir)
    copy = tmp_path / "copy"
    copy.mkdir()
    materialize(repo, rev, copy)
    folder = tmp_path / "standing"
    folder.mkdir()
    snap, blobs, stream = tree_listing(repo, rev, folder)
    end = stand_in(folder, snap, lambda path: stream.read(blobs[path]))
    try:
        listed = load_project(folder, lazy=True)
        assert all(getattr(state, "unread", False) for _, state in listed.tree.items()
                   if not stat.S_ISLNK(state.mode))  # nothing read yet
        copied = load_project(copy)
        assert listed.tree.paths() == copied.tree.paths()
        for path, state in copied.tree.items():
            mine = listed.tree.get(path)
            assert mine is not None
            assert (mine.data, mine.mode) == (state.data, state.mode), path
        assert listed.rules.symlinks == copied.rules.symlinks
        assert listed.rules.spellings == copied.rules.spellings
        assert listed.rules.reserved.patterns == copied.rules.reserved.patterns == ("pkg/b.py",)
        assert replace(listed.config, source="") == replace(copied.config, source="")
        assert listed.leftovers == copied.leftovers
        assert os.listdir(folder) == ["reviewtui.toml"]  # the one file read by name
        # Asked for whole (a review that is not lazy): every file read now, from git.
        whole = load_project(folder)
        assert not any(getattr(state, "unread", False) for _, state in whole.tree.items())
        assert whole.tree == copied.tree
    finally:
        end()
        stream.close()
    # Ended: the folder is a folder again (empty but for the config).
    assert load_project(folder, lazy=True).tree.paths() == ("reviewtui.toml",)


def _range(tmp_path: Path) -> tuple[Path, str]:
    repo, base = _varied_repo(tmp_path)
    (repo / "a.py").write_text("x = 10\n")
    (repo / "pkg" / "deep" / "new.md").write_text("# new\n")
    git(repo, "rm", "-q", "Readme.md")
    commit_all(repo, "change")
    return repo, f"{base}..HEAD"


@pytest.mark.parametrize(("command", "said"), [
    (["check"], "3 apply"), (["stats"], "3 landed"),
    (["export", "--format", "patch"], "+x = 10"), (["check", "--json"], '"pkg/deep/new.md"')])
def test_the_commands_print_what_they_printed_over_a_copy(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        command: list[str], said: str) -> None:
    repo, spec = _range(tmp_path)
    (tmp_path / "tmp").mkdir()
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)
    code = main([*command, "--git", spec, "--root", str(repo)])
    listed = capsys.readouterr()
    assert os.listdir(tmp_path / "tmp") == []  # every folder it made is gone

    import reviewtui.shell.git_sources as sources

    def copy_listing(repo_: Repo, rev: str, root: Path):  # type: ignore[no-untyped-def]
        materialize(repo_, rev, root)  # the code before: a copy, read as a folder
        return DiskSnapshot(), {}, _NoStream()

    monkeypatch.setattr(sources, "tree_listing", copy_listing)
    monkeypatch.setattr(sources, "stand_in", lambda *_: (lambda: None))
    copied_code = main([*command, "--git", spec, "--root", str(repo)])
    copied = capsys.readouterr()

    def plain(text: str) -> str:  # the temporary folders' names differ
        return re.sub(r"reviewtui-git-(?:base-)?[a-z0-9_]+", "TMP", text)

    assert code == copied_code
    assert plain(listed.out) == plain(copied.out)
    assert "Traceback" not in listed.err
    assert said in listed.out


class _NoStream:
    def close(self) -> None:
        return None


def test_a_review_of_a_range_not_kept_sees_the_whole_base(tmp_path: Path) -> None:
    """``open --git A..B --dry-run`` keeps nothing but is no lazy command: its range is
    still copied (``listed`` is only for commands that read their project lazily)."""
    repo, spec = _range(tmp_path)
    source = open_range(spec, str(repo), keep=False)
    try:
        assert sorted(os.listdir(source.root)) != ["reviewtui.toml"]
        with Review.open(source.session, source.root, dry_run=True,
                         first_frame=True) as review:
            review.finish_evaluation()
            statuses = [r.outcome.status for t in review.evaluation.display.turns
                        for r in t.results]
        assert statuses == ["applied"] * 3
    finally:
        source.close()
