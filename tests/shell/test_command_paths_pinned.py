"""An accepted ``:mv``, ``:rn`` or ``:rm`` takes the paths it took when accepted, and no
others (QA s37 helper-112 H1).

A glob (``src/*.py``), a folder (``:mv src lib``) or a part of names (``:rn foo bar``)
decides its paths on the tree: evaluated again after every outside change, an accepted,
written command took in a file the user saved since and moved (or removed) it at once,
with no notice; with ``-f`` the user's new file overwrote another of theirs. The accept now
pins its paths (``Decision.moves``: their number and a digest); taking others it is refused,
its accept taken back with the reason, and nothing of it stays written.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from diskkit import Cmd, Full, make_project, write_session
from reviewtui.cli import main
from reviewtui.core.engine import Decision
from reviewtui.core.errors import StateFormatError
from reviewtui.core.review.log import DecisionItem
from reviewtui.shell.review import Review

KEY = (1, 0)
CHANGED = "accepted when it {} 1 path, but it would now {} 2 paths"


def _save(root: Path, path: str, text: str) -> None:
    """The user saves a file (an editor makes its folder: the move emptied src/)."""
    (root / path).parent.mkdir(parents=True, exist_ok=True)
    (root / path).write_text(text)


def _files(root: Path) -> dict[str, str]:
    return {str(p.relative_to(root)): p.read_text() for p in sorted(root.rglob("*"))
            if p.is_file()}


CASES = [
    # command, project, the user's new file, what the disk holds after it is refused
    (":mv src/*.py lib/", {"src/a.py": "a\n", "src/k.txt": "k\n"}, "src/new.py",
     ("moved", "move")),
    (":mv src lib", {"src/a.py": "a\n"}, "src/new.py", ("moved", "move")),
    (":rn foo bar", {"foo_test.py": "t\n", "x": "x\n"}, "foo_helper.py", ("moved", "move")),
    (":rm src/*.tmp", {"src/a.tmp": "a\n", "src/k.py": "k\n"}, "src/new.tmp",
     ("removed", "remove")),
]


@pytest.mark.parametrize(("command", "files", "new", "verbs"), CASES,
                         ids=["glob", "folder", "names", "rm glob"])
def test_a_file_saved_since_is_not_taken_in(tmp_path: Path, command: str,
                                           files: dict[str, str], new: str,
                                           verbs: tuple[str, str]) -> None:
    root = make_project(tmp_path / "root", files)
    session = write_session(tmp_path, [[Cmd(command)]])
    with Review.open(session, root) as review:
        review.decide(KEY, Decision.accept())
        assert review.decisions[KEY].moves is not None
        assert _files(root) != files  # written
        _save(root, new, "the user's new work\n")
        report = review.outside_changed([new])
        [notice] = [notice for key, notice in report.reverted if key == KEY]
        assert CHANGED.format(*verbs) in notice
        assert KEY not in review.decisions
    assert _files(root) == {**files, new: "the user's new work\n"}


def test_a_forced_glob_never_overwrites_a_file_of_yours_with_another(tmp_path: Path) -> None:
    """``:mv -f src/*.py lib/`` accepted with src/a.py alone; the user saves src/b.py
    beside their own lib/b.py: lib/b.py was overwritten by the new file."""
    files = {"src/a.py": "a\n", "lib/b.py": "users lib/b.py\n"}
    root = make_project(tmp_path / "root", files)
    session = write_session(tmp_path, [[Cmd(":mv -f src/*.py lib/")]])
    with Review.open(session, root) as review:
        review.decide(KEY, Decision.accept())
        _save(root, "src/b.py", "users new src/b.py\n")
        review.outside_changed(["src/b.py"])
        assert KEY not in review.decisions
    assert _files(root) == {**files, "src/b.py": "users new src/b.py\n"}


def test_the_pin_is_saved_and_holds_on_reopening(tmp_path: Path) -> None:
    """Closed, a file saved into the glob's reach; reopened, the saved accept does not
    land and says why, the user's file where they saved it. (What the move wrote stays as
    it is, taken as the files' originals: a command outside changes stop from landing is
    not undone on reopening, as helper-110 noted.)"""
    files = {"src/a.py": "a\n"}
    root = make_project(tmp_path / "root", files)
    session = write_session(tmp_path, [[Cmd(":mv src/*.py lib/")]])
    with Review.open(session, root) as review:
        review.decide(KEY, Decision.accept())
        pinned = review.decisions[KEY].moves
    saved = json.loads(session.with_name("s.md.review.json").read_text())
    assert [item.get("moves") for entry in saved["log"] for item in entry.get("items", [])
            ] == [pinned]
    _save(root, "src/new.py", "mine\n")
    with Review.open(session, root) as again:
        assert KEY not in again.decisions
        assert any("accepted when it moved 1 path, but it would now move others" in problem
                   for problem in again.state_problems), again.state_problems
    assert _files(root) == {"lib/a.py": "a\n", "src/new.py": "mine\n"}


def test_accepted_again_it_takes_what_it_takes_now(tmp_path: Path) -> None:
    root = make_project(tmp_path / "root", {"src/a.py": "a\n"})
    session = write_session(tmp_path, [[Cmd(":mv src/*.py lib/")]])
    with Review.open(session, root) as review:
        review.decide(KEY, Decision.accept())
        _save(root, "src/new.py", "mine\n")
        review.outside_changed(["src/new.py"])
        review.decide(KEY, Decision.accept())
    assert _files(root) == {"lib/a.py": "a\n", "lib/new.py": "mine\n"}


@pytest.mark.parametrize("moves", ["1:" + "0" * 63, "x:" + "0" * 64, "1" + "0" * 64])
def test_a_malformed_saved_pin_is_refused_as_a_bad_state(tmp_path: Path, moves: str) -> None:
    item = {"turn": 1, "pos": 0, "path": ":mv a b", "edit": None, "op": "0" * 16,
            "verdict": "accepted", "replacement": None, "force": False, "moves": moves}
    with pytest.raises(StateFormatError, match="bad command paths"):
        DecisionItem.from_json(item)


def test_apply_turns_pins_what_is_written_not_the_view(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """``apply --turns 2``: turn 1 (left out) would make src/b.py, which the view's glob
    takes; pinned from the view, the accept did not land on what is written and the whole
    apply stopped, exit 2 (QA s37 helper-113 M1)."""
    root = make_project(tmp_path / "root", {"src/a.py": "a\n", "k": "k\n"})
    session = write_session(tmp_path, [[Full("src/b.py", "b\n")], [Cmd(":mv src/*.py lib/")]])
    code = main(["apply", str(session), "--root", str(root), "--yes", "--turns", "2"])
    assert code == 0, capsys.readouterr().out
    assert _files(root) == {"k": "k\n", "lib/a.py": "a\n"}


@pytest.mark.parametrize("item", [
    {"moves": "\u00b2:" + "0" * 64},  # (a digit to str.isdigit, not a count)
    {"moves": "1:" + "0" * 64, "edit": 1},  # (an edit pins no paths)
])
def test_a_pin_a_command_cannot_have_is_a_bad_state(item: dict[str, object]) -> None:
    data = {"turn": 1, "pos": 0, "path": "a.py", "edit": None, "op": "0" * 16,
            "verdict": "accepted", "replacement": None, "force": False, **item}
    with pytest.raises(StateFormatError, match="bad command paths"):
        DecisionItem.from_json(data)


PENDING_MAKERS = {  # turn 1, left pending: how it makes src/b.py
    "text": Full("src/b.py", "b\n"),
    "binary": Full("src/b.py", "bin\x00ary\n"),  # (no lineage: helper-114)
    "moved there": Cmd(":mv old.py src/b.py"),  # (a project file: helper-114)
}


@pytest.mark.parametrize("maker", PENDING_MAKERS)
@pytest.mark.parametrize("command", [":mv src/*.py lib/", ":rm src/*.py"])
def test_a_file_of_yours_where_a_pending_turn_makes_one_is_not_taken(
        tmp_path: Path, command: str, maker: str) -> None:
    """Turn 1 (pending) makes src/b.py; the glob of turn 2, accepted as shown (a.py and
    b.py), waits for it. The user saves their own src/b.py: the same paths, so the pin
    matched, and the user's file was moved or removed at once (QA s37 helper-113 H1,
    helper-114). The pin names where each file comes from: the project's file at that
    path, at another, or one an operation made; the user's is not turn 1's."""
    root = make_project(tmp_path / "root", {"src/a.py": "a\n", "k": "k\n",
                                            "old.py": "project old.py\n"})
    session = write_session(tmp_path, [[PENDING_MAKERS[maker]], [Cmd(command)]])
    with Review.open(session, root) as review:
        review.decide((2, 0), Decision.accept())
        assert "src/b.py" not in _files(root)  # (it waits for turn 1)
        _save(root, "src/b.py", "mine\n")
        review.outside_changed(["src/b.py"])
        # (taken back, or still waiting: either way it does not land on the user's file)
        assert not review.draft.turns[1].results[0].landed
    assert _files(root) == {"src/a.py": "a\n", "src/b.py": "mine\n", "k": "k\n",
                            "old.py": "project old.py\n"}


def test_a_file_turn_one_makes_is_taken_once_accepted(tmp_path: Path) -> None:
    """The same glob lands whole once turn 1 is accepted: the file it takes is turn 1's."""
    root = make_project(tmp_path / "root", {"src/a.py": "a\n"})
    session = write_session(tmp_path, [[Full("src/b.py", "b\n")], [Cmd(":mv src/*.py lib/")]])
    with Review.open(session, root) as review:
        review.decide((2, 0), Decision.accept())
        review.decide((1, 0), Decision.accept())
    assert _files(root) == {"lib/a.py": "a\n", "lib/b.py": "b\n"}


def test_a_file_made_twice_is_the_same_file_whichever_made_it(tmp_path: Path) -> None:
    """Turn 1 makes notes.md, turn 2 writes it whole again, turn 3 moves it; all accepted,
    then turn 1 rejected (a draft turn 2 supersedes): the move was refused, the file made
    by another turn (helper-114, new in ba6f8f7)."""
    root = make_project(tmp_path / "root", {"k": "k\n"})
    session = write_session(tmp_path, [[Full("notes.md", "one\n")], [Full("notes.md", "two\n")],
                                       [Cmd(":mv notes.md docs/notes.md")]])
    with Review.open(session, root) as review:
        review.decide_many([((1, 0), Decision.accept()), ((2, 0), Decision.accept()),
                            ((3, 0), Decision.accept())])
        review.decide((1, 0), Decision.reject())
        assert review.decisions[(3, 0)].verdict.value == "accepted"
    assert _files(root) == {"k": "k\n", "docs/notes.md": "two\n"}


def test_a_project_file_rewritten_as_binary_is_still_moved_once_that_is_rejected(
        tmp_path: Path) -> None:
    """Turn 1 rewrites logo.bin with a NUL (a binary version: no lineage), turn 2 moves
    it; both accepted, then turn 1 rejected: the move was refused and taken off the disk,
    though it moves the same project file (QA s37 helper-115 M1)."""
    root = make_project(tmp_path / "root", {"logo.bin": "v0\n", "k": "k\n"})
    session = write_session(tmp_path, [[Full("logo.bin", "PNG\x00 v1\n")],
                                       [Cmd(":mv logo.bin assets/logo.bin")]])
    with Review.open(session, root) as review:
        review.decide_many([((1, 0), Decision.accept()), ((2, 0), Decision.accept())])
        review.decide((1, 0), Decision.reject())
        assert review.decisions[(2, 0)].verdict.value == "accepted"
    assert (root / "assets" / "logo.bin").read_bytes() == b"v0\n"
    assert not (root / "logo.bin").exists()
