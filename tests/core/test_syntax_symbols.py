"""Definitions from the syntax tree: names, ranges, the symbols around an edit; lazy loading."""

from __future__ import annotations

import subprocess
import sys

import pytest

from reviewtui.core.syntax.symbols import around, definitions, enclosing, signature_for, where

RUBY = ("module Bookmarks\n  class Store\n    def import_csv(path)\n      rows = 1\n"
        "    end\n  end\nend\n")


@pytest.mark.parametrize(
    ("path", "text", "line", "expected"),
    [
        ("store.rb", RUBY, 4, "module Bookmarks › class Store › def import_csv"),
        ("a.go", "package a\n\nfunc (s *S) Import(p string) error {\n\treturn nil\n}\n", 4,
         "func (s *S) Import"),
        ("a.rs", "impl S {\n    pub fn go(&self) {\n        x();\n    }\n}\n", 3,
         "impl S › pub fn go"),
        ("A.java", "class A {\n  void run() {\n    go();\n  }\n}\n", 3, "class A › void run"),
        ("a.c", "int main(void) {\n  return 0;\n}\n", 2, "int main"),
        ("a.ts", "export class Cart {\n  add(x: number) {\n    return x;\n  }\n}\n", 3,
         "class Cart › add"),
        ("a.py", "class A:\n    def f(self):\n        pass\n", 3, "class A › def f"),
        ("a.css", "body {\n  color: red;\n}\n", 2, "body"),
        ("notes.md", "# Title\ntext\n", 2, ""),
    ],
)
def test_where_names_the_enclosing_definitions(path: str, text: str, line: int,
                                               expected: str) -> None:
    assert where(path, text, line, line) == expected


def test_a_c_struct_is_a_definition_only_where_it_has_a_body() -> None:
    text = ("struct log {\n  int fd;\n};\n\nint log_open(struct log *log) {\n"
            "  struct stat st;\n  return sizeof(struct log) + fstat(log->fd, &st);\n}\n")
    for path in ("gzlog.c", "gzlog.cpp"):
        found = definitions(path, text)
        assert found is not None
        assert [(s.line, s.end) for s in found] == [(1, 3), (5, 8)], path
        assert where(path, text, 6, 6) == "int log_open"


def test_an_insertion_is_inside_what_holds_both_neighbours() -> None:
    # inserting before line 4 (lines = (4, 3)): between the def line and its body
    assert where("store.rb", RUBY, 4, 3).endswith("def import_csv")
    assert where("store.rb", RUBY, 8, 7) == ""  # after the module: nothing around
    assert where("store.rb", RUBY, 1, 0) == ""  # before it


def test_definitions_carry_their_line_ranges() -> None:
    found = definitions("store.rb", RUBY)
    assert found is not None
    assert [(s.line, s.end, s.name) for s in found] == [
        (1, 7, "module Bookmarks"), (2, 6, "class Store"), (3, 5, "def import_csv")]
    assert enclosing("store.rb", RUBY, 4)[-1].signature == "def import_csv(path)"


def test_around_a_window_and_the_signature_of_a_line() -> None:
    symbols = around("store.rb", RUBY, 4, 4)
    assert [s.name for s in symbols] == ["module Bookmarks", "class Store", "def import_csv"]
    inner = signature_for(symbols, 4)
    assert inner is not None
    assert inner.signature == "def import_csv(path)"
    assert signature_for(symbols, 1) is None  # a definition's own first line heads nothing


def test_a_file_of_no_grammar_loads_no_grammar() -> None:
    code = ("import sys\nfrom reviewtui.core.review.diagnostics import diagnose_change\n"
            "from reviewtui.core.agent.outline import outline\n"
            "diagnose_change('a.py', 'x = 1\\n', 'x = (\\n')\n"
            "diagnose_change('a.json', '{}', '{')\n"
            "outline('a.md', ['# T'])\n"
            "assert not [m for m in sys.modules if m.startswith('tree_sitter')], sys.modules\n"
            "diagnose_change('a.rb', 'x = 1\\n', 'x = (\\n')\n"
            "loaded = sorted(m for m in sys.modules if m.startswith('tree_sitter_'))\n"
            "assert loaded == ['tree_sitter_ruby', 'tree_sitter_ruby._binding'], loaded\n")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          check=False)
    assert done.returncode == 0, done.stderr
