"""The review state file: resume, a changed session, corruption, outside changes while closed."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from diskkit import Ed, Full, make_project, session_text, tree_bytes, write_session
from reviewtui.core.engine import Decision, Verdict
from reviewtui.shell.review import Review
from reviewtui.shell.state import STATE_VERSION, blob_dir_for

BASE = b"ALPHA = 1\nBETA = 2\n\n\ndef gamma():\n    return 'gamma'\n"
TURNS = [
    [Ed("app.py", "ALPHA = 1", "ALPHA = 10"), Ed("app.py", "BETA = 2", "BETA = 20")],
    [Full("new.txt", "fresh\n"), Ed("app.py", "    return 'gamma'", "    return 'G'")],
]


@pytest.fixture
def project(tmp_path: Path) -> tuple[Path, Path]:
    return write_session(tmp_path / "session", TURNS), make_project(tmp_path / "proj",
                                                                      {"app.py": BASE})


def test_reopen_resumes_decisions_checkpoint_selection_and_undo(
    project: tuple[Path, Path]
) -> None:
    session, root = project
    with Review.open(session, root) as review:
        assert review.state_path == session.with_name("s.md.review.json")
        review.decide((1, 0), Decision.accept())
        review.decide((2, 0), Decision.accept())
        review.decide((1, 1), Decision.edit(("BETA = 21",)))
        review.decide((2, 1), Decision.reject())
        review.undo()
        review.ui_state = {"checkpoint": 1, "selected": [2, 0]}
        review.save_ui_state()
        disk = tree_bytes(root)
        decisions = review.decisions
    assert disk["app.py"] == b"ALPHA = 10\nBETA = 21\n\n\ndef gamma():\n    return 'gamma'\n"
    with Review.open(session, root) as again:
        assert again.state_problems == []
        assert again.decisions == decisions
        assert again.decisions[(1, 1)] == Decision(Verdict.EDITED, ("BETA = 21",))
        assert again.ui_state == {"checkpoint": 1, "selected": [2, 0]}
        assert again.can_undo
        assert again.can_redo
        assert again.last_report is not None
        assert again.last_report.written == []  # nothing to catch up on
        assert tree_bytes(root) == disk
        again.redo()
        assert (2, 1) in again.decisions


def test_restored_checkpoint_survives_a_reopen(project: tuple[Path, Path]) -> None:
    session, root = project
    with Review.open(session, root) as review:
        review.decide_many([((1, 0), Decision.accept()), ((2, 0), Decision.accept())])
        review.restore(1)
    with Review.open(session, root) as again:
        assert again.disk_checkpoint == 1
        assert sorted(tree_bytes(root)) == ["app.py"]
        again.restore(2)
        assert (root / "new.txt").read_bytes() == b"fresh\n"


def test_changed_session_is_reported_operation_by_operation(
    project: tuple[Path, Path]
) -> None:
    session, root = project
    with Review.open(session, root) as review:
        review.decide((1, 0), Decision.accept())
        review.decide((1, 1), Decision.accept())
        review.decide((2, 1), Decision.accept())
        review.undo()
    # The model's reply is edited: turn 1's second edit changes, turn 2 gains an op first.
    changed = [
        [Ed("app.py", "ALPHA = 1", "ALPHA = 10"), Ed("app.py", "BETA = 2", "BETA = 99")],
        [Full("extra.txt", "x\n"), Full("new.txt", "fresh\n"),
         Ed("app.py", "    return 'gamma'", "    return 'G'")],
    ]
    session.write_text(session_text(changed))
    with Review.open(session, root) as again:
        problems = again.state_problems
        assert problems[0].endswith("the session file changed since the review was saved; "
                                    "every decision was checked against it")
        assert problems[1:] == [
            "turn 1, operation 2 (app.py, Edit 2): the operation has different text in the "
            "session now; the decision (accepted) is kept under 'orphaned' in "
            "s.md.review.json and not applied",
            "turn 2, operation 2 (app.py, Edit 1): the operation moved to position 3 of "
            "its turn; the decision follows it",
            f"{session.with_name('s.md.review.json')}: ignored the saved record of app.py "
            "(the file is what the saved record says the review last wrote, but the "
            "review's decisions no longer lead to it: one behind it may no longer fit the "
            "session); the file stays as it is "
            "and is taken as its original from now on; the saved record is kept in the state "
            "file",
            # With the disk as the original, the edit already on it no longer lands.
            "turn 1, operation 1 (app.py, Edit 1): the saved accept does not land (not "
            "found on the files as they are now); it was taken back and the operation is "
            "pending again (nothing of it is written now: the files stay as they are)",
        ]
        assert again.decisions == {}
        assert again.can_redo  # the undone decision followed its operation
        again.redo()
        assert again.decisions[(2, 2)] == Decision.accept()
        # The orphan's old result cannot be told from a forged record (the session that
        # wrote it is gone): it stays on disk, and the saved original stays in the state.
        assert (root / "app.py").read_bytes() == (b"ALPHA = 10\nBETA = 20\n\n\ndef gamma():\n"
                                                  b"    return 'G'\n")
    saved = json.loads(session.with_name("s.md.review.json").read_text())
    assert [(o["turn"], o["pos"], o["path"], o["edit"], o["verdict"], o["reason"])
            for o in saved["orphaned"] if "verdict" in o] == [
        (1, 1, "app.py", 2, "accepted", "has different text in the session now"),
        (1, 0, "app.py", 1, "accepted", "not found on the files as they are now")]
    (kept,) = [o for o in saved["orphaned"] if "record" in o]
    assert kept["path"] == "app.py"
    assert (blob_dir_for(session.with_name("s.md.review.json"))
            / kept["record"]["base"]["sha"]).read_bytes() == BASE
    with Review.open(session, root) as third:
        assert third.state_problems == []  # reported once; kept in the file
        assert len(third.orphaned) == 3  # two decisions and the ignored record


@pytest.mark.parametrize("content", [
    b"{not json",
    b"\xff\xfe garbage",
    b"[1, 2, 3]",
    b'{"format": "something-else", "version": 1}',
    json.dumps({"format": "reviewtui-review-state", "version": STATE_VERSION + 1,
                "session": {}}).encode(),
    json.dumps({"format": "reviewtui-review-state", "version": 1, "session": {},
                "log": [{"kind": "decide", "items": [{"turn": 1, "pos": 0, "path": "a",
                                                      "op": "x", "verdict": "maybe"}]}]
                }).encode(),
])
def test_corrupt_state_is_moved_aside_never_a_crash(project: tuple[Path, Path],
                                                    content: bytes) -> None:
    session, root = project
    state = session.with_name("s.md.review.json")
    state.write_bytes(content)
    with Review.open(session, root) as review:
        (problem,) = review.state_problems
        assert "cannot be read" in problem
        assert "moved aside to s.md.review.json.corrupt-" in problem
        assert review.decisions == {}
        review.decide((1, 0), Decision.accept())
    (aside,) = session.parent.glob("s.md.review.json.corrupt-*")
    assert aside.read_bytes() == content
    assert json.loads(state.read_text())["log"][0]["items"][0]["verdict"] == "accepted"


def test_missing_original_content_is_reported(project: tuple[Path, Path]) -> None:
    session, root = project
    with Review.open(session, root) as review:
        review.decide((2, 0), Decision.accept())
        review.decide((1, 0), Decision.accept())
    blobs = blob_dir_for(session.with_name("s.md.review.json"))
    for blob in blobs.iterdir():
        if blob.read_bytes() == BASE:
            blob.unlink()
    with Review.open(session, root) as again:
        problem, taken_back = again.state_problems
        assert problem.startswith("app.py: the saved original content")
        assert problem.endswith("the file on disk is taken as its base")
        # The disk (with the edit) is the base now: the accept no longer lands there.
        assert taken_back.startswith("turn 1, operation 1 (app.py, Edit 1): the saved accept")
        assert again.decisions == {(2, 0): Decision.accept()}


def test_close_keeps_only_blobs_in_use(project: tuple[Path, Path]) -> None:
    session, root = project
    with Review.open(session, root) as review:
        for value in ("11", "12", "13"):
            review.decide((1, 0), Decision.edit((f"ALPHA = {value}",)))
    blobs = sorted(p.read_bytes() for p in blob_dir_for(review.state_path).iterdir())
    assert blobs == sorted([BASE, BASE.replace(b"ALPHA = 1\n", b"ALPHA = 13\n")])


def test_outside_change_while_closed_is_kept(project: tuple[Path, Path]) -> None:
    session, root = project
    with Review.open(session, root) as review:
        review.decide((1, 0), Decision.accept())
    ours = (root / "app.py").read_bytes()
    theirs = ours.replace(b"return 'gamma'", b"return 'gamma'  # checked")
    (root / "app.py").write_bytes(theirs)
    with Review.open(session, root) as again:
        assert again.last_report is not None
        assert again.last_report.outside == ["app.py"]
        assert (root / "app.py").read_bytes() == theirs
        again.decide((1, 1), Decision.accept())
        assert (root / "app.py").read_bytes() == theirs.replace(b"BETA = 2", b"BETA = 20")
    with Review.open(session, root) as third:  # the outside layer itself was saved
        third.decide((1, 1), Decision.reject())
        assert (root / "app.py").read_bytes() == theirs


def test_outside_revert_while_closed_is_respected(project: tuple[Path, Path]) -> None:
    session, root = project
    with Review.open(session, root) as review:
        review.decide((1, 0), Decision.accept())
        review.decide((2, 0), Decision.accept())
    (root / "app.py").write_bytes(BASE)  # e.g. "git checkout ." while the review was closed
    (root / "new.txt").unlink()
    with Review.open(session, root) as again:
        assert again.last_report is not None
        assert sorted(again.last_report.outside) == ["app.py", "new.txt"]
        assert (again.last_report.written, again.last_report.removed) == ([], [])
        assert tree_bytes(root) == {"app.py": BASE}
        # The revert is an outside layer over the accepted edit; the deletion a conflict.
        assert sorted(again.conflicts) == ["new.txt"]
        assert again.outcome((2, 0)).status.value == "conflict"
        again.decide((1, 1), Decision.accept())  # the revert survives later decisions
        assert (root / "app.py").read_bytes() == BASE.replace(b"BETA = 2", b"BETA = 20")


def test_a_scratch_review_resumes_on_a_fresh_scratch_copy(tmp_path: Path) -> None:
    tour = Path(__file__).resolve().parents[2] / "sample_sessions" / "workshop-tour"
    state = tmp_path / "tour.review.json"
    with Review.open(tour, state_path=state) as review:
        first = review.root
        assert review.scratch
        review.decide((1, 0), Decision.accept())
        fixed = (first / "greeter/core.py").read_bytes()
    assert b'"Hello, {name}!"' in fixed
    try:
        with Review.open(tour, state_path=state) as again:
            shutil.rmtree(first)
            assert again.root != first
            assert again.state_problems == []
            assert again.decisions == {(1, 0): Decision.accept()}
            assert (again.root / "greeter/core.py").read_bytes() == fixed
    finally:
        shutil.rmtree(first, ignore_errors=True)
    shutil.rmtree(again.root)
