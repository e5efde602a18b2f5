"""The search bar's index: texts folded once answer as folding every text per query did."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from reviewtui.core.review.search import SearchIndex

# Letters whose case folding is not one-to-one (ß folds to "ss", the Kelvin sign to "k",
# the dotted capital I to "i" and a combining dot, final sigma to sigma) beside plain ones.
ALPHABET = st.sampled_from(list("aAbBsSkK iIσςΣ\n") + ["ß", "ẞ", "\u212a", "\u0130", "\u0307"])
TEXT = st.text(ALPHABET, max_size=12)


def folding_each_time(texts: list[str], query: str) -> list[int]:
    """The bar's answer before the index: each text folded again for each query."""
    needle = query.casefold()
    if not needle:
        return []
    return [n for n, text in enumerate(texts) if needle in text.casefold()]


@given(texts=st.lists(TEXT, max_size=8), queries=st.lists(TEXT, min_size=1, max_size=4))
def test_the_index_answers_as_folding_each_text_per_query(texts: list[str],
                                                          queries: list[str]) -> None:
    index = SearchIndex(texts)
    assert len(index) == len(texts)
    for query in queries:
        assert index.matches(query) == folding_each_time(texts, query)


def test_case_and_folding_are_ignored_and_an_empty_query_finds_nothing() -> None:
    index = SearchIndex(["def Straße():", "STRASSE = 1", "other", "Kelvin \u212a"])
    assert index.matches("strasse") == [0, 1]
    assert index.matches("STRAßE") == [0, 1]
    assert index.matches("kelvin k") == [3]
    assert index.matches("") == []
    assert index.matches("absent") == []
