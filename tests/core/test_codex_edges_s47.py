"""apply_patch chunks Codex places otherwise than the replay did (QA s47 helper-148); the
expected files are what Codex's binary (codex-cli 0.171.0) wrote, or its refusal.

F9: ``@@ `` followed by blanks is a bare ``@@`` to Codex, which trims the line; read as an
anchor on a blank line, a hunk whose text is in the file twice landed in the second
function, exit 0. Now it is ambiguous, as any unanchored chunk found twice.
F10: Codex looks for a chunk's ``@@`` context below the previous chunk only; found above
it, the chunk's text below landed there, exit 0. Now it is out of order, for review.
"""

from __future__ import annotations

import pytest

from reviewtui.core.engine import Policy, evaluate_session
from reviewtui.core.importers import import_session
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.tree import FileState, Tree


def _patched(patch: str, before: str) -> tuple[list[Status], str]:
    session = import_session(patch, "p.patch", format="apply_patch")
    tree = Tree.from_files({"f.py": FileState.from_text(before)})
    run = evaluate_session(session, tree, policy=Policy.headless())
    statuses = [r.outcome.status for t in run.turns for r in t.results]
    final = run.final.get("f.py")
    return statuses, final.text if final is not None else ""


TWICE = "def a():\n    return 1\n\ndef b():\n    return 1\n"


@pytest.mark.parametrize("header", ["@@ ", "@@  ", "@@ \t", "@@\t"])
def test_a_chunk_header_of_blanks_is_a_bare_one(header: str) -> None:
    patch = f"*** Begin Patch\n*** Update File: f.py\n{header}\n-    return 1\n+    return 2\n" \
            "*** End Patch\n"
    assert _patched(patch, TWICE) == ([Status.AMBIGUOUS], TWICE)
    # An anchor of its own text still places the chunk.
    anchored = patch.replace(header + "\n", "@@ def b():\n")
    assert _patched(anchored, TWICE) == (
        [Status.APPLIED], "def a():\n    return 1\n\ndef b():\n    return 2\n")


def test_an_anchor_above_the_previous_chunk_is_out_of_order() -> None:
    before = "def a():\n    x = 1\ndef b():\n    y = 2\n    z = 3\n"
    patch = ("*** Begin Patch\n*** Update File: f.py\n@@ def b():\n-    y = 2\n+    y = 20\n"
             "@@ def a():\n-    z = 3\n+    z = 30\n*** End Patch\n")
    statuses, _ = _patched(patch, before)
    assert statuses == [Status.APPLIED, Status.NEEDS_REVIEW]
    # Anchors below each previous chunk, in order: both land.
    ordered = ("*** Begin Patch\n*** Update File: f.py\n@@ def a():\n-    x = 1\n+    x = 10\n"
               "@@ def b():\n-    z = 3\n+    z = 30\n*** End Patch\n")
    assert _patched(ordered, before) == (
        [Status.APPLIED, Status.APPLIED], "def a():\n    x = 10\ndef b():\n    y = 2\n    z = 30\n")
