"""Taking part of an edit: change blocks, chosen lines, and the text they rebuild."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.review.partial import (
    BlockLine,
    LineSide,
    apply_chosen,
    change_blocks,
    choose_all,
)
from reviewtui.core.text.hunks import apply_hunks, split_hunks

SEARCH = ["def mul(a, b):", "    return a * b", "", "", "def add(a, b):", "    return a + b"]
REPLACE = ["def mul(a: int, b: int) -> int:", "    return int(a * b)", "", "",
           "def add(a, b):", "    # plain addition", "    return a + b"]


def positions(block_lines: tuple[BlockLine, ...], *wanted: tuple[LineSide, int]) -> set[int]:
    return {n for n, line in enumerate(block_lines) if (line.side, line.number) in wanted}


def test_blocks_list_paired_lines_removed_then_added() -> None:
    blocks = change_blocks(SEARCH, REPLACE)
    assert len(blocks) == 2
    first, second = blocks
    assert [(line.side, line.number) for line in first.lines] == [
        (LineSide.REMOVED, 0), (LineSide.ADDED, 0), (LineSide.REMOVED, 1), (LineSide.ADDED, 1)]
    assert (first.removed, first.added) == (2, 2)
    assert first.lines[1].spans  # paired lines carry the words that differ
    assert [(line.side, line.number, line.text) for line in second.lines] == [
        (LineSide.ADDED, 5, "    # plain addition")]
    assert (second.before_start, second.before_end) == (5, 5)


def test_taking_only_the_second_changed_line_keeps_the_first_in_place() -> None:
    blocks = change_blocks(SEARCH, REPLACE)
    chosen = {0: positions(blocks[0].lines, (LineSide.REMOVED, 1), (LineSide.ADDED, 1))}
    assert apply_chosen(SEARCH, blocks, chosen) == [
        "def mul(a, b):", "    return int(a * b)", "", "", "def add(a, b):", "    return a + b"]


def test_an_unchosen_removed_line_is_kept_and_an_unchosen_added_line_is_dropped() -> None:
    blocks = change_blocks(SEARCH, REPLACE)
    # Take the removal of line 1 but not its replacement, and the new comment.
    chosen = {0: positions(blocks[0].lines, (LineSide.REMOVED, 0)), 1: {0}}
    assert apply_chosen(SEARCH, blocks, chosen) == [
        "    return a * b", "", "", "def add(a, b):", "    # plain addition",
        "    return a + b"]


def test_whole_blocks_and_nothing() -> None:
    blocks = change_blocks(SEARCH, REPLACE)
    assert apply_chosen(SEARCH, blocks, choose_all(blocks)) == REPLACE
    assert apply_chosen(SEARCH, blocks, {}) == SEARCH
    assert apply_chosen(SEARCH, blocks, {1: blocks[1].positions}) == apply_hunks(
        SEARCH, REPLACE, {1})


def test_no_change_has_no_blocks() -> None:
    assert change_blocks(SEARCH, SEARCH) == ()
    assert change_blocks([], []) == ()


def test_a_new_file_is_one_block_of_additions() -> None:
    blocks = change_blocks([], ["a", "b", "c"])
    assert len(blocks) == 1
    assert all(line.side is LineSide.ADDED for line in blocks[0].lines)
    assert apply_chosen([], blocks, {0: {0, 2}}) == ["a", "c"]


# --- properties ----------------------------------------------------------------------

LINE = st.sampled_from(["", "x = 1", "x = 2", "  x = 1", "y = x + 1", "return y",
                        "}", "print('hi')", "print( 'hi' )"])
LINES = st.lists(LINE, max_size=25)


@settings(max_examples=300, deadline=None)
@given(LINES, LINES)
def test_all_chosen_is_after_and_none_is_before(before: list[str], after: list[str]) -> None:
    blocks = change_blocks(before, after)
    assert apply_chosen(before, blocks, choose_all(blocks)) == after
    assert apply_chosen(before, blocks, {}) == before
    assert apply_chosen(before, blocks, {b.index: () for b in blocks}) == before
    assert len(blocks) == len(split_hunks(before, after))


@settings(max_examples=300, deadline=None)
@given(LINES, LINES, st.data())
def test_every_choice_keeps_and_adds_exactly_what_it_says(before: list[str], after: list[str],
                                                          data: st.DataObject) -> None:
    blocks = change_blocks(before, after)
    chosen = {b.index: data.draw(st.sets(st.sampled_from(sorted(b.positions))))
              for b in blocks}
    result = apply_chosen(before, blocks, chosen)
    removed = sum(1 for b in blocks for n, line in enumerate(b.lines)
                  if line.side is LineSide.REMOVED and n in chosen[b.index])
    added = sum(1 for b in blocks for n, line in enumerate(b.lines)
                if line.side is LineSide.ADDED and n in chosen[b.index])
    assert len(result) == len(before) - removed + added
    # Each block's lines are its removed lines and its added lines, each once, in order.
    for block in blocks:
        minus = [line.number for line in block.lines if line.side is LineSide.REMOVED]
        plus = [line.number for line in block.lines if line.side is LineSide.ADDED]
        assert minus == list(range(block.before_start, block.before_end))
        assert plus == list(range(block.after_start, block.after_end))
    # Whole blocks agree with apply_hunks.
    whole = {b.index for b in blocks if set(chosen[b.index]) == b.positions}
    partial_free = {b.index: chosen[b.index] for b in blocks if b.index in whole}
    assert apply_chosen(before, blocks, partial_free) == apply_hunks(before, after, whole)
