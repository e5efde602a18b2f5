"""The code's shape that issue 13 asks to keep: no module over 600 lines, and the review
façade and every screen class under 300 lines (read by the AST, so a class is measured
from its ``class`` line to its last statement)."""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "reviewtui"
MODULE_LIMIT = 600
CLASS_LIMIT = 300


def _modules() -> list[Path]:
    found = sorted(SRC.rglob("*.py"))
    assert len(found) > 100, "the package's modules were not found"
    return found


def test_no_module_is_over_600_lines() -> None:
    long = {str(p.relative_to(SRC)): n for p in _modules()
            if (n := len(p.read_text().splitlines())) > MODULE_LIMIT}
    assert long == {}


def test_the_review_and_every_screen_class_are_under_300_lines() -> None:
    measured: dict[str, int] = {}
    for path in _modules():
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.ClassDef) and (
                    node.name == "Review" or node.name.endswith("Screen")):
                end = node.end_lineno or node.lineno
                measured[f"{path.relative_to(SRC)}:{node.name}"] = end - node.lineno + 1
    assert "shell/review.py:Review" in measured
    assert "ui/screens/main.py:MainScreen" in measured
    assert {name: n for name, n in measured.items() if n >= CLASS_LIMIT} == {}
