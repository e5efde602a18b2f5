"""The workbench explains a write to a built-in generated file (issue 14, item 7)."""

from __future__ import annotations

from reviewtui.core.engine import evaluate_session
from reviewtui.core.importers import import_session
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.ui.opview import build_view

DIFF = """\
--- a/yarn.lock
+++ b/yarn.lock
@@ -1,2 +1,2 @@
 left-pad@^1.0.0:
-  version "1.0.0"
+  version "1.3.0"
"""


def test_the_explanation_names_the_generated_file() -> None:
    session = import_session(DIFF, "c.diff", format="unified")
    tree = Tree.from_files({"yarn.lock": FileState.from_text(
        'left-pad@^1.0.0:\n  version "1.0.0"\n')})
    (result,) = evaluate_session(session, tree).turns[0].results
    explanation = build_view(result).explanation.plain
    assert "generated file (yarn.lock)" in explanation
    assert explanation.startswith("matched yarn.lock")


def test_the_note_is_said_once_and_the_hint_keeps_the_rest() -> None:
    """The status line (subtitle) does not repeat what the explanation's own line says;
    another hint of the same operation stays there (a near match's, here)."""
    session = import_session(DIFF, "c.diff", format="unified")
    exact = Tree.from_files({"yarn.lock": FileState.from_text(
        'left-pad@^1.0.0:\n  version "1.0.0"\n')})
    (result,) = evaluate_session(session, exact).turns[0].results
    assert "generated file" in result.outcome.hint  # what check and apply print
    view = build_view(result)
    assert "generated file" not in view.subtitle
    assert view.explanation.plain.count("generated file") == 1
    # Tabs where the diff has spaces: the hint names the whitespace it forgave.
    tabbed = Tree.from_files({"yarn.lock": FileState.from_text(
        'left-pad@^1.0.0:\n\tversion "1.0.0"\n')})
    (result,) = evaluate_session(session, tabbed).turns[0].results
    hint = result.outcome.hint
    assert "generated file" in hint
    assert not hint.startswith("yarn.lock is a generated")
    view = build_view(result)
    assert "generated file" not in view.subtitle
    own = hint.split("; yarn.lock is a generated")[0]
    assert own
    assert own in view.subtitle
