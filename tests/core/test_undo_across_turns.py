"""An ``:undo`` takes back the command written last before it, across turns too (QA s47
helper-147 M2).

Written first in its reply, an ``:undo`` takes back the previous replies' last command:
should that one not have run (refused, rejected, not accepted), it took back an older one
instead (inside one reply the engine already refused that: ``nothing-to-undo``); and
"last" was the order things ran (an ``:rm`` runs after its reply's moves), so after
``:rm old.py`` then ``:mv a.py b.py`` it brought old.py back and left the move. Now both
follow the written order (``order.undo_targets``), and the outcome names the command an
``:undo`` of an earlier turn takes back. The property: an ``:undo`` that lands reverses
exactly that command, and one whose command did not land changes nothing.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.engine import Decision, Policy, SessionRun, evaluate_session
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.records import CommandName, ConsoleCommand
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.protocol.session import parse_session

FILES = ("a.py", "b.py", "c.py", "old.py")


def _session(*turns: list[str]) -> str:
    return "".join(f"## Turn {n}\n> step {n}\n\n```console\n" + "\n".join(lines)
                   + "\n```\n\n### Changed files:\n- a.py\n\n"
                   for n, lines in enumerate(turns, start=1))


def _run(text: str, decisions: dict[tuple[int, int], Decision] | None = None,
         policy: Policy | None = None) -> SessionRun:
    base = Tree.from_files({p: FileState.from_text(p + "\n") for p in FILES})
    return evaluate_session(parse_session(text), base, policy=policy or Policy.headless(),
                            decisions=decisions or {})


def _files(run: SessionRun) -> list[str]:
    return sorted(run.final.paths())


def test_an_undo_after_a_command_that_did_not_run_takes_back_nothing() -> None:
    run = _run(_session([":mv a.py d.py"], [":mv zz.py e.py"], [":undo"]))
    undo = run.turns[2].results[0].outcome
    assert (undo.status, undo.rule) == (Status.NOT_FOUND, "nothing-to-undo")
    assert "turn 2's :mv zz.py e.py" in undo.message
    assert _files(run) == ["b.py", "c.py", "d.py", "old.py"]  # turn 1's move stands


def test_the_same_when_the_reviewer_rejected_it_or_has_not_accepted_it() -> None:
    text = _session([":mv a.py d.py"], [":mv c.py e.py"], [":undo"])
    for decisions, policy in (({(2, 0): Decision.reject()}, Policy.headless()),
                              ({(1, 0): Decision.accept(), (3, 0): Decision.accept()},
                               Policy.decided_only())):
        run = _run(text, decisions, policy)
        assert run.turns[2].results[0].outcome.rule == "nothing-to-undo"
        assert "d.py" in _files(run)


def test_the_previous_turns_last_command_is_the_one_written_last() -> None:
    run = _run(_session([":rm old.py", ":mv a.py d.py"], [":undo"]))
    undo = run.turns[1].results[0].outcome
    assert undo.status is Status.APPLIED
    assert "undid mv a.py d.py (turn 1's :mv a.py d.py" in undo.message
    assert _files(run) == ["a.py", "b.py", "c.py"]  # old.py stays removed


def test_undos_go_back_one_written_command_each() -> None:
    run = _run(_session([":mv a.py d.py"], [":rm c.py", ":mv b.py e.py"], [":undo"],
                        [":undo", ":undo"]))
    assert _files(run) == ["a.py", "b.py", "c.py", "old.py"]
    assert [r.outcome.status for t in run.turns for r in t.results] == [Status.APPLIED] * 6


# -- the property ---------------------------------------------------------------------------

_COMMAND = st.one_of(
    st.tuples(st.just("mv"), st.sampled_from(FILES), st.sampled_from(("x.py", "y.py", "a.py"))),
    st.tuples(st.just("rm"), st.sampled_from(FILES + ("x.py",))),
    st.tuples(st.just("undo")))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.lists(_COMMAND, min_size=1, max_size=3), min_size=2, max_size=4),
       st.sets(st.tuples(st.integers(1, 4), st.integers(0, 2)), max_size=2))
def test_an_undo_reverses_the_command_written_last_before_it_or_nothing(
        turns: list[list[tuple[str, ...]]], rejected: set[tuple[int, int]]) -> None:
    from reviewtui.core.engine.order import undo_targets  # (new with the fix)

    text = _session(*[[":" + " ".join(command) for command in turn] for turn in turns])
    session = parse_session(text)
    run = _run(text, dict.fromkeys(rejected, Decision.reject()))
    results = {r.key: r for t in run.turns for r in t.results}
    for key, target in undo_targets(session.turns).items():
        undo = results[key]
        if undo.outcome.status is not Status.APPLIED:
            assert not undo.landed
            continue
        assert target is not None
        done = results[target]
        assert done.landed, (key, target)  # (never an older one)
        op = done.op
        assert isinstance(op, ConsoleCommand)
        assert op.name is not CommandName.UNDO
        assert {(new, old) for old, new in done.outcome.changes} == set(undo.outcome.changes)
