"""Plain line numbers in a file its turn moved there, in the workbench and ``apply``
(QA qa77; the engine's side: tests/core/test_engine_authored_moves.py).

Turn 1 inserted two lines into a.txt and was rejected (or failed, under ``apply --yes``);
turn 2 ran ``:mv a.txt b.txt`` and ``Edit 1 @ 5`` on b.txt, and ``l5`` was replaced,
shown applied (exit 0; with turn 1 failed, exit 1 but b.txt written): the author's line 5
is ``l3``. And within one reply, a SEARCH/REPLACE's context lines counted as replaced, so
a later ``Edit 2 @ 4`` of one of them was refused and the file left half-edited; as were
numbered edits after ``:mv -f a.txt t.txt`` over an existing t.txt."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.core.engine import Decision
from reviewtui.shell.review import Review

TEN = "".join(f"l{n}\n" for n in range(1, 11))
TURN_1 = ("## Turn 1\n> two lines after l1\n\n--- File: a.txt ---\n<<<<<<< SEARCH\n{search}\n"
          "=======\nl1\nnew1\nnew2\n>>>>>>> REPLACE\n\n### Changed files:\n- a.txt\n\n")
TURN_2 = ("## Turn 2\n> move, then line 5\n\n```console\n{command} a.txt b.txt\n```\n\n"
          "--- File: b.txt ---\nEdit 1 @ 5\n=======\nCHANGED\n>>>>>>> REPLACE\n\n"
          "### Changed files:\n- b.txt (moved from a.txt)\n")


def _project(tmp_path: Path, text: str, files: dict[str, str],
             monkeypatch: pytest.MonkeyPatch) -> tuple[Path, Path]:
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    root = tmp_path / "root"
    root.mkdir()
    for name, content in files.items():
        (root / name).write_text(content)
    session = tmp_path / "session.md"
    session.write_text(text)
    return session, root


@pytest.mark.parametrize("command", [":mv", ":rn"])
def test_numbers_in_a_moved_file_after_a_rejected_turn_follow_their_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, command: str) -> None:
    text = TURN_1.format(search="l1") + TURN_2.format(command=command)
    session, root = _project(tmp_path, text, {"a.txt": TEN}, monkeypatch)
    with Review.open(session, root) as review:
        review.decide((1, 0), Decision.reject())
        review.decide((2, 0), Decision.accept())
        review.decide((2, 1), Decision.accept())
        assert "line 5 as its author read it is line 3 now" in review.outcome((2, 1)).hint
    assert not (root / "a.txt").exists()
    assert (root / "b.txt").read_text() == TEN.replace("l3\n", "CHANGED\n")


def test_apply_refuses_numbers_in_a_moved_file_after_a_turn_that_failed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    text = TURN_1.format(search="nowhere") + TURN_2.format(command=":mv")
    session, root = _project(tmp_path, text, {"a.txt": TEN}, monkeypatch)
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 1
    assert (root / "b.txt").read_text() == TEN
    assert "turn 1's a.txt · Edit 1, which did not land" in capsys.readouterr().out


def test_apply_lands_a_numbered_edit_of_a_search_replaces_context_line(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = ("## Turn 1\n> x\n\n--- File: t.txt ---\nEdit 1\n<<<<<<< SEARCH\nl2\nl3\nl4\n"
            "=======\nl2\nNEW\nl4\n>>>>>>> REPLACE\n\nEdit 2 @ 4\n=======\nL4\n"
            ">>>>>>> REPLACE\n\n### Changed files:\n- t.txt\n")
    session, root = _project(tmp_path, text, {"t.txt": TEN}, monkeypatch)
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 0
    assert (root / "t.txt").read_text() == TEN.replace("l3\nl4\n", "NEW\nL4\n")


def test_apply_lands_numbered_edits_after_a_move_over_an_existing_file(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    text = ("## Turn 1\n> x\n\n```console\n:mv -f a.txt t.txt\n```\n\n--- File: t.txt ---\n"
            "Edit 1 @ 2\n=======\na\nb\n>>>>>>> REPLACE\n\nEdit 2 @ 5\n=======\nL5\n"
            ">>>>>>> REPLACE\n\n### Changed files:\n- t.txt\n")
    session, root = _project(tmp_path, text, {"a.txt": TEN, "t.txt": "old\n"}, monkeypatch)
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 0
    assert (root / "t.txt").read_text() == TEN.replace("l2\n", "a\nb\n").replace("l5\n",
                                                                                 "L5\n")
