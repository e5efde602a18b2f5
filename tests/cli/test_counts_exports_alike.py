"""One definition of each count (issue 15): the decision totals of the JSON and markdown
exports group the operations as the workbench's status line does (pending, accepted,
rejected, failed), with a review state and without one."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.core.engine import Decision
from reviewtui.shell.review import Review
from reviewtui.ui.screens.review_states import review_states

REPO = Path(__file__).resolve().parents[2]
GALLERY = REPO / "tests" / "fixtures" / "gallery"
# The status line's four counts; the exports name forced and edited accepts apart.
GROUP = {"accepted": "accepted", "forced": "accepted", "edited": "accepted",
         "rejected": "rejected", "failed": "failed", "pending": "pending"}


def _grouped(by_decision: dict[str, int]) -> dict[str, int]:
    out: dict[str, int] = {}
    for label, count in by_decision.items():
        out[GROUP[label]] = out.get(GROUP[label], 0) + count
    return out


@pytest.fixture
def reviewed(tmp_path: Path) -> tuple[Path, Path, dict[str, int]]:
    session = tmp_path / "session"
    shutil.copytree(GALLERY, session, ignore=shutil.ignore_patterns("base"))
    root = tmp_path / "root"
    shutil.copytree(GALLERY / "base", root)
    with Review.open(session, root) as review:
        review.decide((1, 0), Decision.accept())
        review.decide((3, 3), Decision.accept(force=True))  # the duplicate-line refusal
        review.decide((4, 0), Decision.reject("keep the notes where they are"))
        counts = review_states(review).counts
    return session, root, {k: v for k, v in counts.items() if v}


def test_json_export_counts_decisions_as_the_status_line(
        reviewed: tuple[Path, Path, dict[str, int]],
        capsys: pytest.CaptureFixture[str]) -> None:
    session, root, counts = reviewed
    assert counts["failed"] == 5 and counts["pending"] == 4  # noqa: PT018
    main(["export", str(session), "--root", str(root), "--format", "json"])
    totals = json.loads(capsys.readouterr().out)["totals"]
    assert _grouped(totals["by_decision"]) == counts
    assert totals["failed"] == counts["failed"]


def test_markdown_export_counts_decisions_as_the_status_line(
        reviewed: tuple[Path, Path, dict[str, int]],
        capsys: pytest.CaptureFixture[str]) -> None:
    session, root, counts = reviewed
    main(["export", str(session), "--root", str(root), "--format", "markdown"])
    text = capsys.readouterr().out
    table = text.split("| Decision | Operations |\n| --- | ---: |\n")[1].split("\n\n")[0]
    rows = dict(line.strip("|").split("|") for line in table.splitlines())
    by_decision = {label.strip(): int(count) for label, count in rows.items()}
    assert _grouped(by_decision) == counts


def test_without_a_review_exports_and_stats_call_a_failure_failed(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    session = tmp_path / "session"
    shutil.copytree(GALLERY, session, ignore=shutil.ignore_patterns("base"))
    root = tmp_path / "root"
    shutil.copytree(GALLERY / "base", root)
    main(["stats", str(session), "--root", str(root)])
    stats = capsys.readouterr().out
    main(["export", str(session), "--root", str(root), "--format", "json"])
    by_decision = json.loads(capsys.readouterr().out)["totals"]["by_decision"]
    for label, count in by_decision.items():
        assert f"  {label:<26} {count}" in stats.split("decisions:")[1], label
    assert by_decision["failed"] == 6


def test_stats_do_not_count_a_forced_operation_as_failed(
        reviewed: tuple[Path, Path, dict[str, int]],
        capsys: pytest.CaptureFixture[str]) -> None:
    session, root, counts = reviewed
    main(["stats", str(session), "--root", str(root)])
    out = capsys.readouterr().out
    assert f"landed / failed              2 / {counts['failed']}" in out
    # Turn 3: the forced duplicate-line refusal landed; the other three failed.
    assert "turn 3: 4 operations, 1 landed, 3 failed" in out
    failures = out.split("failures by reason:")[1].split("lint findings")[0]
    assert "duplicate-line" not in failures
