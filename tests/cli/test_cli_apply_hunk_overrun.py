"""``check`` and ``apply`` on a hunk header that counts too few lines, and on a diff holding
a ``diff --git`` line alone (QA qa125w).

Before: the lines after the counted end were dropped, "1 of 1 operation applied", exit 0,
and ``m.py`` written without its ``-return a``/``+return a + b`` pair; a lone header gave
"0 of 0", exit 0. Now both are said (file, line, rule), exit 1, and nothing is written.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewtui.cli import EXIT_FINDINGS, EXIT_OK, main

OLD = "def f():\n    a = 1\n    return a\n"
SHORT = """\
diff --git a/m.py b/m.py
--- a/m.py
+++ b/m.py
@@ -1,2 +1,3 @@
 def f():
     a = 1
+    b = 2
-    return a
+    return a + b
"""
QA = """\
diff --git a/m.py b/m.py
--- a/m.py
+++ b/m.py
@@ -1,3 +1,4 @@
 def f():
     a = 1
+    b = 2
     return a
-    return a
+    return a + b
"""


def _run(tmp_path: Path, command: str, diff: str, *extra: str) -> tuple[int, Path]:
    root = tmp_path / "root"
    root.mkdir()
    (root / "m.py").write_text(OLD)
    (tmp_path / "d.diff").write_text(diff)
    args = [command, "--root", str(root), *extra, str(tmp_path / "d.diff")]
    return main([*args[:1], "--yes", *args[1:]] if command == "apply" else args), root


@pytest.mark.parametrize(("diff", "line"), [(SHORT, 8), (QA, 9)])
@pytest.mark.parametrize("command", ["check", "apply"])
def test_a_hunk_counted_short_is_said_and_nothing_is_written(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str, diff: str,
        line: int) -> None:
    """(QA's diff was written "b = 2" alone, its counted part, exit 0.)"""
    code, root = _run(tmp_path, command, diff)
    out = capsys.readouterr().out
    assert code == EXIT_FINDINGS
    assert f"d.diff:{line}: diff-hunk-overrun error" in out
    assert "the hunk at line 4" in out
    assert "'m.py'" in out
    assert (root / "m.py").read_bytes() == OLD.encode()


def test_partial_does_not_write_the_counted_part_either(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, root = _run(tmp_path, "apply", QA, "--partial")
    capsys.readouterr()
    assert code == EXIT_FINDINGS
    assert (root / "m.py").read_bytes() == OLD.encode()  # (not "b = 2" alone)


def test_the_same_hunk_counted_right_applies(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    code, root = _run(tmp_path, "apply", SHORT.replace("-1,2 +1,3", "-1,3 +1,4"))
    capsys.readouterr()
    assert code == EXIT_OK
    assert (root / "m.py").read_bytes() == b"def f():\n    a = 1\n    b = 2\n    return a + b\n"


@pytest.mark.parametrize("command", ["check", "apply"])
def test_a_lone_git_header_is_said_and_fails_the_exit_code(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], command: str) -> None:
    code, root = _run(tmp_path, command, "diff --git a/m.py b/m.py\n")
    out = capsys.readouterr().out
    assert code == EXIT_FINDINGS
    assert "d.diff:1: diff-empty-section error" in out
    assert "'m.py'" in out
    assert (root / "m.py").read_bytes() == OLD.encode()


RIGHT = """\
diff --git a/m.py b/m.py
--- a/m.py
+++ b/m.py
@@ -1,3 +1,4 @@
 def f():
     a = 1
-    return a
+    b = 2
+    return a + b
"""


@pytest.mark.parametrize("prose", ["\n---\n\nNotes.\n", "\n- first point\n- second\n",
                                   "\n+ added in 2.0\n"])
def test_prose_after_a_blank_line_is_no_overrun(tmp_path: Path,
                                                capsys: pytest.CaptureFixture[str],
                                                prose: str) -> None:
    """QA s53 helper-225: a Markdown rule or list after a diff counted right was refused
    as diff-hunk-overrun; git apply applies it, and so does this."""
    code, root = _run(tmp_path, "apply", RIGHT + prose)
    assert code == EXIT_OK, capsys.readouterr().out
    assert (root / "m.py").read_text() == "def f():\n    a = 1\n    b = 2\n    return a + b\n"


@pytest.mark.parametrize("rest", ["- * old doc\n+ * new doc\n", "----\n+---\n"])
def test_a_miscounted_hunk_after_a_blank_line_is_still_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], rest: str) -> None:
    """QA s53 helper-226: the prose exception took a Javadoc line (`- * doc`) or a removed
    rule (`----`) after an empty context line for notes: the file was written with the
    first change alone, exit 0."""
    diff = ("diff --git a/m.py b/m.py\n--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n"
            " def f():\n-    a = 1\n+    a = 2\n\n" + rest)
    code, root = _run(tmp_path, "apply", diff)
    assert code == EXIT_FINDINGS
    assert "diff-hunk-overrun error" in capsys.readouterr().out
    assert (root / "m.py").read_bytes() == OLD.encode()
