"""``export --format context`` names the definitions (from the syntax tree) around each
changed range, with their line ranges, so the next prompt can ask for the right range."""

from __future__ import annotations

from pathlib import Path

from reviewtui.core.engine import Decision, Policy, evaluate_session
from reviewtui.core.export import Accepted, render
from reviewtui.core.model.records import Session, Span, Turn
from reviewtui.core.model.tree import tree_from_bytes
from reviewtui.core.protocol.reply import parse_reply_text
from reviewtui.shell.export import load_accepted

TREESITTER = Path(__file__).resolve().parents[1] / "fixtures" / "treesitter"

GO = b"""package shop

type Cart struct {
\titems []int
}

func (c *Cart) Total() int {
\tsum := 0
\tfor _, n := range c.items {
\t\tsum += n
\t}
\treturn sum
}
"""
REPLY = """\
--- File: cart.go ---
Edit 1
<<<<<<< SEARCH
\t\tsum += n
\t}
=======
\t\tsum += n
\t}
\tsum++
>>>>>>> REPLACE

--- File: notes.txt ---
Edit 1
<<<<<<< SEARCH
one
=======
two
>>>>>>> REPLACE
"""


def test_changed_ranges_name_the_definitions_they_sit_in() -> None:
    accepted, _ = load_accepted(TREESITTER)
    text = render(accepted, "context")
    assert ("- lines 25-25 changed (in module Bookmarks 4-39 › class Store 6-38 › "
            "def import_csv 21-31):") in text
    assert "- lines 11-11 changed (in class Cart 2-20 › add 7-15):" in text


def test_a_go_method_is_named_and_a_file_without_grammar_gets_nothing() -> None:
    turn = Turn(1, "", parse_reply_text(REPLY), Span(1, 1))
    base = tree_from_bytes({"cart.go": GO, "notes.txt": b"one\n"})
    run = evaluate_session(Session("s.md", "T", "", (turn,)), base,
                           policy=Policy.decided_only(),
                           decisions={(1, 0): Decision.accept(), (1, 1): Decision.accept()})
    text = render(Accepted.of(run, "s.md", reviewed=True), "context")
    assert "- lines 12-12 added (in func (c *Cart) Total 7-14):" in text
    assert "- lines 1-1 changed:\n" in text.split("### notes.txt")[1]
