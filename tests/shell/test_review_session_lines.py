"""The session's lines as the raw view shows them: the lines every span counts."""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewtui.shell.review import Review


@pytest.mark.parametrize("odd", ["\f", "\x1c", "\u2028", "\x85", "\v"])
def test_a_line_holding_a_separator_is_one_line_of_the_session(tmp_path: Path, odd: str) -> None:
    """A form feed in quoted code (an old C or Python file's page break), U+2028 in a
    string: ``str.splitlines`` splits there, the session's readers do not, so every span
    after it pointed the raw view one line too far."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text(f"x = 1\n#{odd}\ny = 2\n")
    session = tmp_path / "session.md"
    session.write_text(
        "## Turn 1\n> edit\n\n--- File: a.py ---\nEdit 1\n<<<<<<< SEARCH\n"
        f"x = 1\n#{odd}\n=======\nx = 3\n#{odd}\n>>>>>>> REPLACE\nEdit 2\n"
        "<<<<<<< SEARCH\ny = 2\n=======\ny = 4\n>>>>>>> REPLACE\n")
    with Review.open(session, root, dry_run=True) as review:
        second = review.session.turns[0].reply.ops[1]
        lines = review.session_lines
        assert lines[second.span.start - 1] == "Edit 2"
        search = second.search_span.start  # type: ignore[union-attr]
        assert lines[search - 1 : search + 1] == ["<<<<<<< SEARCH", "y = 2"]
        assert len(lines) == session.read_text().count("\n")
