"""Formats that carry exact text have no elision semantics (issue 14, item 6).

A unified diff, an apply_patch patch, Claude Code's Edit/Write and tool calls say exactly
which bytes a file gets: a ``...`` or ``# ... existing code ...`` line in them is content,
never a truncation placeholder. File Ops replies keep the guard.
"""

from __future__ import annotations

import json

import pytest

from reviewtui.core.engine import evaluate_session, file_text_for
from reviewtui.core.importers import LITERAL_FORMATS, import_session
from reviewtui.core.lint.rules import lint_session
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.records import Edit, FullFile
from reviewtui.core.model.tree import FileState, Tree

OLD = "def f():\n    x = 1\n    return x\n"
NEW = "def f():\n    x = 1\n    # ... existing code ...\n    ...\n    return x\n"
README_OLD = "# Title\n\nSome text.\n"
README_NEW = "# Title\n\n```js\nfunction a() {\n  // ...\n}\n```\n\nSome text.\n"

UNIFIED = """\
diff --git a/app.py b/app.py
--- a/app.py
+++ b/app.py
@@ -1,3 +1,5 @@
 def f():
     x = 1
+    # ... existing code ...
+    ...
     return x
"""

APPLY_PATCH = """\
*** Begin Patch
*** Update File: app.py
@@
 def f():
     x = 1
+    # ... existing code ...
+    ...
     return x
*** End Patch
"""


def _claude(name: str, data: dict[str, object]) -> str:
    items = [
        {"type": "user", "cwd": "/p", "message": {"role": "user", "content": "go"}},
        {"type": "assistant", "cwd": "/p", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": name, "input": data}]}},
        {"type": "user", "cwd": "/p", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}},
    ]
    return "".join(json.dumps(item) + "\n" for item in items)


CLAUDE_EDIT = _claude("Edit", {"file_path": "/p/app.py", "old_string": "    x = 1\n",
                               "new_string": "    x = 1\n    # ... existing code ...\n"
                                             "    ...\n"})
CLAUDE_WRITE = _claude("Write", {"file_path": "/p/README.md", "content": README_NEW})
TOOLCALLS = (json.dumps({"tool": "write", "path": "README.md", "content": README_NEW}) + "\n"
             + json.dumps({"tool": "str_replace", "path": "app.py", "old": "    x = 1\n",
                           "new": "    x = 1\n    # ... existing code ...\n    ...\n"}) + "\n")

FILEOPS_EDIT = """\
## Turn 1
--- File: app.py ---
<<<<<<< SEARCH
    x = 1
=======
    x = 1
    # ... existing code ...
    ...
>>>>>>> REPLACE
"""


def _run(text: str, fmt: str):  # type: ignore[no-untyped-def]
    session = import_session(text, "s", format=fmt, root="/p")
    tree = Tree.from_files({"app.py": FileState.from_text(OLD),
                            "README.md": FileState.from_text(README_OLD)})
    return session, evaluate_session(session, tree)


@pytest.mark.parametrize(("text", "fmt"), [
    (UNIFIED, "unified"), (APPLY_PATCH, "apply_patch"), (CLAUDE_EDIT, "claude"),
    (CLAUDE_WRITE, "claude"), (TOOLCALLS, "toolcalls"),
], ids=["unified", "apply_patch", "claude-edit", "claude-write", "toolcalls"])
def test_exact_text_formats_write_ellipsis_lines_literally(text: str, fmt: str) -> None:
    session, run = _run(text, fmt)
    ops = [op for t in session.turns for op in t.reply.ops]
    assert ops
    assert all(op.literal for op in ops if isinstance(op, Edit | FullFile))
    results = [r for t in run.turns for r in t.results]
    assert [str(r.outcome.status) for r in results] == ["applied"] * len(results)
    tree = run.checkpoints[-1]
    for result in results:
        path = result.outcome.path
        state = tree.get(path)
        assert state is not None
        assert state.text == (NEW if path == "app.py" else README_NEW)
    findings = lint_session(session, file_text_for(run))
    assert not [f for f in findings if f.rule == "placeholder"]


def test_file_ops_replies_keep_the_guard() -> None:
    session, run = _run(FILEOPS_EDIT, "fileops")
    (result,) = run.turns[0].results
    assert not result.op.literal  # type: ignore[union-attr]
    assert (result.outcome.status, result.outcome.rule) == (
        Status.REFUSED, "truncation-placeholder")


def test_literal_formats_are_the_exact_text_ones() -> None:
    assert {"apply_patch", "unified", "claude", "toolcalls", "git"} == LITERAL_FORMATS
