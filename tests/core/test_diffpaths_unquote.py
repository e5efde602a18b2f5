"""Git's quoted paths name the bytes their escapes spell, and two different names never
become one (QA pass s31: a byte that is not UTF-8 was replaced by U+FFFD, so a diff
deleting ``x\\377.txt`` deleted ``x<U+FFFD>.txt``, a file it never named)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

from hypothesis import given
from hypothesis import strategies as st

from reviewtui.core.importers.diffpaths import unquote


def _quoted(name: bytes) -> str:
    """``name`` as git quotes it: printable ASCII as is, other bytes as octal escapes."""
    escapes = {7: "\\a", 8: "\\b", 9: "\\t", 10: "\\n", 11: "\\v", 12: "\\f", 13: "\\r",
               34: '\\"', 92: "\\\\"}
    return '"' + "".join(escapes.get(b) or (chr(b) if 32 <= b < 127 else f"\\{b:03o}")
                         for b in name) + '"'


@given(st.binary(min_size=1, max_size=12))
def test_a_quoted_name_is_the_bytes_it_spells(name: bytes) -> None:
    assert os.fsencode(unquote(_quoted(name))) == name


@given(st.binary(min_size=1, max_size=8), st.binary(min_size=1, max_size=8))
def test_two_names_stay_two(a: bytes, b: bytes) -> None:
    assert (unquote(_quoted(a)) == unquote(_quoted(b))) is (a == b)


def test_an_escape_git_does_not_write_stays_as_written() -> None:
    assert unquote('"a\\qb"') == "a\\qb"
    assert unquote('"a\\éb"') == "a\\éb"
    assert unquote('"caf\\303\\251.txt"') == "café.txt"
    assert unquote("plain.txt") == "plain.txt"


def test_a_diff_deletes_the_file_it_names_and_no_other(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    named, other = os.fsdecode(b"x\xff.txt"), "x\ufffd.txt"
    (root / named).write_text("same\n")
    (root / other).write_text("same\n")
    diff = tmp_path / "delete.diff"
    diff.write_text('diff --git "a/x\\377.txt" "b/x\\377.txt"\ndeleted file mode 100644\n'
                    'index 1275430..0000000\n--- "a/x\\377.txt"\n+++ /dev/null\n'
                    "@@ -1 +0,0 @@\n-same\n")
    done = subprocess.run([sys.executable, "-m", "reviewtui", "apply", str(diff), "--format",
                           "unified", "--yes", "--root", str(root)],
                          capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert sorted(os.listdir(root)) == [other]
