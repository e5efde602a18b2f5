"""Renames of one diff that trade names: swaps, rotations, chains (QA s44 helper-134 M7).

``git diff -M`` writes a swap as ``rename a -> b`` and ``rename b -> a``; git apply makes
every rename at once, a replay one at a time, and both moves were refused ("already
exists"). Now a chain runs back to front and in a cycle one file steps aside first, to a
name no file has, said in an info note. The result is the diff's new side, as git apply
makes it; each rename stays a ``:mv`` the reviewer sees.
"""

from __future__ import annotations

import subprocess
from pathlib import Path

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.engine import Policy, evaluate_session
from reviewtui.core.importers import import_session
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.tree import FileState, Tree


def _section(old: str, new: str, body_old: str | None = None,
             body_new: str | None = None) -> str:
    text = (f"diff --git a/{old} b/{new}\nsimilarity index 90%\nrename from {old}\n"
            f"rename to {new}\n")
    if body_old is not None and body_new is not None:
        text += (f"--- a/{old}\n+++ b/{new}\n@@ -1,3 +1,3 @@\n {old} head\n-{body_old}\n"
                 f"+{body_new}\n {old} tail\n")
    return text


def _content(name: str, body: str = "body") -> str:
    return f"{name} head\n{body}\n{name} tail\n"


def _replayed(diff: str, files: dict[str, str], *, told: bool = True,
              ) -> tuple[dict[str, str], list[str]]:
    """The tree after every operation is accepted; ``told``: the importer is told which
    files the project holds (as the loader tells it)."""
    session = import_session(diff, "r.diff", format="unified",
                             exists=files.__contains__ if told else None)
    tree = Tree.from_files({p: FileState.from_text(t) for p, t in files.items()})
    run = evaluate_session(session, tree, policy=Policy.headless())
    statuses = [r.outcome.status for t in run.turns for r in t.results]
    if told:
        assert all(s is Status.APPLIED for s in statuses), statuses
    notes = [p.rule for t in session.turns for p in t.reply.problems]
    return {p: s.text for p, s in run.final.items()}, notes


def test_a_swap_with_edits_on_both_sides_is_git_applys(tmp_path: Path) -> None:
    files = {"a.txt": _content("a.txt"), "b.txt": _content("b.txt")}
    diff = (_section("a.txt", "b.txt", "body", "edited a") +
            _section("b.txt", "a.txt", "body", "edited b"))
    got, notes = _replayed(diff, files)
    repo = tmp_path / "repo"
    repo.mkdir()
    for path, text in files.items():
        (repo / path).write_text(text)
    (tmp_path / "r.diff").write_text(diff)
    subprocess.run(["git", "apply", str(tmp_path / "r.diff")], cwd=repo, check=True)
    assert got == {p.name: p.read_text() for p in repo.iterdir()}
    assert got == {"b.txt": _content("a.txt", "edited a"), "a.txt": _content("b.txt", "edited b")}
    assert notes.count("diff-rename-cycle") == 1


def test_the_step_aside_takes_a_name_no_file_has() -> None:
    files = {"a": "1\n", "b": "2\n", "a.reviewtui-aside": "kept\n"}
    diff = _section("a", "b") + _section("b", "a")
    got, _ = _replayed(diff, files)
    assert got == {"a": "2\n", "b": "1\n", "a.reviewtui-aside": "kept\n"}
    # Not told (a caller without a project): the step aside onto that file is refused,
    # and so are the renames after it; nothing is lost.
    got, _ = _replayed(diff, files, told=False)
    assert got == files


@settings(max_examples=60, deadline=None)
@given(data=st.data())
def test_any_permutation_of_names_replays_as_the_new_side(data: st.DataObject) -> None:
    """Files renamed by any permutation (swaps, rotations, fixed points), plus new names
    (chains), sections in any order, some with an edit: the tree is the diff's new side."""
    count = data.draw(st.integers(2, 5))
    names = [f"f{n}.txt" for n in range(count)]
    targets = data.draw(st.permutations(names + [f"new{n}.txt" for n in range(2)]))[:count]
    edited = data.draw(st.lists(st.booleans(), min_size=count, max_size=count))
    sections = [_section(old, new, "body", "changed") if edit else _section(old, new)
                for old, new, edit in zip(names, targets, edited, strict=True) if old != new]
    order = data.draw(st.permutations(range(len(sections))))
    diff = "".join(sections[n] for n in order)
    files = {name: _content(name) for name in names}
    expected = {new: _content(old, "changed" if edit and old != new else "body")
                for old, new, edit in zip(names, targets, edited, strict=True)}
    if not sections:
        return
    got, _ = _replayed(diff, files)
    assert got == expected
