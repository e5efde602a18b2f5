"""README, "Nothing is lost": a file is never removed before whatever replaces it (a move's
destination) is written, and a move is written whole or not at all, taken back too.

An accepted ``:mv a.py b.py`` is on disk; the user makes a new ``a.py`` (an editor's buffer
saved again). Restoring checkpoint 0 left the user's ``a.py`` in conflict and removed
``b.py``: the moved file's content was on disk nowhere (QA s47 helper-147 H1; ``u`` and
``n`` did the same, tests/shell/test_move_taken_back_held.py)."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewtui.cli import main

SESSION = ("## Turn 1\n> move\n\n```console\n:mv a.py b.py\n```\n\n"
           "### Changed files:\n- b.py (moved from a.py)\n")


def test_restore_never_removes_a_moved_file_whose_old_path_the_user_took(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("precious content\n")
    session = tmp_path / "s.md"
    session.write_text(SESSION)
    common = [str(session), "--root", str(root), "--state", str(tmp_path / "st.json")]
    assert main(["apply", *common, "--yes"]) == 0
    (root / "a.py").write_text("my new file\n")
    capsys.readouterr()
    main(["restore", *common, "--checkpoint", "0"])  # the preview (nothing to write: 1)
    preview = capsys.readouterr()
    assert "b.py: would remove" not in preview.out
    assert "b.py: would be left in conflict - waits for a.py" in preview.out, preview.out
    assert main(["restore", *common, "--checkpoint", "0", "--yes"]) == 1  # conflicts kept
    assert "0 removed" in capsys.readouterr().out
    assert (root / "b.py").read_text() == "precious content\n"
    assert (root / "a.py").read_text() == "my new file\n"
    # The user's file goes: the move back is written, whole.
    (root / "a.py").unlink()
    assert main(["restore", *common, "--checkpoint", "0", "--yes"]) == 0
    assert sorted(p.name for p in root.iterdir()) == ["a.py"]
    assert (root / "a.py").read_text() == "precious content\n"


SWAP = ("## Turn 1\n> swap\n\n```console\n:mv a.py tmp.py\n:mv b.py a.py\n:mv tmp.py b.py\n"
        "```\n\n### Changed files:\n- a.py\n- b.py\n")
TWICE = ("## Turn 1\n> m\n\n```console\n:mv a.py b.py\n```\n\n### Changed files:\n- b.py\n\n"
         "## Turn 2\n> n\n\n--- File: a.py ---\n```python\nsecond = 2\n```\n\n"
         "### Changed files:\n- a.py (new)\n\n"
         "## Turn 3\n> m2\n\n```console\n:mv a.py c.py\n```\n\n### Changed files:\n- c.py\n")


@pytest.mark.parametrize(("session_text", "files", "user", "kept"), [
    (SWAP, {"a.py": "A content\n", "b.py": "B content\n"}, "B content\nuser edit\n",
     {"a.py": "B content\nuser edit\n", "b.py": "A content\n"}),
    (TWICE, {"a.py": "precious = 1\n"}, "mine = 3\n",
     {"a.py": "mine = 3\n", "b.py": "precious = 1\n", "c.py": "second = 2\n"}),
], ids=["swap", "moved-out-twice"])
def test_restore_keeps_a_swapped_or_twice_moved_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], session_text: str,
        files: dict[str, str], user: str, kept: dict[str, str]) -> None:
    """QA s47 helper-154 H4 (a swap through tmp.py: b.py was rewritten with B's file,
    A's on disk nowhere) and H5 (b.py, the original a.py, removed): restore 0 after the
    user's change to a.py holds b.py, "waits for a.py"."""
    root = tmp_path / "root"
    root.mkdir()
    for name, text in files.items():
        (root / name).write_text(text)
    session = tmp_path / "s.md"
    session.write_text(session_text)
    common = [str(session), "--root", str(root), "--state", str(tmp_path / "st.json")]
    assert main(["apply", *common, "--yes"]) == 0
    (root / "a.py").write_text(user)
    capsys.readouterr()
    main(["restore", *common, "--checkpoint", "0"])
    assert "b.py: would be left in conflict - waits for a.py" in capsys.readouterr().out
    assert main(["restore", *common, "--checkpoint", "0", "--yes"]) == 1  # conflicts kept
    out = capsys.readouterr().out
    assert "0 files written, 0 removed" in out, out
    assert {p.name: p.read_text() for p in root.iterdir()} == kept
