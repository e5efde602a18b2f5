"""A call whose failure a pending change explains waits for the reviewer, and a waiting
call that can no longer land is answered at once (QA pass s32, F2 and F5).

F2: an edit of a file whose removal waited for the reviewer was answered ``not_found ...
does not exist`` (the disk still held the file); when the reviewer rejected the removal,
the workbench's own gate wrote the edit the agent had been told failed. F5: a change built
on one the reviewer then rejected was answered only when ``--wait`` ran out, with
"pending review", while the workbench already showed it not found.
"""

from __future__ import annotations

import time
from pathlib import Path
from typing import Any

from reviewtui.core.engine import Decision
from reviewtui.shell.agent_tools import AgentTools
from reviewtui.shell.live import Gate, LiveSession
from reviewtui.shell.live_paths import prepare_live_session
from reviewtui.shell.review import Review

APP = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"


def _project(tmp_path: Path) -> tuple[Path, Path, Path]:
    root = tmp_path / "root"
    root.mkdir()
    (root / "app.py").write_text(APP)
    session = tmp_path / "live.jsonl"
    return root, session, prepare_live_session(session, root)


def test_an_edit_of_a_file_whose_removal_waits_waits_too(tmp_path: Path) -> None:
    root, session, state = _project(tmp_path)
    tools = AgentTools(LiveSession(root, session, gate=Gate.REVIEW, wait=0))
    try:
        removal = tools.live.record({"tool": "delete", "path": "app.py"}, "cleanup")
        assert tools._answer(removal, tools.live.settle(removal)).startswith(
            "pending review · app.py")
        rec = tools.live.record({"tool": "edit", "path": "app.py",
                                 "search": "    return a - b",
                                 "replace": "    return a - b - 0"}, "cleanup")
        answer = tools._answer(rec, tools.live.settle(rec))
        assert answer.startswith("pending review · app.py"), answer
        assert "does not exist" not in answer
        assert ("as the review stands it is not found, but op 1.1 :rm app.py, which "
                "waits for the reviewer, changes that path before it") in answer, answer
        # The reviewer keeps the file: the edit is still the reviewer's to decide, and
        # nothing is written meanwhile, as the agent was told.
        with Review.open(session, root, state_path=state, format="toolcalls") as workbench:
            workbench.decide(removal.key, Decision.reject())
            assert str(workbench.outcome(rec.key).status) == "applied"
        assert (root / "app.py").read_text() == APP
        assert tools.status().splitlines()[1] == "op 2.1 edit app.py: pending review"
    finally:
        tools.live.close()


def test_a_waiting_call_whose_predecessor_is_rejected_is_answered_at_once(
        tmp_path: Path) -> None:
    root, session, state = _project(tmp_path)
    clock = [0.0]
    live = LiveSession(root, session, gate=Gate.REVIEW, wait=30,
                       clock=lambda: clock[0], sleep=lambda s: None)
    tools = AgentTools(live)
    try:
        rename = live.record({"tool": "edit", "path": "app.py", "search": "def sub(a, b):",
                              "replace": "def subtract(a, b):"}, "chain")
        built = live.record({"tool": "edit", "path": "app.py",
                             "search": "def subtract(a, b):\n    return a - b",
                             "replace": "def subtract(a, b):\n    return b - a"}, "chain")
        with Review.open(session, root, state_path=state, format="toolcalls") as workbench:
            ticks = []

            def sleep(_seconds: float) -> None:  # the reviewer rejects the rename meanwhile
                ticks.append(clock[0])
                if len(ticks) == 3:
                    workbench.decide(rename.key, Decision.reject())
                clock[0] += 0.05

            live.sleep = sleep
            answer = tools._answer(built, live.settle(built))
        assert answer.startswith("not_found · app.py"), answer
        # ... naming the change it built on (QA s44 helper-135 F6: it said only "SEARCH
        # not found", naming nothing)
        assert ("it may have built on op 1.1 edit app.py, which the reviewer rejected"
                in answer), answer
        assert clock[0] < 1, "answered at once, not when --wait ran out"
        assert (root / "app.py").read_text() == APP
    finally:
        live.close()


def test_an_accept_that_ends_in_a_conflict_is_not_answered_applied(tmp_path: Path) -> None:
    """QA pass s32, F4: the user changed the line a waiting edit changes; the reviewer's
    ``y`` made a conflict and wrote nothing, and the agent was told ``applied``."""
    root, session, state = _project(tmp_path)
    clock = [0.0]
    live = LiveSession(root, session, gate=Gate.REVIEW, wait=30,
                       clock=lambda: clock[0], sleep=lambda s: None)
    tools = AgentTools(live)
    user = APP.replace("return a - b", "return a - b - 0  # user")
    try:
        rec = live.record({"tool": "edit", "path": "app.py", "search": "    return a - b",
                           "replace": "    return a - b  # agent"}, "task")
        with Review.open(session, root, state_path=state, format="toolcalls") as workbench:

            def sleep(_seconds: float) -> None:  # while it waits: the user, then the reviewer
                if clock[0] == 0:
                    (root / "app.py").write_text(user)
                    workbench.decide(rec.key, Decision.accept())
                    assert "app.py" in workbench.conflicts
                clock[0] += 0.05

            live.sleep = sleep
            answer = tools._answer(rec, live.settle(rec))
    finally:
        live.close()
    assert (root / "app.py").read_text() == user
    assert answer.startswith("accepted · app.py"), answer
    assert ("not written: the reviewer accepted it, but app.py was changed outside where "
            "it writes, so nothing of it is on disk") in answer, answer


def test_a_reject_that_cannot_take_a_write_back_says_so(tmp_path: Path) -> None:
    """QA pass s32, F9: the user appended to a file the agent rewrote; the reviewer's
    reject could not put the original back (a conflict: the user's line is kept), and
    ``status`` said ``rejected`` while the agent's content was still on disk."""
    root, session, state = _project(tmp_path)
    tools = AgentTools(LiveSession(root, session, gate=Gate.AUTO, wait=0))
    try:
        answer = tools.mutate({"tool": "write", "path": "app.py", "content": "# new\n"})
        assert answer.startswith("applied · app.py"), answer
        with Review.open(session, root, state_path=state, format="toolcalls") as workbench:
            (root / "app.py").write_text("# new\nuser line\n")
            workbench.decide((1, 0), Decision.reject())
            assert "app.py" in workbench.conflicts
        status = tools.status()
    finally:
        tools.live.close()
    assert (root / "app.py").read_text() == "# new\nuser line\n"
    assert status == ("op 1.1 write app.py: rejected, not taken off the disk: the file was "
                      "changed outside the review where this writes; the reviewer settles it")


def test_a_line_call_the_review_cannot_place_says_why_and_what_works(tmp_path: Path) -> None:
    """QA pass s32, F6: after the user changed the file outside, every line-addressed call
    was refused "view the file again", naming a revision no tool returns; a fresh read
    could not help. A call whose lines are certainly the same in the review's version is
    carried there now (tests/agent/test_agent_line_frames.py); one that is not (right
    under the user's lines: its neighbour is not in the review's version) says why and
    points to search/replace."""
    root, _session, _state = _project(tmp_path)
    tools = AgentTools(LiveSession(root, tmp_path / "s.jsonl", gate=Gate.AUTO, wait=0))
    try:
        first = tools.mutate({"tool": "edit", "path": "app.py", "search": "    return a + b",
                              "replace": "    return a + b + 0"})
        assert first.startswith("applied · app.py"), first
        (root / "app.py").write_text("def user():\n    pass\n\n\n"
                                     + (root / "app.py").read_text())
        read = tools.read("app.py")
        revision = read.splitlines()[0].split("rev ")[1].split()[0].rstrip(";")
        answer = tools.mutate({"tool": "line_replace", "path": "app.py", "from": 5, "to": 5,
                               "content": "def add(b, a):", "expectedRevision": revision})
        carried = tools.mutate({"tool": "line_replace", "path": "app.py", "from": 10,
                                "to": 10, "content": "    return a - b - 0",
                                "expectedRevision": revision})
        by_content = tools.mutate({"tool": "edit", "path": "app.py",
                                   "search": "    return a - b - 0", "replace": "    return b - a"})
    finally:
        tools.live.close()
    assert answer.startswith("refused · app.py"), answer
    assert ("app.py on disk is at that revision, but the review's version of it differs"
            in answer), answer
    assert "Send this change as an edit (search/replace)" in answer
    assert carried.startswith("applied · app.py · lines 10-10"), carried
    assert by_content.startswith("applied · app.py"), by_content
    assert (root / "app.py").read_text().endswith("def sub(a, b):\n    return b - a\n")


def test_an_applied_answer_waits_for_the_workbench_s_write(tmp_path: Path,
                                                             monkeypatch: Any) -> None:
    """QA pass s32, F8: the workbench saves a decision, then writes; the server answered
    from the saved decision in between, with the revision from before the write (3 of 6
    runs of t34), and a follow-up sending that revision was refused."""
    import threading

    import reviewtui.shell.replay as replay_module

    root, session, state = _project(tmp_path)
    live = LiveSession(root, session, gate=Gate.REVIEW, wait=20)
    tools = AgentTools(live)
    real = replay_module.write_in_order

    def slow(*args: Any, **kwargs: Any) -> None:  # the write comes 0.4 s after the save
        time.sleep(0.4)
        real(*args, **kwargs)

    monkeypatch.setattr(replay_module, "write_in_order", slow)
    try:
        rec = live.record({"tool": "edit", "path": "app.py", "search": "    return a - b",
                           "replace": "    return b - a"}, "task")
        with Review.open(session, root, state_path=state, format="toolcalls") as workbench:
            deciding = threading.Thread(
                target=lambda: workbench.decide(rec.key, Decision.accept()))
            deciding.start()
            answer = tools._answer(rec, live.settle(rec))
            deciding.join()
        listed = tools.ls("app.py")
    finally:
        live.close()
    assert answer.startswith("applied · app.py"), answer
    assert answer.split("rev ")[1].split()[0] == listed.split("rev ")[1].split()[0]


def test_a_write_refused_over_a_folder_a_pending_write_makes_waits_for_it(
        tmp_path: Path) -> None:
    """QA pass s32, F15: with a write of build/out.txt waiting for the reviewer, a write of
    the file ``build`` was refused "it is a directory" (none on disk); rejecting the first
    lets it land, so it waits, naming the write that makes the folder."""
    root, session, state = _project(tmp_path)
    tools = AgentTools(LiveSession(root, session, gate=Gate.REVIEW, wait=0))
    try:
        inside = tools.live.record({"tool": "write", "path": "build/out.txt",
                                    "content": "x\n"}, "build")
        tools.live.settle(inside)
        answer = tools.mutate({"tool": "write", "path": "build", "content": "file\n"},
                              "build")
        assert answer.startswith("pending review · build"), answer
        assert ("as the review stands it is refused, but op 1.1 write build/out.txt, which "
                "waits for the reviewer") in answer, answer
        with Review.open(session, root, state_path=state, format="toolcalls") as workbench:
            workbench.decide(inside.key, Decision.reject())
            assert str(workbench.outcome((1, 1)).status) == "applied"
    finally:
        tools.live.close()
