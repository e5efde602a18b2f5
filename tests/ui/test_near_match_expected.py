"""A near match's "what the model expected (-) and what the file has (+)" lists only real
disagreements. The matcher reads a near match without the SEARCH's blank first and last
lines; a blank line the file has right there too was listed as "-" (missing) from a file
that has it (found in a real terminal: a unified diff hunk starting on a blank context
line, 2026-12-04)."""

from __future__ import annotations

from pathlib import Path

from reviewtui.core.model.outcome import Status
from reviewtui.shell.review import Review
from reviewtui.ui.opview import build_view

HUNK = """diff --git a/x.toml b/x.toml
--- a/x.toml
+++ b/x.toml
@@ -3,7 +3,7 @@
{lead}
 [pkg]
 name = "ignore"
-version = "0.4.31"
+version = "0.4.32"
 deps = [
  "bstr",
  "cc",
"""


def _expected(tmp_path: Path, file: str, lead: str = " ") -> list[str]:
    root = tmp_path / "root"
    root.mkdir()
    (root / "x.toml").write_text(file)
    session = tmp_path / "s.patch"
    session.write_text(HUNK.replace("{lead}", lead))
    with Review.open(session, root, dry_run=True) as review:
        result = review.display.turns[0].results[0]
        assert result.outcome.status is Status.NEEDS_REVIEW
        text = build_view(result).explanation.plain
    listed = text.split("what the model expected (-) and what the file has (+):\n", 1)[1]
    return listed.split("\n")


def test_a_blank_line_the_file_has_is_not_listed_as_missing(tmp_path: Path) -> None:
    file = 'a\nb\n\n[pkg]\nname = "ignore"\nversion = "0.4.99"\ndeps = [\n "bstr",\n "cc",\n]\n'
    assert _expected(tmp_path, file) == ['  - version = "0.4.31"', '  + version = "0.4.99"']


def test_a_blank_line_the_file_lacks_is_still_listed(tmp_path: Path) -> None:
    file = 'a\nb\n[pkg]\nname = "ignore"\nversion = "0.4.99"\ndeps = [\n "bstr",\n "cc",\n]\n'
    listed = _expected(tmp_path, file)
    assert listed[0] == "  - "
    assert listed[1:] == ['  - version = "0.4.31"', '  + version = "0.4.99"']
