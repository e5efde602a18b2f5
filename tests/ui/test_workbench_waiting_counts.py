"""An accept that waits on an earlier pending operation (issue 15, one definition of each
count): turn 2's edit lands only on what turn 1's writes, turn 1 is pending, the reviewer
accepts turn 2. The workbench's status line, headless ``stats`` and the JSON and markdown
exports all count it accepted; the per-operation labels say what it waits on; the patch
and fileops exports leave it out (it is not on disk). Rejecting turn 1 makes it fail
everywhere; accepting turn 1 writes it."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from textual.widgets import Static
from uikit import grouped_counts, open_app, screen_of, status_counts, two_edit_session

from reviewtui.cli import main

pytestmark = pytest.mark.anyio
SIZE = (160, 40)
WAITS = "waits on pending turn 1 Edit 1 · a.py"


@pytest.fixture
def chained(tmp_path: Path) -> tuple[Path, Path]:
    return two_edit_session(tmp_path, second_search="x = 2")


async def _decide(session: Path, root: Path,
                  steps: list[tuple[int, int, str]]) -> tuple[dict[str, int], str]:
    """Press each key on (turn, operation) in the workbench; the status line's counts and
    turn 2's subtitle afterwards."""
    app = open_app(session, root)
    async with app.run_test(size=SIZE) as pilot:
        screen = screen_of(app)
        for turn, op, key in steps:
            screen.select(turn, op)
            await pilot.pause()
            await pilot.press(key)
            await app.workers.wait_for_complete()
            await pilot.pause()
        screen.select(1, 0)
        await pilot.pause()
        subtitle = str(screen.query_one("#op-subtitle", Static).render())
        return status_counts(app), subtitle


def _headless(session: Path, root: Path, capsys: pytest.CaptureFixture[str],
              left_out: int = 0) -> dict[str, object]:
    """What stats and the exports say, read from the review state on disk. ``left_out``:
    accepts that do not land, which the result formats (patch, fileops) name on stderr
    and exit 1 for."""
    capsys.readouterr()
    out: dict[str, object] = {}
    for fmt in ("json", "markdown", "patch", "fileops", "context"):
        code = main(["export", str(session), "--root", str(root), "--format", fmt])
        said = capsys.readouterr()
        result = fmt in ("patch", "fileops") and left_out
        assert code == (1 if result else 0), said.err
        assert (f"reviewtui: {left_out} change" in said.err) == bool(result), said.err
        out[fmt] = said.out
    assert main(["stats", str(session), "--root", str(root), "--json"]) == 0
    out["stats"] = json.loads(capsys.readouterr().out)
    assert main(["stats", str(session), "--root", str(root)]) == 0
    out["stats text"] = capsys.readouterr().out
    return out


def _markdown_decisions(text: str) -> dict[str, int]:
    table = text.split("| Decision | Operations |\n| --- | ---: |\n")[1].split("\n\n")[0]
    rows = dict(line.strip("|").split("|") for line in table.splitlines())
    return {label.strip(): int(count) for label, count in rows.items()}


def _json_rows(text: str) -> list[dict[str, object]]:
    doc = json.loads(text)
    return [op for turn in doc["turns"] for op in turn["ops"]]


async def test_waiting_accept_counts_accepted_everywhere_and_is_not_exported(
        chained: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    session, root = chained
    shown, subtitle = await _decide(session, root, [(1, 0, "y")])
    assert shown == {"pending": 1, "accepted": 1}
    assert f"accepted, {WAITS} (not written yet) · method exact" in subtitle
    assert (root / "a.py").read_text() == "x = 1\n"

    said = _headless(session, root, capsys)
    doc = json.loads(str(said["json"]))
    assert grouped_counts(doc["totals"]["by_decision"]) == shown
    assert doc["totals"]["failed"] == 0
    assert grouped_counts(_markdown_decisions(str(said["markdown"]))) == shown
    stats = said["stats"]
    assert isinstance(stats, dict)
    assert grouped_counts(stats["total"]["decisions"]) == shown
    assert stats["total"]["failed"] == 0
    assert stats["total"]["waiting"] == 1
    # Per operation: what it waits on, in the report rows and the context export.
    row = _json_rows(str(said["json"]))[1]
    assert row["decision"] == f"accepted, {WAITS}"
    assert row["landed"] is False
    assert f"| accepted, {WAITS} |" in str(said["markdown"])
    assert "accepted, lands on what pending turn 1 Edit 1 · a.py writes" in str(
        said["context"])
    assert "1 accepted waiting on a pending operation" in str(said["stats text"])
    # Not on disk, so not in the accepted result: the patch and fileops leave it out.
    for fmt in ("patch", "fileops"):
        assert "x = 3" not in str(said[fmt]), fmt
        assert "x = 2" not in str(said[fmt]), fmt
    assert (root / "a.py").read_text() == "x = 1\n"


async def test_rejecting_the_pending_one_fails_the_waiting_accept_everywhere(
        chained: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    session, root = chained
    shown, subtitle = await _decide(session, root, [(1, 0, "y"), (0, 0, "n")])
    assert shown == {"rejected": 1, "failed": 1}
    assert "waits on" not in subtitle
    said = _headless(session, root, capsys, left_out=1)  # the failed accept
    doc = json.loads(str(said["json"]))
    assert grouped_counts(doc["totals"]["by_decision"]) == shown
    assert doc["totals"]["failed"] == 1
    assert grouped_counts(_markdown_decisions(str(said["markdown"]))) == shown
    stats = said["stats"]
    assert isinstance(stats, dict)
    assert grouped_counts(stats["total"]["decisions"]) == shown
    assert stats["total"]["waiting"] == 0
    assert "waits on" not in str(said["markdown"])
    assert (root / "a.py").read_text() == "x = 1\n"


async def test_accepting_the_pending_one_writes_the_waiting_accept(
        chained: tuple[Path, Path], capsys: pytest.CaptureFixture[str]) -> None:
    session, root = chained
    shown, subtitle = await _decide(session, root, [(1, 0, "y"), (0, 0, "y")])
    assert shown == {"accepted": 2}
    assert "waits on" not in subtitle
    assert (root / "a.py").read_text() == "x = 3\n"
    said = _headless(session, root, capsys)
    doc = json.loads(str(said["json"]))
    assert grouped_counts(doc["totals"]["by_decision"]) == shown
    assert doc["totals"]["landed"] == 2
    assert grouped_counts(_markdown_decisions(str(said["markdown"]))) == shown
    stats = said["stats"]
    assert isinstance(stats, dict)
    assert grouped_counts(stats["total"]["decisions"]) == shown
    assert [r["decision"] for r in _json_rows(str(said["json"]))] == ["accepted", "accepted"]
    assert "+x = 3" in str(said["patch"])
