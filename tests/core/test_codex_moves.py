"""apply_patch ``Move to`` sections that meet each other. Codex runs a patch's sections in
order, a move overwriting its destination: a patch whose sections all land replays as
Codex's binary leaves it (QA s46 helper-143 F7: an attempt to read moves as a snapshot
refused such patches, and lost a file in one). A patch whose moves are tied (a swap: ``a``
onto ``b``, then ``b``, overwritten, onto ``a``) and do not all land is held whole by
``apply``: what ``b`` held is never written over (QA s46 helper-142 M1).
"""

from __future__ import annotations

import contextlib
import io
import random
import shutil
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.cli import main


def _move(source: str, target: str, old: str, new: str) -> str:
    return f"*** Update File: {source}\n*** Move to: {target}\n@@\n-{old}\n+{new}\n"


def _update(path: str, old: str, new: str) -> str:
    return f"*** Update File: {path}\n@@\n-{old}\n+{new}\n"


def _applied(tmp: Path, sections: list[str], files: dict[str, str],
             *extra: str) -> dict[str, str]:
    root = tmp / "root"
    root.mkdir()
    for name, text in files.items():
        (root / name).write_text(text)
    patch = tmp / "p.patch"
    patch.write_text("*** Begin Patch\n" + "".join(sections) + "*** End Patch\n")
    with contextlib.redirect_stdout(io.StringIO()):
        main(["apply", str(patch), "--root", str(root), "--yes", "--format", "apply_patch",
              *extra])
    return {p.name: p.read_text() for p in sorted(root.iterdir())}


def test_a_swap_of_two_files_loses_neither(tmp_path: Path) -> None:
    files = {"a.py": "A\n", "b.py": "B\n"}
    assert _applied(tmp_path, [_move("a.py", "b.py", "A", "A2"),
                               _move("b.py", "a.py", "B", "B2")], files) == files


def test_sequential_moves_replay_as_codex_leaves_them(tmp_path: Path) -> None:
    """Each patch here, as Codex's binary left it (helper-143 compared them)."""
    cases = [
        ([_update("a", "A", "A1"), _move("c", "a", "C", "C2"), "*** Add File: c\n+N3\n"],
         {"a": "A\n", "c": "C\n"}, {"a": "C2\n", "c": "N3\n"}),
        ([_move("c", "a", "C", "C1"), _move("a", "b", "C1", "C12")],
         {"a": "A\n", "c": "C\n"}, {"b": "C12\n"}),
        (["*** Delete File: b\n", _move("a", "b", "A", "A2"), _move("c", "b", "C", "C3")],
         {"a": "A\n", "b": "B\n", "c": "C\n"}, {"b": "C3\n"}),
        ([_move("a", "b", "A", "A2"), _update("b", "A2", "A3")],
         {"a": "A\n", "b": "B\n"}, {"b": "A3\n"}),
        ([_move("a", "b", "A", "A2"), "*** Delete File: b\n"], {"a": "A\n", "b": "B\n"}, {}),
        ([_move("a", "b", "A", "A2")], {"a": "A\n", "b": "B\n"}, {"b": "A2\n"}),
    ]
    for n, (sections, before, after) in enumerate(cases):
        where = tmp_path / str(n)
        where.mkdir()
        assert _applied(where, sections, before) == after, n


@settings(max_examples=40, deadline=None)
@given(st.integers(2, 4), st.integers(0, 2**32 - 1))
def test_moves_in_any_order_lose_no_content(length: int, seed: int) -> None:
    """A chain f0 -> f1 -> ... edited as it moves, its sections in any order: each file's
    content is still on disk, as it was or as its section made it; written in the order
    that frees each name first, it lands whole."""
    import tempfile

    names = [f"f{k}" for k in range(length + 1)]
    files = {names[k]: f"C{k}\n" for k in range(length)}
    sections = [_move(names[k], names[k + 1], f"C{k}", f"D{k}") for k in range(length)]
    order = list(range(length))
    random.Random(seed).shuffle(order)
    with tempfile.TemporaryDirectory() as tmp:
        after = _applied(Path(tmp), [sections[k] for k in order], files)
    held = set(after.values())
    assert all({f"C{k}\n", f"D{k}\n"} & held for k in range(length)), (order, after)
    if order == sorted(order, reverse=True):
        assert after == {names[k + 1]: f"D{k}\n" for k in range(length)}


def test_partial_writes_no_move_whose_edit_failed(tmp_path: Path) -> None:
    """QA s46 helper-144 F4: with --partial, a Move to whose hunk was stale still moved the
    file over the one at its new name, whose content was then on disk nowhere."""
    files = {"a": "A\n", "c": "C\n", "d": "D\n"}
    sections = [_move("a", "c", "stale", "A2"), _update("d", "D", "D2")]
    assert _applied(tmp_path, sections, files, "--partial") == {
        "a": "A\n", "c": "C\n", "d": "D2\n"}


def test_turns_take_a_split_patch_whole_or_refuse(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """QA s46 helper-144 F5: a swap the importer split into two turns; --turns 1 wrote the
    first move alone, over b, exit 0."""
    files = {"a.py": "A\n", "b.py": "B\n"}
    swap = [_move("a.py", "b.py", "A", "A2"), _move("b.py", "a.py", "B", "B2")]
    root = tmp_path / "root"
    assert _applied(tmp_path, swap, files, "--turns", "1") == files
    assert "[turns]" in capsys.readouterr().err
    shutil.rmtree(root)
    assert _applied(tmp_path, swap, files, "--turns", "1-2") == files  # (held whole)


def test_partial_holds_a_swap_split_into_turns_whose_second_move_failed(
        tmp_path: Path) -> None:
    """QA s46 helper-145 F7: --partial looked at one turn at a time, so the swap's first
    move still went over b while its second hunk was stale."""
    files = {"a.py": "A\n", "b.py": "B\n"}
    swap = [_move("a.py", "b.py", "A", "A2"), _move("b.py", "a.py", "stale", "B2")]
    assert _applied(tmp_path, swap, files, "--partial") == files


def test_a_delete_then_a_move_onto_that_name_lands_whole_or_not_at_all(
        tmp_path: Path) -> None:
    """QA s46 helper-146 F7: Delete File b, then a moved onto b with a stale hunk: b was
    deleted and the move held, so b was neither as it was nor as the patch meant."""
    files = {"a": "A\n", "b": "B\n"}
    sections = ["*** Delete File: b\n", _move("a", "b", "STALE", "A2")]
    for n, extra in enumerate(([], ["--partial"])):
        where = tmp_path / str(n)
        where.mkdir()
        assert _applied(where, sections, files, *extra) == files, extra
