"""Built-in syntax checks: introduced versus already there, per file type."""

from __future__ import annotations

import pytest

from reviewtui.core.engine import Policy, SessionRun, evaluate_session
from reviewtui.core.model.records import Session, Span, Turn
from reviewtui.core.model.tree import tree_from_bytes
from reviewtui.core.protocol.reply import parse_reply_text
from reviewtui.core.review.diagnostics import (
    check_for,
    diagnose_cached,
    diagnose_change,
    diagnose_result,
)
from reviewtui.core.review.landed import introduced

# (path, good, broken, good with an unrelated change, broken with an unrelated change)
CASES = {
    "python": ("app.py", "def f():\n    return 1\n", "def f(:\n    return 1\n",
               "def f():\n    return 2\n", "def f(:\n    return 2\n"),
    "json": ("data.json", '{"a": 1,\n "b": 2}\n', '{"a": 1,\n "b": }\n',
             '{"a": 1,\n "b": 3}\n', '{"a": 0,\n "b": }\n'),
    "toml": ("conf.toml", 'a = 1\nb = "x"\n', 'a = 1\nb = \n',
             'a = 2\nb = "x"\n', 'a = 2\nb = \n'),
    "tree-sitter javascript": ("main.js", "function f(a) {\n  return [a];\n}\n",
                 "function f(a) {\n  return [a;\n}\n",
                 "function f(a) {\n  return [a, 1];\n}\n",
                 "// note\nfunction f(a) {\n  return [a;\n}\n"),
}


@pytest.mark.parametrize("check", sorted(CASES))
def test_an_edit_that_breaks_syntax(check: str) -> None:
    path, good, broken, _, _ = CASES[check]
    found = diagnose_change(path, good, broken)
    assert found
    assert all(d.introduced and d.check == check for d in found)


@pytest.mark.parametrize("check", sorted(CASES))
def test_an_edit_that_fixes_syntax(check: str) -> None:
    path, good, broken, _, _ = CASES[check]
    assert diagnose_change(path, broken, good) == []


@pytest.mark.parametrize("check", sorted(CASES))
def test_an_unrelated_edit_is_not_blamed(check: str) -> None:
    path, _, broken, _, broken_elsewhere = CASES[check]
    found = diagnose_change(path, broken, broken_elsewhere)
    assert found
    assert not any(d.introduced for d in found)


@pytest.mark.parametrize("check", sorted(CASES))
def test_a_clean_change_has_no_diagnostics(check: str) -> None:
    path, good, _, good_elsewhere, _ = CASES[check]
    assert diagnose_change(path, good, good_elsewhere) == []


def test_positions() -> None:
    (python,) = diagnose_change("a.py", None, "x = 1\ny = (\n")
    assert (python.line, python.check) == (2, "python")
    (toml,) = diagnose_change("a.toml", None, 'a = 1\nb = \n')
    assert (toml.line, toml.col) == (2, 5)
    assert "at line" not in toml.message
    c_error = diagnose_change("a.c", None, "int f() {\n  g(1];\n}\n")
    assert c_error[0].line == 2
    assert c_error[0].introduced


def test_strings_comments_regexes_and_heredocs_do_not_fool_the_grammar() -> None:
    text = ('const s = "(";  // ) [\n/* { */\nconst t = \'}\';\n'
            "const u = `a ${b} ]`;\nconst r = /[(]/g;\nf(s);\n")
    assert diagnose_change("a.ts", None, text) == []
    assert diagnose_change("lib.rs", None, "fn f<'a>(x: &'a str) -> &'a str { x }\n") == []
    ruby = ('x = [1, 2] # ]\ny = "a".gsub(/[^a-z0-9+#.\\s-]/, "")\n'
            'LINK = %r{<A\\s+HREF="([^"]+)"}i\ntext = <<~EOS\n  ( {\nEOS\n')
    assert diagnose_change("a.rb", None, ruby) == []
    assert diagnose_change("run.sh", None, 'if [ -n "$a" ]; then\n  echo "(" \nfi\n') == []


LOOP_BEFORE = "int count(struct list *l) {\n  int n = 0;\n  return n;\n}\n"


@pytest.mark.parametrize("path", ["list.c", "list.h"])
@pytest.mark.parametrize("loop", [
    "  list_for_each(l, item) {\n    n++;\n  }\n",  # the Linux kernel's shape
    "  jv_array_foreach(a, i, x)\n  {\n    n++;\n  }\n",  # the brace on the next line
    "  jv_array_foreach(a, i, x)\n    n = n + 1;\n",  # one statement, no braces (3985b80c)
])
def test_a_for_each_macro_an_edit_adds_is_no_syntax_error(path: str, loop: str) -> None:
    after = LOOP_BEFORE.replace("  return n;\n", loop + "  return n;\n")
    assert diagnose_change(path, LOOP_BEFORE, after) == []


@pytest.mark.parametrize("broken", [
    "  n++\n  g(n);\n",  # a statement missing its ";" before another: still found
    "  list_for_each(l, item)\n\n\n  {\n    n++;\n  }\n",  # the block far below the call
    "  a.each(l) {\n  }\n",  # a member call is no macro
    "  if (n)\n    n = 1\n  g(n);\n",  # a lost ";" after a deeper line: no call above it
    "  x.each(a)\n    n = n + 1;\n",  # a member call with a brace-less body
    "  jv_array_foreach(a, i, x)\n\n    n = n + 1;\n",  # the body not on the next line
])
def test_what_only_looks_like_a_for_each_macro_is_still_an_error(broken: str) -> None:
    after = LOOP_BEFORE.replace("  return n;\n", broken + "  return n;\n")
    found = diagnose_change("list.c", LOOP_BEFORE, after)
    assert found
    assert all(d.introduced for d in found)


# An "X-macro" list as jq's libm.h and opcode_list.h keep them: each entry a macro call on
# its own line, which the grammar reads as a statement missing its ";".
MACRO_LIST = ("#ifdef HAVE_ACOS\nLIBM_DD(acos)\n#else\nLIBM_DD_NO(acos)\n#endif\n"
              "OP(LOADK, CONSTANT, 1, 0) // load\nOP(DUP, NONE, 1, 2)\n")


@pytest.mark.parametrize("path", ["libm.h", "ops.c"])
@pytest.mark.parametrize("entry", [
    "LIBM_DD(cbrt)\n",  # a new entry of a macro the list already uses
    "OP(ERRORK, CONSTANT, 1, 0)  /* jq 5fc54534 */\n",  # with a trailing comment
    "  OP(SUBEXP_BEGIN, NONE, 1, 2)\n",  # indented
])
def test_an_entry_added_to_a_macro_list_is_no_syntax_error(path: str, entry: str) -> None:
    before = diagnose_change(path, None, MACRO_LIST)
    assert before  # the grammar misreads the list itself: the rule has something to do
    after = MACRO_LIST + entry
    found = diagnose_change(path, MACRO_LIST, after)
    assert len(found) == len(before) + 1  # the new entry is misread too...
    assert not any(d.introduced for d in found)  # ...as its neighbours were


@pytest.mark.parametrize("entry", [
    "LIBM_NEW(cbrt)\n",  # a macro the file never had misread
    "OP(ERRORK, CONSTANT, 1, 0) + 1\n",  # more than one call
    "x = OP(ERRORK)\n",  # an assignment
    "if (OP(ERRORK))\n",  # a keyword's parentheses
])
def test_a_line_unlike_the_lists_entries_is_still_an_error(entry: str) -> None:
    found = diagnose_change("ops.c", MACRO_LIST, MACRO_LIST + entry)
    assert any(d.introduced for d in found)


def test_a_call_missing_its_semicolon_in_code_is_still_an_error() -> None:
    """The list's rule does not reach into a function whose file has no such list."""
    before = "int f(void) {\n  g(1);\n  g(2);\n  return 0;\n}\n"
    after = before.replace("g(2);", "g(2)")
    found = diagnose_change("x.c", before, after)
    assert found
    assert all(d.introduced for d in found)


def test_messages_say_what_is_missing_or_unexpected() -> None:
    (missing,) = diagnose_change("a.go", None, "package a\n\nfunc f() {\n\tg(1\n}\n")
    assert missing.message == "missing `)`"
    assert missing.line == 4
    unexpected = diagnose_change("a.js", None, "f(1));\n")
    assert [d.message for d in unexpected] == ["unexpected `)`"]
    assert (unexpected[0].line, unexpected[0].col) == (1, 5)


def test_unchecked_files_and_removals() -> None:
    assert check_for("README.md") is None
    assert check_for("src/App.TSX") == "tree-sitter tsx"
    assert diagnose_change("notes.md", None, "((((") == []
    assert diagnose_change("a.py", "x = (", None) == []


def test_a_line_moved_by_the_edit_keeps_its_old_error() -> None:
    before = "import os\n\ndef f(:\n    pass\n"
    after = "import os\nimport sys\n\ndef f(:\n    pass\n"
    (found,) = diagnose_change("a.py", before, after)
    assert found.line == 4
    assert not found.introduced


def _evaluate(reply: str, files: dict[str, str]) -> SessionRun:
    turn = Turn(1, "", parse_reply_text(reply), Span(1, 1))
    base = tree_from_bytes({path: text.encode() for path, text in files.items()})
    return evaluate_session(Session("s.md", "", "", (turn,)), base, policy=Policy.headless())


def test_per_operation_and_cached() -> None:
    reply = ("--- File: app.py ---\nEdit 1\n<<<<<<< SEARCH\n    return 1\n=======\n"
             "    return (1\n>>>>>>> REPLACE\n\n--- File: new.json ---\n```\n{\"a\": 1}\n```\n"
             "\n--- File: bad.json ---\n```\n{\"a\": \n```\n")
    run = _evaluate(reply, {"app.py": "def f():\n    return 1\n"})
    results = run.turns[0].results
    assert [len(introduced(r)) for r in results] == [1, 0, 1]
    assert introduced(results[0])[0].line == 2
    assert diagnose_result(results[0]) is diagnose_result(results[0])


def test_an_unterminated_string_hidden_in_the_grammar_is_reported() -> None:
    # tree-sitter-scala's string end is a hidden token: its MISSING node is not a child
    (found,) = diagnose_change("a.scala", None, 'val n = 1;\nval a = s"n=$n;\n')
    assert (found.line, found.message) == (2, "unterminated string")


def test_an_error_the_parser_notices_far_away_is_placed_at_the_edit() -> None:
    body = "".join(f"function f{n}(x) {{\n  return x + {n};\n}}\n" for n in range(50))
    lines = body.split("\n")
    del lines[3 * 20 + 2]  # the closing brace of f20, line 63
    (found,) = [d for d in diagnose_change("a.js", body, "\n".join(lines)) if d.introduced]
    assert found.line in (62, 63)
    assert "(noticed at line" in found.message


def test_the_cache_answers_without_computing() -> None:
    run = _evaluate("--- File: a.rb ---\n<<<<<<< SEARCH\nx = 1\n=======\nx = (1\n>>>>>>> REPLACE\n",
                    {"a.rb": "x = 1\n"})
    result = run.turns[0].results[0]
    assert diagnose_cached(result) is None
    found = diagnose_result(result)
    assert found
    assert diagnose_cached(result) == found
