"""In the workbench, a turn's plain line numbers address the file as its author had it
(QA s47 helper-147 H5): a pending ``Edit 1 @ 3`` accepted after the user added lines on
top of the file outside replaced ``[server]`` instead of ``timeout = 5``; turn 2's numbers,
accepted after turn 1 was rejected, replaced the line turn 1's lines had pushed there.
(The engine's side, and the property: tests/core/test_engine_authored_lines.py.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewtui.core.engine import Decision
from reviewtui.core.errors import DecisionRefused
from reviewtui.shell.review import Review

SETTINGS = "[server]\nhost = localhost\ntimeout = 5\nretries = 3\n"
BY_NUMBER = ("## Turn {n}\n> step\n\n--- File: {path} ---\nEdit 1 @ {at}\n=======\n{text}\n"
             ">>>>>>> REPLACE\n\n### Changed files:\n- {path}\n\n")


def _session(tmp_path: Path, text: str, files: dict[str, str]) -> tuple[Path, Path]:
    root = tmp_path / "root"
    root.mkdir()
    for name, content in files.items():
        (root / name).write_text(content)
    session = tmp_path / "session.md"
    session.write_text(text)
    return session, root


def test_an_accept_after_an_outside_change_lands_on_the_line_the_model_meant(
        tmp_path: Path) -> None:
    session, root = _session(tmp_path, BY_NUMBER.format(n=1, path="settings.ini", at=3,
                                                        text="timeout = 30"),
                             {"settings.ini": SETTINGS})
    with Review.open(session, root) as review:
        (root / "settings.ini").write_text("; managed by ops\n\n" + SETTINGS)
        review.outside_changed(["settings.ini"])
        review.decide((1, 0), Decision.accept())
    assert (root / "settings.ini").read_text() == "; managed by ops\n\n" + SETTINGS.replace(
        "timeout = 5", "timeout = 30")


def test_an_outside_change_of_the_line_itself_refuses_the_numbers(tmp_path: Path) -> None:
    session, root = _session(tmp_path, BY_NUMBER.format(n=1, path="settings.ini", at=3,
                                                        text="timeout = 30"),
                             {"settings.ini": SETTINGS})
    with Review.open(session, root) as review:
        changed = SETTINGS.replace("timeout = 5", "timeout = 7")
        (root / "settings.ini").write_text(changed)
        review.outside_changed(["settings.ini"])
        assert review.outcome((1, 0)).rule == "shifted-lines"
        with pytest.raises(DecisionRefused, match="refused"):
            review.decide((1, 0), Decision.accept())
    assert (root / "settings.ini").read_text() == changed


def test_numbers_after_a_rejected_turn_follow_their_line(tmp_path: Path) -> None:
    base = "import os\n\ndef f():\n    return 1\n\ndef g():\n    return 2\n"
    imports = ("## Turn 1\n> imports\n\n--- File: a.py ---\nEdit 1\n<<<<<<< SEARCH\n"
               "import os\n=======\nimport os\nimport sys\nimport re\n>>>>>>> REPLACE\n\n"
               "### Changed files:\n- a.py\n\n")
    session, root = _session(tmp_path, imports + BY_NUMBER.format(
        n=2, path="a.py", at=6, text="    return 10"), {"a.py": base})
    with Review.open(session, root) as review:
        review.decide((1, 0), Decision.reject())
        review.decide((2, 0), Decision.accept())
    assert (root / "a.py").read_text() == base.replace("return 1", "return 10")


ONE_TURN = ("## Turn 1\n> two edits\n\n--- File: t.txt ---\nEdit 1 @ 2\n=======\na\nb\n"
            ">>>>>>> REPLACE\n\nEdit 2 @ 5\n=======\nL5\n>>>>>>> REPLACE\n\n"
            "### Changed files:\n- t.txt\n")
SIX = "l1\nl2\nl3\nl4\nl5\nl6\n"


def test_two_numbered_edits_of_one_reply_in_either_order_of_decisions(tmp_path: Path) -> None:
    """Edit 2 @ 5 names the line the reply's author read as line 5 whatever is decided of
    Edit 1, which grows the file above it (QA s47 helper-157 M1)."""
    both, second = "l1\na\nb\nl3\nl4\nL5\nl6\n", SIX.replace("l5", "L5")
    orders = [[((1, 0), Decision.reject(), SIX), ((1, 1), Decision.accept(), second)],
              [((1, 0), Decision.accept(), "l1\na\nb\nl3\nl4\nl5\nl6\n"),
               ((1, 1), Decision.accept(), both)],
              [((1, 1), Decision.accept(), second),  # (while Edit 1 is pending)
               ((1, 0), Decision.accept(), both), ((1, 0), Decision.reject(), second)]]
    for n, steps in enumerate(orders):
        (tmp_path / str(n)).mkdir()
        session, root = _session(tmp_path / str(n), ONE_TURN, {"t.txt": SIX})
        with Review.open(session, root) as review:
            for key, decision, disk in steps:
                review.decide(key, decision)
                assert (root / "t.txt").read_text() == disk, (n, key)
