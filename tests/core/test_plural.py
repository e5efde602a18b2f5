"""Counted nouns: "1 line", never "1 lines" or "file(s)"."""

from __future__ import annotations

from reviewtui.core.model.records import FullFile, Span
from reviewtui.core.model.tree import Tree
from reviewtui.core.text.plural import plural


def test_plural() -> None:
    assert plural(1, "line") == "1 line"
    assert plural(0, "line") == "0 lines"
    assert plural(2, "file") == "2 files"
    assert plural(2, "entry", "entries") == "2 entries"


def test_a_one_line_new_file_says_one_line() -> None:
    from reviewtui.core.engine.file_edits import FileContext, evaluate_full_file

    op = FullFile(path="a.txt", lines=("x",), span=Span(1, 2))
    outcome, _ = evaluate_full_file(Tree(), op, FileContext())
    assert outcome.message == "creates a.txt (1 line)"
