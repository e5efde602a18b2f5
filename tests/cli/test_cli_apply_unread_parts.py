"""``apply --yes`` never reports success for a session it could not read whole.

A reply cut off inside an edit, a diff line where a hunk header belongs that is not one, a
copy (no such operation): before, ``apply`` wrote what it could read, printed "N of N
operations applied" and exited 0, and the rest was silently not written. Now each such
part is printed as ``check`` prints it, the summary counts it, the exit code is 1, and a
diff's file whose patch could not be read to its end is not written at all.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewtui.cli import EXIT_FINDINGS, EXIT_OK, main

CUT_OFF = """\
## Turn 1

--- File: a.py ---
<<<<<<< SEARCH
x = 1
=======
x = 3
>>>>>>> REPLACE

<<<<<<< SEARCH
y = 2
=======
y = 4
"""

BAD_HUNK = """\
diff --git a/a.txt b/a.txt
--- a/a.txt
+++ b/a.txt
@@ -1,2 +1,2 @@
-a
+b
 keep
@@ garbled @@
-x
+y
diff --git a/d.txt b/d.txt
--- a/d.txt
+++ b/d.txt
@@ -1 +1 @@
-d
+e
"""

COPY = """\
diff --git a/a.txt b/c.txt
similarity index 100%
copy from a.txt
copy to c.txt
diff --git a/d.txt b/d.txt
--- a/d.txt
+++ b/d.txt
@@ -1 +1 @@
-d
+e
"""


def _apply(tmp_path: Path, session: str, name: str, *extra: str) -> tuple[int, Path]:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("x = 1\ny = 2\n")
    (root / "a.txt").write_text("a\nkeep\nx\n")
    (root / "d.txt").write_text("d\n")
    (tmp_path / name).write_text(session)
    code = main(["apply", "--yes", "--root", str(root), *extra, str(tmp_path / name)])
    return code, root


def test_a_reply_cut_off_inside_an_edit_is_said_and_fails_the_exit_code(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, root = _apply(tmp_path, CUT_OFF, "s.md")
    out = capsys.readouterr().out
    assert code == EXIT_FINDINGS
    assert "s.md:10: unterminated-edit error" in out
    assert "1 part of the session not read as operations (above)" in out
    # The whole edit before it is its own operation (File Ops edits stand alone).
    assert (root / "a.py").read_text() == "x = 3\ny = 2\n"


def test_a_file_whose_diff_cannot_be_read_to_its_end_is_not_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, root = _apply(tmp_path, BAD_HUNK, "d.diff", "--format", "unified")
    out = capsys.readouterr().out
    assert code == EXIT_FINDINGS
    assert "d.diff:8: diff-bad-hunk error" in out
    assert "part of the diff of a.txt cannot be read" in out
    assert (root / "a.txt").read_text() == "a\nkeep\nx\n"  # not its first hunk alone
    assert (root / "d.txt").read_text() == "e\n"  # the other file's patch is whole


def test_partial_writes_what_could_be_read_and_still_fails_the_exit_code(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, root = _apply(tmp_path, BAD_HUNK, "d.diff", "--format", "unified", "--partial")
    capsys.readouterr()
    assert code == EXIT_FINDINGS
    assert (root / "a.txt").read_text() == "b\nkeep\nx\n"


def test_a_copy_is_said_in_the_text_and_the_json(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, root = _apply(tmp_path, COPY, "d.diff", "--format", "unified", "--json")
    doc = json.loads(capsys.readouterr().out)
    assert code == EXIT_FINDINGS
    (turn,) = doc["turns"]
    assert [(f["rule"], f["severity"]) for f in turn["findings"]] == [("diff-copy", "error")]
    assert not (root / "c.txt").exists()
    assert (root / "d.txt").read_text() == "e\n"


def test_a_session_read_whole_still_exits_0(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    whole = CUT_OFF + ">>>>>>> REPLACE\n\n### Changed files:\n- a.py\n"
    code, root = _apply(tmp_path, whole, "s.md")
    out = capsys.readouterr().out
    assert code == EXIT_OK
    assert "not read as operations" not in out
    assert (root / "a.py").read_text() == "x = 3\ny = 4\n"


BETWEEN = "--- a/a.txt\n+++ b/a.txt\n@@ -1 +1 @@\n-a\n+b\n{gap}@@ -3 +3 @@\n-x\n+y\n"


def test_a_blank_line_between_two_hunks_does_not_lose_the_second(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """GNU patch wrote "b keep x" here with exit 0; git refuses the whole diff."""
    code, root = _apply(tmp_path, BETWEEN.format(gap="\n"), "d.diff", "--format", "unified")
    capsys.readouterr()
    assert code == EXIT_OK
    assert (root / "a.txt").read_text() == "b\nkeep\ny\n"


def test_a_hunk_after_prose_is_not_guessed_into_the_file_above(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, root = _apply(tmp_path, BETWEEN.format(gap="Now the other file:\n"), "d.diff",
                        "--format", "unified")
    out = capsys.readouterr().out
    assert code == EXIT_FINDINGS
    assert "d.diff:7: diff-orphan-hunk error" in out
    assert (root / "a.txt").read_text() == "a\nkeep\nx\n"
