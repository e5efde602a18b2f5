"""A placed edit's decision in the state file: round trip and validation."""

from __future__ import annotations

import pytest

from reviewtui.core.engine import Decision, Verdict
from reviewtui.shell.state import DecisionItem, StateFormatError


def test_placement_round_trips_in_the_state_file() -> None:
    decision = Decision.place((3, 4), ("a", "b"))
    assert decision.verdict is Verdict.ACCEPTED
    item = DecisionItem(2, 1, "app.py", 2, "h", decision)
    data = item.to_json()
    assert data["placement"] == [3, 4]
    assert DecisionItem.from_json(data).decision == decision
    assert "placement" not in DecisionItem(2, 1, "app.py", 2, "h", Decision.accept()).to_json()


@pytest.mark.parametrize("bad", [
    {"placement": [4, 3], "anchor": ["a", "b"]},
    {"placement": [3], "anchor": ["a"]},
    {"placement": [3, 4], "anchor": ["a"]},
    {"placement": [3, 4]},
    {"placement": [True, 4], "anchor": ["a", "b"]},
    {"placement": [3, 4], "anchor": ["a", 2]},
    {"placement": [3, 4], "anchor": ["a", "b"], "verdict": "rejected"},
])
def test_a_bad_placement_is_refused(bad: dict[str, object]) -> None:
    data = {**DecisionItem(2, 1, "app.py", 2, "h", Decision.accept()).to_json(), **bad}
    with pytest.raises(StateFormatError):
        DecisionItem.from_json(data)


def test_a_rewritten_search_round_trips() -> None:
    decision = Decision.with_search(("a", "b"), ("c",))
    assert decision.verdict is Verdict.EDITED
    data = DecisionItem(2, 1, "app.py", 2, "h", decision).to_json()
    assert data["search"] == ["a", "b"]
    assert DecisionItem.from_json(data).decision == decision
    with pytest.raises(StateFormatError):
        DecisionItem.from_json({**data, "search": ["a", 3]})
    with pytest.raises(StateFormatError):
        DecisionItem.from_json({**data, "verdict": "rejected"})
