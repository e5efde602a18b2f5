"""The matching cascade, stage by stage, on snippets of Python, Go, JavaScript and HTML."""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence

import pytest

from reviewtui.core.match import match_edit
from reviewtui.core.model.outcome import Diagnosis, MatchResult, Status


def lines(text: str) -> list[str]:
    return text.split("\n")


def spliced(file: Sequence[str], result: MatchResult) -> list[str]:
    return [*file[: result.start], *result.new_lines, *file[result.end :]]


PYTHON = lines('''\
import os


def load(path):
    """Read a config file."""
    with open(path) as handle:
        data = handle.read()
    return parse(data)


def save(path, data):
    with open(path, "w") as handle:
        handle.write(dump(data))
    return True''')

GO = lines('''\
package server

func (s *Server) Handle(req *Request) *Response {
\tauth := req.Header.Get("Authorization")
\tif auth == "" {
\t\treturn Unauthorized()
\t}
\treturn s.route(req)
}''')

JS = lines('''\
export function reducer(state, action) {
  switch (action.type) {
    case "add":
      return { ...state, items: [...state.items, action.item] };
    case "clear":
      return { ...state, items: [] };
    default:
      return state;
  }
}''')

HTML = lines('''\
<html>
  <body>
    <nav class="top">
      <a href="/">Home</a>
      <a href="/docs">Docs</a>
    </nav>
    <main>
      <h1>Welcome</h1>
    </main>
  </body>
</html>''')


# -- stage 1: exact --------------------------------------------------------------------


def test_exact_lands_and_keeps_replace_verbatim() -> None:
    result = match_edit(PYTHON, ["        data = handle.read()"],
                        ["        data = handle.read().strip()"])
    assert result.status is Status.APPLIED
    assert result.method == "exact"
    assert (result.start, result.end) == (6, 7)
    assert result.locations == ((7, 7),)
    assert result.new_lines == ("        data = handle.read().strip()",)


def test_exact_ambiguity_lists_every_location() -> None:
    result = match_edit(GO + GO[2:], ["\t\treturn Unauthorized()"], ["\t\treturn nil"])
    assert result.status is Status.AMBIGUOUS
    assert result.method == "exact"
    assert result.locations == ((6, 6), (13, 13))
    assert result.new_lines == ()
    assert result.hint == ("SEARCH matches 2 places (lines 6-6, 13-13); add surrounding "
                           "lines to pick one")
    three = match_edit(lines("a\nb\na\nc\na"), ["a"], ["z"])
    assert three.locations == ((1, 1), (3, 3), (5, 5))


def test_exact_counts_overlapping_occurrences() -> None:
    result = match_edit(["x", "x", "x"], ["x", "x"], ["y"])
    assert result.status is Status.AMBIGUOUS
    assert result.locations == ((1, 2), (2, 3))


def test_exact_on_tuples_seen_again_gives_the_same_answers() -> None:
    file = tuple(f"line {n}" for n in range(2000)) + ("line 7",)
    for _ in range(3):  # the second sighting builds the cached text, the third uses it
        single = match_edit(file, ["line 1500", "line 1501"], ["new"])
        assert (single.status, single.start, single.end) == (Status.APPLIED, 1500, 1502)
        both = match_edit(file, ["line 7"], ["new"])
        assert both.locations == ((8, 8), (2001, 2001))
        inside = match_edit(file, ["line 7"], ["new"], window=(1000, 2001))
        assert (inside.status, inside.start) == (Status.APPLIED, 2000)
        partial = match_edit(file, ["ne 7"], ["new"])
        assert partial.status is Status.NOT_FOUND


def test_carriage_returns_on_search_and_replace_are_dropped() -> None:
    result = match_edit(GO, ["\tif auth == \"\" {\r", "\t\treturn Unauthorized()\r"],
                        ["\tif auth == \"\" {\r", "\t\treturn Forbidden()\r"])
    assert result.status is Status.APPLIED
    assert result.method == "exact"
    assert result.new_lines == ('\tif auth == "" {', "\t\treturn Forbidden()")


def test_a_bare_string_is_taken_as_text_not_characters() -> None:
    result = match_edit(PYTHON, "def load(path):", "def load(path, strict=False):")
    assert result.status is Status.APPLIED
    assert result.new_lines == ("def load(path, strict=False):",)


# -- stage 2: expression-only differences ---------------------------------------------


def test_trailing_whitespace_in_search() -> None:
    result = match_edit(PYTHON,
                        ["def save(path, data):   ", '    with open(path, "w") as handle:\t'],
                        ["def save(path, data):  ", '    with open(path, "a") as handle:  '])
    assert result.status is Status.APPLIED
    assert result.method == "trailing-whitespace"
    assert result.hint == "trailing whitespace ignored"
    # The unchanged line is the file's; the new one loses the model's trailing blanks.
    assert result.new_lines == ("def save(path, data):", '    with open(path, "a") as handle:')


def test_trailing_whitespace_in_the_file_is_kept_on_unchanged_lines() -> None:
    file = ["x = 1   ", "y = 2", "z = 3"]
    result = match_edit(file, ["x = 1", "y = 2"], ["x = 1", "y = 20"])
    assert result.method == "trailing-whitespace"
    assert result.new_lines == ("x = 1   ", "y = 20")


@pytest.mark.parametrize(
    ("typed", "hint"),
    [
        ("    return \u201cok\u201d", "curly quotes matched as ASCII"),
        ("    return \u2018ok\u2019", "curly quotes matched as ASCII"),
        ("    total = a \u2013 b", "typographic dashes matched as ASCII"),
        ("    total = a \u2014 b", "typographic dashes matched as ASCII"),
        ("    total\u00a0= a - b", "unicode spaces matched as ASCII"),
        ("    wait(\u2026)", "'\u2026' matched as ASCII"),
    ],
)
def test_typographic_punctuation_matches_ascii(typed: str, hint: str) -> None:
    ascii_line = (typed.replace("\u201c", '"').replace("\u201d", '"')
                  .replace("\u2018", "'").replace("\u2019", "'")
                  .replace("\u2013", "-").replace("\u2014", "-").replace("\u00a0", " ")
                  .replace("\u2026", "..."))
    file = ["def f(a, b):", ascii_line, "    done()"]
    result = match_edit(file, ["def f(a, b):", typed], ["def f(a, b, c):", typed])
    assert result.status is Status.APPLIED
    assert result.method == "unicode-punctuation"
    assert result.hint == hint
    # The unchanged line keeps the file's ASCII; the new line is the model's.
    assert result.new_lines == ("def f(a, b, c):", ascii_line)


def test_file_curly_quotes_survive_on_unchanged_lines() -> None:
    file = ["# It\u2019s the \u201cmain\u201d loop", "while True:", "    step()"]
    result = match_edit(file, ["# It's the \"main\" loop", "while True:"],
                        ["# It's the \"main\" loop", "while running:"])
    assert result.method == "unicode-punctuation"
    assert result.new_lines == ("# It\u2019s the \u201cmain\u201d loop", "while running:")


def test_uniform_indentation_shift_is_regrafted() -> None:
    search = ["        with open(path) as handle:", "            data = handle.read()"]
    replace = ["        with open(path) as handle:", "            data = handle.read()",
               "            check(data)"]
    result = match_edit(PYTHON, search, replace)
    assert result.status is Status.APPLIED
    assert result.method == "indentation"
    assert result.hint == "indentation shifted by -4 columns; replacement re-indented"
    assert result.new_lines == ("    with open(path) as handle:", "        data = handle.read()",
                                "        check(data)")


def test_dropped_indentation_is_restored() -> None:
    search = ["with open(path) as handle:", "    data = handle.read()", "return parse(data)"]
    replace = ["with open(path) as handle:", "    data = handle.read()",
               "    if not data:", "        return None", "return parse(data)"]
    result = match_edit(PYTHON, search, replace)
    assert result.method == "indentation"
    assert spliced(PYTHON, result)[5:10] == [
        "    with open(path) as handle:", "        data = handle.read()",
        "        if not data:", "            return None", "    return parse(data)"]


def test_go_tabs_stay_tabs_when_the_model_types_spaces() -> None:
    search = ['    if auth == "" {', "        return Unauthorized()", "    }"]
    replace = ['    if auth == "" {', '        log.Printf("denied %s", req.Path)',
               "        return Unauthorized()", "    }"]
    result = match_edit(GO, search, replace)
    assert result.status is Status.APPLIED
    assert result.method == "tabs-spaces"
    assert result.hint == "indentation re-grafted to tabs"
    assert result.new_lines == ('\tif auth == "" {', '\t\tlog.Printf("denied %s", req.Path)',
                                "\t\treturn Unauthorized()", "\t}")


def test_go_tabs_with_dropped_indentation_and_two_space_levels() -> None:
    search = ['if auth == "" {', "  return Unauthorized()", "}"]
    replace = ['if auth == "" {', "  if s.open {", "    return nil", "  }",
               "  return Unauthorized()", "}"]
    result = match_edit(GO, search, replace)
    assert result.method == "indentation+tabs-spaces"
    assert result.new_lines == ('\tif auth == "" {', "\t\tif s.open {", "\t\t\treturn nil",
                                "\t\t}", "\t\treturn Unauthorized()", "\t}")


def test_spaces_stay_spaces_when_the_model_types_tabs() -> None:
    search = ["\tcase \"clear\":", "\t\treturn { ...state, items: [] };"]
    replace = ["\tcase \"clear\":", "\t\tconsole.log(\"cleared\");",
               "\t\treturn { ...state, items: [] };"]
    result = match_edit(JS, search, replace)
    assert result.method == "indentation+tabs-spaces"
    assert result.hint == "indentation re-grafted to spaces"
    assert result.new_lines == ('    case "clear":', '      console.log("cleared");',
                                "      return { ...state, items: [] };")


def test_several_differences_join_in_the_method() -> None:
    search = ["with open(path, \u201cw\u201d) as handle:", "    handle.write(dump(data))"]
    replace = ["with open(path, \u201cw\u201d) as handle:", "    handle.write(dumps(data))"]
    result = match_edit(PYTHON, search, replace)
    assert result.method == "indentation+unicode-punctuation"
    assert result.new_lines == ('    with open(path, "w") as handle:',
                                "        handle.write(dumps(data))")


def test_spurious_blank_edges_neither_lost_nor_duplicated() -> None:
    search = ["", "    <nav class=\"top\">", "      <a href=\"/\">Home</a>", ""]
    replace = ["", "    <nav class=\"top\">", "      <a href=\"/\">Start</a>", ""]
    result = match_edit(HTML, search, replace)
    assert result.status is Status.APPLIED
    assert result.method == "blank-lines"
    assert "2 blank lines" in result.hint
    assert spliced(HTML, result) == [*HTML[:3], "      <a href=\"/\">Start</a>", *HTML[4:]]


def test_blank_edges_the_file_has_are_kept_in_the_range() -> None:
    search = ["", "", "def save(path, data):", ""]  # two blanks above: the file has both
    replace = ["", "", "def save(path, data, mode):", ""]
    result = match_edit(PYTHON, search, replace)
    assert result.method == "blank-lines"  # only the one below is spurious
    assert (result.start, result.end) == (8, 11)
    assert spliced(PYTHON, result) == [*PYTHON[:10], "def save(path, data, mode):",
                                       *PYTHON[11:]]


def test_a_stricter_match_wins_over_a_looser_one_elsewhere() -> None:
    file = ["if ready:", "    go()", "def f():", "    if ready:  ", "        go()"]
    result = match_edit(file, ["if ready:", "    go()  "], ["if ready:", "    stop()"])
    assert result.status is Status.APPLIED  # trailing-only at line 1 beats re-indenting
    assert (result.start, result.method) == (0, "trailing-whitespace")


def test_expression_ambiguity_lists_every_location() -> None:
    file = ["def a():", "    x = 1", "def b():", "        x = 1", "x = 1 "]
    result = match_edit(file, ["  x = 1"], ["  x = 2"])
    assert result.status is Status.AMBIGUOUS
    assert result.locations == ((2, 2), (4, 4), (5, 5))
    assert result.method == "indentation+trailing-whitespace"


# -- stage 3: elision ------------------------------------------------------------------


def test_python_elision_keeps_the_middle_from_the_file() -> None:
    search = ["def load(path):", "    # ...", "    return parse(data)"]
    replace = ["def load(path, strict=False):", "    # ...", "    return parse(data, strict)"]
    result = match_edit(PYTHON, search, replace)
    assert result.status is Status.APPLIED
    assert result.method == "elision"
    assert result.hint == "elided 3 lines kept from the file"
    assert spliced(PYTHON, result)[3:8] == [
        "def load(path, strict=False):", '    """Read a config file."""',
        "    with open(path) as handle:", "        data = handle.read()",
        "    return parse(data, strict)"]


def test_js_elision_with_existing_code_comment_and_spaces_slip() -> None:
    search = ["export function reducer(state, action) {", "  // ... existing code ...",
              "    default:", "\treturn state;"]
    replace = ["export function reducer(state = {}, action) {", "  // ... existing code ...",
               "    default:", "\treturn state;"]
    result = match_edit(JS, search, replace)
    assert result.method == "elision+indentation+tabs-spaces"
    assert spliced(JS, result) == ["export function reducer(state = {}, action) {", *JS[1:]]


def test_html_elision() -> None:
    search = ["    <nav class=\"top\">", "      <!-- ... -->", "    </nav>"]
    replace = ["    <nav class=\"top main\">", "      <!-- ... -->",
               "      <a href=\"/blog\">Blog</a>", "    </nav>"]
    result = match_edit(HTML, search, replace)
    assert result.method == "elision"
    assert spliced(HTML, result)[2:7] == [
        "    <nav class=\"top main\">", "      <a href=\"/\">Home</a>",
        "      <a href=\"/docs\">Docs</a>", "      <a href=\"/blog\">Blog</a>", "    </nav>"]


@pytest.mark.parametrize("placeholder", [
    "    # ... existing code ...",
    "    ...",
    "    // rest of code unchanged",
    "    # rest of the function remains the same",
    "    /* ... */",
    "    …",
])
def test_unpaired_placeholder_in_replace_is_refused(placeholder: str) -> None:
    result = match_edit(PYTHON, ["def load(path):"],
                        ["def load(path, strict=False):", placeholder, "    return {}"])
    assert result.status is Status.REFUSED
    assert result.rule == "truncation-placeholder"
    assert "REPLACE line 2" in result.hint


def test_search_eliding_what_replace_drops_is_refused() -> None:
    result = match_edit(PYTHON, ["def load(path):", "    ...", "    return parse(data)"],
                        ["def load(path):", "    return {}"])
    assert result.status is Status.REFUSED
    assert result.rule == "truncation-placeholder"
    assert "deleted unseen" in result.hint


def test_elided_piece_must_be_unique_after_the_one_before() -> None:
    search = ["    with open(path) as handle:", "    ...", "    return parse(data)"]
    result = match_edit(PYTHON, search, ["    with open(path) as fh:", "    ...",
                                         "    return parse(data)"])
    assert result.status is Status.APPLIED  # the first piece is unique, the second too
    ambiguous = match_edit(["a()", "b()", "a()", "c()"], ["a()", "# ...", "c()"],
                           ["a2()", "# ...", "c()"])
    assert ambiguous.status is Status.AMBIGUOUS
    assert ambiguous.method == "elision"
    assert ambiguous.locations == ((1, 1), (3, 3))


def test_elided_piece_not_found_is_diagnosed() -> None:
    result = match_edit(PYTHON, ["def load(path):", "# ...", "    return serialise(data)"],
                        ["def load(path):", "# ...", "    return serialise(data, 2)"])
    assert result.status is Status.NOT_FOUND
    assert result.method == "elision"
    assert result.hint.startswith("piece 2 of the elided SEARCH not found")


@pytest.mark.parametrize("comment", [
    "    # Rest of the loop handles errors",
    "    # existing tests pass unchanged",
    "    # TODO: retry...",
    "    # other imports",
])
def test_ordinary_comments_are_not_placeholders(comment: str) -> None:
    result = match_edit(PYTHON, ["def load(path):"], ["def load(path):", comment])
    assert result.status is Status.APPLIED


def test_python_ellipsis_body_and_js_spread_are_code_not_markers() -> None:
    stub = match_edit(PYTHON, ["import os"],
                      ["import os", "", "class Loader(Protocol):", "    def load(self) -> str:",
                       "        ..."])
    assert stub.status is Status.APPLIED
    spread = match_edit(JS, ['    case "clear":', "      return { ...state, items: [] };"],
                        ['    case "clear":', "      return {", "        ...state,",
                         "        items: [],", "      };"])
    assert spread.status is Status.APPLIED


# -- stage 4: near match ---------------------------------------------------------------


def test_near_match_needs_review_and_carries_the_replacement() -> None:
    search = ["def load(path):", '    """Read the config file."""',
              "    with open(path) as handle:", "        data = handle.read()",
              "    return parse(data)"]
    replace = ["def load(path):", "    with open(path) as handle:",
               "        data = handle.read()", "    return parse(data or '{}')"]
    result = match_edit(PYTHON, search, replace)
    assert result.status is Status.NEEDS_REVIEW
    assert result.method == "near"
    assert result.similarity is not None
    assert 0.75 <= result.similarity < 1
    assert (result.start, result.end) == (3, 8)
    assert result.new_lines == tuple(replace)
    assert "review before applying" in result.hint


def test_near_match_regrafts_indentation() -> None:
    search = ['if auth == "" {', "    return Unauthorised()", "}"]
    result = match_edit(GO, search, ['if auth == "" {', "    return Forbidden()", "}"])
    assert result.status is Status.NEEDS_REVIEW
    assert result.new_lines == ('\tif auth == "" {', "\t\treturn Forbidden()", "\t}")


def test_near_matches_in_two_places_are_ambiguous() -> None:
    block = ["def f():", "    value = compute(1)", "    return value"]
    other = ["def f():", "    value = compute(2)", "    return value"]
    result = match_edit([*block, "", *other], ["def f():", "    value = compute(3)",
                                               "    return value"], ["x"])
    assert result.status is Status.AMBIGUOUS
    assert result.method == "near"
    assert result.locations == ((1, 3), (5, 7))


def test_a_middle_too_different_is_not_near() -> None:
    search = ["def load(path):", "    import json, sys", "    return parse(data)"]
    result = match_edit(PYTHON, search, ["x"])
    assert result.status is Status.NOT_FOUND


def test_near_match_from_a_stale_search_says_so() -> None:
    old = ["def f():", "    a = compute(1, 2)", "    return a"]
    now = ["def f():", "    a = compute(1, 3)", "    return a"]
    result = match_edit(now, old, ["def f():", "    return 0"], history=[old])
    assert result.status is Status.NEEDS_REVIEW
    assert "probably stale" in result.hint


# -- stage 5: diagnosis ----------------------------------------------------------------


def test_whitespace_only_difference_is_diagnosed() -> None:
    result = match_edit(PYTHON, ["        handle.write(dump( data ))"], ["x"])
    assert result.status is Status.NOT_FOUND
    (best, *_) = result.candidates
    assert (best.start, best.end) == (13, 13)
    assert best.diagnosis is Diagnosis.WHITESPACE_ONLY
    assert best.preview == ("        handle.write(dump(data))",)
    assert "whitespace only" in result.hint


@pytest.mark.parametrize(("search", "where"), [
    (["x = f(1, 2)"], (4, 4)),  # short names: no word of three letters votes for it
    (["b = 2", "c = 3"], (6, 7)),
    (["def f(a, b):", "    return a + b"], (1, 2)),
], ids=["one-line", "two-lines", "definition"])
def test_a_search_spaced_otherwise_inside_its_lines_finds_its_place(
        search: list[str], where: tuple[int, int]) -> None:
    """QA pass 85: ``x = f(1, 2)`` against ``x = f(1,2)`` said "nothing in the file is
    similar": only whole loose lines and identifiers of three letters or more voted for a
    place. A line read without its whitespace votes too."""
    lines = ["def f(a,b):", "    return a+b", "", "x = f(1,2)", "", "b=2", "c=3", "d = 4"]
    result = match_edit(lines, search, ["x"])
    assert result.status is Status.NOT_FOUND
    (best, *_) = result.candidates
    assert (best.start, best.end) == where
    assert best.diagnosis is Diagnosis.WHITESPACE_ONLY
    assert best.similarity == 1.0


def test_rewrapped_lines_are_whitespace_only() -> None:
    result = match_edit(JS, ['case "add": return { ...state,',
                             "items: [...state.items, action.item] };"], ["x"])
    (best, *_) = result.candidates
    assert best.diagnosis is Diagnosis.WHITESPACE_ONLY


def test_stale_search_is_diagnosed_from_history() -> None:
    old = list(PYTHON)
    old[5] = "    with open(path, 'rb') as handle:"
    old[7] = "    return parse(data, strict=True)"
    result = match_edit(PYTHON, old[5:8], ["x"], history=[PYTHON, old])
    assert result.status is Status.NOT_FOUND
    assert result.candidates[0].diagnosis is Diagnosis.STALE
    assert (result.candidates[0].start, result.candidates[0].end) == (6, 8)
    assert result.hint.startswith("probably stale: SEARCH is in version 2 of 2")


def test_only_the_closest_region_is_called_stale() -> None:
    """QA s32 F15: every candidate of a stale SEARCH was "probably stale", an unrelated
    twin function too; only the closest region is what became of the lines."""
    now = ["def add(a, b):  # checked", "    return a + b", "", "", "def sub(a, b):",
           "    return a - b"]
    was = ["def add(a, b):", *now[1:]]
    result = match_edit(now, ["def add(a, b):"], ["x"], history=[was, now])
    assert result.status is Status.NOT_FOUND
    diagnoses = [(c.start, c.diagnosis) for c in result.candidates]
    # Its text is inside the changed line (said first); the twin stands as it was.
    assert diagnoses == [(1, Diagnosis.PART_OF_A_LINE), (5, Diagnosis.CONTENT_DIFFERS)]
    assert result.hint.startswith("probably stale: SEARCH is in version 1 of 2")
    # Changed beyond containing it, the line is what became of it: stale.
    now[0] = "def add(a, b, c):"
    result = match_edit(now, ["def add(a, b):"], ["x"], history=[was, now])
    diagnoses = [(c.start, c.diagnosis) for c in result.candidates]
    assert diagnoses[0] == (1, Diagnosis.STALE), diagnoses
    assert (5, Diagnosis.CONTENT_DIFFERS) in diagnoses, diagnoses


def test_stale_with_nothing_similar_left() -> None:
    old = ["alpha = 1", "beta = 2"]
    result = match_edit(["zzz"], old, ["x"], history=[old, ["qqq"]])
    assert result.candidates == ()
    assert "probably stale" in result.hint
    assert "nothing similar" in result.hint


def test_content_differs_lists_at_most_three_candidates() -> None:
    file = []
    for n in range(6):
        file += [f"def handler_{n}(request):", f"    body = decode(request, {n})",
                 "    return respond(body)", ""]
    result = match_edit(file, ["def handler_x(request):", "    body = decode(request, 9)",
                               "    return respond(body, 200)"], ["x"])
    assert result.status is Status.NOT_FOUND
    assert len(result.candidates) == 3
    assert all(c.diagnosis is Diagnosis.CONTENT_DIFFERS for c in result.candidates)
    assert all(0.4 <= c.similarity < 1 for c in result.candidates)
    similarities = [c.similarity for c in result.candidates]
    assert similarities == sorted(similarities, reverse=True)
    assert result.hint.startswith("no match; closest is lines")


def test_nothing_similar() -> None:
    result = match_edit(PYTHON, ["SELECT * FROM users WHERE id = 1;"], ["x"])
    assert result.status is Status.NOT_FOUND
    assert result.candidates == ()
    assert result.hint == "nothing similar to SEARCH in the file"


def test_candidate_previews_are_truncated() -> None:
    file = [f"    step_{n}(value, {n})" for n in range(30)]
    search = [f"    step_{n}(value, {n + 100})" for n in range(5, 20)]
    (best, *_) = match_edit(file, search, ["x"]).candidates
    assert best.end - best.start + 1 == 15
    assert len(best.preview) == 8
    assert best.preview[0] == file[best.start - 1]


def test_identifiers_renamed_on_every_line_still_find_their_region() -> None:
    file = [f"value_{n} = other_{n} + {n}" for n in range(200)]
    search = [f"renamed_{n} = other_{n} + {n}" for n in range(120, 124)]
    (best, *_) = match_edit(file, search, ["x"]).candidates
    assert (best.start, best.end) == (121, 124)


# -- guards ----------------------------------------------------------------------------


def test_replace_repeating_the_line_above_is_refused() -> None:
    result = match_edit(PYTHON, ["        data = handle.read()"],
                        ["    with open(path) as handle:", "        data = handle.read(64)"])
    assert result.status is Status.REFUSED
    assert result.rule == "duplicate-line"
    assert "line 6" in result.hint
    assert "with open(path) as handle:" in result.hint
    assert (result.start, result.end) == (6, 7)  # a human can still force it
    assert result.new_lines == ("    with open(path) as handle:",
                                "        data = handle.read(64)")


def test_replace_repeating_the_line_below_through_blanks_is_refused() -> None:
    result = match_edit(PYTHON, ["    return parse(data)"],
                        ["    return parse(data)", "", "", "def save(path, data):"])
    assert result.status is Status.REFUSED
    assert result.rule == "duplicate-line"
    assert "line 11" in result.hint


def test_unchanged_first_line_is_not_a_duplicate() -> None:
    file = ["total = 0", "total = 0", "print(total)"]
    result = match_edit(file, ["total = 0", "print(total)"], ["total = 0", "print(total + 1)"])
    assert result.status is Status.APPLIED
    assert (result.start, result.end) == (1, 3)


@pytest.mark.parametrize("closing", ["}", "  },", ")", "];", "});"])
def test_closing_punctuation_is_exempt(closing: str) -> None:
    file = ["if (a) {", "  run();", closing.strip(), "next();"]
    result = match_edit(file, ["next();"], [closing, "next();"])
    assert result.status is Status.APPLIED


def test_duplicate_guard_applies_to_expression_matches() -> None:
    result = match_edit(GO, ["    return s.route(req)"],
                        ["    return s.route(req)", "}"])
    assert result.status is Status.APPLIED  # a lone brace is exempt
    result = match_edit(GO, ["        return Unauthorized()"],
                        ["    if auth == \"\" {", "        return Forbidden()"])
    assert result.status is Status.REFUSED
    assert result.method == "tabs-spaces"


@pytest.mark.parametrize("search", [[], [""], ["", "  ", "\r"]])
def test_empty_search_is_refused(search: list[str]) -> None:
    result = match_edit(PYTHON, search, ["anything"])
    assert result.status is Status.REFUSED
    assert result.rule == "empty-search"


# -- window ----------------------------------------------------------------------------


def test_window_restricts_every_stage() -> None:
    file = ["a = 1", "b = 2", "a = 1", "b = 2"]
    assert match_edit(file, ["a = 1"], ["x"]).status is Status.AMBIGUOUS
    inside = match_edit(file, ["a = 1"], ["x"], window=(2, 4))
    assert (inside.status, inside.start, inside.locations) == (Status.APPLIED, 2, ((3, 3),))
    loose = match_edit(file, ["  a = 1  "], ["x"], window=(1, 4))
    assert (loose.status, loose.start) == (Status.APPLIED, 2)
    outside = match_edit(file, ["a = 1", "b = 2"], ["x"], window=(1, 3))
    assert outside.status is Status.NOT_FOUND
    assert all(c.start > 1 and c.end <= 3 for c in outside.candidates)


def test_window_beyond_the_file_is_clamped() -> None:
    result = match_edit(["a", "b"], ["b"], ["c"], window=(-5, 99))
    assert (result.status, result.start) == (Status.APPLIED, 1)


# -- purity ----------------------------------------------------------------------------


def test_the_matcher_imports_no_ui() -> None:
    code = ("import sys, reviewtui.core.match; "
            "print(sorted(m for m in ('textual', 'rich') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    assert out.stdout.strip() == "[]"


def test_spaces_inside_a_string_are_content_not_whitespace_only() -> None:
    """QA pass s28 (F7): ``print("a    b")`` for ``print("a b")`` was diagnosed whitespace
    only, so an agent might resend the file's spelling as the same thing. The spacing
    around the string still is whitespace only."""
    lines = ['print("a b")', "x = 1"]
    inside = match_edit(lines, ['print("a    b")'], ["x"])
    (best, *_) = inside.candidates
    assert (best.start, best.end) == (1, 1)
    assert best.diagnosis is Diagnosis.CONTENT_DIFFERS
    outside = match_edit(lines, ['print( "a b" )'], ["x"])
    (best, *_) = outside.candidates
    assert best.diagnosis is Diagnosis.WHITESPACE_ONLY
