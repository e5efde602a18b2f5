"""``apply --turns`` and ``view --range``: N, A-B, A- (to the end), -B (from the start).

``--turns 3-`` was read as turn 3 alone and applied it under a clean summary, exit 0, where
"turn 3 to the end" was meant (found by helper-73, 2026-12-04); ``--turns 3-1`` said it
was "outside 1-5" when it is backwards."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.cli.commands import span_of
from reviewtui.cli.view import parse_range
from reviewtui.core.errors import UsageError

TOUR = Path(__file__).resolve().parents[2] / "sample_sessions" / "workshop-tour"


@pytest.mark.parametrize(("spec", "span"), [
    ("3", (3, 3)), ("2-4", (2, 4)), ("3-", (3, 5)), ("-2", (1, 2)), ("1-5", (1, 5)),
    (" 4- ", (4, 5)),
])
def test_turn_spans(spec: str, span: tuple[int, int]) -> None:
    assert span_of(spec, 5, "--turns", "turn", "turns") == span


@pytest.mark.parametrize(("spec", "says"), [
    ("3-1", "backwards: turn 3 comes after turn 1"), ("6", "outside 1-5"),
    ("2-9", "outside 1-5"), ("0-2", "outside 1-5"), ("-", "takes N, A-B, A- or -B"),
    ("x", "takes N, A-B, A- or -B"), ("1-2-3", "takes N, A-B, A- or -B"),
])
def test_bad_turn_spans_say_why(spec: str, says: str) -> None:
    with pytest.raises(UsageError, match="--turns") as caught:
        span_of(spec, 5, "--turns", "turn", "turns")
    assert says in str(caught.value)


@pytest.mark.parametrize(("spec", "span"), [
    ("7", (7, 7)), ("3-5", (3, 5)), ("8-", (8, 10)), ("-4", (1, 4)), ("9-40", (9, 10)),
])
def test_line_ranges(spec: str, span: tuple[int, int]) -> None:
    assert parse_range(spec, 10) == span


def test_apply_from_a_turn_to_the_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]
                                      ) -> None:
    root = tmp_path / "root"
    shutil.copytree(TOUR / "base", root)
    assert main(["apply", str(TOUR), "--root", str(root), "--yes", "--turns", "4-"]) == 0
    out = capsys.readouterr().out
    assert (root / "CHANGELOG.md").exists()  # turn 4
    assert (root / "notes" / "scratch.tmp").read_text() == ("scratch notes from the last "
                                                            "call\n")  # turn 5 kept it
    assert (root / "greeter" / "core.py").exists()  # turn 2 (the move) was not asked for
    assert "applied" in out
