"""A submodule's commit (git mode 160000) is not a file: never written as one, never removed.

Found replaying sharkdp/bat's history (``bench/history.py``): a commit adding a submodule
wrote a regular file holding ``Subproject commit <id>`` where git has a submodule, with
exit 0; a commit removing one became a ``:rm`` of its folder. Each such change is now one
operation that is refused with its reason, and the rest of the commit is replayed.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from gitkit import git, new_repo, tree_of
from reviewtui.cli import main
from reviewtui.core.importers.unified import import_unified
from reviewtui.core.model.records import FullFile

OLD = "2ba28b924808785cbaaef25e811f8219b4e45393"
NEW = "ba74067b0e369234be58fa12693b7a5858d358f8"

ADDED = f"""\
diff --git a/sub b/sub
new file mode 160000
index 0000000..2ba28b9
--- /dev/null
+++ b/sub
@@ -0,0 +1 @@
+Subproject commit {OLD}
"""
MOVED = f"""\
diff --git a/sub b/sub
index 2ba28b9..ba74067 160000
--- a/sub
+++ b/sub
@@ -1 +1 @@
-Subproject commit {OLD}
+Subproject commit {NEW}-dirty
"""
REMOVED = f"""\
diff --git a/sub b/sub
deleted file mode 160000
index ba74067..0000000
--- a/sub
+++ /dev/null
@@ -1 +0,0 @@
-Subproject commit {NEW}
"""


@pytest.mark.parametrize(("diff", "before", "after"), [
    (ADDED, "", OLD), (MOVED, OLD, NEW + "-dirty"), (REMOVED, NEW, "")],
    ids=["added", "moved", "removed"])
def test_a_submodule_section_is_one_operation_that_names_its_commits(
        diff: str, before: str, after: str) -> None:
    session = import_unified(diff, "x.diff")
    ops = [op for turn in session.turns for op in turn.reply.ops]
    assert len(ops) == 1  # no edit of "Subproject commit" text, no :rm of the folder
    op = ops[0]
    assert isinstance(op, FullFile)
    assert op.path == "sub"
    assert op.payload is not None
    assert (op.payload.kind, op.payload.old_id, op.payload.new_id) == (
        "submodule", before, after)


@pytest.mark.parametrize(("diff", "says"), [
    (ADDED, "is added at commit 2ba28b924808"),
    (MOVED, "moves from 2ba28b924808 to ba74067b0e36"),
    (MOVED.replace(NEW, OLD), "its checkout (at commit 2ba28b924808) has changes of its own"),
    (REMOVED, "is removed (it was at commit ba74067b0e36)")],
    ids=["added", "moved", "dirty", "removed"])
def test_apply_leaves_a_checked_out_submodule_alone_and_says_why(
        diff: str, says: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "s.txt").write_text("inside the submodule\n")
    (tmp_path / "x.diff").write_text(diff)
    code = main(["apply", "--format", "unified", "--yes", "--root", str(root),
                 str(tmp_path / "x.diff")])
    out = capsys.readouterr().out
    assert code == 1
    assert "git submodule (mode 160000)" in out
    assert says in out
    assert (root / "sub" / "s.txt").read_text() == "inside the submodule\n"
    assert sorted(p.name for p in root.rglob("*")) == ["s.txt", "sub"]


def test_a_range_with_submodule_commits_replays_everything_else(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    repo = new_repo(tmp_path / "repo")
    (repo / "a.txt").write_text("one\n")
    git(repo, "add", "a.txt")
    git(repo, "commit", "-q", "-m", "Base")
    base = git(repo, "rev-parse", "HEAD").strip()
    # Gitlinks straight into the index: no submodule repository needed.
    git(repo, "update-index", "--add", "--cacheinfo", f"160000,{OLD},sub")
    (repo / "a.txt").write_text("one\ntwo\n")
    git(repo, "add", "a.txt")
    git(repo, "commit", "-q", "-m", "Add a submodule and a line")
    git(repo, "update-index", "--cacheinfo", f"160000,{NEW},sub")
    git(repo, "commit", "-q", "-m", "Move the submodule")
    git(repo, "rm", "-q", "--cached", "sub")
    (repo / "a.txt").write_text("one\ntwo\nthree\n")
    git(repo, "add", "a.txt")
    git(repo, "commit", "-q", "-m", "Remove the submodule, add a line")
    head = git(repo, "rev-parse", "HEAD").strip()
    git(repo, "checkout", "-q", "-b", "review", base)
    # A config that turns a submodule's diff into a "Submodule sub 0000000...2ba28b9" line
    # (no diff section at all): the range is read in the one shape all the same.
    git(repo, "config", "diff.submodule", "log")

    code = main(["apply", "--git", f"{base}..{head}", "--root", str(repo), "--yes"])
    out = capsys.readouterr().out
    assert code == 1  # three changes were left out, and said so
    assert out.count("git submodule (mode 160000)") == 3
    assert (repo / "a.txt").read_bytes() == tree_of(repo, head)["a.txt"][1]
    assert not (repo / "sub").exists()  # never a file of "Subproject commit" text
