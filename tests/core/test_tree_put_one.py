"""Tree shortcuts for the engine's reused checkpoints (issue 13: a reject at 50,000
operations patches thousands of later checkpoints one path each).

* ``_Dir.count`` is kept up to date through a rebuild instead of counted again: after any
  sequence of changes every directory's count is the number of files below it;
* ``Tree.put`` of one path skips the grouping: it gives what the general rebuild gives
  (the same objects in the same places, the same count, the same refusal); so does
  ``Tree.set`` (what ``apply`` of one path gives);
* ``versions_along`` yields what a walk of every tree's ``get`` yields.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.errors import PathRefused
from reviewtui.core.model.tree import (
    FileState,
    Tree,
    _Dir,
    _group,
    _rebuild,
    versions_along,
)

NAMES = ["a", "b", "d/a", "d/b", "d/e/a", "d/e", "a/x", "f/g/h"]
STATES = [FileState.from_bytes(text) for text in (b"one\n", b"two\n", b"one\n", b"")]

state = st.sampled_from(STATES)
change = st.one_of(st.none(), state)
changes = st.dictionaries(st.sampled_from(NAMES), change, max_size=4)


def recount(node: _Dir) -> int:
    """Files below ``node``, counted; asserts every directory below holds its count."""
    total = 0
    for entry in node.entries.values():
        if isinstance(entry, _Dir):
            assert entry.count, "an empty directory is pruned"
            total += recount(entry)
        else:
            total += 1
    assert node.count == total
    return total


def build(batches: list[dict[str, FileState | None]]) -> Tree:
    tree = Tree()
    for batch in batches:
        try:
            tree = tree.apply(batch)
        except PathRefused:
            continue
    return tree


def reference_put(tree: Tree, path: str, new: FileState | None, revision: int) -> Tree:
    return Tree(_rebuild(tree._root, _group({path: new}), "", exact=True), revision)


def same_objects(got: Tree, want: Tree) -> None:
    assert got.paths() == want.paths()
    for path in want.paths():
        assert got.get(path) is want.get(path)
    assert len(got) == len(want)
    assert got.revision == want.revision


@settings(max_examples=150, deadline=None)
@given(batches=st.lists(changes, max_size=8))
def test_counts_stay_true_through_any_changes(batches: list[dict[str, FileState | None]]) -> None:
    tree = Tree()
    for batch in batches:
        try:
            tree = tree.apply(batch)
        except PathRefused:
            continue
        assert recount(tree._root) == len(tree.paths())
        for path, new in batch.items():  # one path at a time: the shortcut
            try:
                put = tree.put({path: new}, 7)
            except PathRefused:
                continue
            assert recount(put._root) == len(put.paths())


@settings(max_examples=150, deadline=None)
@given(batches=st.lists(changes, max_size=6), path=st.sampled_from(NAMES), new=change,
       same=st.booleans())
def test_put_of_one_path_is_the_general_rebuild(batches: list[dict[str, FileState | None]],
                                                 path: str, new: FileState | None,
                                                 same: bool) -> None:
    tree = build(batches)
    if same and tree.get(path) is not None:
        new = tree.get(path)  # the very object in place: nothing changes
    refused: PathRefused | None = None
    try:
        want = reference_put(tree, path, new, 9)
    except PathRefused as exc:
        refused = exc
    if refused is not None:
        with pytest.raises(PathRefused) as caught:
            tree.put({path: new}, 9)
        assert (caught.value.rule, caught.value.message) == (refused.rule, refused.message)
        return
    got = tree.put({path: new}, 9)
    same_objects(got, want)
    recount(got._root)
    assert (got._root is tree._root) == (want._root is tree._root)
    # An equal object in another FileState is put in place too (exact).
    if new is not None and tree.get(path) is not None and tree.get(path) is not new:
        assert got.get(path) is new


@settings(max_examples=150, deadline=None)
@given(batches=st.lists(changes, max_size=6), path=st.sampled_from(NAMES), new=state,
       same=st.booleans())
def test_set_of_one_path_is_apply(batches: list[dict[str, FileState | None]], path: str,
                                  new: FileState, same: bool) -> None:
    """``Tree.set`` (each landed edit) skips the grouping: it gives what ``apply`` gives --
    the same objects, revision and count, the tree itself for equal content, the same
    refusal for a file where a folder is or the reverse."""
    tree = build(batches)
    if same and tree.get(path) is not None:
        new = tree.get(path)  # type: ignore[assignment]
    refused: PathRefused | None = None
    try:
        want = tree.apply({path: new})
    except PathRefused as exc:
        refused = exc
    if refused is not None:
        with pytest.raises(PathRefused) as caught:
            tree.set(path, new)
        assert (caught.value.rule, caught.value.message) == (refused.rule, refused.message)
        return
    got = tree.set(path, new)
    same_objects(got, want)
    recount(got._root)
    assert (got is tree) == (want is tree)


@settings(max_examples=120, deadline=None)
@given(batches=st.lists(changes, max_size=10), path=st.sampled_from(NAMES))
def test_versions_along_is_a_walk_of_every_tree(batches: list[dict[str, FileState | None]],
                                                path: str) -> None:
    trees = [Tree()]
    for batch in batches:
        try:
            trees.append(trees[-1].apply(batch))
        except PathRefused:
            trees.append(trees[-1])
    want: list[FileState] = []
    for tree in trees:
        version = tree.get(path)
        if version is not None and (not want or version is not want[-1]):
            want.append(version)
    got = list(versions_along(trees, path))
    assert len(got) == len(want)
    assert all(a is b for a, b in zip(got, want, strict=True))
