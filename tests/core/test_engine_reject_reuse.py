"""A reject re-evaluates only what it changes, and the rest is reused exactly (issue 13:
a reject at 50,000 operations walks every later turn of the display run).

The shortcuts this guards, each against runs evaluated from scratch:

* a later turn is reused whole when none of its paths is affected and no directory above
  them is a changed path (a file where a directory is: the test below and the paths here
  make that case on purpose);
* the reused checkpoints are patched one path at a time (``Tree.put`` of one path);
* the ledger of a reused turn is renumbered lazily (``ledger.Ledger``).

Differential: random multi-file sessions, random rejects, accepts, undos and redos, both
runs (display and decided draft); after each step the incremental runs equal full
evaluations: results, ledger text, trees, revision numbers, file counts.
"""

from __future__ import annotations

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_engine_incremental import assert_same, file_blocks, keys_of, make_tree, sessions

from reviewtui.core.engine import Decision, Policy, evaluate_session
from reviewtui.core.engine.decisions import OpKey
from reviewtui.core.engine.ledger import Ledger, render
from reviewtui.core.engine.session import SessionRun
from reviewtui.core.model.tree import _Dir
from reviewtui.core.protocol.session import parse_session

# "d" and "d/e" are files here and directories there: a write to one is refused while
# the other exists, so a reject can turn a later refusal into a landing.
PATHS = ["a.txt", "d/c.txt", "d/e/f.txt", "d/e", "d", "g/h.txt", "g/i.txt"]
WORDS = ["one", "two", "three", "two", "four"]

line = st.sampled_from(WORDS)


# One edit a block, a whole file one time in four; 2 to 20 turns.
session_text = sessions(st.lists(file_blocks(PATHS, WORDS, whole_one_in=4, max_edits=1),
                                 min_size=1, max_size=3).map("".join),
                        min_turns=2, max_turns=20)


base_files = st.dictionaries(
    st.sampled_from(["a.txt", "d/c.txt", "d/e/f.txt", "g/h.txt"]),
    st.lists(line, min_size=1, max_size=5).map(lambda ls: "\n".join(ls) + "\n"),
    min_size=1,
)

decision = st.sampled_from([Decision.reject(), Decision.reject(), Decision.reject("no"),
                            Decision.accept(), Decision()])


def counted(node: _Dir) -> int:
    total = sum(counted(e) if isinstance(e, _Dir) else 1 for e in node.entries.values())
    assert node.count == total
    return total


def assert_exact(run: SessionRun, full: SessionRun) -> None:
    assert_same(run, full)
    for got, want in zip(run.turns, full.turns, strict=True):
        assert tuple(got.ledger) == tuple(want.ledger)  # the text, rendered
    for state in run.states:
        assert counted(state.tree._root) == len(state.tree.paths())


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=session_text, files=base_files, data=st.data())
def test_rejects_undos_and_redos_equal_full_evaluation(text: str, files: dict[str, str],
                                                       data: st.DataObject) -> None:
    session = parse_session(text)
    keys = keys_of(session)
    base = make_tree(files)
    runs = {policy: evaluate_session(session, base, policy=policy)
            for policy in (Policy.headless(), Policy.decided_only())}
    decisions: dict[OpKey, Decision] = {}
    done: list[dict[OpKey, Decision]] = []
    undone: list[dict[OpKey, Decision]] = []
    for _ in range(data.draw(st.integers(1, 8))):
        kind = data.draw(st.sampled_from(["decide", "decide", "decide", "undo", "redo"]))
        if kind == "undo" and done:
            undone.append(decisions)
            decisions = done.pop()
        elif kind == "redo" and undone:
            done.append(decisions)
            decisions = undone.pop()
        else:
            done.append(decisions)
            undone.clear()
            decisions = dict(decisions)
            choice = data.draw(decision)
            key = data.draw(st.sampled_from(keys))
            if choice == Decision():
                decisions.pop(key, None)
            else:
                decisions[key] = choice
        for policy, run in runs.items():
            run.update(decisions)
            assert_exact(run, evaluate_session(session, base, policy=policy,
                                               decisions=decisions))


def test_a_reject_that_frees_a_directory_lets_a_later_write_under_it_land() -> None:
    # Turn 1 writes the file "d"; turn 3 writes "d/c.txt", refused while "d" is a file.
    # Rejecting turn 1's write makes "d" a changed path: turn 3 touches only "d/c.txt",
    # yet the directory above it changed, so it is evaluated again (and now lands).
    session = parse_session(
        "## Turn 1\n--- File: d ---\n```\nfile\n```\n"
        "## Turn 2\n--- File: a.txt ---\n```\nx\n```\n"
        "## Turn 3\n--- File: d/c.txt ---\n```\ny\n```\n"
        "## Turn 4\n--- File: a.txt ---\n```\nz\n```\n")
    base = make_tree({"g/h.txt": "h\n"})
    run = evaluate_session(session, base, policy=Policy.headless())
    assert not run.turns[2].results[0].landed
    for decisions in ({(1, 0): Decision.reject()}, {}, {(1, 0): Decision.reject()}):
        run.update(decisions)
        full = evaluate_session(session, base, policy=Policy.headless(), decisions=decisions)
        assert_exact(run, full)
    assert run.turns[2].results[0].landed
    assert run.states[-1].tree.get("d/c.txt") is not None
    assert list(run.turns[3].ledger) == ["write a.txt full-file r2->r3"]


def test_a_write_at_a_changed_files_directory_sees_this_turns_other_writes() -> None:
    # Turn 2 writes d/c.txt, d/e/f.txt, then the file "d" (refused: d/ is a directory).
    # Rejecting d/c.txt leaves d/e/f.txt (unaffected, reused) keeping d/ a directory: the
    # write of "d" must still be refused. It was evaluated against the turn's start plus
    # the affected writes only, landed, and patching the checkpoint then raised.
    session = parse_session(
        "## Turn 1\n--- File: a.txt ---\n```\none\n```\n"
        "## Turn 2\n--- File: d/c.txt ---\n```\none\n```\n\n"
        "--- File: d/e/f.txt ---\n```\none\n```\n\n--- File: d ---\n```\none\n```\n"
        "## Turn 3\n--- File: a.txt ---\n```\ntwo\n```\n")
    base = make_tree({"a.txt": "one\n"})
    for policy in (Policy.headless(), Policy.decided_only()):
        run = evaluate_session(session, base, policy=policy)
        for decisions in ({(2, 0): Decision.reject()}, {},
                          {(2, 0): Decision.reject(), (2, 1): Decision.accept()}):
            run.update(decisions)
            assert_exact(run, evaluate_session(session, base, policy=policy,
                                               decisions=decisions))
        assert not run.turns[1].results[2].landed
        assert run.states[-1].tree.get("d") is None


def test_a_lazy_ledger_reads_and_compares_as_its_tuple() -> None:
    items = ((0, "edit a.txt #1 exact 1-1", "", 1), (2, "rm b.txt", " (gone)", 0))
    lazy = Ledger(items, 4)
    eager = render(items, 4)
    assert eager == ("edit a.txt #1 exact 1-1 r4->r5", "rm b.txt r5 (gone)")
    assert lazy == eager
    assert eager == lazy
    assert lazy == Ledger(items, 4)
    assert lazy != Ledger(items, 5)
    assert lazy != render(items, 3)
    assert hash(lazy) == hash(eager)
    assert len(lazy) == 2
    assert list(lazy) == list(eager)
    assert lazy[-1] == eager[-1]
    assert lazy[:1] == eager[:1]
    assert repr(lazy) == repr(eager)
    assert Ledger((), 9) == ()
    assert not Ledger((), 9)
