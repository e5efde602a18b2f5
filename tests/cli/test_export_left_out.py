"""An export that is the result itself (patch, fileops, series) never drops an operation
silently: each it leaves out because it fails is named on stderr, as ``apply`` names it,
and the export exits 1 (helper-103 found the series export leaving refused changes out
with exit 0). The reports (markdown, json, context) list every operation and exit 0."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.core.engine import Decision
from reviewtui.shell.review import Review

SESSION = """## Turn 1
> two edits

--- File: f.txt ---
<<<<<<< SEARCH
b
=======
B
>>>>>>> REPLACE

--- File: f.txt ---
<<<<<<< SEARCH
not in the file
=======
Q
>>>>>>> REPLACE

## Turn 2
> one more

--- File: f.txt ---
<<<<<<< SEARCH
B
c
=======
B
C
>>>>>>> REPLACE
"""


def project(tmp_path: Path) -> tuple[Path, Path]:
    root = tmp_path / "root"
    root.mkdir()
    (root / "f.txt").write_text("a\nb\nc\n")
    session = tmp_path / "s.md"
    session.write_text(SESSION)
    return session, root


@pytest.mark.parametrize("format", ["patch", "fileops"])
def test_a_result_format_names_the_failed_operation_and_exits_1(
        format: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session, root = project(tmp_path)
    code = main(["export", str(session), "--root", str(root), "--format", format])
    out, err = capsys.readouterr()
    assert code == 1
    assert err.splitlines() == [
        f"{session}:12: turn 1 f.txt · Edit 1: not_found - SEARCH not found in f.txt, and "
        "nothing in the file is similar",
        "reviewtui: 1 change left out of the export (named above)"]
    assert "not in the file" not in out  # the failed edit is not in the result
    assert ("+B" in out and "+C" in out) if format == "patch" else "C\n" in out


@pytest.mark.parametrize("format", ["markdown", "json", "context"])
def test_a_report_lists_it_and_exits_0(format: str, tmp_path: Path,
                                       capsys: pytest.CaptureFixture[str]) -> None:
    session, root = project(tmp_path)
    assert main(["export", str(session), "--root", str(root), "--format", format]) == 0
    out, err = capsys.readouterr()
    assert "not_found" in out or "not found" in out
    assert "left out" not in err


def test_with_a_review_a_failed_operation_left_pending_is_not_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The reviewer's decisions make the result: turn 1's failed edit, left pending, is
    their business (the reports list it), so the patch of their accept exits 0."""
    session, root = project(tmp_path)
    state = tmp_path / "review.json"
    with Review.open(session, root, state_path=state) as review:
        review.decide((1, 0), Decision.accept())
    code = main(["export", str(session), "--root", str(root), "--state", str(state),
                 "--format", "patch"])
    out, err = capsys.readouterr()
    assert code == 0, err
    assert "left out" not in err
    assert "+B" in out
    assert "+C" not in out


def test_a_saved_accept_that_does_not_land_is_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Turn 2's edit needs turn 1's: accepted, then turn 1 rejected, it does not land; it
    went unsaid with exit 0 (QA s36 helper-104). The opening took it back then; on the
    file as the review left it, it stays accepted and not landing since s43, as the
    review left it: named as not found."""
    session, root = project(tmp_path)
    state = tmp_path / "review.json"
    with Review.open(session, root, state_path=state) as review:
        review.decide((1, 0), Decision.accept())
        review.decide((2, 0), Decision.accept())
        review.decide((1, 0), Decision.reject())
    code = main(["export", str(session), "--root", str(root), "--state", str(state),
                 "--format", "patch"])
    out, err = capsys.readouterr()
    assert code == 1
    assert err.splitlines()[0].startswith(f"{session}:22: turn 2 f.txt · Edit 1: not_found")
    assert err.splitlines()[-1] == "reviewtui: 1 change left out of the export (named above)"
    assert "+C" not in out


def test_a_saved_accept_the_opening_takes_back_is_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """An accept recorded with the disk pinned before its turn, its file changed while
    the review was closed: the export's opening takes it back and names it (QA s36
    helper-104: such accepts went unsaid with exit 0)."""
    session, root = project(tmp_path)
    state = tmp_path / "review.json"
    with Review.open(session, root, state_path=state) as review:
        review.restore(0)
        review.decide((1, 0), Decision.accept())  # recorded, not written
    (root / "f.txt").write_text("a\nb\nc\nd\n")
    code = main(["export", str(session), "--root", str(root), "--state", str(state),
                 "--format", "patch"])
    _out, err = capsys.readouterr()
    assert code == 1
    assert any("turn 1 f.txt · Edit 1: the saved accept does not land" in line
               and line.endswith(": taken back") for line in err.splitlines()), err


def test_accepts_taken_back_on_a_root_put_back_to_the_original_are_named(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``--root`` on a fresh copy of the original: the review's files read as put back
    outside, its accepts taken back; the export said nothing and exited 0. (The state is
    this machine's, sealed: read on another root as its own; tests/hostile/
    test_hostile_state_foreign.py tries one that is not.)"""
    session, root = project(tmp_path)
    state = tmp_path / "review.json"
    with Review.open(session, root, state_path=state) as review:
        review.decide((1, 0), Decision.accept())
    fresh = tmp_path / "fresh"
    fresh.mkdir()
    (fresh / "f.txt").write_text("a\nb\nc\n")
    code = main(["export", str(session), "--root", str(fresh), "--state", str(state),
                 "--format", "patch"])
    err = capsys.readouterr().err
    assert code == 1
    assert (f"{session}:5: turn 1 f.txt · Edit 1: put back outside the workbench to what the "
            "session started from; its accept was taken back") in err
    assert (fresh / "f.txt").read_text() == "a\nb\nc\n"  # an export writes nothing


def test_a_near_match_left_out_is_named(tmp_path: Path,
                                        capsys: pytest.CaptureFixture[str]) -> None:
    """``apply --yes`` leaves a near match out and says so: the export did neither."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("def f():\n    x = 1\n    return x\n")
    session = tmp_path / "s.md"
    session.write_text("## Turn 1\n> near\n\n--- File: a.py ---\n<<<<<<< SEARCH\n"
                       "def f():\n    x  =  1\n    return x\n=======\ndef f():\n"
                       "    x = 2\n    return x\n>>>>>>> REPLACE\n")
    code = main(["export", str(session), "--root", str(root), "--format", "patch"])
    out, err = capsys.readouterr()
    if "needs_review" not in err:
        pytest.fail(f"the fixture is no near match any more: {err!r}")
    assert code == 1
    assert f"{session}:5: turn 1 a.py · Edit 1: needs_review" in err
    assert "x = 2" not in out


def test_control_characters_of_a_left_out_operation_are_spelt_out(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """export's stdout is data, byte for byte; its stderr quotes outside text (a path):
    spelt out, as check and apply spell it (QA s36 helper-104: an OSC title sequence
    reached the terminal)."""
    root = tmp_path / "root"
    root.mkdir()
    session = tmp_path / "s.md"
    session.write_text("## Turn 1\n> odd\n\n--- File: t\x1b]0;OWNED\x07.py ---\n"
                       "<<<<<<< SEARCH\nnothing\n=======\nsomething\n>>>>>>> REPLACE\n")
    assert main(["export", str(session), "--root", str(root), "--format", "patch"]) == 1
    err = capsys.readouterr().err
    assert "\x1b" not in err
    assert "\x07" not in err
    assert "t\\u001b]0;OWNED\\u0007.py" in err


def test_what_the_opening_finds_changed_on_disk_is_said(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The export follows the review's decisions, which the disk may no longer hold: a
    file the review wrote, deleted since (``git stash -u``), went unsaid (QA s36
    helper-105)."""
    session, root = project(tmp_path)
    state = tmp_path / "review.json"
    with Review.open(session, root, state_path=state) as review:
        review.decide((1, 0), Decision.accept())
    (root / "f.txt").unlink()
    main(["export", str(session), "--root", str(root), "--state", str(state),
          "--format", "patch"])
    err = capsys.readouterr().err
    assert "note: f.txt: f.txt was deleted outside the workbench" in err
    assert not (root / "f.txt").exists()  # an export writes nothing


def test_an_export_to_a_terminal_spells_out_control_characters(tmp_path: Path) -> None:
    """A report printed to a terminal ran the escape sequences of a request (QA s36
    helper-106: the title changed, the screen cleared); into a pipe it stays byte for
    byte, for the tool reading it."""
    import os
    import pty
    import subprocess
    import sys

    root = tmp_path / "root"
    root.mkdir()
    (root / "f.txt").write_text("a\n")
    session = tmp_path / "s.md"
    session.write_text("## Turn 1\n> clear \x1b[2J the screen\n\n--- File: f.txt ---\n"
                       "<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n")
    args = [sys.executable, "-m", "reviewtui", "export", str(session), "--root", str(root),
            "--format", "markdown"]
    master, slave = pty.openpty()
    try:
        done = subprocess.run(args, stdout=slave, stderr=subprocess.PIPE, check=False,
                              timeout=60)
        os.close(slave)
        shown = b""
        while True:
            try:
                chunk = os.read(master, 65536)
            except OSError:  # (the other end closed)
                break
            if not chunk:
                break
            shown += chunk
    finally:
        os.close(master)
    assert done.returncode == 0, done.stderr
    assert b"\x1b" not in shown
    assert b"clear \\u001b[2J the screen" in shown
    piped = subprocess.run(args, capture_output=True, check=False, timeout=60)
    assert b"clear \x1b[2J the screen" in piped.stdout


def test_output_dash_is_standard_output(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """``-o -`` wrote a file named "-" (QA s36 helper-107)."""
    session, root = project(tmp_path)
    monkeypatch.chdir(tmp_path)
    main(["export", str(session), "--root", str(root), "--format", "markdown", "-o", "-"])
    assert "# Review report" in capsys.readouterr().out
    assert not (tmp_path / "-").exists()


def test_a_file_fileops_replies_cannot_carry_is_named_and_exits_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A change whose lines read as an edit's markers in a reply: the fileops export said
    so only in its own notes and exited 0, its replies applying back to another result
    (QA s53 helper-221). Named on stderr, counted, exit 1; a plain file beside it is not
    named."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text("l1\nl2\n")
    (root / "b.txt").write_text("b\n")
    diff = tmp_path / "s.diff"
    diff.write_text("diff --git a/a.txt b/a.txt\n--- a/a.txt\n+++ b/a.txt\n@@ -1,2 +1,5 @@\n"
                    " l1\n+<<<<<<< SEARCH\n+=======\n+>>>>>>> REPLACE\n l2\n"
                    "diff --git a/b.txt b/b.txt\n--- a/b.txt\n+++ b/b.txt\n@@ -1 +1 @@\n"
                    "-b\n+B\n")
    out = tmp_path / "replies.md"
    assert main(["export", str(diff), "--root", str(root), "--format", "fileops",
                 "--output", str(out)]) == 1
    err = capsys.readouterr().err
    assert "turn 1: a.txt: its content cannot be re-expressed exactly" in err
    assert "b.txt" not in err
    assert "- turn 1: a.txt could not be re-expressed exactly" in out.read_text()
    assert main(["export", str(diff), "--root", str(root), "--format", "patch",
                 "--output", str(tmp_path / "p.diff")]) == 0  # (a patch carries it)
