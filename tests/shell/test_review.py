"""The live review on a real folder: replay, undo/redo, rebase, conflicts, restore.

Outside changes here are made between calls and reported by calling ``outside_changed``
(or caught by the content guard before a write); test_review_watch.py does the same
through the real watcher.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from diskkit import Ed, Full, make_project, tree_bytes, write_session
from reviewtui.core.engine import Decision
from reviewtui.core.model.outcome import Status
from reviewtui.core.review.rebase import ConflictKind
from reviewtui.shell.review import MSG_REBASED, Review

BASE = (b'ALPHA = 1\nBETA = 2\n\n\ndef gamma():\n    return "gamma"\n\n\n'
        b'def delta():\n    return "delta"\n')
OTHER = b"one\ntwo\n"
TURNS = [
    [Ed("app.py", "ALPHA = 1", "ALPHA = 10"),
     Ed("app.py", '    return "delta"', '    return "DELTA"')],
    [Ed("other.txt", "one", "ONE"), Full("new.txt", "fresh\n")],
]
A1 = (1, 0)  # ALPHA
A2 = (1, 1)  # delta
B1 = (2, 0)  # other.txt
B2 = (2, 1)  # new.txt


def with_alpha(data: bytes, value: bytes = b"10") -> bytes:
    return data.replace(b"ALPHA = 1\n", b"ALPHA = " + value + b"\n", 1)


def with_delta(data: bytes) -> bytes:
    return data.replace(b'return "delta"', b'return "DELTA"')


@pytest.fixture
def setup(tmp_path: Path) -> tuple[Path, Path]:
    session = write_session(tmp_path / "session", TURNS)
    root = make_project(tmp_path / "proj", {"app.py": BASE, "other.txt": OTHER})
    return session, root


def open_review(setup: tuple[Path, Path], opened: list[Review], **kwargs: object) -> Review:
    session, root = setup
    review = Review.open(session, root, **kwargs)  # type: ignore[arg-type]
    opened.append(review)
    return review


def test_accept_writes_exact_bytes_and_reject_restores_them(
    setup: tuple[Path, Path], opened: list[Review]
) -> None:
    review = open_review(setup, opened)
    root = review.root
    report = review.decide(A1, Decision.accept())
    assert (report.written, report.removed, report.conflicts) == (["app.py"], [], [])
    assert (root / "app.py").read_bytes() == with_alpha(BASE)
    inode = (root / "app.py").stat().st_ino
    same = review.decide(A1, Decision.edit(("ALPHA = 10",)))  # the same bytes again
    assert same.written == []
    assert (root / "app.py").stat().st_ino == inode  # identical content is never rewritten
    report = review.decide(A1, Decision.reject())
    assert report.written == ["app.py"]
    assert (root / "app.py").read_bytes() == BASE
    assert review.outcome(A1).status is Status.REJECTED
    assert review.outcome(A2).status is Status.APPLIED  # pending, shown as it would apply


def test_a_decision_the_operation_already_has_is_no_step(
    setup: tuple[Path, Path], opened: list[Review]
) -> None:
    """``n`` on an operation already rejected (or ``y`` on one accepted) changes nothing
    and is not logged: the next ``u`` takes back the last decision that did something
    (found in a real terminal: the first ``u`` seemed to do nothing)."""
    review = open_review(setup, opened)
    root = review.root
    review.decide(A1, Decision.accept())
    review.decide(A2, Decision.reject())
    review.decide(A2, Decision.reject())
    review.decide(A1, Decision.accept())
    review.decide_many([(A1, Decision.accept()), (A2, Decision.reject())])
    review.undo()  # takes back the reject of A2, not a step that did nothing
    assert review.outcome(A2).status is Status.APPLIED  # pending again
    assert review.decisions == {A1: Decision.accept()}
    assert (root / "app.py").read_bytes() == with_alpha(BASE)
    review.redo()
    review.decide(A2, Decision.reject("a reason now"))  # a new reason is a new decision
    review.undo()
    assert review.decisions == {A1: Decision.accept(), A2: Decision.reject()}


def test_undo_and_redo_are_exact(setup: tuple[Path, Path], opened: list[Review]) -> None:
    review = open_review(setup, opened)
    root = review.root
    steps = [(A1, Decision.accept()), (A2, Decision.accept()), (B2, Decision.accept()),
             (A1, Decision.edit(("ALPHA = 11",))), (A2, Decision.reject()),
             (B1, Decision.accept())]
    snapshots = [(tree_bytes(root), review.decisions)]
    for key, decision in steps:
        review.decide(key, decision)
        snapshots.append((tree_bytes(root), review.decisions))
    assert snapshots[-1][0]["app.py"] == with_alpha(BASE, b"11")
    assert snapshots[3][0]["new.txt"] == b"fresh\n"
    for expected in reversed(snapshots[:-1]):
        assert review.can_undo
        review.undo()
        assert (tree_bytes(root), review.decisions) == expected
    assert not review.can_undo
    assert review.undo() is None
    for expected in snapshots[1:]:
        assert review.can_redo
        review.redo()
        assert (tree_bytes(root), review.decisions) == expected
    assert not review.can_redo
    review.undo()
    review.decide(B2, Decision.reject())  # a new decision drops what could be redone
    assert not review.can_redo
    assert "new.txt" not in tree_bytes(root)


def test_outside_edit_before_the_replay_is_rebased(
    setup: tuple[Path, Path], opened: list[Review]
) -> None:
    review = open_review(setup, opened)
    root = review.root
    outside = BASE.replace(b"BETA = 2", b"BETA = 3")
    (root / "app.py").write_bytes(outside)  # nobody told the review yet
    report = review.decide(A1, Decision.accept())
    assert report.rebased == ["app.py"]
    assert f"app.py: {MSG_REBASED}" in report.messages
    assert (root / "app.py").read_bytes() == with_alpha(outside)
    assert review.outcome(A1).status is Status.APPLIED
    review.decide(A2, Decision.accept())
    assert (root / "app.py").read_bytes() == with_delta(with_alpha(outside))


def test_outside_edit_of_the_edited_region_is_a_conflict(
    setup: tuple[Path, Path], opened: list[Review]
) -> None:
    review = open_review(setup, opened)
    root = review.root
    outside = with_alpha(BASE, b"100  # tuned by hand")
    (root / "app.py").write_bytes(outside)
    report = review.decide(A1, Decision.accept())
    assert report.conflicts == ["app.py"]
    assert report.written == []
    assert (root / "app.py").read_bytes() == outside  # byte for byte
    outcome = review.outcome(A1)
    assert outcome.status is Status.CONFLICT
    assert outcome.engine_outcome is not None
    assert outcome.engine_outcome.status in (Status.NOT_FOUND, Status.NEEDS_REVIEW)
    conflict = review.conflicts["app.py"]
    assert conflict.kind is ConflictKind.REBASE
    assert conflict.ops == (A1,)
    assert conflict.disk is not None
    assert conflict.disk.data == outside
    assert review.outcome(A2).status is Status.APPLIED  # pending, and still lands
    # Rejecting the operation settles it; the outside content stays the base.
    report = review.decide(A1, Decision.reject())
    assert review.conflicts == {}
    assert report.written == []
    assert (root / "app.py").read_bytes() == outside
    review.decide(A2, Decision.accept())
    assert (root / "app.py").read_bytes() == with_delta(outside)


def test_outside_layer_survives_later_decisions(
    setup: tuple[Path, Path], opened: list[Review]
) -> None:
    review = open_review(setup, opened)
    root = review.root
    review.decide(A1, Decision.accept())
    theirs = with_alpha(BASE).replace(b'return "gamma"', b'return "GAMMA!"')
    (root / "app.py").write_bytes(theirs)
    report = review.outside_changed(["app.py"])
    assert report.outside == ["app.py"]
    assert (report.written, report.conflicts) == ([], [])
    assert (root / "app.py").read_bytes() == theirs
    report = review.decide(A2, Decision.accept())
    assert report.rebased == ["app.py"]
    assert (root / "app.py").read_bytes() == with_delta(theirs)
    review.undo()
    assert (root / "app.py").read_bytes() == theirs
    review.decide(A1, Decision.reject())
    assert (root / "app.py").read_bytes() == BASE.replace(b'return "gamma"',
                                                          b'return "GAMMA!"')
    assert review.conflicts == {}


def test_an_own_write_seen_by_the_watcher_is_unchanged_and_nothing_else_is(
    setup: tuple[Path, Path], opened: list[Review]
) -> None:
    """The workbench skips drawing a report that says ``unchanged``: only the review's
    own writes (and nothing at all) may say so, never an outside change or a new link."""
    review = open_review(setup, opened)
    root = review.root
    review.decide(A1, Decision.accept())
    revision = review.revision
    own = review.outside_changed(["app.py"])  # the write the accept made
    assert own.unchanged
    assert (own.events, review.revision) == ([], revision)
    (root / "app.py").write_bytes(with_alpha(BASE).replace(b'"gamma"', b'"GAMMA"'))
    outside = review.outside_changed(["app.py"])
    assert not outside.unchanged
    assert outside.outside == ["app.py"]
    assert review.revision == revision + 1
    (root / "lib").mkdir()
    (root / "out").symlink_to("lib")  # a link: the engine learns of it from the watcher
    assert not review.outside_changed(["out"]).unchanged
    (root / "out").unlink()
    (root / "out").mkdir()  # a folder now: no file changed, but a link went away
    unlinked = review.outside_changed(["out"])
    assert not unlinked.unchanged
    assert review.revision == revision + 3


def test_outside_layer_that_no_longer_lands_is_a_conflict(
    setup: tuple[Path, Path], opened: list[Review]
) -> None:
    review = open_review(setup, opened)
    root = review.root
    review.decide(A1, Decision.accept())
    theirs = with_alpha(BASE, b"10  # tuned")  # right over what the review wrote
    (root / "app.py").write_bytes(theirs)
    review.outside_changed(["app.py"])
    report = review.decide(A1, Decision.reject())
    assert report.conflicts == ["app.py"]
    assert (root / "app.py").read_bytes() == theirs
    conflict = review.conflicts["app.py"]
    assert conflict.kind is ConflictKind.OUTSIDE_EDIT
    assert conflict.ops == (A1,)
    assert conflict.ours is not None
    assert conflict.ours.data == with_alpha(BASE)
    assert conflict.wanted is not None
    assert conflict.wanted.data == BASE
    assert [h.after for h in conflict.hunks] == [(b"ALPHA = 10  # tuned\n",)]
    assert review.outcome(A1).status is Status.CONFLICT
    review.decide(A2, Decision.accept())  # another decision on the path: still refused
    assert (root / "app.py").read_bytes() == theirs
    review.undo()
    review.undo()  # the reject is undone: the outside change lands on the draft again
    assert review.conflicts == {}
    assert (root / "app.py").read_bytes() == theirs


def test_outside_delete_is_never_undone_silently(
    setup: tuple[Path, Path], opened: list[Review]
) -> None:
    review = open_review(setup, opened)
    root = review.root
    review.decide(A1, Decision.accept())
    review.decide(B2, Decision.accept())
    (root / "app.py").unlink()
    (root / "new.txt").unlink()
    report = review.outside_changed(["app.py", "new.txt"])
    assert sorted(report.outside) == ["app.py", "new.txt"]
    assert (report.written, report.removed) == ([], [])
    assert sorted(report.conflicts) == ["app.py", "new.txt"]
    assert review.conflicts["app.py"].kind is ConflictKind.DELETED
    assert review.outcome(A1).status is Status.CONFLICT
    pending = review.outcome(A2)
    assert pending.status is Status.NOT_FOUND
    assert "deleted outside the workbench" in pending.message
    review.decide(B1, Decision.accept())  # an unrelated decision recreates nothing
    assert not (root / "app.py").exists()
    assert not (root / "new.txt").exists()
    review.decide(A1, Decision.reject())
    assert "app.py" not in review.conflicts
    review.decide(B2, Decision.accept())  # a new accept of the file's creation: recreate
    assert (root / "new.txt").read_bytes() == b"fresh\n"
    assert not (root / "app.py").exists()


def test_outside_rename_is_named_in_the_message(
    setup: tuple[Path, Path], opened: list[Review]
) -> None:
    review = open_review(setup, opened)
    root = review.root
    review.decide(A1, Decision.accept())
    os.rename(root / "app.py", root / "lib.py")
    report = review.outside_changed(["app.py", "lib.py"])
    assert report.outside == ["app.py"]
    assert report.refreshed == ["lib.py"]
    assert any("renamed outside to lib.py" in line for line in report.messages)
    assert "renamed outside to lib.py" in review.conflicts["app.py"].message
    assert not (root / "app.py").exists()
    assert (root / "lib.py").read_bytes() == with_alpha(BASE)


def test_formatter_rewrite_after_a_replay_is_rebased(tmp_path: Path,
                                                     opened: list[Review]) -> None:
    base = b"a=1\nb=2\n\ndef f():\n    return a+b\n"
    session = write_session(tmp_path / "s", [[Ed("m.py", "a=1", "a=10"),
                                              Ed("m.py", "    return a+b", "    return a*b")]])
    root = make_project(tmp_path / "p", {"m.py": base})
    review = Review.open(session, root)
    opened.append(review)
    review.decide((1, 0), Decision.accept())
    formatted = b"a = 10\nb = 2\n\ndef f():\n    return a+b\n"
    (root / "m.py").write_bytes(formatted)
    assert review.outside_changed(["m.py"]).outside == ["m.py"]
    report = review.decide((1, 1), Decision.accept())
    assert report.rebased == ["m.py"]
    assert (root / "m.py").read_bytes() == b"a = 10\nb = 2\n\ndef f():\n    return a*b\n"


def test_own_writes_are_not_outside_changes(setup: tuple[Path, Path],
                                            opened: list[Review]) -> None:
    review = open_review(setup, opened)
    review.decide(A1, Decision.accept())
    review.decide(B2, Decision.accept())
    revision = review.revision
    report = review.outside_changed(["app.py", "new.txt", "other.txt", "missing.txt"])
    assert report.events == []
    assert report.outside == []
    assert review.revision == revision


def test_dry_run_writes_nothing_and_takes_no_lock(setup: tuple[Path, Path],
                                                 opened: list[Review]) -> None:
    session, root = setup
    before = tree_bytes(root)
    review = open_review(setup, opened, dry_run=True)
    report = review.decide(A1, Decision.accept())
    assert report.would_write == ["app.py"]
    assert report.written == []
    assert tree_bytes(root) == before
    assert review.state_path is None  # no state unless asked for
    assert not (session.parent / "s.md.review.json").exists()
    live = open_review(setup, opened)  # a dry run does not hold the root
    assert live.decisions == {}


def test_restore_pins_a_checkpoint_on_disk(setup: tuple[Path, Path],
                                          opened: list[Review]) -> None:
    review = open_review(setup, opened)
    root = review.root
    original = tree_bytes(root)
    review.decide_many([(A1, Decision.accept()), (B1, Decision.accept()),
                        (B2, Decision.accept())])
    full = tree_bytes(root)
    assert full == {"app.py": with_alpha(BASE), "new.txt": b"fresh\n", "other.txt": b"ONE\ntwo\n"}
    preview = review.restore_preview(1)
    assert preview.conflicts == []
    assert [(p, o is not None and o.data, n is not None and n.data)
            for p, o, n in preview.changes] == [
        ("new.txt", b"fresh\n", False), ("other.txt", b"ONE\ntwo\n", OTHER)]
    report = review.restore(1)
    assert sorted(report.written + report.removed) == ["new.txt", "other.txt"]
    assert review.disk_checkpoint == 1
    assert tree_bytes(root) == {"app.py": with_alpha(BASE), "other.txt": OTHER}
    review.decide(A2, Decision.accept())  # turn 1 is on disk: it is replayed
    review.decide(B1, Decision.reject())  # turn 2 is not: only the draft changes
    assert tree_bytes(root) == {"app.py": with_delta(with_alpha(BASE)), "other.txt": OTHER}
    review.restore(2)
    assert review.disk_checkpoint is None
    assert tree_bytes(root) == {"app.py": with_delta(with_alpha(BASE)), "new.txt": b"fresh\n",
                                "other.txt": OTHER}
    review.restore(0)
    assert tree_bytes(root) == original
    with pytest.raises(Exception, match="checkpoint 3 is outside 0-2"):
        review.restore(3)


def test_the_same_change_made_outside_is_taken_as_written(
    setup: tuple[Path, Path], opened: list[Review]
) -> None:
    review = open_review(setup, opened)
    root = review.root
    (root / "app.py").write_bytes(with_alpha(BASE))  # the reviewer typed the fix by hand
    inode = (root / "app.py").stat().st_ino
    report = review.decide(A1, Decision.accept())
    assert (report.written, report.conflicts, report.outside) == ([], [], [])
    assert (root / "app.py").stat().st_ino == inode
    assert review.outcome(A1).status is Status.APPLIED
    review.decide(A1, Decision.reject())
    assert (root / "app.py").read_bytes() == BASE
