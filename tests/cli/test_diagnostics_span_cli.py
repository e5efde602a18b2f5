"""An error already in the file, on a line a SEARCH block re-writes unchanged, is not the
edit's: ``check`` does not call it introduced and ``apply --strict`` writes the edit.

The engine reports the whole SEARCH block as the replaced span; mapping only the lines
outside it blamed every error inside it on the operation (a false alarm that made `A` and
``--strict`` hold back a correct edit).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewtui.cli import main
from reviewtui.core.review.diagnostics import LineMap, diagnose_change

# Line 5 of cart.js is already broken; the edit changes line 6 only, but its SEARCH block
# spans lines 4-8.
BEFORE = """\
function total(items) {
  return items.length;
}
function price(item) {
  let base = item.cost +;
  let tax = 2;
  return base + tax;
}
"""
SESSION = """\
# Session: a block around an old error

## Turn 1
> raise the tax

--- File: cart.js ---
Edit 1
<<<<<<< SEARCH
function price(item) {
  let base = item.cost +;
  let tax = 2;
  return base + tax;
}
=======
function price(item) {
  let base = item.cost +;
  let tax = 3;
  return base + tax;
}
>>>>>>> REPLACE

### Changed files:
- (above)
"""


@pytest.fixture
def project(tmp_path: Path) -> Path:
    (tmp_path / "session.md").write_text(SESSION)
    (tmp_path / "base").mkdir()
    (tmp_path / "base" / "cart.js").write_text(BEFORE)
    return tmp_path


def test_an_old_error_inside_the_search_block_is_not_introduced(
        project: Path, capsys: pytest.CaptureFixture[str]) -> None:
    main(["check", str(project / "session.md"), "--root", str(project / "base"), "--json"])
    (op,) = json.loads(capsys.readouterr().out)["turns"][0]["ops"]
    assert op["lines"] == [4, 8]  # the whole block is the span, but the error is old
    assert [(d["line"], d["introduced"]) for d in op["diagnostics"]] == [(5, False)]


def test_apply_strict_writes_an_edit_next_to_an_old_error(project: Path) -> None:
    root = project / "base"
    assert main(["apply", str(project / "session.md"), "--root", str(root), "--yes",
                 "--strict"]) == 0
    assert "let tax = 3;" in (root / "cart.js").read_text()


def test_an_error_copied_inside_the_span_is_still_introduced() -> None:
    # The broken line written twice: one copy is the old error, the other is new.
    after = BEFORE.replace("  let base = item.cost +;\n", "  let base = item.cost +;\n" * 2)
    found = diagnose_change("cart.js", BEFORE, after, (4, 8))
    assert sorted(d.line for d in found) == [5, 6]
    assert sum(d.introduced for d in found) == 1


def test_lines_inside_the_span_map_to_identical_lines_only() -> None:
    before = "a\nb\nc\nd\ne\n"
    after = "a\nb\nX\nc\nd\ne\n"
    mapping = LineMap.of(before, after, (2, 4))  # b..d replaced by b, X, c, d
    assert dict(mapping) == {1: 1, 2: 2, 3: 4, 4: 5, 5: 6, 6: 7}
    assert all(before.split("\n")[k - 1] == after.split("\n")[v - 1]
               for k, v in mapping.items())
