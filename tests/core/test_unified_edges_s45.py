"""Three unified-diff readings that wrote another file than the diff meant, exit 0 (QA s45
helper-138 #4, #5, #6), each checked against ``git apply`` where it applies.

#4: ``diff -ruN`` marks a side that does not exist with the epoch date, not ``/dev/null``:
a removal was replayed as an edit emptying the file, which stayed behind. #5: a hunk whose
old and new sides both end without a newline leaves the final newline alone: one the file
gained since was dropped. #6: a hunk with no context at all was pinned to line 1 by its
number; on a drifted file holding its line three times it changed the first.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest

from reviewtui.core.engine import Policy, evaluate_session
from reviewtui.core.importers import import_session
from reviewtui.core.importers.diffpaths import epoch_dated
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.tree import FileState, Tree


def _replayed(diff: str, files: dict[str, bytes]) -> tuple[dict[str, bytes], list[Status]]:
    session = import_session(diff, "d.diff", format="unified")
    tree = Tree.from_files({p: FileState.from_bytes(b) for p, b in files.items()})
    run = evaluate_session(session, tree, policy=Policy.headless())
    return ({p: s.data for p, s in run.final.items()},
            [r.outcome.status for t in run.turns for r in t.results])


def _git_applied(tmp_path: Path, diff: str, files: dict[str, bytes]) -> dict[str, bytes] | None:
    root = tmp_path / "git"
    for path, data in files.items():
        (root / path).parent.mkdir(parents=True, exist_ok=True)
        (root / path).write_bytes(data)
    (tmp_path / "d.diff").write_text(diff)
    done = subprocess.run(["git", "apply", "-p1", str(tmp_path / "d.diff")], cwd=root,
                          capture_output=True, check=False)
    if done.returncode:
        return None
    return {str(p.relative_to(root)): p.read_bytes() for p in root.rglob("*") if p.is_file()}


@pytest.mark.parametrize("zone", ["00:00:00.000000000 +0000", "01:00:00.000000000 +0100"])
def test_a_diff_ruN_removal_removes_and_its_creation_creates(tmp_path: Path,
                                                             zone: str) -> None:
    epoch = f"1970-01-01 {zone}"
    diff = (f"diff -ruN old/a.txt new/a.txt\n--- old/a.txt\t2024-05-01 10:00:00.000000000 +0000\n"
            f"+++ new/a.txt\t{epoch}\n@@ -1,2 +0,0 @@\n-one\n-two\n"
            f"diff -ruN old/b.txt new/b.txt\n--- old/b.txt\t{epoch}\n"
            "+++ new/b.txt\t2024-05-01 10:00:00.000000000 +0000\n@@ -0,0 +1 @@\n+made\n")
    files = {"a.txt": b"one\ntwo\n", "keep.txt": b"k\n"}
    got, statuses = _replayed(diff, files)
    assert statuses == [Status.APPLIED, Status.APPLIED]
    assert got == {"keep.txt": b"k\n", "b.txt": b"made\n"}
    assert got == _git_applied(tmp_path, diff.replace("old/", "a/").replace("new/", "b/"),
                               files)
    # Another file emptied on purpose (a real date) stays, empty.
    emptied = diff.replace(epoch, "2024-05-02 10:00:00.000000000 +0000", 1)
    assert _replayed(emptied, files)[0]["a.txt"] == b""


def test_the_epoch_is_read_in_any_zone_and_nothing_else_is() -> None:
    assert epoch_dated("x\t1969-12-31 19:00:00 -0500")
    assert not epoch_dated("x\t1970-01-01 00:00:01 +0000")
    assert not epoch_dated("x\t1970-13-45 00:00:00 +0000")  # no such date: no error
    assert not epoch_dated("x 1970-01-01 00:00:00 +0000")  # (no tab: part of the name)


def test_no_newline_on_both_sides_leaves_the_final_newline_alone(tmp_path: Path) -> None:
    diff = ("diff --git a/f.txt b/f.txt\nindex 1c943a9..985cad8 100644\n--- a/f.txt\n"
            "+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n b\n-c\n\\ No newline at end of file\n+C\n"
            "\\ No newline at end of file\n")
    assert _replayed(diff, {"f.txt": b"a\nb\nc"})[0] == {"f.txt": b"a\nb\nC"}
    assert _git_applied(tmp_path, diff, {"f.txt": b"a\nb\nc"}) == {"f.txt": b"a\nb\nC"}
    assert _replayed(diff, {"f.txt": b"a\nb\nc\n"})[0] == {"f.txt": b"a\nb\nC\n"}


def test_a_hunk_without_context_is_placed_by_its_number_with_the_twin_rule() -> None:
    diff = ("diff --git a/g.txt b/g.txt\nindex 8e22a08..7a80ace 100644\n--- a/g.txt\n"
            "+++ b/g.txt\n@@ -1 +1,2 @@\n-return x;\n+line 3 a\n+line 46 a\n")
    got, statuses = _replayed(diff, {"g.txt": b"return x;\n"})
    assert (got, statuses) == ({"g.txt": b"line 3 a\nline 46 a\n"}, [Status.APPLIED])
    drifted = b"return x;\nreturn x;\nreturn x;\n"
    got, statuses = _replayed(diff, {"g.txt": drifted})
    assert (got, statuses) == ({"g.txt": drifted}, [Status.AMBIGUOUS])


def test_a_file_a_copy_is_made_of_keeps_what_the_copy_needs(tmp_path: Path) -> None:
    """QA s45 helper-139 #10 (older): ``git diff -M -B`` of a rename of a to b with new
    content at a writes "a rewritten" and "copy from a / copy to b". No copy is replayed
    (``diff-copy``), and a was rewritten: what b should hold was nowhere. Now a is held."""
    repo = tmp_path / "repo"
    repo.mkdir()
    old = "".join(f"A line {n} with text enough for rename detection\n" for n in range(40))
    new = "".join(f"B line {n} with text enough for rename detection\n" for n in range(40))
    (repo / "a").write_text(old)
    subprocess.run(["git", "init", "-q"], cwd=repo, check=True)
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    subprocess.run(["git", "-c", "user.name=a", "-c", "user.email=a@b", "commit", "-qm", "a"],
                   cwd=repo, check=True)
    (repo / "b").write_text(old)
    (repo / "a").write_text(new)
    subprocess.run(["git", "add", "-A"], cwd=repo, check=True)
    diff = subprocess.run(["git", "diff", "--cached", "-M", "-B"], cwd=repo, check=True,
                          capture_output=True, text=True).stdout
    assert "copy from a" in diff
    got, statuses = _replayed(diff, {"a": old.encode()})
    assert got == {"a": old.encode()}
    assert Status.APPLIED not in statuses
