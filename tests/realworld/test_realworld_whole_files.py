"""Issue 14: under drift, a file whose hunks do not all apply is not written by ``apply``.

Unified diffs, git ranges and apply_patch carry one patch per file; ``git apply`` refuses
the whole file when one hunk fails. ``apply --yes`` holds back every operation of such a
file (exit 1, the file named) unless ``--partial`` asks for the hunks that apply. Other
files are written; File Ops replies (separate edits, each its own anchor) are not judged
this way.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.core.engine.decisions import OpKey
from reviewtui.core.importers.unified import import_unified
from reviewtui.core.review.whole_files import partial_files

X = "a\nb\nc\nd\ne\nf\ng\nh\ni\nj\nk\nl\n"
UNIFIED = """\
--- a/x.txt
+++ b/x.txt
@@ -1,3 +1,3 @@
 a
-b
+B
 c
@@ -9,4 +9,4 @@
 i
-drifted away
+J
 k
 l
--- a/y.txt
+++ b/y.txt
@@ -1 +1 @@
-one
+ONE
"""
APPLY_PATCH = """\
*** Begin Patch
*** Update File: x.txt
@@
 a
-b
+B
 c
@@
 i
-drifted away
+J
 k
*** Update File: y.txt
@@
-one
+ONE
*** End Patch
"""
FILEOPS = """\
# Session: two edits

## Turn 1
> Change b and j.

--- File: x.txt ---
Edit 1
<<<<<<< SEARCH
b
=======
B
>>>>>>> REPLACE

Edit 2
<<<<<<< SEARCH
drifted away
=======
J
>>>>>>> REPLACE
"""


def project(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    (root / "x.txt").write_text(X)
    (root / "y.txt").write_text("one\n")
    return root


def apply(tmp_path: Path, root: Path, text: str, fmt: str, *extra: str) -> int:
    patch = tmp_path / "change.txt"
    patch.write_text(text)
    return main(["apply", str(patch), "--format", fmt, "--yes", "--root", str(root), *extra])


@pytest.mark.parametrize(("text", "fmt"), [(UNIFIED, "unified"), (APPLY_PATCH, "apply_patch")])
def test_a_half_applying_file_is_not_written(tmp_path: Path, text: str, fmt: str,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    root = project(tmp_path)
    assert apply(tmp_path, root, text, fmt) == 1
    out = capsys.readouterr().out
    assert (root / "x.txt").read_text() == X  # not a file half old, half new
    if fmt == "unified":
        assert (root / "y.txt").read_text() == "ONE\n"  # a whole patch of another file lands
    else:  # Codex stops at a patch's first failing section: the later ones it never wrote
        assert (root / "y.txt").read_text() == "one\n"
        assert "x.txt's (line 3) did not: it never wrote this one (rule codex-stopped)" in out
    assert "other operations of x.txt did not apply" in out
    assert "held back: file not whole" in out


def test_partial_writes_the_hunks_that_apply(tmp_path: Path,
                                             capsys: pytest.CaptureFixture[str]) -> None:
    root = project(tmp_path)
    assert apply(tmp_path, root, UNIFIED, "unified", "--partial") == 1
    assert (root / "x.txt").read_text() == X.replace("b\n", "B\n")
    assert (root / "y.txt").read_text() == "ONE\n"


def test_the_json_report_names_the_file(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    root = project(tmp_path)
    capsys.readouterr()
    assert apply(tmp_path, root, UNIFIED, "unified", "--json") == 1
    doc = json.loads(capsys.readouterr().out)
    assert doc["partial_files"] == ["x.txt"]
    assert doc["written"] == ["y.txt"]


def test_file_ops_edits_are_not_judged_as_one_patch(tmp_path: Path,
                                                    capsys: pytest.CaptureFixture[str]) -> None:
    root = project(tmp_path)
    assert apply(tmp_path, root, FILEOPS, "fileops") == 1
    assert (root / "x.txt").read_text() == X.replace("b\n", "B\n")


def test_later_turns_of_a_held_file_are_held_too() -> None:
    series = ("From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001\n"
              "Subject: [PATCH 1/2] one\n\n---\n" + UNIFIED +
              "From 2222222222222222222222222222222222222222 Mon Sep 17 00:00:00 2001\n"
              "Subject: [PATCH 2/2] two\n\n---\n"
              "--- a/x.txt\n+++ b/x.txt\n@@ -1,3 +1,3 @@\n a\n-B\n+BB\n c\n")
    session = import_unified(series, "s.patch")
    assert [t.index for t in session.turns] == [1, 2]
    failed: set[OpKey] = {(1, 1)}  # the drifted hunk
    wanted = {(1, 0), (1, 2), (2, 0)}
    assert partial_files(session, wanted, failed.__contains__) == {
        (1, 0): "x.txt", (2, 0): "x.txt"}
    # A rejected hunk is the reviewer's choice: nothing failed, nothing held.
    assert partial_files(session, wanted, lambda key: False) == {}


def test_a_held_file_moved_by_a_later_commit_is_held_at_its_new_path() -> None:
    """QA s44 helper-134 M1: c1's hunk of x.txt fails (drift), c2 renames x.txt to z.txt
    with a change. The rename and its hunk landed, z.txt a file no commit had (c2 without
    c1); without the rename c2 was held. Held at the new path too, and so is a later
    change there; y.txt, whole, is written."""
    series = ("From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001\n"
              "Subject: [PATCH 1/3] one\n\n---\n" + UNIFIED +
              "From 2222222222222222222222222222222222222222 Mon Sep 17 00:00:00 2001\n"
              "Subject: [PATCH 2/3] two\n\n---\n"
              "diff --git a/x.txt b/z.txt\nsimilarity index 90%\nrename from x.txt\n"
              "rename to z.txt\n--- a/x.txt\n+++ b/z.txt\n@@ -4,3 +4,3 @@\n d\n-e\n+E\n f\n"
              "From 3333333333333333333333333333333333333333 Mon Sep 17 00:00:00 2001\n"
              "Subject: [PATCH 3/3] three\n\n---\n"
              "--- a/z.txt\n+++ b/z.txt\n@@ -6,3 +6,3 @@\n f\n-g\n+G\n h\n")
    session = import_unified(series, "s.patch")
    keys = [(t.index, pos) for t in session.turns for pos in range(len(t.reply.ops))]
    failed: set[OpKey] = {(1, 1)}  # the drifted hunk
    wanted = set(keys) - failed
    held = partial_files(session, wanted, failed.__contains__)
    assert held == {key: ("x.txt" if key[0] == 1 else "z.txt") for key in keys
                    if key in wanted and key != (1, 2)}
