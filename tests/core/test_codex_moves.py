"""apply_patch ``Move to`` sections that meet each other: nothing a patch still reads is
overwritten (QA s46 helper-142 M1: a swap written as two moves ran the first with ``-f``
over the second's file, whose content was then on disk nowhere; Codex's binary does the
same). A chain of moves in any section order replays as its snapshot; a move over a file
the patch does not otherwise touch overwrites it, as Codex does.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.engine import Policy, evaluate_session
from reviewtui.core.importers import import_session
from reviewtui.core.model.tree import FileState, Tree


def _section(source: str, target: str, old: str, new: str) -> str:
    return f"*** Update File: {source}\n*** Move to: {target}\n@@\n-{old}\n+{new}\n"


def _replayed(sections: list[str], files: dict[str, str]) -> dict[str, str]:
    patch = "*** Begin Patch\n" + "".join(sections) + "*** End Patch\n"
    run = evaluate_session(import_session(patch, "p.patch", format="apply_patch"),
                           Tree.from_files({p: FileState.from_text(t) for p, t in files.items()}),
                           policy=Policy.headless())
    final = run.final
    return {p: final.get(p).text for p in final.paths()}  # type: ignore[union-attr]


def test_a_swap_of_two_files_loses_neither() -> None:
    files = {"a.py": "A\n", "b.py": "B\n"}
    after = _replayed([_section("a.py", "b.py", "A", "A2"), _section("b.py", "a.py", "B", "B2")],
                      files)
    assert after == files  # refused whole: each move waits on the other


def test_a_move_over_a_file_the_patch_does_not_read_overwrites_it() -> None:
    after = _replayed([_section("a.py", "b.py", "A", "A2")], {"a.py": "A\n", "b.py": "B\n"})
    assert after == {"b.py": "A2\n"}


def test_a_move_over_a_file_the_patch_deletes_first_lands() -> None:
    patch = ["*** Delete File: b.py\n", _section("a.py", "b.py", "A", "A2")]
    assert _replayed(patch, {"a.py": "A\n", "b.py": "B\n"}) == {"b.py": "A2\n"}


@settings(max_examples=60, deadline=None)
@given(st.integers(2, 5), st.randoms(use_true_random=False))
def test_a_chain_of_moves_in_any_order_replays_as_its_snapshot(length: int, rng) -> None:
    """f0 -> f1 -> ... -> fn, each file edited as it moves: every content lands one name
    on, whatever order the sections are written in; nothing is lost."""
    names = [f"f{k}.py" for k in range(length + 1)]
    files = {names[k]: f"C{k}\n" for k in range(length)}
    sections = [_section(names[k], names[k + 1], f"C{k}", f"D{k}") for k in range(length)]
    rng.shuffle(sections)
    assert _replayed(sections, files) == {names[k + 1]: f"D{k}\n" for k in range(length)}
