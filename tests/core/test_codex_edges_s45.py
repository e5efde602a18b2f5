"""Two apply_patch chunks Codex applies that were refused (QA s45 helper-138 #7, #8);
the expected files are what Codex's binary wrote for them.

#7: a deletion with context above only, between two equal lines: REPLACE ends with the
line below the deleted one, which the duplicate-line guard read as context pasted into
REPLACE. It is SEARCH's own line, kept: no line is added. #8: a chunk under an anchor
whose only context is a blank line was refused as an empty SEARCH.
"""

from __future__ import annotations

from reviewtui.core.engine import Policy, evaluate_session
from reviewtui.core.importers import import_session
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.tree import FileState, Tree


def _patched(patch: str, before: str) -> tuple[Status, str]:
    session = import_session(patch, "p.patch", format="apply_patch")
    tree = Tree.from_files({"f.py": FileState.from_text(before)})
    run = evaluate_session(session, tree, policy=Policy.headless())
    (result,) = [r for t in run.turns for r in t.results]
    final = run.final.get("f.py")
    return result.outcome.status, final.text if final is not None else ""


def test_a_deletion_between_two_equal_lines_is_not_pasted_context() -> None:
    before = 'def run():\n    log("step")\n    print("debug")\n    log("step")\n    return 1\n'
    patch = ('*** Begin Patch\n*** Update File: f.py\n@@\n     log("step")\n'
             '-    print("debug")\n*** End Patch\n')
    assert _patched(patch, before) == (
        Status.APPLIED, 'def run():\n    log("step")\n    log("step")\n    return 1\n')
    # A line REPLACE adds that is the line just below: pasted context, refused as before.
    pasted = ('*** Begin Patch\n*** Update File: f.py\n@@\n     log("step")\n'
              '-    print("debug")\n+    print("info")\n+    log("step")\n*** End Patch\n')
    status, text = _patched(pasted, before)
    assert (status, text) == (Status.REFUSED, before)


def test_a_blank_line_under_an_anchor_is_the_first_after_it() -> None:
    before = "import os\n\ndef f():\n    return 1\n\ndef g():\n    return 2\n"
    patch = ("*** Begin Patch\n*** Update File: f.py\n@@ def f():\n \n+def h():\n"
             "+    return 3\n+\n*** End Patch\n")
    assert _patched(patch, before) == (
        Status.APPLIED,
        "import os\n\ndef f():\n    return 1\n\ndef h():\n    return 3\n\ndef g():\n"
        "    return 2\n")
    missing = patch.replace("@@ def f():", "@@ def k():")
    assert _patched(missing, before)[0] is Status.NOT_FOUND


def test_a_blank_line_of_spaces_under_an_anchor_keeps_its_spaces() -> None:
    """QA s45 helper-139 #12: the file's blank line holds spaces; Codex places the chunk
    there (it reads a line of spaces as blank), and so does reviewtui now, the line kept
    as the file has it."""
    before = "def f():\n    a = 1\n    \n    return a\n"
    patch = ("*** Begin Patch\n*** Update File: f.py\n@@ def f():\n \n+    # note\n"
             "*** End Patch\n")
    assert _patched(patch, before) == (
        Status.APPLIED, "def f():\n    a = 1\n    \n    # note\n    return a\n")
