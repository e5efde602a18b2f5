"""SIGKILL a child replaying a large review at many random points; nothing is lost.

A child process opens a 200-file review and decides its operations one by one, printing
a line after each decision returns (the decision is saved before its replay starts).
The parent kills it with SIGKILL at a seeded random point (while it loads, while it
decides, between decisions), then checks:

* every file is byte-identical to its old or its new content (atomic writes);
* the state file parses;
* reopening loses no decision the child reported, and finishes the replay, so the disk
  equals the decisions exactly.

The next child resumes from there. Fifty kills, each landing before the child was done:
when a child got through every decision, the kill after it proved nothing and is not
counted, and the next child starts a fresh round (a new project and session). A round
has 60 files: opening and re-checking the review after each kill costs about half of what
200 did, and the rounds keep the number of kills that fall in real work.

Each child is forked from a ``multiprocessing`` fork server that imported the child's
module (``crashkit``, which imports only reviewtui) once: a separate process, killed with
SIGKILL like any other, that does not spend its first tenth of a second importing modules
(that cost the test most of its time, and a kill landing in an import proved nothing). A
start-up kill therefore falls in what matters, opening the review and its catch-up replay.
"""

from __future__ import annotations

import json
import multiprocessing
import multiprocessing.context
import os
import random
import signal
import time
from multiprocessing.connection import Connection
from pathlib import Path

import crashkit
import pytest

from diskkit import Ed, make_project, write_session
from reviewtui.core.engine import Decision
from reviewtui.shell.review import Review

FILES = 60
TURNS = 6
KILLS = 50
SEED = 20240917


def _forkserver() -> multiprocessing.context.ForkServerContext:
    context = multiprocessing.get_context("forkserver")
    # The child's own module (crashkit) and what it imports, once, in the server.
    context.set_forkserver_preload(["crashkit"])
    return context


def _drain(reader: Connection) -> list[str]:
    """Every whole message the dead child left in the pipe."""
    out = []
    while reader.poll():
        try:
            out.append(reader.recv_bytes().decode())
        except EOFError:
            break
    return out


def name(i: int) -> str:
    return f"d{i // 10:02}/f{i:03}.txt"  # folders of 10, like a real project


def old_content(i: int) -> bytes:
    lines = [f"# file {i}", f"name = 'f{i:03}'", f"value = {i}", "", "def f():",
             f"    return {i} * 2", ""] + [f"filler_{i}_{n} = {n}" for n in range(8)]
    return ("\n".join(lines) + "\n").encode()


def new_content(i: int) -> bytes:
    return old_content(i).replace(f"value = {i}\n".encode(), f"value = {i + 1000}\n".encode())


def expected_decision(key: tuple[int, int]) -> Decision:
    return Decision.accept() if crashkit.verdict_of(*key) == "accepted" else Decision.reject()


def fresh_round(folder: Path) -> tuple[Path, Path, Path]:
    """(session, project root, state file) of an undecided review under ``folder``."""
    per_turn = FILES // TURNS
    turns = [[Ed(name(t * per_turn + p), f"value = {t * per_turn + p}",
                 f"value = {t * per_turn + p + 1000}") for p in range(per_turn)]
             for t in range(TURNS)]
    session = write_session(folder / "session", turns)
    root = make_project(folder / "proj", {name(i): old_content(i) for i in range(FILES)})
    return session, root, session.with_name("s.md.review.json")


@pytest.mark.slow
def test_sigkill_at_random_points_loses_nothing(tmp_path: Path) -> None:
    per_turn = FILES // TURNS
    rounds = 1
    session, root, state = fresh_round(tmp_path / "round1")
    file_of = {(t + 1, p): t * per_turn + p for t in range(TURNS) for p in range(per_turn)}
    rng = random.Random(SEED)
    # Random order within each turn, last turn first: a decision re-evaluates the turns
    # from its own on, and the time should go to being killed, not to re-evaluating.
    order = sorted(file_of, key=lambda key: (-key[0], rng.random()))
    order_arg = ",".join(f"{t}:{p}" for t, p in order)
    reported: dict[tuple[int, int], str] = {}  # this round's
    reported_before = 0  # the earlier rounds'
    kills = 0
    segments = 0  # log segments the state files named, summed over the kills
    context = _forkserver()
    while kills < KILLS:
        reader, writer = context.Pipe(duplex=False)
        child = context.Process(target=crashkit.child, daemon=True,
                                args=(str(session), str(root), order_arg, writer))
        child.start()
        writer.close()
        lines: list[str] = []
        if rng.random() < 0.2:  # somewhere in opening the review and its catch-up replay
            time.sleep(rng.uniform(0.0, 0.05))
        else:
            lines.append(reader.recv_bytes().decode())
            assert lines[0] == "ready"
            for _ in range(rng.randint(0, 3)):
                lines.append(reader.recv_bytes().decode())
                if not lines[-1].startswith("saved"):
                    break
            time.sleep(rng.uniform(0.0, 0.03))
        assert child.pid is not None
        os.kill(child.pid, signal.SIGKILL)
        child.join()
        assert child.exitcode == -signal.SIGKILL  # killed, not exited by itself
        # What the child sent before it died, including the messages read above.
        sent = [*lines, *_drain(reader)]
        for line in sent:
            if line.startswith("saved"):
                _, turn, pos, verdict = line.split()
                reported[(int(turn), int(pos))] = verdict
        reader.close()
        done = "done" in sent  # every decision made: this kill fell after the work
        if not done:
            kills += 1
        for i in range(FILES):
            data = (root / name(i)).read_bytes()
            assert data in (old_content(i), new_content(i)), f"{name(i)} is torn"
        if reported or state.exists():  # a kill early in a round's first open saved nothing
            segments += len(json.loads(state.read_text()).get("log_segments", []))
        with Review.open(session, root) as review:
            assert review.state_problems == []
            decisions = review.decisions
            for key, verdict in reported.items():
                assert key in decisions, f"decision {key} was lost"
                assert decisions[key].verdict == verdict
            for key, decision in decisions.items():
                assert decision == expected_decision(key)
            for key, index in file_of.items():
                accepted = key in decisions and decisions[key] == Decision.accept()
                wanted = new_content(index) if accepted else old_content(index)
                assert (root / name(index)).read_bytes() == wanted
        # A killed write leaves its temp file; the next holder of the lock removes it.
        assert [p.name for p in root.rglob("*.reviewtui-tmp")] == []
        if done:
            assert len(decisions) == len(file_of)
            reported_before += len(reported)
            reported = {}
            rounds += 1
            session, root, state = fresh_round(tmp_path / f"round{rounds}")
    assert kills == KILLS
    assert segments > KILLS  # the children's logs went to segment blobs (crashkit)
    assert reported_before + len(reported) > KILLS  # the kills fell between real progress
