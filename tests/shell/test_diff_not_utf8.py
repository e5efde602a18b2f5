"""A diff file some of whose files' changes are not UTF-8 text (QA s44 helper-134 M5).

``git diff`` writes a Latin-1 source (no NUL byte: text to git) as text hunks. The whole
diff was refused (``[encoding]``), the UTF-8 files' changes with it, where ``git apply``
applies both. Now each such file's section is left out, said with its file and line
(``diff-not-utf8``), and the rest is reviewed; a byte outside every file's diff still
refuses the whole, and no other format is read so. No undecodable byte reaches an
operation, a message or the raw view.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from reviewtui.core.errors import SessionFormatError
from reviewtui.core.model.records import Edit, FileBlock, FullFile
from reviewtui.shell.loader import load_session
from reviewtui.shell.review import Review

LATIN1 = (b"diff --git a/legacy.c b/legacy.c\nindex 1111111..2222222 100644\n"
          b"--- a/legacy.c\n+++ b/legacy.c\n@@ -1,2 +1,2 @@\n /* caf\xe9 */\n-int a;\n+int b;\n")
UTF8 = (b"diff --git a/app.py b/app.py\nindex 3333333..4444444 100644\n--- a/app.py\n"
        b"+++ b/app.py\n@@ -1 +1 @@\n-x = 1\n+x = '\xc3\xa9'\n")


def _project(tmp_path: Path, diff: bytes) -> tuple[Path, Path]:
    root = tmp_path / "root"
    root.mkdir()
    (root / "legacy.c").write_bytes(b"/* caf\xe9 */\nint a;\n")
    (root / "app.py").write_text("x = 1\n")
    (tmp_path / "x.diff").write_bytes(diff)
    return root, tmp_path / "x.diff"


def _texts(session_file: Path) -> list[str]:
    """Every path and line of every operation, and every problem's message."""
    turns = load_session(session_file).session.turns
    out = [p.message for turn in turns for p in turn.reply.problems]
    for turn in turns:
        for block in turn.reply.blocks:
            for op in block.ops if isinstance(block, FileBlock) else ():
                out.append(op.path)
                if isinstance(op, Edit):
                    out.extend((*op.search_lines, *op.replace_lines))
                elif isinstance(op, FullFile):
                    out.extend(op.lines)
    return out


@pytest.mark.parametrize("order", ["latin1-first", "utf8-first"])
def test_the_utf8_files_change_applies_and_the_other_is_said(tmp_path: Path,
                                                             order: str) -> None:
    diff = LATIN1 + UTF8 if order == "latin1-first" else UTF8 + LATIN1
    root, session = _project(tmp_path, diff)
    done = subprocess.run([sys.executable, "-m", "reviewtui", "apply", "--yes", "--root",
                           str(root), str(session)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 1, done.stderr  # a part of the session was not read
    assert (root / "app.py").read_text() == "x = '\u00e9'\n"
    assert (root / "legacy.c").read_bytes() == b"/* caf\xe9 */\nint a;\n"  # untouched
    line = 6 if order == "latin1-first" else 13
    assert (f"diff-not-utf8 error the change to 'legacy.c' is not UTF-8 text (byte 0xE9 at "
            f"line {line})") in done.stdout
    assert "Traceback" not in done.stderr


def test_nothing_undecodable_reaches_an_operation_or_a_message(tmp_path: Path) -> None:
    """Every text read is UTF-8 (would encode); a file's name that is not refuses the
    whole diff, named with ``\\xNN``."""
    _, session = _project(tmp_path, LATIN1 + UTF8)
    for text in _texts(session):
        text.encode("utf-8")  # raises on a lone surrogate
    named = (b"diff --git a/caf\xe9.c b/caf\xe9.c\n--- a/caf\xe9.c\n+++ b/caf\xe9.c\n"
             b"@@ -1 +1 @@\n-a\n+b\n")
    (tmp_path / "named").mkdir()
    _, session = _project(tmp_path / "named", named + UTF8)
    with pytest.raises(SessionFormatError) as raised:
        load_session(session)
    assert "byte 0xE9 in the name of a file ('caf\\xe9.c')" in raised.value.message
    # (a rename to such a name: the name said is that one, not the old one)
    renamed = b"diff --git a/a b/caf\xe9\nsimilarity index 100%\nrename from a\nrename to caf\xe9\n"
    (tmp_path / "renamed").mkdir()
    _, session = _project(tmp_path / "renamed", renamed + UTF8)
    with pytest.raises(SessionFormatError) as raised:
        load_session(session)
    assert "in the name of a file ('caf\\xe9')" in raised.value.message


def test_a_later_commits_change_to_that_file_is_held(tmp_path: Path) -> None:
    """QA s45 helper-139 #4: mail 1's change to f.txt was left out and mail 2's applied,
    making a file no commit had. The file left out is held, its later changes with it."""
    def mail(n: int, body: bytes) -> bytes:
        return (b"From 000000000000000000000000000000000000000%d Mon Sep 17 00:00:00 2001\n"
                b"From: A <a@b>\nSubject: [PATCH] step %d\n\n---\n" % (n, n) + body)

    first = (b"diff --git a/f.txt b/f.txt\n--- a/f.txt\n+++ b/f.txt\n@@ -1,2 +1,2 @@\n"
             b" caf\xe9\n-one\n+two\n")
    second = (b"diff --git a/f.txt b/f.txt\n--- a/f.txt\n+++ b/f.txt\n@@ -2 +2 @@\n"
              b"-two\n+three\n")
    root, session = _project(tmp_path, mail(1, first + UTF8) + mail(2, second))
    (root / "f.txt").write_bytes(b"caf\xe9\none\n")
    done = subprocess.run([sys.executable, "-m", "reviewtui", "apply", "--yes", "--root",
                           str(root), str(session)], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 1, done.stderr
    assert (root / "f.txt").read_bytes() == b"caf\xe9\none\n"  # neither change
    assert (root / "app.py").read_text() == "x = '\u00e9'\n"
    assert "diff-not-utf8 error the change to 'f.txt' is not UTF-8 text" in done.stdout
    # A later rename of it is held too (QA s45 helper-140 F3: read as applying, exported).
    renamed = mail(3, b"diff --git a/f.txt b/g.txt\nsimilarity index 100%\n"
                      b"rename from f.txt\nrename to g.txt\n")
    session.write_bytes(session.read_bytes() + renamed)
    done = subprocess.run([sys.executable, "-m", "reviewtui", "check", "--root", str(root),
                           str(session)], capture_output=True, text=True, check=False)
    assert "the change to 'g.txt' follows one that is not UTF-8 text or not read" in done.stdout
    assert ":mv f.txt g.txt: applied" not in done.stdout


def test_a_byte_outside_every_files_diff_still_refuses_the_whole(tmp_path: Path) -> None:
    mail = (b"From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 00:00:00 2001\n"
            b"From: A <a@b>\nSubject: [PATCH] caf\xe9\n\n---\n" + UTF8)
    _, session = _project(tmp_path, mail)
    with pytest.raises(SessionFormatError) as raised:
        load_session(session)
    assert (raised.value.rule, raised.value.line) == ("encoding", 3)
    assert "byte 0xE9 outside any file's diff" in raised.value.message


def test_other_formats_are_not_read_so(tmp_path: Path) -> None:
    session = tmp_path / "s.md"
    session.write_bytes(b"## Turn 1\n--- File: a.py ---\n<<<<<<< SEARCH\nx\xe9\n=======\n"
                        b"y\n>>>>>>> REPLACE\n")
    with pytest.raises(SessionFormatError) as raised:
        load_session(session)
    assert (raised.value.rule, raised.value.line) == ("encoding", 4)
    _, diff = _project(tmp_path, LATIN1 + UTF8)
    with pytest.raises(SessionFormatError) as raised:
        load_session(diff, format="fileops")
    assert raised.value.rule == "encoding"


def test_the_raw_view_shows_the_byte_as_a_replacement_character(tmp_path: Path) -> None:
    root, session = _project(tmp_path, LATIN1 + UTF8)
    with Review.open(session, root, persist=False) as review:
        lines = review.session_lines
    assert lines[5] == " /* caf\ufffd */"
