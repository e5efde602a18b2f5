"""Session statistics on sample sessions with known numbers."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.core.review.stats import bar, session_stats, stats_lines
from reviewtui.shell.export import load_accepted

REPO = Path(__file__).resolve().parents[2]
TOUR = REPO / "sample_sessions" / "workshop-tour"
GALLERY = REPO / "tests" / "fixtures" / "gallery"


def test_workshop_tour() -> None:
    accepted, _ = load_accepted(TOUR)
    total = session_stats(accepted).total
    assert (total.operations, total.landed, total.failed) == (12, 12, 0)
    assert total.by_kind == {"edit": 6, "console": 5, "full_file": 1}
    assert total.by_status == {"applied": 12}
    assert total.by_method == {"exact": 6, "new-file": 1}
    assert total.decisions == {"accepted": 12}
    assert total.failures == {}
    assert (total.tokens_sent, total.tokens_cheapest) == (283, 269)


def test_gallery_per_turn_and_total() -> None:
    stats = session_stats(load_accepted(GALLERY)[0])
    total = stats.total
    assert (total.operations, total.landed, total.failed) == (12, 5, 6)
    assert total.by_status == {"applied": 5, "refused": 4, "ambiguous": 1, "needs_review": 1,
                               "not_found": 1}
    assert total.by_method == {"exact": 1, "near": 1, "new-file": 1, "tabs-spaces": 1}
    assert total.failures == {"ambiguous": 1, "binary": 1, "duplicate-line": 1,
                              "not_found": 1, "parent-escape": 1, "reserved": 1}
    assert total.findings == {"search-replace-too-costly": 3, "parent-path": 1}
    assert total.decisions == {"not applied": 1, "failed": 6, "accepted": 5}
    assert [t.operations for t in stats.turns] == [2, 3, 4, 3]
    # The near match (turn 2) applies only when a reviewer accepts it.
    assert [t.landed for t in stats.turns] == [2, 0, 0, 3]
    assert [t.tokens_sent for t in stats.turns] == [85, 139, 93, 27]
    assert total.tokens_sent == 344


def test_bars() -> None:
    assert bar(0, 10) == ""
    assert bar(10, 10, width=4) == "████"
    assert bar(1, 16, width=4) == "▎"
    assert len(bar(5, 10, width=4)) == 2


def test_side_by_side_text() -> None:
    lines = stats_lines([session_stats(load_accepted(p)[0]) for p in (TOUR, GALLERY)])
    assert lines[0].split()[:2] == ["session", "Workshop"]
    row = next(line for line in lines if line.startswith("operations "))
    assert row.split() == ["operations", "12", "12"]
    # Where the decisions come from (QA pass 84c: the workbench's S counts its review's
    # decisions, pending ones pending, and the text did not say it counted otherwise).
    source = next(line for line in lines if line.startswith("decisions from "))
    assert source.count("every operation that applies, as with 'apply --yes'") == 2


def test_stats_cli(capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["stats", str(TOUR), "--json"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["total"]["operations"] == 12
    assert len(doc["turns"]) == 5
    assert main(["stats", str(TOUR), str(GALLERY)]) == 0
    out = capsys.readouterr().out
    assert "UI gallery" in out
    assert "tokens sent / cheapest" in out


def test_markdown_report_carries_the_statistics() -> None:
    from reviewtui.core.export import render
    from reviewtui.shell.export import load_accepted

    repo = Path(__file__).resolve().parents[2]
    accepted, _ = load_accepted(repo / "sample_sessions" / "workshop-tour")
    report = render(accepted, "markdown")
    section = report.split("## Statistics", 1)[1].split("## Operation ledger", 1)[0]
    assert "operations" in section
    assert "landed / failed" in section
    assert "12 / 0" in section


def test_stats_count_reviews_as_the_status_line_does() -> None:
    """One definition of each count: stats' decision labels group like the workbench's
    status line (pending, accepted, rejected, failed), operation by operation."""
    from reviewtui.core.engine import Decision
    from reviewtui.core.engine.opstate import op_state
    from reviewtui.core.export.accepted import count_label

    accepted = load_accepted(GALLERY)[0]
    run = accepted.run
    decisions = {}
    for turn in run.turns:
        for result in turn.results:
            if result.landed and not decisions:
                decisions[result.key] = Decision.accept()
            elif result.outcome.status.value == "ambiguous":
                decisions[result.key] = Decision.reject("no")
    run.update(decisions)
    group = {"accepted": "accepted", "forced": "accepted", "edited": "accepted",
             "rejected": "rejected", "failed": "failed", "pending": "pending"}
    seen = set()
    for turn in run.turns:
        for result in turn.results:
            state = op_state(result)
            line = ("failed" if state.failed else "rejected" if state.value == "rejected"
                    else "accepted" if state.decided else "pending")
            assert group[count_label(result, True)] == line, result.key
            seen.add(line)
    assert seen == {"accepted", "rejected", "failed", "pending"}
