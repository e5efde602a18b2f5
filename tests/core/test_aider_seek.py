"""Aider's own matcher, as reviewtui reads it, and the blocks of an Aider history it
holds: a block Aider logged applied lands only where Aider's matcher puts it (QA s47
helper-149 H4: one Aider sent to another chat file, its named file taking it only with
trailing whitespace forgiven, was replayed on the named file, exit 0).

The port was compared with Aider 0.86's ``replace_most_similar_chunk`` on 77,000 random
blocks (/tmp/aider-venv, 2026-12-07; not part of the suite, which has no Aider): the same
place, or the same failure, every time."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.core.engine.aider_seek import aider_place, unwrapped

HEAD = "# aider chat started at 2026-12-07 09:12:03\n\n> Model: gpt-4o with diff edit format\n"


def test_exact_lines_first() -> None:
    assert aider_place(["a", "x", "b", "x"], ["x"], ["y"]) == (1, 2)


def test_the_same_leading_whitespace_missing_or_added_on_every_line() -> None:
    file = ["def f():", "    if a:", "        return 1"]
    assert aider_place(file, ["if a:", "    return 1"], ["if b:", "    return 2"]) == (1, 3)
    assert aider_place(file, ["      if a:", "          return 1"], ["      x"]) == (1, 3)
    # (more than the file has, and a REPLACE line with less: no common part to take off)
    assert aider_place(file, ["      if a:", "          return 1"], ["x"]) is None
    # Not by line: a re-indented block is not Aider's.
    assert aider_place(file, ["if a:", "  return 1"], ["x"]) is None


def test_no_trailing_whitespace_tabs_or_typography() -> None:
    assert aider_place(["x = 1  "], ["x = 1"], ["x = 2"]) is None
    assert aider_place(["\tx = 1"], ["    x = 1"], ["x = 2"]) == (0, 1)  # (uniform prefix)
    assert aider_place(["\tif a:", "\t\tb"], ["    if a:", "        b"], ["x"]) is None
    assert aider_place(["s = 'a'"], ["s = \u2018a\u2019"], ["x"]) is None


def test_a_blank_first_line_is_dropped_when_more_follow() -> None:
    assert aider_place(["a", "b", "c"], ["", "a", "b"], ["z"]) == (0, 2)
    assert aider_place(["a", "b"], ["", "a"], ["z"]) is None  # (two lines: not dropped)


def test_a_file_left_empty_is_a_failure_and_the_next_way_is_tried() -> None:
    assert aider_place(["x", "y"], ["x", "y"], []) is None
    # Emptied by the whole SEARCH, then found without its blank first line.
    assert aider_place(["", "a", "b"], ["", "a", "b"], []) == (1, 3)


def test_a_shorter_line_than_the_search_s_cuts_into_its_newline() -> None:
    """Aider measures the added prefix on lines holding their newline: a file line shorter
    than its SEARCH line gives a prefix of its own text, which differs from the others'."""
    assert aider_place([" }", " if a:"], ["    }", "  if a:"], [" y"]) is None


def test_elided_pieces_are_found_once_each_as_text() -> None:
    file = ["a = 1", "b = 2", "c = 3", "d = 4"]
    assert aider_place(file, ["a = 1", "...", "d = 4"], ["a = 10", "...", "d = 40"]) == (
        "a = 10", "b = 2", "c = 3", "d = 40")
    assert aider_place(file + ["a = 1"], ["a = 1", "...", "d = 4"],
                       ["a = 10", "...", "d = 40"]) is None  # (a piece found twice)
    assert aider_place(file, ["a = 1", "...", "d = 4"], ["a = 10", "d = 40"]) is None


def _history(blocks: str, log: str) -> str:
    return (HEAD + "> Added a.py to the chat.\n> Added b.py to the chat.\n\n#### go\n\n"
            + blocks + "\n> Tokens: 1 sent, 1 received.\n" + log)


def _block(path: str, search: str, replace: str) -> str:
    return (f"{path}\n```python\n<<<<<<< SEARCH\n{search}\n=======\n{replace}\n"
            ">>>>>>> REPLACE\n```\n\n")


def _apply(tmp_path: Path, history: str, files: dict[str, str]) -> tuple[int, dict[str, str]]:
    root = tmp_path / "root"
    root.mkdir()
    for name, text in files.items():
        (root / name).write_text(text)
    session = tmp_path / "h.md"
    session.write_text(history)
    code = main(["apply", str(session), "--root", str(root), "--yes"])
    return code, {name: (root / name).read_text() for name in files}


def test_a_block_aider_sent_to_another_chat_file_is_held(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The log names a.py and b.py (another block is a.py's); the second block of a.py
    matches a.py only with its trailing blanks forgiven, b.py exactly: Aider wrote b.py."""
    files = {"a.py": "def f():\n    return 1\n\nx = 1  \n", "b.py": "x = 1\n"}
    blocks = (_block("a.py", "def f():\n    return 1", "def f():\n    return 2")
              + _block("a.py", "x = 1", "x = 2"))
    code, after = _apply(tmp_path, _history(blocks, "> Applied edit to a.py\n"
                                            "> Applied edit to b.py\n"), files)
    assert code == 1
    assert after == {"a.py": "def f():\n    return 2\n\nx = 1  \n", "b.py": "x = 1\n"}
    out = capsys.readouterr().out
    assert "held (rule aider-refused): Aider's own matcher finds no place for it in a.py" in out


def test_blocks_aider_finds_where_reviewtui_does_land(tmp_path: Path) -> None:
    files = {"a.py": "def f():\n    if a:\n        return 1\n", "b.py": "x = 1\n"}
    blocks = (_block("a.py", "if a:\n    return 1", "if a:\n    return 2")
              + _block("b.py", "x = 1", "x = 2"))
    code, after = _apply(tmp_path, _history(blocks, "> Applied edit to a.py\n"
                                            "> Applied edit to b.py\n"), files)
    assert code == 0
    assert after == {"a.py": "def f():\n    if a:\n        return 2\n", "b.py": "x = 2\n"}


def test_a_block_no_log_says_aider_applied_keeps_reviewtuis_forgiveness(tmp_path: Path) -> None:
    """A history whose reply logs nothing Aider applied (a model's reply pasted into the
    history's shape): nothing says Aider's matcher ran, so reviewtui's forgives as ever."""
    files = {"a.py": "x = 1  \n", "b.py": "y = 1\n"}
    code, after = _apply(tmp_path, _history(_block("a.py", "x = 1", "x = 2"), ""), files)
    assert after["a.py"] == "x = 2\n"
    assert code == 0


def test_a_near_match_of_a_block_aider_logged_applied_is_held(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Aider's history of 2026 (the corpus): two blocks reviewtui found only as near matches
    in files the replay had made; Aider matched them exactly in its own, so the replay's
    file is not Aider's. Held (it was a near match to review), saying so."""
    files = {"a.py": "def f(a, b):\n    total = a + b\n    return total\n", "b.py": "y = 1\n"}
    block = _block("a.py", "def f(a, b):\n    total = a - b\n    return total",
                   "def f(a, b):\n    return a + b")
    code, after = _apply(tmp_path, _history(block, "> Applied edit to a.py\n"), files)
    assert code == 1
    assert after == files
    out = capsys.readouterr().out
    assert "aider-refused" in out
    assert "finds it only as a near match at lines 1-3" in out


def test_what_aider_takes_for_wrapping_is_dropped_before_it_looks() -> None:
    assert unwrapped(["# settings for app.py", "X = 1"], "app.py") == ("X = 1",)
    assert unwrapped(["```", "x = 1", "```"], "README.md") == ("x = 1",)
    assert unwrapped(["x = 1", "```"], "README.md") == ("x = 1", "```")


def test_a_block_aider_read_without_its_wrapping_is_held(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """QA s48 helper-167 #1: SEARCH "# settings for app.py" then "X = 1": Aider drops the
    first line (it ends in the file's name) and rewrote line 1's X = 1; reviewtui found
    the comment at line 2 and rewrote line 3 (exit 0). Held: Aider wrote other lines."""
    files = {"app.py": "X = 1\n# settings for app.py\nX = 1\n", "b.py": "y = 1\n"}
    block = _block("app.py", "# settings for app.py\nX = 1", "# settings for app.py\nX = 2")
    code, after = _apply(tmp_path, _history(block, "> Applied edit to app.py\n"), files)
    assert code == 1
    assert after == files
    assert "held (rule aider-elsewhere): Aider takes a first line ending in the file's name" in (
        capsys.readouterr().out)


def test_a_fenced_sample_is_no_wrapping_when_the_file_holds_fence_lines(tmp_path: Path) -> None:
    """QA s48 helper-168: Aider fences its blocks with ```` when a chat file has a line
    opening with ```, and then a ``` line is no wrapping to it: a README edit whose SEARCH
    is one of its fenced samples lands (it was held as aider-elsewhere)."""
    files = {"README.md": "# T\n\n```\nx = 1\n```\n", "b.py": "y = 1\n"}
    block = ("README.md\n````\n<<<<<<< SEARCH\n```\nx = 1\n```\n=======\n```\nx = 2\n```\n"
             ">>>>>>> REPLACE\n````\n\n")
    code, after = _apply(tmp_path, _history(block, "> Applied edit to README.md\n"), files)
    assert code == 0
    assert after["README.md"] == "# T\n\n```\nx = 2\n```\n"


def test_a_new_files_wrapping_is_held_too(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """QA s48 helper-168: a new hello.py whose REPLACE opens with "# hello.py": Aider drops
    that line (its wrapping), reviewtui wrote it, exit 0. Held."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "b.py").write_text("y = 1\n")
    session = tmp_path / "h.md"
    session.write_text(_history(_block("hello.py", "", "# hello.py\nprint(1)"),
                                "> Applied edit to hello.py\n"))
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 1
    assert not (root / "hello.py").exists()
    assert "aider-elsewhere" in capsys.readouterr().out
