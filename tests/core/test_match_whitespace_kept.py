"""What a forgiving match writes: the file's own bytes for the lines an edit leaves, the
edit's own bytes for the lines it adds (QA s45 helper-138 #2 and #3).

#2: a context line spelled ``"        \\t"`` in the file and ``"\\t\\t"`` in the patch (the
same columns) counted as no difference at all: the landing said "exact" and the REPLACE
was written verbatim, rewriting an unchanged line's indentation (a Makefile recipe, a
Python block) with exit 0. #3: one context line matched by forgiving the file's trailing
whitespace made every new line lose its own (a Markdown hard break dropped).
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.match import match_edit
from reviewtui.core.model.outcome import Status


def _written(file: list[str], search: list[str], replace: list[str]) -> list[str]:
    found = match_edit(file, search, replace)
    assert found.status is Status.APPLIED, found
    return [*file[: found.start], *found.new_lines, *file[found.end :]]


def test_a_context_line_spelled_with_other_tabs_keeps_the_files_spelling() -> None:
    file = ["all:", "        \tcc -o app main.c", "\techo done", "end"]
    search = ["all:", "\t\tcc -o app main.c", "\techo done"]
    replace = ["all:", "\t\tcc -o app main.c", "\techo built", "\techo done"]
    found = match_edit(file, search, replace)
    assert found.method != "exact"
    assert _written(file, search, replace) == [
        "all:", "        \tcc -o app main.c", "\techo built", "\techo done", "end"]


def test_new_lines_keep_their_trailing_whitespace() -> None:
    file = ["# Poem", "", "intro  ", "end"]
    written = _written(file, ["intro", "end"], ["intro", "Roses are red,  ", "  ", "end"])
    assert written == ["# Poem", "", "intro  ", "Roses are red,  ", "  ", "end"]


def test_trailing_whitespace_the_search_was_typed_with_is_noise() -> None:
    file = ["a = 1", "b = 2"]
    written = _written(file, ["a = 1   ", "b = 2   "], ["a = 1   ", "c = 3   ", "b = 2   "])
    assert written == ["a = 1", "c = 3", "b = 2"]


_INDENTS = ("\t", "    ", "\t\t", "        \t", "  ")


@settings(max_examples=80, deadline=None)
@given(data=st.data())
def test_lines_an_edit_leaves_are_the_files_bytes(data: st.DataObject) -> None:
    """A file of indented lines with trailing blanks here and there; the SEARCH is a window
    of it typed with other tab spellings and without trailing blanks; the REPLACE changes
    one line to a new one ending in two blanks. Every other line is written as the file
    has it, and the new line's text as the edit has it."""
    size = data.draw(st.integers(3, 8))
    indents = data.draw(st.lists(st.sampled_from(_INDENTS), min_size=size, max_size=size))
    trailing = data.draw(st.lists(st.sampled_from(("", "  ", "\t")), min_size=size,
                                  max_size=size))
    file = [f"{indent}line_{n} = {n}{tail}"
            for n, (indent, tail) in enumerate(zip(indents, trailing, strict=True))]
    lo = data.draw(st.integers(0, size - 2))
    hi = data.draw(st.integers(lo + 2, size))
    respelled = {"        \t": "\t\t", "\t\t": "        \t"}
    search = [respelled.get(indents[n], indents[n]) + f"line_{n} = {n}" for n in range(lo, hi)]
    changed = data.draw(st.integers(0, len(search) - 1))
    typed = search[changed]
    new_line = typed[: len(typed) - len(typed.lstrip())] + "changed = 0  "
    replace = [*search[:changed], new_line, *search[changed + 1 :]]
    written = _written(file, search, replace)
    at = lo + changed
    assert [*written[:at], *written[at + 1 :]] == [*file[:at], *file[at + 1 :]]
    assert written[at].lstrip() == "changed = 0  "  # (its indentation: the file's depth)
