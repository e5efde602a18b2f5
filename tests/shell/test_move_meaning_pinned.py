"""An accepted ``:mv SRC m`` keeps the meaning the reviewer saw (QA s36, helper-108 F5).

``:mv`` moves INTO ``m`` when ``m`` is a folder, else TO the path ``m``. Accepted as
``SRC -> m`` with ``m`` not there, then a folder ``m`` made outside (the review open, or
closed and opened again), the accept was read again as "into ``m``" and the replay wrote
``m/SRC``, a place the reviewer never saw. Now the move stays one to the path ``m``: with a
folder there it is refused, its accept taken back with the reason said, the file left where
it is. The same holds for ``:mv -f``, for a move already written whose file is deleted
before the folder is made, and for ``:rn``, whose meaning (one path, or a part of file
names) hung on the tree the same way.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from diskkit import Cmd, Ed, Full, make_project, write_session
from reviewtui.core.engine import Decision, Verdict
from reviewtui.core.export import Accepted, render
from reviewtui.shell.review import Review

FILES = {"SRC": "source\n", "other": "o\n"}
MOVE = (2, 0)
NOW_A_FOLDER = "'m' is now a folder; the move was accepted as SRC -> m, to that path"


def _files(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*"))
            if p.is_file()}


def _accepted_not_written(tmp_path: Path, command: str) -> tuple[Path, Path, Review]:
    """Turn 1 accepted and the disk pinned there; the move of turn 2 accepted (recorded,
    not written), as the reviewer saw it: SRC -> m."""
    root = make_project(tmp_path / "root", FILES)
    session = write_session(tmp_path, [[Ed("other", "o", "O")], [Cmd(command)]])
    review = Review.open(session, root)
    review.decide((1, 0), Decision.accept())
    review.restore(1)
    review.decide(MOVE, Decision.accept())
    assert review.outcome(MOVE).message == "moved SRC -> m"
    assert review.decisions[MOVE].reading == "to"
    return session, root, review


def _folder_m(root: Path) -> None:
    (root / "m").mkdir()
    (root / "m" / "x").write_text("x\n")


@pytest.mark.parametrize("command", [":mv SRC m", ":mv -f SRC m"])
def test_a_folder_made_while_open_is_not_moved_into(tmp_path: Path, command: str) -> None:
    _, root, review = _accepted_not_written(tmp_path, command)
    with review:
        _folder_m(root)
        report = review.outside_changed(["m/x"])
        assert MOVE not in review.decisions  # taken back, pending again
        [notice] = [notice for key, notice in report.reverted if key == MOVE]
        assert NOW_A_FOLDER in notice, report.messages
        review.restore(review.checkpoint_count - 1)  # unpinned: every accept written
    assert _files(root) == {"SRC": "source\n", "m/x": "x\n", "other": "O\n"}


@pytest.mark.parametrize("command", [":mv SRC m", ":mv -f SRC m"])
def test_a_folder_made_while_closed_is_not_moved_into(tmp_path: Path, command: str) -> None:
    session, root, review = _accepted_not_written(tmp_path, command)
    review.close()
    saved = json.loads(session.with_name("s.md.review.json").read_text())
    assert [item.get("reading") for entry in saved["log"] for item in entry.get("items", [])
            if (item["turn"], item["pos"]) == MOVE] == ["to"]
    _folder_m(root)
    with Review.open(session, root) as again:
        assert MOVE not in again.decisions
        assert any("the saved accept does not land" in problem and NOW_A_FOLDER in problem
                   for problem in again.state_problems), again.state_problems
        again.restore(again.checkpoint_count - 1)
    assert _files(root) == {"SRC": "source\n", "m/x": "x\n", "other": "O\n"}


def test_reopened_without_a_folder_the_move_is_written_as_seen(tmp_path: Path) -> None:
    session, root, review = _accepted_not_written(tmp_path, ":mv SRC m")
    review.close()
    with Review.open(session, root) as again:
        assert again.decisions[MOVE].reading == "to"
        again.restore(again.checkpoint_count - 1)
    assert _files(root) == {"m": "source\n", "other": "O\n"}


def test_a_written_move_whose_file_gives_way_to_a_folder_puts_the_source_back(
        tmp_path: Path) -> None:
    """The move written (``m`` a file), then ``m`` deleted and a folder ``m`` made outside:
    the move is not made again into it (``m/SRC``); SRC is written back, nothing lost."""
    root = make_project(tmp_path / "root", FILES)
    session = write_session(tmp_path, [[Ed("other", "o", "O")], [Cmd(":mv SRC m")]])
    with Review.open(session, root) as review:
        review.decide_many([((1, 0), Decision.accept()), (MOVE, Decision.accept())])
        assert _files(root) == {"m": "source\n", "other": "O\n"}
        (root / "m").unlink()
        review.outside_changed(["m"])
        _folder_m(root)
        report = review.outside_changed(["m/x"])
        assert any(NOW_A_FOLDER in notice for _, notice in report.reverted), report.messages
    assert _files(root) == {"SRC": "source\n", "m/x": "x\n", "other": "O\n"}


def test_an_accept_lands_where_shown_over_a_folder_only_the_display_has(
        tmp_path: Path) -> None:
    """Turn 1 (pending) makes ``m/x.py``: the workbench shows the move into ``m``. The
    accept lands there, not at the path ``m`` as the disk, without turn 1, would read it;
    the canonical export says so (``m/``) and reproduces it."""
    root = make_project(tmp_path / "root", {"SRC": "source\n"})
    session = write_session(tmp_path, [[Full("m/x.py", "x\n")], [Cmd(":mv SRC m")]])
    with Review.open(session, root) as review:
        assert review.outcome(MOVE).message == "moved SRC -> m/SRC"
        review.decide(MOVE, Decision.accept())
        assert review.decisions[MOVE].reading == "into"
        assert _files(root) == {"m/SRC": "source\n"}
        accepted = Accepted(review.draft, "test", reviewed=True)
        text = render(accepted, "fileops")
    assert ":mv SRC m/\n" in text
    assert "Not reproduced" not in text


def test_a_rename_of_a_path_is_not_taken_for_one_of_names(tmp_path: Path) -> None:
    """``:rn foo bar`` accepted as the rename of the file ``foo``; ``foo`` deleted outside
    before it was written: it renamed ``foo_test.py`` to ``bar_test.py`` (every name
    holding ``foo``), which nobody saw."""
    root = make_project(tmp_path / "root", {"foo": "f\n", "foo_test.py": "t\n", "a": "a\n"})
    session = write_session(tmp_path, [[Ed("a", "a", "A")], [Cmd(":rn foo bar")]])
    with Review.open(session, root) as review:
        review.decide((1, 0), Decision.accept())
        review.restore(1)
        review.decide(MOVE, Decision.accept())
        assert review.decisions[MOVE].reading == "path"
        (root / "foo").unlink()
        review.outside_changed(["foo"])
        assert review.decisions[MOVE].verdict is Verdict.ACCEPTED  # (deleted: its conflict)
        assert review.draft.turns[1].results[0].outcome.rule == "no-such-path"
        review.restore(review.checkpoint_count - 1)
    assert _files(root) == {"a": "A\n", "foo_test.py": "t\n"}


def test_an_empty_folder_made_where_the_move_goes_is_a_conflict_said_plainly(
        tmp_path: Path) -> None:
    """An empty folder is not in the review's tree (it lists files), so the move still
    reads "to m"; the write finds the folder: a conflict saying a folder is in the way
    (it said "cannot read: Is a directory"), SRC kept, the folder left."""
    _, root, review = _accepted_not_written(tmp_path, ":mv SRC m")
    with review:
        (root / "m").mkdir()
        review.outside_changed(["m"])
        report = review.restore(review.checkpoint_count - 1)
        assert "m: conflict - a folder is in the way; nothing written there" in report.messages
        assert review.outcome(MOVE).message.startswith("a folder is in the way")
    assert _files(root) == {"SRC": "source\n", "other": "O\n"}
    assert (root / "m").is_dir()


def test_an_accept_after_a_reject_is_pinned_too(tmp_path: Path) -> None:
    """A rejected command does not run, so its display held no reading: accepted again
    after a reject, the move stayed unpinned, and once a folder m was made it landed at
    m/SRC (QA s37 helper-112 H2)."""
    root = make_project(tmp_path / "root", FILES)
    session = write_session(tmp_path, [[Ed("other", "o", "O")], [Cmd(":mv SRC m")]])
    with Review.open(session, root) as review:
        review.decide((1, 0), Decision.accept())
        review.restore(1)
        review.decide(MOVE, Decision.accept())
        review.decide(MOVE, Decision.reject())
        review.decide(MOVE, Decision.accept())
        assert review.decisions[MOVE].reading == "to"
        _folder_m(root)
        report = review.outside_changed(["m/x"])
        assert any(NOW_A_FOLDER in notice for _, notice in report.reverted), report.messages
        review.restore(review.checkpoint_count - 1)
    assert _files(root) == {"SRC": "source\n", "m/x": "x\n", "other": "O\n"}


def test_a_folder_in_the_way_removed_again_lets_the_move_land(tmp_path: Path) -> None:
    """The conflict "a folder is in the way" never cleared once the folder was gone: only
    reopening landed the move (QA s37 helper-112 M1)."""
    _, root, review = _accepted_not_written(tmp_path, ":mv SRC m")
    with review:
        (root / "m").mkdir()
        review.outside_changed(["m"])
        review.restore(review.checkpoint_count - 1)
        assert _files(root) == {"SRC": "source\n", "other": "O\n"}
        (root / "m").rmdir()
        review.outside_changed(["m"])
        assert _files(root) == {"m": "source\n", "other": "O\n"}
        assert not review.conflicts


def test_accepted_again_a_move_writes_back_its_file_deleted_outside(tmp_path: Path) -> None:
    """The notice says "accept one again to recreate the file"; for a :mv whose written
    file m was deleted outside, accepting again did nothing (QA s37 helper-112 M5)."""
    root = make_project(tmp_path / "root", FILES)
    session = write_session(tmp_path, [[Ed("other", "o", "O")], [Cmd(":mv SRC m")]])
    with Review.open(session, root) as review:
        review.decide_many([((1, 0), Decision.accept()), (MOVE, Decision.accept())])
        (root / "m").unlink()
        report = review.outside_changed(["m"])
        assert any("accept one again to recreate the file" in m for m in report.messages)
        review.decide(MOVE, Decision.accept())
    assert _files(root) == {"m": "source\n", "other": "O\n"}
