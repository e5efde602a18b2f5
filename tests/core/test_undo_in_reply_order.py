"""A command its own reply takes back runs in neither form (QA s45 helper-138 #1,
helper-139 #6 and #7).

``:rm`` runs last in a turn and ``:undo`` ran first: ``:rm a.py`` then ``:undo`` took back
an earlier turn's ``:mv`` and removed a.py anyway, exit 0, with no lint finding (the footer
rule reads the reply in written order, as the model wrote it). Run right after its command
instead, a pair nested in another (``:mv a b``, ``:rm b``, ``:undo``, ``:undo``) took back
the earlier turn's move once the removal found nothing to remove. Now a removal and the
``:undo`` (or ``:unrm``) that takes it back are both refused, saying so, whatever the
decisions: neither runs; an undo whose own command did not run takes back nothing; no
undo reaches past its reply while its reply has a command for it. The property: a
reply of moves, removals and undos leaves the files its written order leaves.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.engine import Policy, evaluate_session
from reviewtui.core.lint.base import undo_in_reply
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.records import ConsoleCommand
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.protocol.session import parse_session

FILES = ("a.py", "b.py", "c.py", "d.py")


def _final(first: list[str], second: list[str]) -> tuple[dict[str, str], list[Status]]:
    text = "".join(f"## Turn {n}\n```console\n" + "\n".join(lines) + "\n```\n"
                   for n, lines in enumerate((first, second), start=1) if lines)
    session = parse_session(text)
    base = Tree.from_files({p: FileState.from_text(p + "\n") for p in FILES})
    run = evaluate_session(session, base, policy=Policy.headless())
    statuses = [r.outcome.status for t in run.turns for r in t.results]
    return {p: s.text for p, s in run.final.items()}, statuses


def test_a_removal_taken_back_in_its_own_reply_keeps_the_file() -> None:
    for undo in (":undo", ":unrm a.py", ":unrm ./a.py"):
        files, statuses = _final([":mv c.py e.py"], [":rm a.py", undo])
        assert sorted(files) == ["a.py", "b.py", "d.py", "e.py"], undo  # the move stands
        assert statuses == [Status.APPLIED, Status.REFUSED, Status.REFUSED], undo


def test_an_unrm_of_a_file_a_glob_or_a_folder_removes_takes_that_removal_back() -> None:
    """QA s45 helper-140 F2: only the exact path paired; ``:rm *.py`` ran whole."""
    for removal in (":rm *.py", ":rm ./a.py b.py"):
        files, statuses = _final([], [removal, ":unrm a.py"])
        assert sorted(files) == list(FILES), removal
        assert statuses == [Status.REFUSED, Status.REFUSED], removal


def test_nested_pairs_take_back_nothing_of_an_earlier_turn() -> None:
    files, statuses = _final([":mv c.py e.py"], [":mv a.py z.py", ":rm z.py", ":undo",
                                                 ":undo"])
    assert sorted(files) == ["a.py", "b.py", "d.py", "e.py"]
    # (the removal and its undo run in neither form; the move and its undo run in turn)
    assert statuses == [Status.APPLIED, Status.APPLIED, Status.REFUSED, Status.REFUSED,
                        Status.APPLIED]


def test_an_undo_whose_command_did_not_run_takes_back_nothing() -> None:
    """QA s45 helper-139 #7: with its own command refused (or rejected), an undo took back
    an earlier turn's move."""
    files, statuses = _final([":mv c.py e.py"], [":mv a.py b.py", ":undo"])
    assert sorted(files) == ["a.py", "b.py", "d.py", "e.py"]
    assert statuses == [Status.APPLIED, Status.REFUSED, Status.NOT_FOUND]


def test_an_undo_takes_back_the_command_just_before_it() -> None:
    files, _ = _final([], [":rm a.py", ":mv b.py e.py", ":undo"])
    assert sorted(files) == ["b.py", "c.py", "d.py"]
    files, _ = _final([], [":mv b.py e.py", ":rm a.py", ":undo"])
    assert sorted(files) == ["a.py", "c.py", "d.py", "e.py"]


_COMMAND = st.one_of(
    st.tuples(st.just("mv"), st.sampled_from(FILES[:3]), st.sampled_from(("x.py", "y.py"))),
    st.tuples(st.just("rm"), st.sampled_from(FILES[:3])),
    st.tuples(st.just("undo")))


@settings(max_examples=80, deadline=None)
@given(st.lists(_COMMAND, min_size=1, max_size=6))
def test_a_reply_leaves_what_its_written_order_leaves(commands: list[tuple[str, ...]]) -> None:
    lines = [":" + " ".join(command) for command in commands]
    session = parse_session("## Turn 1\n```console\n" + "\n".join(lines) + "\n```\n")
    ops = [op for op in session.turns[0].reply.ops if isinstance(op, ConsoleCommand)]
    in_force, reaches_back = undo_in_reply(tuple(ops))
    # (an earlier turn's move, which an undo running out of its place took back)
    files, statuses = _final([":mv d.py z.py"], lines)
    if reaches_back or any(s is not Status.APPLIED for s, op in zip(
            statuses[1:], ops, strict=True) if op in in_force):
        return  # (an undo reaching that move, a move onto a taken name: refused)
    expected = {p: p + "\n" for p in FILES}
    expected["z.py"] = expected.pop("d.py")
    for cmd in in_force:  # moves in written order, then removals (the turn's steps)
        if cmd.name.value == "mv":
            expected[cmd.args[1]] = expected.pop(cmd.args[0])
    for cmd in in_force:
        if cmd.name.value == "rm":
            expected.pop(cmd.args[0])
    assert files == expected
