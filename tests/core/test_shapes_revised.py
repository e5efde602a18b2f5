"""Line numbers written against the file as it is now (its revision says so) are not shifted.

An agent on ``reviewtui mcp`` edits a file, reads it again, then replaces lines by number
with the new revision as ``expectedRevision``: those numbers address the current lines.
Without a revision, or with the revision from before the earlier edit, the engine still
refuses (``shifted-lines`` / ``stale-revision``).
"""

from __future__ import annotations

from reviewtui.core.engine import evaluate_session
from reviewtui.core.importers import import_session
from reviewtui.core.model.edit_shapes import content_revision
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.tree import FileState, Tree

TEXT = "def f():\n    a = 1\n    b = 2\n    return a + b\n"
AFTER_INSERT = "def f():\n    z = 0\n    a = 1\n    b = 2\n    return a + b\n"
INSERT = '{"tool": "insert", "path": "a.py", "line": 1, "content": "    z = 0"}\n'


def _run(second: str) -> tuple[list[tuple[Status, str]], str]:
    session = import_session(INSERT + second, "calls.jsonl")
    run = evaluate_session(session, Tree.from_files({"a.py": FileState.from_text(TEXT)}),
                           decisions={})
    results = [(r.outcome.status, r.outcome.rule) for t in run.turns for r in t.results]
    final = run.states[-1].tree.get("a.py")
    return results, final.text if final is not None and final.text is not None else ""


def _replace(revision: str | None) -> str:
    extra = f', "expectedRevision": "{revision}"' if revision else ""
    return ('{"tool": "line_replace", "path": "a.py", "from": 4, "to": 4, '
            f'"content": "    b = 7"{extra}}}\n')


def test_numbers_with_the_current_revision_address_the_current_lines() -> None:
    results, final = _run(_replace(content_revision(AFTER_INSERT.encode())))
    assert results == [(Status.APPLIED, ""), (Status.APPLIED, "")]
    assert final == AFTER_INSERT.replace("b = 2", "b = 7")


def test_numbers_without_a_revision_are_still_refused_as_shifted() -> None:
    results, _ = _run(_replace(None))
    assert results == [(Status.APPLIED, ""), (Status.REFUSED, "shifted-lines")]


def test_numbers_with_the_revision_before_the_earlier_edit_are_stale() -> None:
    results, _ = _run(_replace(content_revision(TEXT.encode())))
    assert results == [(Status.APPLIED, ""), (Status.REFUSED, "stale-revision")]
