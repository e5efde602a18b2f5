"""Work shared with forked children (``shell/forked.py``): the answer is always what the
same work gives in one process, whatever the children do."""

from __future__ import annotations

import os
import signal
import threading
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

import reviewtui.shell.forked as forked
from reviewtui.cli import main
from reviewtui.core.engine import Policy, evaluate_session
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.protocol.session import parse_session
from reviewtui.core.review.landed import diagnose_landed

needs_fork = pytest.mark.skipif(not hasattr(os, "fork"), reason="no os.fork on this system")


@pytest.fixture
def forks_allowed(monkeypatch: pytest.MonkeyPatch) -> None:
    """The suite's runner may keep a thread of its own: these tests fork anyway (their
    children compute, write a pipe and leave, touching no lock the thread could hold)."""
    monkeypatch.setattr(forked, "_can_fork", lambda: True)


@given(st.lists(st.integers(0, 50), max_size=30), st.integers(1, 12), st.integers(1, 40),
       st.integers(0, 200))
def test_shares_hold_every_item_once_and_are_balanced(weights: list[int], workers: int,
                                                      share: int, head_start: int) -> None:
    shares = forked.plan_shares(weights, workers, share, head_start)
    flat = sorted(i for indices in shares for i in indices)
    assert flat == list(range(len(weights)))
    assert all(indices == sorted(indices) for indices in shares)
    assert all(shares[1:])  # only this process's share may be empty
    assert len(shares) <= max(1, min(workers, forked.MAX_WORKERS))
    if sum(weights) + head_start < 2 * share:
        assert len(shares) == 1
    loads = [sum(weights[i] for i in indices) for indices in shares]
    loads[0] += head_start  # what this process does before its share
    if len(loads) > 1 and shares[0]:  # heaviest first into the lightest: within one item
        assert max(loads) - min(loads) <= max(weights)


def test_a_head_start_leaves_this_process_the_lighter_share() -> None:
    assert forked.plan_shares([10] * 8, 2, 1, head_start=20) == [[2, 4, 6], [0, 1, 3, 5, 7]]


def _tagged(item: int) -> list[int]:
    return [item * 3, os.getpid()]


@needs_fork
@pytest.mark.usefixtures("forks_allowed")
def test_children_compute_shares_and_the_answers_come_back_in_order() -> None:
    items = list(range(40))
    found = forked.forked_map(items, _tagged, [1] * len(items), share=1, workers=4)
    assert [answer[0] for answer in found] == [i * 3 for i in items]  # type: ignore[index]
    pids = {answer[1] for answer in found}  # type: ignore[index]
    assert os.getpid() in pids
    assert len(pids) == 4  # this process and three children


@needs_fork
@pytest.mark.usefixtures("forks_allowed")
def test_a_child_that_fails_or_dies_is_made_up_for_here() -> None:
    parent = os.getpid()

    def failing(item: int) -> int:
        if os.getpid() != parent:
            if item % 2:
                raise RuntimeError("a child's failure")
            os.kill(os.getpid(), signal.SIGKILL)
        return item + 1

    items = list(range(12))
    assert forked.forked_map(items, failing, [1] * 12, share=1, workers=3) == [
        i + 1 for i in items]


@needs_fork
@pytest.mark.usefixtures("forks_allowed")
def test_a_child_whose_answer_json_cannot_carry_is_made_up_for_here() -> None:
    parent = os.getpid()
    items = list(range(6))
    found = forked.forked_map(items, lambda i: {i} if os.getpid() != parent else [i],
                              [1] * 6, share=1, workers=2)
    assert found == [[i] for i in items]


def test_no_fork_while_another_thread_runs(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_fork() -> int:
        raise AssertionError("forked with a thread alive")

    monkeypatch.setattr(os, "fork", no_fork)
    stop = threading.Event()
    thread = threading.Thread(target=stop.wait)
    thread.start()
    try:
        assert forked.forked_map([1, 2, 3], lambda i: i * 2, [10] * 3, share=1,
                                 workers=3) == [2, 4, 6]
    finally:
        stop.set()
        thread.join()


def test_no_fork_for_little_work(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "_can_fork", lambda: True)
    monkeypatch.setattr(os, "fork", lambda: (_ for _ in ()).throw(AssertionError("forked")))
    assert forked.forked_map([1, 2], lambda i: -i, [100, 100], share=150, workers=8) == [-1, -2]


def _module(n: int) -> str:
    return "".join(f"def f{i}(x):\n    y = x + {i}\n    return y\n\n" for i in range(n))


SESSION = """\
## Turn 1
--- File: a.py ---
<<<<<<< SEARCH
    y = x + 3
=======
    y = (x + 3
>>>>>>> REPLACE
--- File: b.py ---
<<<<<<< SEARCH
    y = x + 5
=======
    y = x + 50
>>>>>>> REPLACE
--- File: c.py ---
<<<<<<< SEARCH
def f7(x):
=======
def f7(x, x):
>>>>>>> REPLACE
--- File: d.json ---
<<<<<<< SEARCH
  "a": 1
=======
  "a": 1,
>>>>>>> REPLACE
"""


def _results(session: str = SESSION) -> list:  # type: ignore[type-arg]
    files = {f"{name}.py": FileState.from_bytes(_module(400).encode()) for name in "abc"}
    files["d.json"] = FileState.from_bytes(b'{\n  "a": 1\n}\n')
    run = evaluate_session(parse_session(session), Tree.from_files(files),
                           policy=Policy.headless())
    return [r for t in run.turns for r in t.results]


@needs_fork
@pytest.mark.usefixtures("forks_allowed")
def test_the_forked_report_is_the_report(monkeypatch: pytest.MonkeyPatch) -> None:
    results = _results()
    assert all(r.landed for r in results)
    expected = diagnose_landed(results)
    assert sorted(key for key in expected) == [(1, 0), (1, 2), (1, 3)]  # b.py still parses
    monkeypatch.setattr(forked, "SHARE", 1)
    spawned: list[int] = []
    real = forked._spawn

    def counting(*args):  # type: ignore[no-untyped-def]
        spawned.append(1)
        return real(*args)

    monkeypatch.setattr(forked, "_spawn", counting)
    assert forked.landed_report(results) == expected
    assert spawned  # the files went to children


@needs_fork
@pytest.mark.usefixtures("forks_allowed")
def test_apply_prints_the_same_report_forked_or_not(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        capsys: pytest.CaptureFixture[str]) -> None:
    def run(share: int) -> tuple[int, str]:
        root = tmp_path / f"p{share}"
        root.mkdir()
        for name in "abc":
            (root / f"{name}.py").write_text(_module(400))
        (root / "d.json").write_text('{\n  "a": 1\n}\n')
        session = tmp_path / "s.md"
        session.write_text(SESSION)
        monkeypatch.setattr(forked, "SHARE", share)
        code = main(["apply", "--yes", "--root", str(root), str(session)])
        return code, capsys.readouterr().out.replace(str(root), "ROOT")

    alone, split = run(10**9), run(1)
    assert alone == split
    assert [name for name in ("a.py", "b.py", "c.py", "d.json") if f"{name}:" in alone[1]] == [
        "a.py", "c.py", "d.json"]


@needs_fork
@pytest.mark.usefixtures("forks_allowed")
def test_a_file_that_landed_otherwise_than_begun_is_checked_again(
        monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(forked, "SHARE", 1)
    landed = _results()  # a.py and c.py broken, b.py fine, d.json broken
    benign = _results(SESSION.replace("    y = (x + 3\n", "    y = x + 30\n"))
    assert diagnose_landed(benign[:1]) == {}  # a.py as begun: fine
    # Begun on a.py's benign edit and without c.py; landed with a.py broken, c.py too.
    with forked.LandedReport([benign[0], landed[1], landed[3]]) as report:
        found = report.finish(landed)
    assert found == diagnose_landed(landed)
    assert sorted(found) == [(1, 0), (1, 2), (1, 3)]
