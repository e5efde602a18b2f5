"""Hash-addressed line ids: format, round trip and stale-id refusals."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reviewtui.core.text.hashline import (
    LineRef,
    StaleRef,
    line_id,
    line_tag,
    parse_range,
    parse_ref,
    resolve,
)


def test_tag_is_two_hex_digits_and_ignores_trailing_whitespace() -> None:
    assert len(line_tag("x = 1")) == 2
    assert line_tag("x = 1") == line_tag("x = 1   \t")
    assert line_id(12, "x = 1") == f"12:{line_tag('x = 1')}"


def test_ranges_and_plain_numbers_parse() -> None:
    assert parse_range("140-148") == (LineRef(140), LineRef(148))
    assert parse_range("12:A3-15:f0") == (LineRef(12, "a3"), LineRef(15, "f0"))
    assert parse_ref("x") is None


def test_a_stale_id_names_the_line_and_its_current_id() -> None:
    lines = ["a", "b", "c"]
    with pytest.raises(StaleRef) as err:
        resolve(lines, LineRef(2, "zz"))
    assert err.value.rule == "stale-line-id"
    assert line_id(2, "b") in err.value.message


@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs",),
                                               blacklist_characters="\n\r")),
                min_size=1, max_size=20), st.data())
def test_ids_round_trip(lines: list[str], data: st.DataObject) -> None:
    at = data.draw(st.integers(0, len(lines) - 1))
    ref = parse_ref(line_id(at + 1, lines[at]))
    assert ref is not None
    assert resolve(lines, ref) == at


def test_stale_id_says_where_its_tag_is_now_without_resolving_it() -> None:
    from reviewtui.core.text.hashline import StaleRef, line_id, parse_ref, resolve

    before = ["a = 1", "b = 2", "return total"]
    after = ["a = 1", "# new", "b = 2", "return total"]
    stale = parse_ref(line_id(3, before[2]))
    assert stale is not None
    with pytest.raises(StaleRef) as info:
        resolve(after, stale)
    assert info.value.rule == "stale-line-id"
    assert f"is now on {line_id(4, after[3])}" in info.value.message
