"""The repository's own text carries no leftover merge conflict markers.

Merge markers look like the protocol's SEARCH/REPLACE markers; a line that opens with seven
angle brackets and is not followed by SEARCH or REPLACE is a conflict someone committed.
"""

from __future__ import annotations

import re
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
MARKER = re.compile(r"^(<{7}|>{7}) (?!SEARCH\b|REPLACE\b)\S")


def _texts() -> list[Path]:
    files = [REPO / "README.md", REPO / "Makefile", REPO / "pyproject.toml",
             REPO / "bench" / "README.md"]
    files += sorted((REPO / "docs").glob("*.md"))
    files += sorted((REPO / "src").rglob("*.py"))
    files += sorted((REPO / "src").rglob("*.tcss"))
    files += sorted((REPO / "bench").glob("*.py"))
    return files


def test_no_merge_conflict_markers() -> None:
    found = [f"{path.relative_to(REPO)}:{number}"
             for path in _texts()
             for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
             if MARKER.match(line)]
    assert found == []


def test_the_marker_pattern_tells_conflicts_from_edits() -> None:
    assert MARKER.match("<<<<<<< HEAD")
    assert MARKER.match(">>>>>>> h/branch")
    assert not MARKER.match("<<<<<<< SEARCH")
    assert not MARKER.match(">>>>>>> REPLACE")
