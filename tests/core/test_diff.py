"""Line diffs for review: pairing, word spans, folding, numbering, hunk choice."""

from __future__ import annotations

import subprocess
import sys
from unittest.mock import patch

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.text import diff
from reviewtui.core.text.diff import (
    MAX_INTRALINE_CHARS,
    DiffModel,
    DiffRow,
    RowKind,
    Side,
    build_diff,
    line_opcodes,
    unified_rows,
    word_spans,
)
from reviewtui.core.text.hunks import DiffHunk, apply_hunks, split_hunks

EVERYTHING = frozenset(range(1_000))  # more fold indices than any test diff has


def kinds(model: DiffModel) -> list[str]:
    return [str(row.kind) for row in model.rows]


def numbered(rows: tuple[DiffRow, ...]) -> list[tuple[str, int | None, int | None]]:
    return [(str(row.kind), row.left.number if row.left else None,
             row.right.number if row.right else None) for row in rows]


# --- pairing and word spans ----------------------------------------------------------


def test_a_renamed_variable_pairs_with_its_own_line() -> None:
    before = ["def f(a, b):", "    total = compute(a, b)", "    return total"]
    after = ["def f(a, b):", "    log.info('computing')", "    result = compute(a, b)",
             "    return result"]
    model = build_diff(before, after)
    assert numbered(model.rows) == [
        ("context", 1, 1),
        ("add", None, 2),  # the new log line pairs with nothing
        ("change", 2, 3),  # not with line 2 of after, which is at the same position
        ("change", 3, 4),
    ]
    change = model.rows[2]
    assert change.left == Side(2, "    total = compute(a, b)", ((4, 9),))
    assert change.right == Side(3, "    result = compute(a, b)", ((4, 10),))
    assert (model.hunks, model.added, model.removed) == (1, 3, 2)
    assert {row.hunk for row in model.rows} == {-1, 0}


def test_dissimilar_lines_stay_apart_and_order_is_kept() -> None:
    before = ["alpha = 1", "print('hello world')"]
    after = ["print('hello, world')", "omega = compute()"]
    model = build_diff(before, after)
    # alpha/omega share nothing worth pairing; the prints pair without crossing.
    assert numbered(model.rows) == [("remove", 1, None), ("change", 2, 1), ("add", None, 2)]


def test_best_ratio_wins_over_first_candidate() -> None:
    before = ["value = parse(data, strict=True)"]
    after = ["value = other(thing)", "value = parse(data, strict=False)"]
    model = build_diff(before, after)
    assert numbered(model.rows) == [("add", None, 1), ("change", 1, 2)]
    assert model.rows[1].left is not None
    assert model.rows[1].left.spans == ((27, 31),)


@pytest.mark.parametrize(("old", "new", "left", "right"), [
    ("foo(bar, baz)", "foo(bar, qux)", ((9, 12),), ((9, 12),)),
    ("a + b", "x + y", ((0, 1), (4, 5)), ((0, 1), (4, 5))),
    ("return x", "return x  # done", (), ((8, 16),)),
    ("    if ok:", "\tif ok:", ((0, 4),), ((0, 1),)),
    ("same", "same", (), ()),
    ("", "new", (), ((0, 3),)),
    ("naïve café", "naive café", ((0, 5),), ((0, 5),)),
])
def test_word_spans_are_exact(old: str, new: str, left: tuple[tuple[int, int], ...],
                              right: tuple[tuple[int, int], ...]) -> None:
    assert word_spans(old, new) == (left, right)


def test_word_spans_can_ignore_whitespace() -> None:
    assert word_spans("a  =  b + 1", "a = c + 1", ignore_whitespace=True) == (
        ((6, 7),), ((4, 5),))
    assert word_spans("x=1", "x = 1", ignore_whitespace=True) == ((), ())


# --- folding -------------------------------------------------------------------------


def twenty() -> list[str]:
    return [f"line {n}" for n in range(1, 21)]


def test_unchanged_runs_fold_to_context_around_a_change() -> None:
    before = twenty()
    after = twenty()
    after[9] = "line 10 changed"
    model = build_diff(before, after)
    assert numbered(model.rows) == [
        ("collapsed", 1, 1),
        ("context", 7, 7), ("context", 8, 8), ("context", 9, 9),
        ("change", 10, 10),
        ("context", 11, 11), ("context", 12, 12), ("context", 13, 13),
        ("collapsed", 14, 14),
    ]
    first, last = model.rows[0], model.rows[-1]
    assert (first.hidden, first.fold, first.left, first.right) == (
        6, 0, Side(1, ""), Side(1, ""))
    assert (last.hidden, last.fold) == (7, 1)


def test_a_middle_run_keeps_context_on_both_sides() -> None:
    before = twenty()
    after = twenty()
    after[1] = "line 2 changed"
    after[17] = "line 18 changed"
    model = build_diff(before, after, context=2)
    collapsed = [row for row in model.rows if row.kind is RowKind.COLLAPSED]
    # Lines 3..17 are unchanged: 2 shown after line 2, 2 before line 18, 11 hidden.
    assert [(row.left.number if row.left else 0, row.hidden, row.fold)
            for row in collapsed] == [(5, 11, 1)]
    assert kinds(model)[:4] == ["context", "change", "context", "context"]


def test_expanded_runs_are_shown_in_full_and_keep_their_index() -> None:
    before = twenty()
    after = twenty()
    after[9] = "line 10 changed"
    model = build_diff(before, after, expanded=frozenset({1}))
    assert model.rows[0].kind is RowKind.COLLAPSED
    assert model.rows[0].fold == 0
    assert [row.left.number for row in model.rows[5:] if row.left] == list(range(11, 21))
    # The index is the run's place among all unchanged runs, whatever the context.
    for context in (0, 1, 5):
        folds = [row.fold for row in build_diff(before, after, context=context).rows
                 if row.kind is RowKind.COLLAPSED]
        assert folds == [0, 1]


def test_short_runs_do_not_fold_and_context_zero_hides_all() -> None:
    before = ["a", "b", "c = 1", "d", "e"]
    after = ["a", "b", "c = 2", "d", "e"]
    assert kinds(build_diff(before, after, context=2)) == [
        "context", "context", "change", "context", "context"]
    # With one line of context, folding "a" alone would save nothing.
    assert kinds(build_diff(before, after, context=1)) == [
        "context", "context", "change", "context", "context"]
    assert kinds(build_diff(before, after, context=0)) == ["collapsed", "change", "collapsed"]


def test_identical_texts_fold_whole_and_say_so() -> None:
    model = build_diff(twenty(), twenty())
    assert (model.hunks, model.added, model.removed) == (0, 0, 0)
    assert model.notes == ("no changes",)
    assert len(model.rows) == 1
    assert model.rows[0].hidden == 20
    assert len(build_diff(twenty(), twenty(), expanded=frozenset({0})).rows) == 20
    assert build_diff([], []).rows == ()


# --- numbering -----------------------------------------------------------------------


def test_line_numbers_follow_the_starts() -> None:
    before = ["x = 1", "y = 2", "z = 3"]
    after = ["x = 1", "y = 20", "w = 0", "z = 3"]
    model = build_diff(before, after, before_start=101, after_start=201)
    assert numbered(model.rows) == [
        ("context", 101, 201), ("change", 102, 202), ("add", None, 203),
        ("context", 103, 204),
    ]
    assert (model.before_start, model.after_start) == (101, 201)
    for row in model.rows:
        if row.left:
            assert row.left.text == before[row.left.number - model.before_start]
        if row.right:
            assert row.right.text == after[row.right.number - model.after_start]


def test_collapsed_rows_number_their_first_hidden_line() -> None:
    before = [f"l{n}" for n in range(30)]
    after = ["new", *before]
    model = build_diff(before, after, before_start=50, after_start=50)
    last = model.rows[-1]
    assert last.kind is RowKind.COLLAPSED
    assert (last.left, last.right, last.hidden) == (Side(53, ""), Side(54, ""), 27)


# --- whitespace ----------------------------------------------------------------------


def test_ignore_whitespace_keeps_reindented_lines_unchanged() -> None:
    before = ["def f():", "  x = 1", "  return x"]
    after = ["def f():", "    x = 1", "    return x + 1"]
    strict = build_diff(before, after)
    assert kinds(strict) == ["context", "change", "change"]
    assert strict.rows[1].left is not None
    assert strict.rows[1].left.spans == ((0, 2),)
    loose = build_diff(before, after, ignore_whitespace=True)
    assert kinds(loose) == ["context", "context", "change"]
    # An unchanged row still shows each side's own text.
    assert (loose.rows[1].left, loose.rows[1].right) == (Side(2, "  x = 1"), Side(2, "    x = 1"))
    change = loose.rows[2]
    assert change.left is not None
    assert change.right is not None
    # "+ 1" without the space before it: whitespace is not compared.
    assert (change.left.spans, change.right.spans) == ((), ((13, 16),))
    assert strict.rows[2].right is not None
    assert strict.rows[2].right.spans == ((0, 4), (12, 16))
    assert (loose.hunks, loose.added, loose.removed) == (1, 1, 1)


# --- unified -------------------------------------------------------------------------


def test_unified_rows_put_a_blocks_removals_before_its_additions() -> None:
    before = ["keep", "one = 1", "two = 2", "keep too"]
    after = ["keep", "one = 10", "two = 20", "three = 3", "keep too"]
    model = build_diff(before, after)
    assert kinds(model) == ["context", "change", "change", "add", "context"]
    rows = unified_rows(model)
    assert numbered(rows) == [
        ("context", 1, 1),
        ("remove", 2, None), ("remove", 3, None),
        ("add", None, 2), ("add", None, 3), ("add", None, 4),
        ("context", 4, 5),
    ]
    assert rows[1].left == model.rows[1].left  # spans kept
    assert rows[3].right == model.rows[1].right
    assert {row.hunk for row in rows[1:6]} == {0}


def test_unified_rows_keep_separate_blocks_apart() -> None:
    before = ["a", "b", "c"]
    after = ["A", "b", "C"]
    rows = unified_rows(build_diff(before, after))
    assert [(str(row.kind), row.hunk) for row in rows] == [
        ("remove", 0), ("add", 0), ("context", -1), ("remove", 1), ("add", 1)]


# --- hunks ---------------------------------------------------------------------------


BEFORE = ["a", "b", "c", "d", "e", "f", "g"]
AFTER = ["a", "B", "c", "d", "e", "F", "g", "h"]


def test_split_hunks_lists_the_change_blocks() -> None:
    assert split_hunks(BEFORE, AFTER) == [
        DiffHunk(0, 1, 2, 1, 2, ("b",), ("B",)),
        DiffHunk(1, 5, 6, 5, 6, ("f",), ("F",)),
        DiffHunk(2, 7, 7, 7, 8, (), ("h",)),
    ]
    assert split_hunks(BEFORE, BEFORE) == []


@pytest.mark.parametrize(("chosen", "expected"), [
    (set(), BEFORE),
    ({0, 1, 2}, AFTER),
    ({0}, ["a", "B", "c", "d", "e", "f", "g"]),
    ({1, 2}, ["a", "b", "c", "d", "e", "F", "g", "h"]),
    ({2}, [*BEFORE, "h"]),
])
def test_apply_hunks_keeps_only_the_chosen_blocks(chosen: set[int],
                                                  expected: list[str]) -> None:
    assert apply_hunks(BEFORE, AFTER, chosen) == expected


def test_row_hunks_match_split_hunks() -> None:
    model = build_diff(BEFORE, AFTER)
    assert model.hunks == len(split_hunks(BEFORE, AFTER))
    for row in model.rows:
        if row.hunk >= 0:
            hunk = split_hunks(BEFORE, AFTER)[row.hunk]
            if row.left:
                assert row.left.text in hunk.removed
            if row.right:
                assert row.right.text in hunk.added


# --- bounds --------------------------------------------------------------------------


def test_a_huge_block_is_shown_line_by_line_with_a_note() -> None:
    before = [f"old line {n}" for n in range(2_500)]
    after = [f"new line {n}" for n in range(2_400)]
    model = build_diff(before, after)
    assert model.notes == ("intra-line highlighting skipped: hunk of 2,500 lines",)
    assert len(model.rows) == 2_500
    assert all(not (row.left and row.left.spans) for row in model.rows)
    assert numbered(model.rows)[0] == ("change", 1, 1)
    assert numbered(model.rows)[-1] == ("remove", 2_500, None)


def test_long_lines_are_not_compared_word_by_word() -> None:
    long_old = "x" * (MAX_INTRALINE_CHARS + 1)
    model = build_diff(["a", long_old, "b = 1"], ["a", long_old + "y", "b = 2"])
    assert kinds(model) == ["context", "remove", "add", "change"]
    assert model.notes == ("intra-line highlighting skipped for 2 lines over 1,000 characters",)


def test_a_large_file_with_repeated_lines_diffs_correctly() -> None:
    before = [line for n in range(4_000) for line in (f"def f{n}():", "    pass", "")]
    after = list(before)
    after[6_001] = "    pass  # noqa"
    model = build_diff(before, after)
    assert model.hunks == 1
    change = next(row for row in model.rows if row.kind is RowKind.CHANGE)
    assert change.left is not None
    assert change.left.number == 6_002
    assert apply_hunks(before, after, {0}) == after


def test_the_core_does_not_import_textual_or_rich() -> None:
    code = ("import sys, reviewtui.core.text.diff; "
            "print(any(m.split('.')[0] in ('textual', 'rich') for m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "False"


# --- properties ----------------------------------------------------------------------

LINE = st.sampled_from(["", "x = 1", "x = 2", "  x = 1", "y = x + 1", "return y",
                        "}", "print('hi')", "print( 'hi' )"])
LINES = st.lists(LINE, max_size=25)


def shown(rows: tuple[DiffRow, ...]) -> tuple[list[Side], list[Side]]:
    lefts = [row.left for row in rows if row.kind is not RowKind.COLLAPSED and row.left]
    rights = [row.right for row in rows if row.kind is not RowKind.COLLAPSED and row.right]
    return lefts, rights


@settings(max_examples=300, deadline=None)
@given(LINES, LINES, st.booleans(), st.integers(min_value=0, max_value=4))
def test_every_line_appears_once_in_order(before: list[str], after: list[str],
                                          ignore_whitespace: bool, context: int) -> None:
    model = build_diff(before, after, before_start=7, after_start=3, context=context,
                       ignore_whitespace=ignore_whitespace, expanded=EVERYTHING)
    for rows in (model.rows, unified_rows(model)):
        assert all(row.kind is not RowKind.COLLAPSED for row in rows)
        lefts, rights = shown(rows)
        assert [(side.number, side.text) for side in lefts] == [
            (7 + n, line) for n, line in enumerate(before)]
        assert [(side.number, side.text) for side in rights] == [
            (3 + n, line) for n, line in enumerate(after)]
    assert model.added == sum(1 for row in model.rows if row.right and row.hunk >= 0)
    assert model.removed == sum(1 for row in model.rows if row.left and row.hunk >= 0)


@settings(max_examples=300, deadline=None)
@given(LINES, LINES, st.integers(min_value=0, max_value=4))
def test_folding_hides_only_whole_unchanged_runs(before: list[str], after: list[str],
                                                 context: int) -> None:
    model = build_diff(before, after, context=context)
    lefts, rights = shown(model.rows)
    hidden = sum(row.hidden for row in model.rows)
    assert len(lefts) + hidden == len(before)
    assert len(rights) + hidden == len(after)
    for row in model.rows:
        if row.kind is RowKind.COLLAPSED:
            assert row.hidden >= 2
            assert row.left is not None
            assert row.right is not None
            start_b, start_a = row.left.number - 1, row.right.number - 1
            assert before[start_b : start_b + row.hidden] == after[start_a : start_a + row.hidden]


@settings(max_examples=300, deadline=None)
@given(LINES, LINES, st.data())
def test_apply_hunks_between_before_and_after(before: list[str], after: list[str],
                                              data: st.DataObject) -> None:
    hunks = split_hunks(before, after)
    every = set(range(len(hunks)))
    assert apply_hunks(before, after, every) == after
    assert apply_hunks(before, after, set()) == before
    assert build_diff(before, after).hunks == len(hunks)
    chosen = data.draw(st.sets(st.sampled_from(sorted(every))) if every else st.just(set()))
    # Choosing a block replaces exactly its lines.
    expected = list(before)
    for hunk in reversed(hunks):
        if hunk.index in chosen:
            expected[hunk.before_start : hunk.before_end] = hunk.added
    assert apply_hunks(before, after, chosen) == expected


@settings(max_examples=300, deadline=None)
@given(LINES, LINES, st.integers(min_value=1, max_value=6))
def test_anchored_line_diffs_are_valid(before: list[str], after: list[str],
                                       anchor_lines: int) -> None:
    """Big stretches are cut at anchors first: the opcodes must still tile both sides
    and their equal runs must be equal (checked here on small inputs with a small
    threshold)."""
    with patch.object(diff, "ANCHOR_LINES", anchor_lines):
        ops = line_opcodes(before, after)
        hunks = split_hunks(before, after)
        assert apply_hunks(before, after, set(range(len(hunks)))) == after
        assert apply_hunks(before, after, set()) == before
    i = j = 0
    for tag, i1, i2, j1, j2 in ops:
        assert (i1, j1) == (i, j)
        if tag == "equal":
            assert before[i1:i2] == after[j1:j2]
        i, j = i2, j2
    assert (i, j) == (len(before), len(after))
    tags = [op[0] for op in ops]
    assert all(not (x == y == "equal") for x, y in zip(tags, tags[1:], strict=False))


def test_boilerplate_lines_keep_blocks_apart_in_a_big_rewrite() -> None:
    # Every line changes but the blank lines between functions: one hunk per function,
    # not one hunk for the whole file, and fast (no quadratic rescans).
    before = [line for n in range(800) for line in (f"def f{n}():", f"    return {n}", "")]
    after = [line for n in range(800) for line in (f"def g{n}():", f"    return {n + 1}", "")]
    assert build_diff(before, after).hunks == 800
    assert len(split_hunks(before, after)) == 800


def test_a_line_equal_at_the_same_offset_stands_for_itself() -> None:
    """A stretch of lines replaced in place, one of them written again elsewhere in it:
    the copy at the same offset is the line itself (SequenceMatcher took the leftmost
    copy, and a layer read that way put a later change on the wrong line: QA s43)."""
    before = ["a", "line 1", "T1-2", "line 3", "z"]
    after = ["a", "T1-2", "T1-2", "line 2", "z"]
    assert line_opcodes(before, after) == [
        ("equal", 0, 1, 0, 1), ("replace", 1, 2, 1, 2), ("equal", 2, 3, 2, 3),
        ("replace", 3, 4, 3, 4), ("equal", 4, 5, 4, 5)]
