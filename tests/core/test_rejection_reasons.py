"""The reviewer's reason for a rejection: in the decision, the state file, the exports."""

from __future__ import annotations

import json

from reviewtui.core.engine import Decision, Policy, Verdict, evaluate_session
from reviewtui.core.export import Accepted, render
from reviewtui.core.export.context import context_summary
from reviewtui.core.model.records import Session, Span, Turn
from reviewtui.core.model.tree import tree_from_bytes
from reviewtui.core.protocol.reply import parse_reply_text
from reviewtui.shell.state import DecisionItem

REPLY = """\
--- File: a.py ---
Edit 1
<<<<<<< SEARCH
x = 1
=======
x = 10
>>>>>>> REPLACE

--- File: b.py ---
Edit 1
<<<<<<< SEARCH
y = 1
=======
y = 2
>>>>>>> REPLACE
"""


def _accepted(reason: str) -> Accepted:
    turn = Turn(1, "", parse_reply_text(REPLY), Span(1, 1))
    base = tree_from_bytes({"a.py": b"x = 1\n", "b.py": b"y = 1\n"})
    run = evaluate_session(Session("s.md", "T", "", (turn,)), base,
                           policy=Policy.decided_only(),
                           decisions={(1, 0): Decision.accept(),
                                      (1, 1): Decision.reject(reason)})
    return Accepted.of(run, "s.md", reviewed=True)


def test_reject_keeps_a_one_line_reason() -> None:
    assert Decision.reject() == Decision(Verdict.REJECTED)
    assert Decision.reject("  keep\n  y as is ").reason == "keep y as is"


def test_context_export_carries_the_reason() -> None:
    text = context_summary(_accepted("y must stay 1"))
    assert ("- turn 1, operation 2: b.py · Edit 1: rejected by the reviewer: y must stay 1"
            in text)
    plain = context_summary(_accepted(""))
    assert "- turn 1, operation 2: b.py · Edit 1: rejected by the reviewer\n" in plain


def test_reports_carry_the_reason() -> None:
    accepted = _accepted("y must stay 1")
    assert "rejected by the reviewer: y must stay 1" in render(accepted, "markdown")
    data = json.loads(render(accepted, "json"))
    assert "y must stay 1" in json.dumps(data)


def test_state_file_reason_round_trips_and_is_optional() -> None:
    item = DecisionItem(1, 0, "a.py", 1, "h", Decision.reject("no"))
    data = item.to_json()
    assert data["reason"] == "no"
    assert DecisionItem.from_json(data).decision.reason == "no"
    del data["reason"]
    assert DecisionItem.from_json(data).decision == Decision.reject()
    assert "reason" not in DecisionItem(1, 0, "a.py", 1, "h", Decision.accept()).to_json()
