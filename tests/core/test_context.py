"""``export --format context``: changed ranges, rejections, Need: files, a size bound."""

from __future__ import annotations

from pathlib import Path

from reviewtui.core.engine import Decision, Policy, evaluate_session
from reviewtui.core.export import Accepted, render
from reviewtui.core.export.context import context_summary
from reviewtui.core.model.records import Session, Span, Turn
from reviewtui.core.model.tree import tree_from_bytes
from reviewtui.core.protocol.reply import parse_reply_text
from reviewtui.shell.export import load_accepted

GALLERY = Path(__file__).resolve().parents[1] / "fixtures" / "gallery"

REPLY = """\
--- File: a.py ---
Edit 1
<<<<<<< SEARCH
x = 1
=======
x = 10
>>>>>>> REPLACE

--- File: b.py ---
Edit 1
<<<<<<< SEARCH
y = 1
=======
y = 2
>>>>>>> REPLACE

### Changed files:
- a.py
- b.py
Need: lib/missing.py, a.py
"""


def _accepted() -> Accepted:
    turn = Turn(1, "", parse_reply_text(REPLY), Span(1, 1))
    base = tree_from_bytes({"a.py": b"import os\nx = 1\n", "b.py": b"y = 1\n"})
    run = evaluate_session(Session("s.md", "T", "", (turn,)), base,
                           policy=Policy.decided_only(),
                           decisions={(1, 0): Decision.accept(), (1, 1): Decision.reject()})
    return Accepted.of(run, "s.md", reviewed=True)


def test_changed_ranges_rejections_and_needs() -> None:
    text = context_summary(_accepted())
    assert "### a.py (2 lines now)\n- lines 2-2 changed:\n  2| x = 10\n" in text
    assert "b.py" not in text.split("## Rejected operations")[0]
    assert "- turn 1, operation 2: b.py · Edit 1: rejected by the reviewer" in text
    assert "## Still needed" in text
    assert "- lib/missing.py" in text
    assert "- a.py\n" not in text.split("## Still needed")[1]


def test_gallery_and_truncation() -> None:
    accepted, _ = load_accepted(GALLERY)
    full = render(accepted, "context")
    assert "### app.py (31 lines now)" in full
    assert "## Operations that did not apply" in full
    short = context_summary(accepted, max_chars=400)
    assert len(short) < 700
    assert "[truncated:" in short


def test_line_addressed_sessions_get_line_ids_in_the_context() -> None:
    from reviewtui.core.export import render
    from reviewtui.core.text.hashline import line_id
    from reviewtui.shell.export import load_accepted

    repo = Path(__file__).resolve().parents[2]
    accepted, _ = load_accepted(repo / "sample_sessions" / "edit-shapes")
    text = render(accepted, "context")
    assert "current ids (N:hh)" in text
    new_line = "    return Math.round(sum * 100) / 100;"
    assert f"{line_id(24, new_line)}| {new_line}" in text
    tour, _ = load_accepted(repo / "sample_sessions" / "workshop-tour")
    assert "Line numbers are the files' current ones." in render(tour, "context")
