"""The word check in front of the placeholder-phrase patterns only lets lines skip them:
every text either pattern matches passes it, and ``_is_phrase`` says what it said when
every candidate went through the patterns (the reference below)."""

from __future__ import annotations

import re

from hypothesis import example, given, settings
from hypothesis import strategies as st

from reviewtui.core.text import markers

# The words the patterns are made of, a few others, and characters that IGNORECASE
# folds onto ASCII letters ("ſ" is "s", the Kelvin sign "k", "ı" is "i").
WORDS = sorted({*markers._FIRST_WORDS, *markers._LAST_WORDS,
                *re.findall(r"[a-z]+", markers._PHRASE.pattern + markers._BARE_PHRASE.pattern),
                "of", "for", "brevity", "else", "as", "not", "goes", "x", "loop", "ſame",
                "\u212aeep", "ımports", "rest.", "code:", "(omitted)", "cache"})


def cased(word: str) -> st.SearchStrategy[str]:
    return st.sampled_from([word, word.upper(), word.title()])


words = st.sampled_from(WORDS).flatmap(cased)
phrases = st.lists(words, min_size=1, max_size=9).map(" ".join)


def matches_a_pattern(text: str) -> bool:
    return any(p.fullmatch(text) is not None for p in (markers._PHRASE, markers._BARE_PHRASE))


@settings(max_examples=400)
@given(phrases)
@example("rest of the file unchanged")
@example("Existing code omitted for brevity")
@example("your code here")
@example("\u017fame as before")
@example("omitted")
def test_every_text_a_pattern_matches_passes_the_word_check(text: str) -> None:
    if matches_a_pattern(text):
        assert markers._may_be_phrase(text)


def is_phrase_reference(line: str) -> bool:
    """``_is_phrase`` before the word check."""
    text = markers._text(line)
    if markers._PHRASE_CUE.search(text.lower()) is None:
        return False
    body, wrapped = markers._unwrap(text)
    if not wrapped and markers._CODE.search(body):
        return False
    body = body.rstrip(" .:")
    if body[:1] + body[-1:] in ("()", "[]"):
        body = body[1:-1].strip(" .")
    phrase = markers._PHRASE if wrapped else markers._BARE_PHRASE
    return bool(body) and phrase.fullmatch(" ".join(body.split())) is not None


lines = st.tuples(st.sampled_from(["", "# ", "// ", "/* ", "<!-- ", "  # ("]),
                  st.lists(words, min_size=1, max_size=8).map("  ".join),
                  st.sampled_from(["", ".", " */", " -->", ")", " ...", ":", "\t"])
                  ).map("".join)


@settings(max_examples=300)
@given(lines)
@example("# (unchanged code omitted for brevity)")
@example("// rest of your code goes here")
@example("# be separated with commas here")
def test_is_phrase_says_what_it_said_before_the_word_check(line: str) -> None:
    assert markers._is_phrase(line) == is_phrase_reference(line)


def test_found_phrases_still_are_and_code_lines_are_not() -> None:
    assert markers._is_phrase("# rest of file unchanged")
    assert markers._is_phrase("# existing imports")
    assert markers._is_phrase("// Your code here")
    assert not markers._is_phrase("# be separated with commas here")
    assert not markers._is_phrase("# a pure deque, which the original fifo was a wrapping of")


# One phrase for each way the patterns start and end.
KNOWN = [
    "rest of the file unchanged", "keep all the remainder of your code", "Leave existing "
    "tests as is", "unchanged imports", "our existing logic kept", "previous methods not "
    "shown", "original implementation stays the same", "remaining lines below", "old code "
    "here", "other helpers intact", "everything else is unchanged", "all else remains the "
    "same", "the rest omitted", "rest elided", "imports unchanged", "config truncated", "your "
    "own code goes here", "the implementation here", "logic here", "content here", "same as "
    "before", "omitted", "elided for brevity", "truncated", "snippe", "Snipped", "code is "
    "omitted for brevity", "my existing setup", "this existing stuff", "existing file above",
]


def test_each_known_phrase_matches_and_passes_the_word_check() -> None:
    for text in KNOWN:
        assert matches_a_pattern(text), text
        assert markers._may_be_phrase(text), text
