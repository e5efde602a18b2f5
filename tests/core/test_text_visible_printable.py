"""``visible`` skips its regular expression for printable text (core/text/visible.py;
issue 13, "Headless start-up": the pattern is compiled only when a line needs it)."""

from __future__ import annotations

import re

from hypothesis import given
from hypothesis import strategies as st

from reviewtui.core.text.visible import HIDDEN, HIDDEN_LETTERS, visible

_REFERENCE = re.compile(HIDDEN)


def _reference(text: str, keep: str) -> str:
    return _REFERENCE.sub(lambda m: m.group() if m.group() in keep
                          else f"\\u{ord(m.group()):04x}", text)


def test_no_hidden_character_is_printable() -> None:
    hidden = [chr(c) for c in range(0x110000) if _REFERENCE.fullmatch(chr(c))]
    # C0, DEL + C1, the two separators, five bidi embeddings, four isolates, three bidi
    # marks (LRM, RLM, ALM), zero-width space, word joiner, byte order mark; soft hyphen,
    # Mongolian vowel separator, four invisible operators, six deprecated format
    # characters, three interlinear annotation marks; the no-break, narrow no-break,
    # eleven typographic, mathematical and ideographic spaces, the blank Braille pattern;
    # the combining grapheme joiner, two Khmer inherent vowels, four Hangul fillers
    assert len(hidden) == (32 + 33 + 2 + 5 + 4 + 3 + 3
                           + 1 + 1 + 4 + 6 + 3
                           + 2 + 11 + 1 + 1 + 1
                           + 1 + 2 + 4)
    # The printable shortcut asks for the printable ones by name: it skips none of them.
    assert {c for c in hidden if c.isprintable()} == set(map(chr, HIDDEN_LETTERS))


_TEXT = st.text(st.one_of(st.characters(), st.sampled_from(
    "\x1b\r\t\n\x85\u2028\u202e\u2066\u200e\u200b\ufeff\xa0\xad\u3164\u2800\u034f")))


@given(_TEXT, st.sampled_from(["", "\t", "\n\t", "\x1b"]))
def test_visible_is_the_pattern_substitution(text: str, keep: str) -> None:
    assert visible(text, keep=keep) == _reference(text, keep)


def test_printable_text_is_returned_as_it_is() -> None:
    assert visible("plain · text ✓") == "plain · text ✓"
    assert visible("a\x1b[2Kb\u202ec", keep="") == "a\\u001b[2Kb\\u202ec"
    assert visible("a\tb\x07", keep="\t") == "a\tb\\u0007"


def test_blanks_that_are_not_spaces_are_spelt_out() -> None:
    """A no-break space and a Hangul filler look like a space or like nothing: a path or a
    command holding one read as another (helper-106 F7)."""
    assert visible("if\xa0x") == "if\\u00a0x"
    assert visible("const {a,\u3164} = q") == "const {a,\\u3164} = q"
    assert visible("co\xadnfig.py") == "co\\u00adnfig.py"
    assert visible("a\u3164\t", keep="\t") == "a\\u3164\t"
