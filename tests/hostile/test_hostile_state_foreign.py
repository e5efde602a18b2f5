"""A review state saved for another folder decides nothing on its own, unless this machine
sealed it (QA s45 helper-137 #1, older; helper-140 F1).

A ``session.md.review.json`` shipped in a session folder was replayed as the workbench
opened, before any keypress: its accepts written, an ``edited`` text only the state held
among them, a ``:rm`` deleting a project file. Now a state naming another root, or none,
is read with its decisions pending again as one step (``u`` takes them back in, once the
reviewer has read them) and nothing of it is written; ``restore`` and ``export`` name
them as set aside. A state saved for this root is resumed as before
(tests/hostile/test_hostile_state_file.py tries its records), and so is one this machine
saved and sealed, wherever the project moved with it (setting that one aside let its saved
originals go: a file the review had removed could not be brought back).
"""

from __future__ import annotations

import json
import os
from pathlib import Path
from typing import Any

import pytest
from hostile_statekit import accept_entry, forge_state, write_markdown_session

from reviewtui.cli import main
from reviewtui.core.engine import Verdict
from reviewtui.core.review.log import describe_step, fold
from reviewtui.shell.loader import load_session
from reviewtui.shell.review import Review
from reviewtui.shell.state import op_fingerprint

EVIL = '__import__("os").system("id")  # only the state holds this'


def _shipped(arena: Any, root: str | None, verdict: str = "accepted", *,
             seal: bool = False) -> Path:
    session = write_markdown_session(arena.work / "s.md", [[("a.txt", "a", "b")]])
    (arena.work / "s.md").write_text(
        (arena.work / "s.md").read_text() + "\n## Turn 2\n```console\n:rm notes.txt\n```\n")
    turns = load_session(session).session.turns
    edit, removal = turns[0].reply.ops[0], turns[1].reply.ops[0]
    log = [accept_entry(1, 0, "a.txt", op_fingerprint(edit), verdict),
           accept_entry(2, 0, ":rm notes.txt", op_fingerprint(removal))]
    if verdict == "edited":
        log[0]["items"][0]["replacement"] = [EVIL]
    forge_state(session.with_name("s.md.review.json"), log=log, root=root, seal=seal)
    return session


@pytest.mark.parametrize("root", [None, "/elsewhere/project", "here"])
def test_a_state_saved_for_another_folder_writes_nothing(arena: Any,
                                                         root: str | None) -> None:
    """``here``: a shipped state naming the folder it will be checked out to (a CI
    workspace, ``/workspaces/<repo>``) without this machine's seal: the same (QA s46
    helper-141 F4: its removal ran as the workbench opened)."""
    (arena.root / "a.txt").write_text("a\n")
    (arena.root / "notes.txt").write_text("precious\n")
    session = _shipped(arena, str(arena.root.resolve()) if root == "here" else root, "edited")
    with Review.open(session, arena.root) as review:
        assert (arena.root / "a.txt").read_text() == "a\n"
        assert (arena.root / "notes.txt").read_text() == "precious\n"
        assert [review.result(key).decision.verdict for key in ((1, 0), (2, 0))] == [
            Verdict.PENDING, Verdict.PENDING]
        assert any("nothing of it was written" in p and "u takes them back in" in p
                   for p in review.state_problems), review.state_problems
        # The reviewer, having read them, takes them back in: then, and only then.
        review.undo()
        assert review.result((1, 0)).decision.verdict is Verdict.EDITED
    assert (arena.root / "a.txt").read_text() == EVIL + "\n"
    assert not (arena.root / "notes.txt").exists()


def test_restore_and_export_name_what_was_set_aside(
        arena: Any, capsys: pytest.CaptureFixture[str]) -> None:
    (arena.root / "a.txt").write_text("a\n")
    (arena.root / "notes.txt").write_text("precious\n")
    session = _shipped(arena, None)
    state = session.with_name("s.md.review.json")
    assert main(["restore", str(session), "--root", str(arena.root), "--state",
                 str(state), "--checkpoint", "2", "--yes"]) == 2  # (nothing to restore from)
    assert "[state-aside]" in capsys.readouterr().err
    assert (arena.root / "a.txt").read_text() == "a\n"
    assert (arena.root / "notes.txt").read_text() == "precious\n"
    forge_state(state, log=_shipped_log(session), root=None, seal=False)
    assert main(["export", str(session), "--root", str(arena.root), "--state", str(state),
                 "--format", "patch"]) == 1
    err = capsys.readouterr().err
    assert ("the review state was saved for another folder or not on this machine: its "
            "decision is set aside") in err


def _shipped_log(session: Path) -> list[Any]:
    (edit,) = load_session(session).session.turns[0].reply.ops
    return [accept_entry(1, 0, "a.txt", op_fingerprint(edit))]


def test_a_state_saved_here_is_resumed(arena: Any) -> None:
    (arena.root / "a.txt").write_text("a\n")
    (arena.root / "notes.txt").write_text("precious\n")
    session = _shipped(arena, str(arena.root.resolve()), seal=True)
    with Review.open(session, arena.root) as review:
        assert review.result((1, 0)).decision.verdict is Verdict.ACCEPTED
    assert (arena.root / "a.txt").read_text() == "b\n"
    assert not (arena.root / "notes.txt").exists()


def test_a_review_moved_with_its_project_is_still_its_own(tmp_path: Path) -> None:
    from reviewtui.core.engine import Decision

    project = tmp_path / "here"
    (project / "root").mkdir(parents=True)
    root = project / "root"
    (root / "a.txt").write_text("a\n")
    (root / "notes.txt").write_text("precious\n")
    session = project / "s.md"
    session.write_text("## Turn 1\n```console\n:rm notes.txt\n```\n")
    with Review.open(session, root) as review:
        review.decide((1, 0), Decision.accept())
    assert not (root / "notes.txt").exists()
    moved = tmp_path / "there"
    project.rename(moved)
    with Review.open(moved / "s.md", moved / "root") as review:
        assert review.result((1, 0)).decision.verdict is Verdict.ACCEPTED
        review.decide((1, 0), Decision.reject())  # its saved original comes back
    assert (moved / "root" / "notes.txt").read_text() == "precious\n"


def test_a_seal_made_elsewhere_or_tampered_with_is_no_seal(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from reviewtui.shell import stateseal

    data = b'{\n "format": "x",\n "root": "/a"\n}\n'
    sealed = stateseal.sealed(data)
    assert sealed != data
    assert stateseal.sealed_here(sealed)
    assert not stateseal.sealed_here(sealed.replace(b"/a", b"/b"))
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "another-machine"))
    monkeypatch.setattr(stateseal, "_key", [])
    assert not stateseal.sealed_here(sealed)
    assert (tmp_path / "another-machine" / "reviewtui" / "state-key").stat().st_mode & 0o777 \
        == 0o600


def test_a_set_aside_saved_as_this_machines_is_said_at_every_opening(arena: Any) -> None:
    """QA s46 helper-141 F1: the MCP server, first to open a shipped state, set it aside
    and saved it sealed as this machine's; the workbench then opened it with no word, and
    two u's (the agent's accept, then the set-aside) removed notes.txt."""
    from reviewtui.core.engine import Decision

    (arena.root / "a.txt").write_text("a\n")
    (arena.root / "notes.txt").write_text("precious\n")
    session = _shipped(arena, "/elsewhere/project")
    with Review.open(session, arena.root) as first:  # (as a writer would: saved on close)
        first.decide((1, 0), Decision.reject())
    state = session.with_name("s.md.review.json")
    assert b'"seal"' in state.read_bytes()  # saved as this machine's
    with Review.open(session, arena.root) as review:
        (notice,) = [p for p in review.state_problems if "set aside" in p]
        assert "saved for /elsewhere/project are set aside" in notice
        assert "u back past the step that set them aside takes them in" in notice
        assert (arena.root / "notes.txt").read_text() == "precious\n"
        undone = [describe_step(entry) for entry in reversed(fold(review._log).applied)]
        assert undone[1] == ("taken in: the 2 decision(s) of the review state saved for "
                             "/elsewhere/project, set aside when it was opened")
    assert (arena.root / "notes.txt").read_text() == "precious\n"


def test_an_export_never_reads_the_folder_a_state_not_sealed_here_names(
        arena: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """QA s46 helper-141 F9: without --root, an export read the project a shipped state
    named (the user's home) and printed its lines as context."""
    (arena.root / "a.txt").write_text("a\nsecret line\n")
    (arena.root / "notes.txt").write_text("precious\n")
    session = _shipped(arena, str(arena.root.resolve()))
    assert main(["export", str(session), "--format", "patch"]) == 2
    captured = capsys.readouterr()
    assert "secret line" not in captured.out + captured.err
    assert "pass --root" in captured.err
    sealed = _shipped(arena, str(arena.root.resolve()), seal=True)  # this machine's: read
    assert main(["export", str(sealed), "--format", "patch"]) == 0
    captured = capsys.readouterr()
    assert "secret line" in captured.out
    assert "the root the review state names" in captured.err


def test_restore_says_a_state_set_aside_has_nothing_to_restore_from(
        arena: Any, capsys: pytest.CaptureFixture[str]) -> None:
    """QA s46 helper-143 F8: restore of a state not sealed here (the user's own, saved
    before seals) said "the disk already matches checkpoint 0", exit 0, with a file the
    review had removed still gone."""
    (arena.root / "a.txt").write_text("a\n")
    (arena.root / "notes.txt").write_text("precious\n")
    session = _shipped(arena, str(arena.root.resolve()))
    state = session.with_name("s.md.review.json")
    for extra in ([], ["--yes"]):
        assert main(["restore", str(session), "--root", str(arena.root), "--state",
                     str(state), "--checkpoint", "0", *extra]) == 2
        err = capsys.readouterr().err
        assert "[state-aside]" in err
        assert "nothing to restore from" in err


def test_a_shipped_states_own_words_of_a_set_aside_are_not_shown(arena: Any) -> None:
    """QA s46 helper-143 F9: a shipped state's log held a step labelled "by you in this
    workbench on this machine (sealed)"; that label was shown as fact, and one u
    took its decisions in under it."""
    (arena.root / "a.txt").write_text("a\n")
    (arena.root / "notes.txt").write_text("precious\n")
    session = _shipped(arena, str(arena.root.resolve()))
    state = session.with_name("s.md.review.json")
    log = json.loads(state.read_text())["log"]
    pending = {"kind": "decide", "aside": "by you in this workbench (sealed)",
               "items": [{**item, "verdict": "pending"} for entry in log
                         for item in entry["items"]]}
    forge_state(state, log=[*log, pending], seal=False)
    with Review.open(session, arena.root) as review:
        assert not any("by you" in p for p in review.state_problems), review.state_problems
        steps = [describe_step(entry) for entry in fold(review._log).applied]
        assert not any("by you" in step for step in steps)
        # Its history is not kept as steps (helper-144 F6): its decisions, set aside by its
        # own step, are under one step of this opening's words (helper-145 F6).
        assert not review.can_redo
        step = review.next_step()
        assert step is not None
        assert step.aside == "by another program or machine"
    assert (arena.root / "notes.txt").read_text() == "precious\n"


@pytest.mark.parametrize("tail", ["pending", "undo"])
def test_no_u_or_redo_reaches_a_shipped_states_own_steps(arena: Any, tail: str) -> None:
    """QA s46 helper-144 F6: a shipped log ending in a step back to pending (or in an undo)
    needed no set-aside; the first u (or U) then took its decisions in, said as the
    reviewer's own step, and removed notes.txt."""
    (arena.root / "a.txt").write_text("a\n")
    (arena.root / "notes.txt").write_text("precious\n")
    session = _shipped(arena, str(arena.root.resolve()))
    state = session.with_name("s.md.review.json")
    log = json.loads(state.read_text())["log"]
    last = ({"kind": "decide", "items": [{**item, "verdict": "pending"} for entry in log
                                         for item in entry["items"]]}
            if tail == "pending" else {"kind": "undo"})
    forge_state(state, log=[*log, last], seal=False)
    with Review.open(session, arena.root) as review:
        assert not review.can_redo
        if tail == "undo":  # its one decision in force, under the set-aside step
            entry = review.next_step()
            assert entry is not None
            assert entry.aside, entry
            review.undo()
            assert review.result((1, 0)).decision.verdict is Verdict.ACCEPTED
        else:
            assert not review.can_undo
    # The undone removal of notes.txt was never in force: no step reaches it.
    assert (arena.root / "notes.txt").read_text() == "precious\n"


def test_a_review_another_machine_set_aside_comes_back_whole(
        arena: Any, monkeypatch: pytest.MonkeyPatch) -> None:
    """QA s46 helper-145 F6: machine A's review, opened on machine B (set aside, saved
    with B's seal), then on A again: its log was emptied, A's decisions nowhere."""
    from reviewtui.shell import stateseal

    (arena.root / "a.txt").write_text("a\n")
    (arena.root / "notes.txt").write_text("precious\n")
    session = _shipped(arena, str(arena.root.resolve()), seal=True)  # (A's own)
    home = os.environ.get("XDG_STATE_HOME", "")
    monkeypatch.setenv("XDG_STATE_HOME", str(arena.work / "machine-b"))
    monkeypatch.setattr(stateseal, "_key", [])
    with Review.open(session, arena.root) as review:  # B: set aside, saved B's
        assert review.set_aside
    monkeypatch.setenv("XDG_STATE_HOME", home)
    monkeypatch.setattr(stateseal, "_key", [])
    with Review.open(session, arena.root) as review:  # A again: not A's seal now
        assert review.next_step() is not None
        assert review.next_step().aside  # type: ignore[union-attr]
        review.undo()  # read, and taken in
        assert review.result((2, 0)).decision.verdict is Verdict.ACCEPTED
    assert not (arena.root / "notes.txt").exists()
