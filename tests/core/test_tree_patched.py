"""``Tree.patched``: the engine's reused checkpoints are built when first read (issue 13:
a reject at 50,000 operations patches thousands of later checkpoints nobody may look at).

A chain of ``patched`` calls (on trees built or not yet built, with renumberings in
between) gives, once read, exactly what the chain of eager ``put`` calls gives: the same
objects at the same places, the same counts and revision. A patch that changes the same
paths as the one before replaces it (so a reject, undone and redone, does not stack
patches), but not when one of its paths lies inside another (``d`` and ``d/c.txt``): the
folder the earlier patch made decides whether the later one conflicts.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_tree_put_one import NAMES, build, changes, recount, same_objects

from reviewtui.core.errors import PathRefused
from reviewtui.core.model.tree import FileState, Tree

few = st.dictionaries(st.sampled_from(NAMES[:6]), st.one_of(st.none(), st.sampled_from(
    [FileState.from_bytes(b"x\n"), FileState.from_bytes(b"y\n")])), min_size=1, max_size=2)
step = st.tuples(few, st.sampled_from(["patch", "patch", "read", "renumber"]))


@settings(max_examples=200, deadline=None)
@given(batches=st.lists(changes, max_size=6), steps=st.lists(step, min_size=1, max_size=6))
def test_a_chain_of_patches_reads_as_the_chain_of_puts(
        batches: list[dict[str, FileState | None]],
        steps: list[tuple[dict[str, FileState | None], str]]) -> None:
    eager = lazy = build(batches)
    revision = eager.revision
    for changed, how in steps:
        revision += 1
        if how == "renumber":
            eager, lazy = eager.with_revision(revision), lazy.with_revision(revision)
            continue
        if how == "read":
            recount(lazy._root)  # built here: later patches start from the built tree
        try:
            eager = eager.put(changed, revision)
        except PathRefused:
            return  # the engine never patches a checkpoint into a conflict
        lazy = lazy.patched(changed, revision)
    same_objects(lazy, eager)
    assert recount(lazy._root) == len(eager)
    assert lazy == eager


def test_a_patch_inside_another_does_not_replace_it() -> None:
    one = FileState.from_bytes(b"one\n")
    base = Tree.from_files({"d": one})
    # d becomes a folder, then loses c.txt and is a file again: fine one after the other,
    # a conflict if the second were put on the base alone.
    first = base.patched({"d": None, "d/c.txt": one}, 1)
    second = first.patched({"d": one, "d/c.txt": None}, 2)
    assert second.get("d") is one
    assert second.paths() == ("d",)


def test_the_same_path_patched_again_keeps_one_patch() -> None:
    one, two = FileState.from_bytes(b"one\n"), FileState.from_bytes(b"two\n")
    tree = Tree.from_files({"a": one, "b": one})
    for revision in range(1, 50):
        tree = tree.patched({"a": two if revision % 2 else one}, revision)
    assert len(tree._patches or ()) == 1
    assert tree.get("a") is two
    assert tree.get("b") is one
    assert tree._base is None  # built: the old root is let go
    again = tree.patched({"a": one}, 60)
    assert again.get("a") is one
    assert again.with_revision(61).get("b") is one
