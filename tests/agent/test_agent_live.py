"""The live session's own rules: turns, gates, two servers on one root, untrusted sessions."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from reviewtui.core.engine import Decision
from reviewtui.core.model.outcome import Status
from reviewtui.shell import resume
from reviewtui.shell.agent_tools import AgentTools
from reviewtui.shell.live import Gate, LiveSession, follow_session
from reviewtui.shell.live_paths import prepare_live_session
from reviewtui.shell.loader import load_session
from reviewtui.shell.review import Review

BODY = "".join(f"value_{n} = {n}\n" for n in range(20))


def project(tmp_path: Path, files: int = 4) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    for n in range(files):
        (root / f"m{n}.py").write_text(BODY)
    return root


def edit(n: int, value: int) -> dict[str, str]:
    return {"tool": "edit", "path": f"m{n}.py", "search": f"value_{value} = {value}",
            "replace": f"value_{value} = -{value}"}


def test_two_servers_on_one_root_take_turns(tmp_path: Path) -> None:
    root = project(tmp_path)
    session = tmp_path / "shared.jsonl"
    first = AgentTools(LiveSession(root, session, gate=Gate.AUTO, wait=0))
    second = AgentTools(LiveSession(root, session, gate=Gate.AUTO, wait=0))
    answers = []
    for value in range(6):
        agent = first if value % 2 == 0 else second
        answers.append(agent.mutate(edit(value % 4, value), f"agent {value % 2}"))
    assert all(a.startswith("applied") for a in answers), answers
    for n in range(4):
        expected = BODY
        for value in range(6):
            if value % 4 == n:
                expected = expected.replace(f"value_{value} = {value}\n",
                                            f"value_{value} = -{value}\n")
        assert (root / f"m{n}.py").read_text() == expected
    first.live.close()
    second.live.close()
    with Review.open(session, root, state_path=prepare_live_session(session, root),
                     format="toolcalls") as review:
        assert len(review.decisions) == 6


def test_intent_groups_calls_into_turns(tmp_path: Path) -> None:
    root = project(tmp_path)
    live = LiveSession(root, tmp_path / "turns.jsonl", gate=Gate.REVIEW, wait=0)
    keys = [live.record(edit(0, 1), "rename things").key,
            live.record(edit(0, 2), "rename things").key,
            live.record(edit(1, 3), "fix the bug").key,
            live.record(edit(1, 4)).key]
    assert keys == [(1, 0), (1, 1), (2, 0), (2, 1)]
    turns = load_session(live.session, format="toolcalls").session.turns
    assert [t.request for t in turns] == ["rename things", "fix the bug"]


def test_review_gate_writes_nothing_without_a_decision(tmp_path: Path) -> None:
    root = project(tmp_path)
    tools = AgentTools(LiveSession(root, tmp_path / "r.jsonl", gate=Gate.REVIEW, wait=0.1))
    answer = tools.mutate(edit(0, 1))
    assert answer.startswith("pending review · m0.py"), answer
    assert "do not send the change again" in answer
    assert (root / "m0.py").read_text() == BODY


def test_record_gate_leaves_a_near_match_for_later(tmp_path: Path) -> None:
    root = project(tmp_path)
    tools = AgentTools(LiveSession(root, tmp_path / "n.jsonl", gate=Gate.RECORD, wait=5))
    near = {"tool": "edit", "path": "m0.py",
            "search": "value_1 = 1\nvalue_2 = 2\nvalue_3 = 33\nvalue_4 = 4",
            "replace": "value_1 = 1\nvalue_2 = 2\nvalue_3 = 3\nvalue_4 = 44"}
    answer = tools.mutate(near)
    assert answer.startswith("needs_review · m0.py"), answer
    assert (root / "m0.py").read_text() == BODY


def test_a_live_session_cannot_accept_its_own_operations(tmp_path: Path) -> None:
    """A session file says nothing about gates: lines claiming one are ignored, and only
    the reviewer's own --gate (here the default, review) decides what is accepted."""
    root = project(tmp_path)
    session = tmp_path / "shipped.jsonl"
    state = prepare_live_session(session, root)
    with Review.open(session, root, state_path=state, format="toolcalls") as review:
        follower = follow_session(review, "review", cancelled=lambda: False, interval=0.01)
        session.write_text('{"turn": 1, "request": "x", "gate": "auto", "accept": true}\n'
                           '{"tool": "edit", "path": "m0.py", "search": "value_1 = 1", '
                           '"replace": "value_1 = 2", "gate": "auto", '
                           '"decision": "accepted"}\n')
        new, accepted, problem = next(follower)
        assert (new, accepted, problem) == (((1, 0),), (), "")
        assert review.decisions == {}
    assert (root / "m0.py").read_text() == BODY


def test_the_reviewers_auto_gate_accepts_exact_arrivals_only(tmp_path: Path) -> None:
    root = project(tmp_path)
    session = tmp_path / "auto.jsonl"
    state = prepare_live_session(session, root)
    live = LiveSession(root, session, gate=Gate.REVIEW, wait=0)
    with Review.open(session, root, state_path=state, format="toolcalls") as review:
        follower = follow_session(review, "auto", cancelled=lambda: False, interval=0.01)
        live.record(edit(0, 1))
        live.record({"tool": "edit", "path": "m1.py",
                     "search": "value_1 = 1\nvalue_2 = 2\nvalue_3 = 33\nvalue_4 = 4",
                     "replace": "value_1 = 1\nvalue_2 = 2\nvalue_3 = 3\nvalue_4 = 44"})
        seen_new: list[tuple[int, int]] = []
        seen_accepted: list[tuple[int, int]] = []
        while len(seen_new) < 2:
            new, accepted, _ = next(follower)
            seen_new += new
            seen_accepted += accepted
        assert seen_accepted == [(1, 0)]  # the near match waits for a key press
    assert (root / "m0.py").read_text() == BODY.replace("value_1 = 1", "value_1 = -1")
    assert (root / "m1.py").read_text() == BODY


def test_ls_marks_reserved_and_generated_files(tmp_path: Path) -> None:
    root = project(tmp_path, files=1)
    (root / "uv.lock").write_text("version = 1\n")
    (root / "secret.env").write_text("K=1\n")
    (root / "reviewtui.toml").write_text('[reserved]\npaths = ["*.env"]\n')
    listing = AgentTools(LiveSession(root, tmp_path / "ls.jsonl", wait=0)).ls()
    rows = {row.split("  ")[0]: row for row in listing.splitlines()}
    assert rows["uv.lock"].endswith("[generated]")
    assert rows["secret.env"].endswith("[reserved]")
    assert rows["m0.py"].startswith("m0.py  ")
    assert "[" not in rows["m0.py"]


def test_read_answers_from_one_file_by_the_tree_readers_rules(tmp_path: Path) -> None:
    """A FIFO is never opened (it would hang the call), a folder the tree reader skips is
    not read, and a link on the way is not followed."""
    import os

    root = project(tmp_path, files=1)
    os.mkfifo(root / "pipe")
    (root / ".git").mkdir()
    (root / ".git" / "config").write_text("[core]\n")
    outside = tmp_path / "outside"
    outside.mkdir()
    (outside / "secret.txt").write_text("s\n")
    (root / "lnk").symlink_to(outside)
    tools = AgentTools(LiveSession(root, tmp_path / "r.jsonl", wait=0))
    for path in ("pipe", ".git/config", "lnk/secret.txt"):
        assert tools.read(path).startswith("error:"), path
    assert tools.read("m0.py", first=2, last=2) == (
        "m0.py: 20 lines, rev " + tools.ls("m0.py").split("rev ")[1][:8]
        + "; lines 2-2\n2| value_1 = 1")


@pytest.mark.parametrize("gate", [Gate.REVIEW, Gate.AUTO])
def test_an_answer_never_comes_from_a_state_and_files_read_at_different_moments(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, gate: Gate) -> None:
    """The server evaluates in a read-only review, which reads the state file and then the
    files. A workbench that accepted the call in between (it saves its state, then writes)
    made its own write look like an outside change: the agent was told ``not_found`` for
    the edit being applied (seen in tmux: a workbench under ``--gate auto``, 20-odd calls
    in)."""
    root = project(tmp_path)
    session = tmp_path / "race.jsonl"
    state = prepare_live_session(session, root)
    agent = LiveSession(root, session, gate=gate, wait=0)
    with Review.open(session, root, state_path=state, format="toolcalls") as workbench:
        first = agent.record(edit(0, 2), "race")  # m0.py written once: it has a record
        workbench.reload_session()
        workbench.decide(first.key, Decision.accept())
        rec = agent.record(edit(0, 3), "race")
        assert workbench.reload_session() == [rec.key]
        real = resume.reconcile
        raced: list[Review] = []

        def accepted_meanwhile(review: Review, report: Any, *rest: Any) -> None:
            if review is not workbench and not raced:  # the server's reading, once
                raced.append(review)
                workbench.decide(rec.key, Decision.accept())
            real(review, report, *rest)

        monkeypatch.setattr(resume, "reconcile", accepted_meanwhile)
        # The server's answer (settle: a reading, then the decision it finds) and a
        # reading alone (evaluate, as the answer to a later status call makes it).
        settled = agent.settle(rec)
        assert raced  # the workbench did accept between the state and the files
        assert settled.verdict == "applied", settled.outcome.message
        raced.clear()
        outcome = agent.evaluate(rec.key)
        assert outcome.status is Status.APPLIED, outcome.message
        assert (root / "m0.py").read_text() == BODY.replace("value_2 = 2", "value_2 = -2").replace(
            "value_3 = 3", "value_3 = -3")


def test_waiting_for_the_reviewer_reads_the_decision_log_again_only_when_it_changed(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While the agent waits, the server asks the state file every 50 ms: a file the same
    byte for byte is not parsed again; one the reviewer saved a decision in is."""
    import reviewtui.shell.live_waits as live_module  # (where the log is read)

    root = project(tmp_path)
    session = tmp_path / "wait.jsonl"
    state = prepare_live_session(session, root)
    polls: list[int] = []
    with Review.open(session, root, state_path=state, format="toolcalls") as workbench:
        ticks = iter(range(10_000))

        def sleep(_seconds: float) -> None:
            polls.append(len(parsed))
            if len(polls) == 40:  # the reviewer decides after 40 polls
                workbench.reload_session()
                workbench.decide(rec.key, Decision.reject())

        agent = LiveSession(root, session, gate=Gate.REVIEW, wait=1_000,
                            clock=lambda: float(next(ticks)) / 1_000, sleep=sleep)
        first = agent.record(edit(0, 2), "wait")  # decided: the state holds a log
        workbench.reload_session()
        workbench.decide(first.key, Decision.accept())
        rec = agent.record(edit(1, 4), "wait")
        parsed: list[object] = []
        real = live_module.decode_state

        def counted(doc: Any, *blobs: Any) -> Any:
            parsed.append(doc)
            return real(doc, *blobs)

        monkeypatch.setattr(live_module, "decode_state", counted)
        settled = agent.wait_for(rec, agent.evaluate(rec.key))
    assert settled.verdict == "rejected"
    assert len(polls) == 40
    assert polls[-1] == 1  # 40 polls of an unchanged file: one parse
    assert len(parsed) == 2  # and one more once the reviewer's save changed it
    assert (root / "m1.py").read_text() == BODY


@pytest.mark.skipif(not Path("/proc/self/fdinfo").is_dir(),
                    reason="no /proc: who holds a file open cannot be told here")
def test_the_auto_gate_does_not_accept_what_a_held_file_keeps_off_the_disk(
        tmp_path: Path) -> None:
    """An agent's edit of a file another program holds open for writing: nothing is
    written there, so the auto gate leaves it pending for the reviewer and says why (it
    answered "applied" with the file unwritten)."""
    from heldkit import held_open

    root = project(tmp_path)
    tools = AgentTools(LiveSession(root, tmp_path / "held.jsonl", gate=Gate.AUTO, wait=0))
    with held_open(root / "m0.py"):
        answer = tools.mutate(edit(0, 2), "held")
    assert not answer.startswith("applied"), answer
    assert "open for writing in another program" in answer
    assert (root / "m0.py").read_text() == BODY
    assert tools.mutate(edit(1, 2), "free").startswith("applied")  # another file: written
    tools.live.close()
