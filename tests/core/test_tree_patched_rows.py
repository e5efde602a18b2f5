"""``Tree.patched(..., rows)``: the checkpoints of one reused stretch are patched with the
same changes, and share one row of patches instead of a tuple each (a reject at 50,000
operations patches ~5,000 checkpoints: ~5,000 fewer objects for the collector).

Trees built, trees not built yet whose rows are the very same tuple, and trees whose rows
differ, patched in any order through one ``rows``, read exactly as each patched alone
(and as the eager ``put``): a row is shared only by trees that had the same one.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from test_tree_patched import few
from test_tree_put_one import build, changes, same_objects

from reviewtui.core.errors import PathRefused
from reviewtui.core.model.tree import FileState, Tree

Changes = dict[str, FileState | None]


@settings(max_examples=200, deadline=None)
@given(batches=st.lists(changes, max_size=4), before=st.lists(few, min_size=1, max_size=3),
       now=few, order=st.randoms(use_true_random=False))
def test_trees_patched_through_one_rows_read_as_each_patched_alone(
        batches: list[Changes], before: list[Changes], now: Changes, order: object) -> None:
    base = build(batches)
    trees: list[Tree] = [base, base.with_revision(base.revision + 1)]
    # Lazy trees: two sharing each earlier patch's row (patched through one rows, as
    # reuse_turns does), and one made with a row of its own.
    for n, changed in enumerate(before):
        shared: dict[int, tuple[Changes, ...]] = {}
        trees += [base.patched(changed, 10 + n, shared), base.patched(changed, 20 + n, shared),
                  base.patched(changed, 30 + n)]
    assert trees[2]._patches is trees[3]._patches  # shared, as the stretch makes them
    order.shuffle(trees)  # type: ignore[attr-defined]
    rows: dict[int, tuple[Changes, ...]] = {}
    for tree in trees:
        alone = tree.patched(now, tree.revision + 1)
        together = tree.patched(now, tree.revision + 1, rows)
        try:
            eager = alone.put({}, alone.revision)  # (reads it: a conflict raises here)
        except PathRefused:
            continue  # the engine never patches a checkpoint into a conflict
        same_objects(together, eager)
        assert together == alone
        assert together.revision == alone.revision


def test_trees_that_had_one_row_share_the_new_one() -> None:
    one, two = FileState.from_bytes(b"one\n"), FileState.from_bytes(b"two\n")
    base = Tree.from_files({"a": one, "b": one})
    rows: dict[int, tuple[Changes, ...]] = {}
    first, second = base.patched({"a": two}, 1, rows), base.patched({"a": two}, 2, rows)
    assert first._patches is second._patches
    again: dict[int, tuple[Changes, ...]] = {}
    third, fourth = first.patched({"b": two}, 3, again), second.patched({"b": two}, 4, again)
    assert third._patches is fourth._patches
    assert len(third._patches or ()) == 2
    assert (third.get("a"), third.get("b"), fourth.revision) == (two, two, 4)
