"""full-file-too-costly: difflib runs only on a bounded middle of the file."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from reviewtui.core.lint import tokens


@given(st.lists(st.sampled_from("abc"), max_size=30), st.lists(st.sampled_from("abc"),
                                                                max_size=30))
def test_small_changes_are_difflib_blocks_after_trimming(old: list[str], new: list[str]) -> None:
    blocks = tokens._changed_blocks(old, new)
    rebuilt = list(old)
    for i1, i2, j1, j2 in reversed(blocks):
        rebuilt[i1:i2] = new[j1:j2]
    assert rebuilt == new
    assert all(i1 < i2 or j1 < j2 for i1, i2, j1, j2 in blocks)  # no empty block
    assert (blocks == []) == (old == new)


def test_a_huge_rewrite_is_one_block_without_difflib(monkeypatch: object) -> None:
    old = [f"line {i}" for i in range(50_000)]
    new = [f"line {i}" if i % 2 else f"changed {i}" for i in range(50_000)]
    new[0], new[-1] = old[0], old[-1]

    def refuse(*_args: object, **_kwargs: object) -> None:
        raise AssertionError("difflib ran on a 50,000-line middle")

    # tokens imports difflib's SequenceMatcher where it diffs (not at start-up)
    monkeypatch.setattr("difflib.SequenceMatcher", refuse)  # type: ignore[attr-defined]
    assert tokens._changed_blocks(old, new) == [(2, 49_999, 2, 49_999)]
    assert tokens.search_replace_cost(old, new) is not None
