"""Renames of one diff run in an order that frees each new name first (QA s45 helper-139
#11, older): ``git diff -M`` writes them in path order, so a rename onto a name another
rename frees, or into a folder whose name a file another rename moves away holds, came
first and was refused, and the rest was written: a half-done tree. A cycle (a swap) is
still refused, nothing of it written (git apply makes it; a replay one file at a time
cannot without a name of its own, tried and taken back: the name depended on the disk).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.engine import Policy, evaluate_session
from reviewtui.core.importers import import_session
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.tree import FileState, Tree


def _rename(old: str, new: str) -> str:
    return (f"diff --git a/{old} b/{new}\nsimilarity index 100%\nrename from {old}\n"
            f"rename to {new}\n")


def _replayed(diff: str, files: dict[str, str]) -> tuple[dict[str, str], list[Status]]:
    session = import_session(diff, "r.diff", format="unified")
    tree = Tree.from_files({p: FileState.from_text(t) for p, t in files.items()})
    run = evaluate_session(session, tree, policy=Policy.headless())
    return ({p: s.text for p, s in run.final.items()},
            [r.outcome.status for t in run.turns for r in t.results])


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_a_chain_of_renames_in_any_order_replays_as_the_new_side(data: st.DataObject) -> None:
    count = data.draw(st.integers(2, 5))
    chain = data.draw(st.permutations([f"f{n}.txt" for n in range(count)]))
    files = {name: f"{name} body\n" for name in chain}
    # each file takes the next one's name; the last a new one
    pairs = list(zip(chain, [*chain[1:], "new.txt"], strict=True))
    order = data.draw(st.permutations(range(len(pairs))))
    got, statuses = _replayed("".join(_rename(*pairs[n]) for n in order), files)
    assert got == {new: files[old] for old, new in pairs}
    assert set(statuses) == {Status.APPLIED}


def test_a_rename_into_a_folder_a_moved_file_frees() -> None:
    got, statuses = _replayed(_rename("a", "d/a") + _rename("d", "x"), {"a": "A\n", "d": "D\n"})
    assert got == {"d/a": "A\n", "x": "D\n"}
    assert set(statuses) == {Status.APPLIED}


def test_a_swap_is_refused_whole() -> None:
    files = {"a": "A\n", "b": "B\n", "c": "C\n"}
    got, statuses = _replayed(_rename("a", "b") + _rename("b", "a") + _rename("c", "e"),
                              files)
    assert got == {"a": "A\n", "b": "B\n", "e": "C\n"}
    assert statuses.count(Status.REFUSED) == 2
