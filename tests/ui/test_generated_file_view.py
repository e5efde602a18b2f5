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
