"""A unified hunk's line number does not make a loose match there beat its exact text
elsewhere.

Found by fuzzing git's own ``-U1`` output against drifted files (2026-12-04): the hunk
``p / +y / (blank)``, numbered at a ``p`` that has no blank line after it, landed there
by the blank-lines method ("ignored 1 blank line at the edges of SEARCH"), though lines
1-2 held ``p`` and the blank line exactly. ``git apply``, ``patch`` and a clean
``git merge-file`` all put it at lines 1-2. A loose match at the hinted line still wins
when the hunk's text is nowhere exactly (the line number is then the only evidence).
"""

from __future__ import annotations

import pytest

from reviewtui.core.engine import evaluate_session
from reviewtui.core.importers import import_session
from reviewtui.core.model.tree import FileState, Tree

HUNK = "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -2,2 +2,3 @@ u\n p\n+y\n{blank}\n"


def _applied(text: str, blank: str) -> tuple[str, str]:
    session = import_session(HUNK.format(blank=blank), "p.diff", format="unified")
    tree = Tree.from_files({"f": FileState.from_text(text)})
    run = evaluate_session(session, tree)
    (result,) = run.turns[0].results
    after = run.states[-1].tree.get("f")
    assert after is not None
    return result.outcome.method, after.data.decode()


@pytest.mark.parametrize(("blank", "text", "expected"), [
    (" ", "p\n\np\n", "p\ny\n\np\n"),  # the context line is empty
    ("  ", "p\n \np\nv\n", "p\ny\n \np\nv\n"),  # the context line is one space
])
def test_the_exact_text_elsewhere_beats_a_loose_match_at_the_line(
        blank: str, text: str, expected: str) -> None:
    method, after = _applied(text, blank)
    assert method == "exact"
    assert after == expected


def test_a_loose_match_at_the_line_stands_when_the_text_is_nowhere_exactly() -> None:
    method, after = _applied("q\np\nq\n", " ")  # no "p" followed by a blank line
    assert method != "exact"
    assert after == "q\np\ny\nq\n"


def test_a_crlf_line_added_one_line_off_keeps_its_cr() -> None:
    """The same cause, seen as bytes: a hunk adding ``X\\r\\n`` before a trailing blank
    context line, on a file one line longer than the diff's own base, landed by the
    blank-lines method at the hinted line and wrote ``X\\n`` (helper-80 repro-7)."""
    diff = ("diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ -2,4 +2,5 @@ u\n a\n b\n c\n"
            "+X\r\n \n")
    session = import_session(diff, "p.diff", format="unified")
    tree = Tree.from_files({"f": FileState.from_bytes(b"y\nu\na\nb\nc\n\n")})
    run = evaluate_session(session, tree)
    after = run.states[-1].tree.get("f")
    assert after is not None
    assert after.data == b"y\nu\na\nb\nc\nX\r\n\n"
