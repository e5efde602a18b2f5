"""The workbench shows a link operation as ``link -> target`` (issue 14, item 3)."""

from __future__ import annotations

from reviewtui.core.engine import evaluate_session
from reviewtui.core.engine.links import link_state
from reviewtui.core.engine.session import Rules
from reviewtui.core.importers import import_session
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.ui.opview import build_view
from reviewtui.ui.widgets.lists import op_row_title

DIFF = """\
diff --git a/latest b/latest
index 1111111..2222222 120000
--- a/latest
+++ b/latest
@@ -1 +1 @@
-docs/v1.md
\\ No newline at end of file
+docs/v2.md
\\ No newline at end of file
diff --git a/out b/out
new file mode 120000
--- /dev/null
+++ b/out
@@ -0,0 +1 @@
+../elsewhere
\\ No newline at end of file
"""


def test_a_link_operation_shows_its_target_and_what_it_was() -> None:
    session = import_session(DIFF, "c.diff", format="unified")
    tree = Tree.from_files({"docs/v1.md": FileState.from_text("1\n"),
                            "docs/v2.md": FileState.from_text("2\n"),
                            "latest": link_state("docs/v1.md")})
    retarget, escape = evaluate_session(session, tree,
                                        rules=Rules(symlinks={"latest": "docs/v1.md"})
                                        ).turns[0].results
    view = build_view(retarget)
    assert view.title == "latest · link -> docs/v2.md"
    assert view.message == "link -> docs/v2.md (was link -> docs/v1.md)"
    assert view.panes == ()  # never a text diff of the target as file content
    refused = build_view(escape)
    assert refused.message == "link -> ../elsewhere"
    assert "rule: symlink-escape" in refused.explanation.plain
    assert op_row_title(retarget.op) == "Link · latest"
