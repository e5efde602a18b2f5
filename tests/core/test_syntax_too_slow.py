"""A grammar that gives up: tree-sitter's error recovery is quadratic on some texts (QA s49
helper-175 S01: valid CSS holding ``content: "/*"``, which tree-sitter-css misreads; 100,000
lines took 132 s in ``check``). A parse runs within a time budget; past it the text is said
not checked, and the parser reads the next text as before."""

from __future__ import annotations

import pytest

from reviewtui.core.review.diagnostics import diagnose_text
from reviewtui.core.syntax import parsing, symbols

SLOW = 'a { background: url(http://x/y.png); content: "/*"; } /* c */\n' * 3000
GOOD = "a { color: red; }\n" * 3000


def test_a_text_the_grammar_gives_up_on_is_said_not_checked(
        monkeypatch: pytest.MonkeyPatch) -> None:
    parsing.clear_cache()
    monkeypatch.setattr(parsing, "_budget", lambda size: 1)  # (1 µs: any real text)
    found = diagnose_text("slow.css", SLOW)
    assert [(line, message) for line, _col, message, _check in found] == [
        (1, "not checked: tree-sitter css gave up after 0.0 s on this text")]
    with pytest.raises(parsing.TooSlow):
        parsing.parse("good.css", GOOD)
    assert symbols.definitions("good.css", GOOD) is None
    monkeypatch.undo()
    parsed = parsing.parse("good.css", GOOD)  # the parser was reset: it reads afresh
    assert parsed is not None
    assert not parsed.tree.root_node.has_error
    assert diagnose_text("good.css", GOOD) == []


def test_the_budget_grows_with_the_text() -> None:
    assert parsing._budget(0) == 1_000_000
    assert parsing._budget(6_000_000) == 4_000_000  # (6 MB: 4 s; a real parse ~0.3 s)
