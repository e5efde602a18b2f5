"""Threat: a move (or write) into a folder that is a symbolic link, and the file is gone.

``ln -s src lib`` then ``:mv notes.txt lib/notes.txt``: the engine used to call that
applied while the disk layer refused to write through the link, and the replay removed
the source anyway. One rule now decides what is writable (no link anywhere on the path,
nothing inside a folder the tree reader skips); ``check`` names it, and the replay never
removes a file whose replacement was not written.
"""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path
from typing import Any

import pytest
from disk_threat_kit import Arena

from diskkit import Cmd, Ed, Full, Op, make_project, tree_bytes, write_session
from reviewtui.cli import main
from reviewtui.core.engine import Decision
from reviewtui.core.errors import DecisionRefused
from reviewtui.core.model.outcome import Status
from reviewtui.shell.review import Review

NOTES = b"notes: the only copy\n"


def _project(arena: Arena) -> None:
    make_project(arena.root, {"src/a.py": "a = 1\n", "notes.txt": NOTES.decode()})


def _check(session: Path, root: Path, capsys: pytest.CaptureFixture[str]) -> list[dict[str, Any]]:
    code = main(["check", str(session), "--root", str(root), "--json"])
    doc = json.loads(capsys.readouterr().out)
    ops = [op for turn in doc["turns"] for op in turn["ops"]]
    assert code != 0, "a refused operation is a finding"
    return ops


@pytest.mark.parametrize("op", [
    Cmd(":mv notes.txt lib/notes.txt"),
    Cmd(":mv notes.txt lib/"),
    Cmd(":rn notes.txt lib/notes.txt"),
    Full("lib/new.py", "b = 2\n"),
    Ed("lib/a.py", "a = 1", "a = 2"),
], ids=["mv", "mv-into", "rn", "full-file", "edit"])
def test_a_link_inside_the_root_is_refused_by_check_and_apply(
    arena: Arena, capsys: pytest.CaptureFixture[str], op: Op
) -> None:
    _project(arena)
    (arena.root / "lib").symlink_to("src")
    session = write_session(arena.work, [[op]])
    ops = _check(session, arena.root, capsys)
    assert [(o["status"], o.get("rule")) for o in ops] == [("refused", "symlink")]
    assert "lib" in ops[0]["message"]
    assert "symbolic link" in ops[0]["message"]
    before = tree_bytes(arena.root)
    main(["apply", str(session), "--root", str(arena.root), "--yes"])
    capsys.readouterr()
    assert tree_bytes(arena.root) == before
    assert (arena.root / "notes.txt").read_bytes() == NOTES


@pytest.mark.parametrize("folder", [".venv", ".hg", ".ruff_cache", "node_modules"])
def test_a_skipped_folder_linked_out_of_the_root_is_refused(
    arena: Arena, capsys: pytest.CaptureFixture[str], folder: str
) -> None:
    _project(arena)
    (arena.root / folder).symlink_to(arena.canary_dir)
    session = write_session(arena.work, [[Cmd(f":mv notes.txt {folder}/notes.txt")],
                                         [Full(f"{folder}/target.txt", "pwned\n")]])
    ops = _check(session, arena.root, capsys)
    assert [(o["status"], o.get("rule")) for o in ops] == [("refused", "symlink-escape")] * 2
    main(["apply", str(session), "--root", str(arena.root), "--yes"])
    capsys.readouterr()
    assert (arena.root / "notes.txt").read_bytes() == NOTES
    assert sorted(os.listdir(arena.canary_dir)) == ["target.txt"]  # and the arena checks bytes


def test_a_real_skipped_folder_is_not_written_either(
    arena: Arena, capsys: pytest.CaptureFixture[str]
) -> None:
    """The tree never reads .venv: a "new file" there could replace one nobody was shown."""
    _project(arena)
    make_project(arena.root, {".venv/pyvenv.cfg": "home = /usr/bin\n"})
    session = write_session(arena.work, [[Full(".venv/pyvenv.cfg", "home = /evil\n")],
                                         [Cmd(":mv notes.txt .venv/notes.txt")]])
    ops = _check(session, arena.root, capsys)
    assert [(o["status"], o.get("rule")) for o in ops] == [("refused", "unread-dir")] * 2
    main(["apply", str(session), "--root", str(arena.root), "--yes"])
    capsys.readouterr()
    assert (arena.root / ".venv/pyvenv.cfg").read_bytes() == b"home = /usr/bin\n"
    assert (arena.root / "notes.txt").read_bytes() == NOTES


def test_the_disk_keeps_the_source_when_the_destination_cannot_be_written(
    arena: Arena
) -> None:
    """The engine cannot know of a link made after the review read the project: the disk
    layer must still refuse the move before removing anything."""
    _project(arena)
    make_project(arena.root, {"dest/keep.txt": "keep\n"})
    session = write_session(arena.work, [[Cmd(":mv notes.txt dest/notes.txt")]])
    review = Review.open(session, arena.root, state_path=arena.work / "s.review.json")
    try:
        shutil.rmtree(arena.root / "dest")
        (arena.root / "dest").symlink_to(arena.canary_dir)  # after the project was read
        report = review.decide((1, 0), Decision.accept())
        assert review.result((1, 0)).outcome.status is Status.APPLIED  # the engine's view
        assert report.written == []
        assert report.removed == []
        assert (arena.root / "notes.txt").read_bytes() == NOTES
        assert "dest/notes.txt" in report.conflicts
        assert any(path == "notes.txt" and "not removed" in text
                   for path, text in report.events)
        # Another replay (any decision) still holds the source back.
        report = review.decide((1, 0), Decision.accept())
        assert (arena.root / "notes.txt").read_bytes() == NOTES
        # Once the destination is a folder again, the move completes.
        (arena.root / "dest").unlink()
        (arena.root / "dest").mkdir()
        report = review.outside_changed(["dest"])
        assert report.conflicts == []
        assert (arena.root / "dest/notes.txt").read_bytes() == NOTES
        assert not (arena.root / "notes.txt").exists()
    finally:
        review.close()


def test_a_link_made_during_the_review_is_known_to_the_engine(arena: Arena) -> None:
    _project(arena)
    session = write_session(arena.work, [[Cmd(":mv notes.txt lib/notes.txt")]])
    review = Review.open(session, arena.root, state_path=arena.work / "s.review.json")
    try:
        assert review.outcome((1, 0)).status is Status.APPLIED  # no lib/ yet: a new folder
        (arena.root / "lib").symlink_to("src")
        review.outside_changed(["lib"])  # what the watcher reports
        outcome = review.outcome((1, 0))
        assert (outcome.status, outcome.rule) == (Status.REFUSED, "symlink")
        with pytest.raises(DecisionRefused):  # an accept of a refusal is never recorded
            review.decide((1, 0), Decision.accept())
        assert review.decisions == {}
        assert (arena.root / "notes.txt").read_bytes() == NOTES
        (arena.root / "lib").unlink()
        review.outside_changed(["lib"])
        assert review.outcome((1, 0)).status is Status.APPLIED
    finally:
        review.close()


def test_an_outside_change_under_a_link_is_not_walked_or_read(
    arena: Arena, monkeypatch: pytest.MonkeyPatch
) -> None:
    _project(arena)
    walked: list[str] = []
    real_walk = os.walk

    def walk(top: Any, *args: Any, **kwargs: Any) -> Any:
        walked.append(os.path.realpath(top))
        return real_walk(top, *args, **kwargs)

    (arena.root / "out").symlink_to(arena.canary_dir)
    session = write_session(arena.work, [[Full("a.txt", "x\n")]])
    review = Review.open(session, arena.root, state_path=arena.work / "s.review.json")
    try:
        (arena.canary_dir / "sub").mkdir()
        try:
            (arena.canary_dir / "sub/deep.txt").write_bytes(b"outside\n")
            monkeypatch.setattr(os, "walk", walk)
            report = review.outside_changed(["out/sub", "out/target.txt"])
            monkeypatch.undo()
            assert not [w for w in walked if w.startswith(str(arena.canary_dir))]
            assert report.events == []
            assert report.refreshed == []
            assert not any(p.startswith("out/") for p in review.base.files_under(""))
        finally:
            (arena.canary_dir / "sub/deep.txt").unlink()
            (arena.canary_dir / "sub").rmdir()
    finally:
        review.close()


def test_a_file_the_review_wrote_then_made_a_link_outside_is_never_written_over(
        arena: Arena) -> None:
    """``ln -sf other.py a.py`` after an accept: the watcher's report read the link's
    target as the file's new text, kept it as an outside change and wrote that text over
    the link (a.py became a regular file holding "other.py"). Now the path is a conflict
    until the link is gone, and the decisions stay."""
    make_project(arena.root, {"a.py": "a = 1\n", "other.py": "other = 1\n"})
    session = write_session(arena.work, [[Ed("a.py", "a = 1", "a = 2")]])
    review = Review.open(session, arena.root, state_path=arena.work / "s.review.json")
    try:
        review.decide((1, 0), Decision.accept())
        assert (arena.root / "a.py").read_bytes() == b"a = 2\n"
        (arena.root / "a.py").unlink()
        (arena.root / "a.py").symlink_to("other.py")
        report = review.outside_changed(["a.py"])
        assert report.conflicts == ["a.py"]
        assert "symbolic link" in review.conflicts["a.py"].message
        review.decide((1, 0), Decision.reject())  # recorded; nothing written at a.py
        assert os.readlink(arena.root / "a.py") == "other.py"
        assert (arena.root / "other.py").read_bytes() == b"other = 1\n"
        # The file put back: the review writes the rejected file's content again.
        (arena.root / "a.py").unlink()
        (arena.root / "a.py").write_bytes(b"a = 2\n")
        report = review.outside_changed(["a.py"])
        assert report.conflicts == []
        assert (arena.root / "a.py").read_bytes() == b"a = 1\n"
        assert not (arena.root / "a.py").is_symlink()
    finally:
        review.close()


def test_a_link_the_review_made_then_replaced_by_a_file_outside_is_left_alone(
        arena: Arena) -> None:
    """The other way round: a diff makes ``ln -> a.py``, it is accepted, and a regular
    file takes the link's place outside. The file is the user's: no decision writes over
    it or removes it while it is there."""
    make_project(arena.root, {"a.py": "a = 1\n"})
    patch = arena.work / "change.diff"
    patch.write_text("diff --git a/ln b/ln\nnew file mode 120000\n--- /dev/null\n+++ b/ln\n"
                     "@@ -0,0 +1 @@\n+a.py\n\\ No newline at end of file\n")
    review = Review.open(patch, arena.root, state_path=arena.work / "s.review.json",
                         format="unified")
    try:
        review.decide((1, 0), Decision.accept())
        assert os.readlink(arena.root / "ln") == "a.py"
        (arena.root / "ln").unlink()
        (arena.root / "ln").write_bytes(b"mine\n")
        report = review.outside_changed(["ln"])
        assert report.conflicts == ["ln"]
        review.decide((1, 0), Decision.reject())
        assert (arena.root / "ln").read_bytes() == b"mine\n"
        assert not (arena.root / "ln").is_symlink()
        assert (arena.root / "a.py").read_bytes() == b"a = 1\n"
    finally:
        review.close()
