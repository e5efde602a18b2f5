"""``apply --accept-fuzzy``: the report says what happened to the disk (issue 14, item 5)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewtui.cli import main

SHOP = ("def total(items):\n    s = 0\n    for i in items:\n        s += i.price\n"
        "    return s\n")
NEAR = """\
## Turn 1
--- File: shop.py ---
<<<<<<< SEARCH
def total(items):
    s = 0
    for i in items:
        s += i.cost
    return s
=======
def total(items):
    return sum(i.price for i in items)
>>>>>>> REPLACE

### Changed files:
- (above)
"""


def _setup(tmp_path: Path) -> tuple[Path, Path]:
    session = tmp_path / "s.md"
    session.write_text(NEAR)
    root = tmp_path / "proj"
    root.mkdir()
    (root / "shop.py").write_text(SHOP)
    return session, root


def _apply_json(args: list[str], capsys: pytest.CaptureFixture[str]) -> tuple[int, dict]:  # type: ignore[type-arg]
    code = main(["apply", *args, "--yes", "--json"])
    return code, json.loads(capsys.readouterr().out)


def test_a_near_match_written_by_accept_fuzzy_is_reported_as_applied(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session, root = _setup(tmp_path)
    code, doc = _apply_json([str(session), "--root", str(root), "--accept-fuzzy"], capsys)
    assert code == 0
    assert "return sum(i.price for i in items)" in (root / "shop.py").read_text()
    op = doc["turns"][0]["ops"][0]
    assert (op["status"], op["method"], op["match_status"], op["accepted_by"], op["written"],
            op["forced"]) == ("applied", "near", "needs_review", "--accept-fuzzy", True, True)
    assert doc["written"] == ["shop.py"]


def test_without_accept_fuzzy_the_near_match_is_not_written_and_says_so(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session, root = _setup(tmp_path)
    code, doc = _apply_json([str(session), "--root", str(root)], capsys)
    assert code == 1
    assert (root / "shop.py").read_text() == SHOP
    op = doc["turns"][0]["ops"][0]
    assert (op["status"], op["written"]) == ("needs_review", False)
    assert "accepted_by" not in op
    assert "match_status" not in op


def test_the_text_report_names_the_fuzzy_landing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session, root = _setup(tmp_path)
    code = main(["apply", str(session), "--root", str(root), "--yes", "--accept-fuzzy"])
    out = capsys.readouterr().out
    assert code == 0
    assert "shop.py · Edit 1: applied (near, needs_review accepted by --accept-fuzzy)" in out
    assert "1 of 1 operation applied" in out
