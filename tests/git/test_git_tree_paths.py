"""Threat: a repository whose trees name paths git itself would never check out.

Git stores a tree's entries as bare names, and nothing stops a crafted tree object from
naming an entry ``..`` or ``.git`` (``git fsck`` flags such trees, but a clone or fetch does
not check by default). ``git ls-tree -r`` then lists ``a/../../x``: copied into a folder as
it stands, that writes beside the copy; from the range copy kept in
``<git dir>/reviewtui/``, ``a/../../../hooks/post-checkout`` (mode 100755) is a hook git
runs at the next checkout. Promise: every path of a tree reviewtui reads is checked as git
checks it before checking out (no empty, ``.`` or ``..`` part, no ``.git`` in any case);
a range whose base tree holds another is refused with one line naming it, and nothing is
written anywhere.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from gitkit import commit_all, git, new_repo, raw_object, raw_tree
from reviewtui.cli import main

PLANTED = "#!/bin/sh\necho planted\n"


def _crafted_range(tmp_path: Path, names: list[bytes]) -> tuple[Path, str]:
    """A repository whose commit A's tree holds ``ok.txt`` and, under the nested folders
    ``names``, an executable ``post-checkout``; B (on top) edits ok.txt. Returns the
    repository and ``A..B``."""
    repo = new_repo(tmp_path / "repo")
    (repo / "ok.txt").write_text("one\ntwo\n")
    commit_all(repo, "Base")
    ok = git(repo, "rev-parse", "HEAD:ok.txt").strip()
    hook = raw_object(repo, b"blob", PLANTED.encode())
    inner = raw_tree(repo, [(b"100755", b"post-checkout", hook)])
    for name in reversed(names):
        inner = raw_tree(repo, [(b"40000", name, inner)])
    top = raw_tree(repo, [(b"40000", b"a", inner), (b"100644", b"ok.txt", ok)])
    base = git(repo, "commit-tree", top, "-m", "crafted").strip()
    tree_b = raw_tree(repo, [(b"40000", b"a", inner), (b"100644", b"ok.txt",
                                                     raw_object(repo, b"blob", b"one\n2\n"))])
    head = git(repo, "commit-tree", tree_b, "-p", base, "-m", "edit").strip()
    return repo, f"{base}..{head}"


def _planted(where: Path) -> list[str]:
    return sorted(str(p) for p in where.rglob("post-checkout")
                  if p.is_file() and p.read_text() == PLANTED)


@pytest.mark.parametrize("names", [
    [b"..", b"..", b"..", b"hooks"],  # a/../../../hooks: .git/hooks from the kept copy
    [b"..", b".."],                   # beside the temporary copy
    [b".git", b"hooks"],              # a .git folder inside the copy
    [b".GIT", b"hooks"],
    [b".", b"x"],
])
@pytest.mark.parametrize("command", [["check"], ["stats"], ["export", "--format", "patch"],
                                     ["apply", "--yes"]])
def test_a_tree_with_a_path_git_refuses_is_refused_and_nothing_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        names: list[bytes], command: list[str]) -> None:
    repo, spec = _crafted_range(tmp_path, names)
    before = git(repo, "status", "--porcelain", "--ignored")
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    import tempfile

    monkeypatch.setattr(tempfile, "tempdir", None)  # TMPDIR read again
    code = main([*command, "--git", spec, "--root", str(repo)])
    err = capsys.readouterr().err
    assert code == 2, err
    assert "Traceback" not in err
    assert "git-unsafe-path" in err
    assert "post-checkout" in err  # the entry is named
    assert _planted(tmp_path) == []
    assert not (repo / ".git" / "hooks" / "post-checkout").exists()
    assert git(repo, "status", "--porcelain", "--ignored") == before
    assert os.listdir(tmp_path / "tmp") == []  # no copy left behind either
    kept = repo / ".git" / "reviewtui"
    assert not kept.exists() or not [p for p in kept.iterdir() if p.is_dir()]


def test_a_sound_tree_beside_it_still_opens(tmp_path: Path,
                                           capsys: pytest.CaptureFixture[str]) -> None:
    """The check refuses the unsafe names only: dots inside names, a ``.gitignore``,
    ``..x`` are ordinary."""
    repo, spec = _crafted_range(tmp_path, [b"..x", b".gitignore.d", b"x..", b"..."])
    code = main(["check", "--git", spec, "--root", str(repo)])
    out = capsys.readouterr().out
    assert code == 0, out
    assert "1 apply" in out


@pytest.mark.parametrize("command", [["check"], ["apply", "--yes"]])
def test_a_commit_that_adds_such_a_path_is_refused_by_the_engine(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: list[str]) -> None:
    """A sound base, and a commit of the range whose tree adds ``a/../../../hooks/...``:
    ``git log -p`` shows it as a diff of that path, which the engine's path rules refuse
    (it leaves the root); nothing is written by it."""
    repo = new_repo(tmp_path / "repo")
    (repo / "ok.txt").write_text("one\ntwo\n")
    base = commit_all(repo, "Base")
    ok = git(repo, "rev-parse", "HEAD:ok.txt").strip()
    hook = raw_object(repo, b"blob", PLANTED.encode())
    inner = raw_tree(repo, [(b"100755", b"post-checkout", hook)])
    for name in reversed([b"..", b"..", b"..", b"hooks"]):
        inner = raw_tree(repo, [(b"40000", name, inner)])
    top = raw_tree(repo, [(b"40000", b"a", inner), (b"100644", b"ok.txt", ok)])
    head = git(repo, "commit-tree", top, "-p", base, "-m", "plant").strip()
    code = main([*command, "--git", f"{base}..{head}", "--root", str(repo)])
    captured = capsys.readouterr()
    assert code != 0
    assert "Traceback" not in captured.err
    assert "post-checkout" in captured.out + captured.err
    assert _planted(tmp_path) == []
    assert not (repo / ".git" / "hooks" / "post-checkout").exists()
