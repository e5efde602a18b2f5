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
        "reviewtui: 1 operation left out of the export: it fails (as 'apply --yes' says, "
        "and leaves it out too)"]
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
