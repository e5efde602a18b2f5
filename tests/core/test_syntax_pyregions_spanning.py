"""The scan for tokens spanning lines passes over one-line tokens inside its pattern; it
finds what running :data:`_TOKENS` over the text found (the reference below, the scan it
replaced), from the top or from a later line."""

from __future__ import annotations

import re
from collections.abc import Iterator

from hypothesis import example, given, settings
from hypothesis import strategies as st

from reviewtui.core.syntax import pyregions


def long_strings_reference(text: str, pos: int = 0, line: int = 0
                           ) -> Iterator[tuple[int, int]]:
    at = pos
    for found in pyregions._TOKENS.finditer(text, pos):
        token = found.group()
        if "\n" in token:
            line += text.count("\n", at, found.start())
            at = found.start()
            yield line, token.count("\n")


PIECES = ['"""', "'''", '"', "'", "x", "#", "\\", "\\\n", "\n", "\r\n", "\r", " ", '""',
          "''", '""""', "#'''", "'\"\"\"'", 'a = """b', "\\\\", "def f():", "\\\r\n"]


@settings(max_examples=400)
@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join), st.integers(0, 3))
@example('"""a\\', 0)
@example("'a\\\nb' \"\"\"c", 0)
@example("# '''\n'''x\n'''", 1)
def test_the_scan_finds_the_spanning_tokens_of_a_scan_of_every_token(
        text: str, skip: int) -> None:
    starts = [0] + [i + 1 for i, c in enumerate(text) if c == "\n"]
    line = min(skip, len(starts) - 1)
    assert list(pyregions._long_strings(text, starts[line], line)) == list(
        long_strings_reference(text, starts[line], line))


def test_strings_and_continuations_are_found_after_plain_lines() -> None:
    text = "x = 1  # '''\n" * 50 + 's = """a\nb\n"""\n' + "y = 'a\\\nb'\n" + 'z = """'
    assert list(pyregions._long_strings(text)) == [(50, 2), (53, 1)]


@settings(max_examples=200)
@given(st.lists(st.sampled_from(PIECES), max_size=40).map("".join))
@example('"""a\\')
def test_each_match_starts_where_the_last_ended(text: str) -> None:
    # A failed attempt would move the search on by one offset and try again (quadratic
    # on a long file, and a token could be missed): the matches tile the whole text.
    end = 0
    for found in pyregions._SPANNING.finditer(text):
        assert found.start() == end
        end = found.end()
    assert end == len(text)


def test_text_out_of_tokens_is_every_character_but_quotes_and_hash() -> None:
    # (two runs: Latin-1, then the rest)
    plain = re.compile("|".join(pyregions._ONE_LINE.split("|")[:2]))
    assert all((plain.fullmatch(chr(code)) is None) == (chr(code) in "#'\"")
               for code in range(0x110000))
