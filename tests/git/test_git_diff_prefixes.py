"""A unified diff's path prefixes are the diff's own, whatever they are.

git writes ``a/`` and ``b/`` by default, ``i/`` and ``w/`` (or ``c/``, ``o/``) with
``diff.mnemonicPrefix``, any pair with ``--src-prefix``/``--dst-prefix``, none with
``--no-prefix``; ``diff -ruN old new`` names files under the two folders. reviewtui kept any
prefix but ``a/``/``b/`` as part of the path: a new file landed in a made-up folder
(``w/src/new.js``) with exit 0, where ``git apply`` makes ``src/new.js`` (found by helper-73,
2026-12-04). Each diff here is made by git or GNU diff from a real change and applied on the
tree before it; the result must be the tree after it, byte for byte.
"""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from gitkit import ENV, commit_all, git, new_repo
from reviewtui.cli import main
from reviewtui.core.importers.diffpaths import prefix_pair

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")

BEFORE = {"src/app.js": "a\nb\n", "a/x.txt": "in a folder named a\n",
          "b/y.txt": "in a folder named b\n", "gone.txt": "old\n"}
AFTER = {"src/app.js": "a\nB\n", "a/x.txt": "in a folder named a, changed\n",
         "b/y.txt": "in a folder named b\n", "src/new.js": "fresh\n",
         "b/new.txt": "new in b\n"}


def _write(root: Path, files: dict[str, str]) -> None:
    for path, text in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_text(text)


def _applied(patch: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
             ) -> dict[str, str]:
    """``patch`` applied by reviewtui on a tree of BEFORE (it must exit 0): the result."""
    root = tmp_path / "root"
    root.mkdir()
    _write(root, BEFORE)
    code = main(["apply", str(patch), "--format", "unified", "--yes", "--root", str(root)])
    out = capsys.readouterr().out
    assert code == 0, out
    return _tree(root)


def _tree(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*"))
            if p.is_file() and ".git" not in p.parts and not p.name.endswith(".review.json")}


@pytest.fixture
def change(tmp_path: Path) -> Path:
    """A repository whose working tree holds AFTER over a commit of BEFORE (new files
    added with --intent-to-add, so git diff shows them)."""
    repo = new_repo(tmp_path / "repo")
    _write(repo, BEFORE)
    commit_all(repo, "before")
    (repo / "gone.txt").unlink()
    _write(repo, AFTER)
    git(repo, "add", "-N", "src/new.js", "b/new.txt")
    return repo


@pytest.mark.parametrize("options", [
    (),
    ("-c", "diff.mnemonicPrefix=true"),
    ("--src-prefix=x/", "--dst-prefix=y/"),
    ("--no-prefix",),
], ids=["a-b", "mnemonic", "custom", "no-prefix"])
def test_a_git_diff_lands_as_git_made_it(change: Path, tmp_path: Path,
                                         capsys: pytest.CaptureFixture[str],
                                         options: tuple[str, ...]) -> None:
    config = [o for o in options if o.startswith("diff.")]
    flags = [o for o in options if o.startswith("--")]
    args = [*(["-c", config[0]] if config else []), "diff", *flags]
    patch = tmp_path / "change.diff"
    patch.write_text(git(change, *args))
    assert _applied(patch, tmp_path, capsys) == AFTER


def test_a_gnu_diff_of_two_folders_lands_under_the_root(tmp_path: Path,
                                                        capsys: pytest.CaptureFixture[str]
                                                        ) -> None:
    if shutil.which("diff") is None:
        pytest.skip("GNU diff is not installed")
    old, new = tmp_path / "proj.orig", tmp_path / "proj"
    _write(old, BEFORE)
    _write(new, AFTER)
    done = subprocess.run(["diff", "-ruN", "proj.orig", "proj"], cwd=tmp_path,
                          capture_output=True, env=ENV, check=False)
    assert done.returncode == 1  # differences found
    patch = tmp_path / "gnu.diff"
    patch.write_bytes(done.stdout)
    # GNU diff -N names a removed file against an empty one dated the epoch: removed, as
    # git apply and GNU patch read it (it was emptied and left behind: QA s45 helper-138 #4)
    assert _applied(patch, tmp_path, capsys) == AFTER


@pytest.mark.parametrize(("headers", "pair"), [
    (["diff --git a/x b/x", "--- a/x", "+++ b/x"], ("a/", "b/")),
    (["diff --git i/s/x w/s/x", "--- /dev/null", "+++ w/s/x"], ("i/", "w/")),
    (["diff --git s/x s/x"], ("", "")),
    (['diff --git "a/caf\\303\\251" "b/caf\\303\\251"'], ("a/", "b/")),
    (["diff --git a/my file b/my file"], ("a/", "b/")),
    (["--- proj.orig/s/x\t2026-01-01", "+++ proj/s/x\t2026-01-01"], ("proj.orig/", "proj/")),
    (["diff --git a/old b/new"], None),  # a rename shows no pair
    (["--- /dev/null", "+++ b/x"], None),  # a new file alone: not known
    (["diff --git a/x b/x", "diff --git i/y w/y"], None),  # a tie
])
def test_the_prefix_pair_is_read_from_the_headers(headers: list[str],
                                                   pair: tuple[str, str] | None) -> None:
    assert prefix_pair(headers, 0, len(headers)) == pair


def test_a_two_folder_git_prefix_lands_under_the_root(change: Path, tmp_path: Path,
                                                      capsys: pytest.CaptureFixture[str]
                                                      ) -> None:
    """``--src-prefix=old/tree/``: the headers show the pair ``old/``, ``new/`` and every
    path under ``tree/``; no modified file is there, all are without it. (Before, the
    modifications were refused and the new files written under ``tree/``.)"""
    patch = tmp_path / "two.diff"
    patch.write_text(git(change, "diff", "--src-prefix=old/tree/", "--dst-prefix=new/tree/"))
    assert _applied(patch, tmp_path, capsys) == AFTER


def test_a_gnu_diff_of_two_folders_two_deep_lands_under_the_root(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``diff -ruN old/proj new/proj`` (two unpacked releases side by side)."""
    if shutil.which("diff") is None:
        pytest.skip("GNU diff is not installed")
    _write(tmp_path / "old" / "proj", BEFORE)
    _write(tmp_path / "new" / "proj", AFTER)
    done = subprocess.run(["diff", "-ruN", "old/proj", "new/proj"], cwd=tmp_path,
                          capture_output=True, env=ENV, check=False)
    assert done.returncode == 1
    patch = tmp_path / "gnu.diff"
    patch.write_bytes(done.stdout)
    assert _applied(patch, tmp_path, capsys) == AFTER  # (gone.txt removed: epoch-dated)


def test_without_the_files_the_paths_stay_as_the_headers_say(
        change: Path, tmp_path: Path) -> None:
    """The project holds none of the modified files, with or without the folders: nothing
    is dropped (the modifications are refused; nothing is guessed)."""
    from reviewtui.shell.loader import load_session

    patch = tmp_path / "two.diff"
    patch.write_text(git(change, "diff", "--src-prefix=old/tree/", "--dst-prefix=new/tree/"))
    elsewhere = tmp_path / "elsewhere"
    _write(elsewhere, {"unrelated.txt": "x\n"})
    loaded = load_session(patch, root=elsewhere)
    paths = {op.path for turn in loaded.session.turns for op in turn.reply.ops}
    assert paths
    assert all(path.startswith("tree/") for path in paths), paths


def test_the_project_is_asked_about_paths_inside_it_alone(tmp_path: Path) -> None:
    from reviewtui.shell.loader import _holds

    (tmp_path / "root").mkdir()
    (tmp_path / "root" / "in.txt").write_text("x\n")
    (tmp_path / "outside.txt").write_text("x\n")
    holds = _holds(tmp_path / "root")
    assert holds is not None
    assert holds("in.txt")
    assert not holds("../outside.txt")
    assert not holds(str(tmp_path / "outside.txt"))
    assert not holds("")
    assert not holds("in.txt\0")
    assert _holds(None) is None
