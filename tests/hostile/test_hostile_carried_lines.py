"""README: line numbers read on disk while the review's version differs "are carried into
the review's version when the lines they name are certainly the same lines there ...;
else the call is refused". Attacks on "certainly": lines a pending change removed while
a copy of them (with the same neighbours) stands elsewhere, an outside copy that makes
them ambiguous, an id read before the change, and a range crossing the pending change.
Each is refused and, whatever the reviewer accepts, nothing lands on another line."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from reviewtui.core.engine import Decision
from reviewtui.core.errors import DecisionRefused
from reviewtui.core.model.edit_shapes import content_revision
from reviewtui.core.text.hashline import line_id
from reviewtui.shell.agent_tools import AgentTools
from reviewtui.shell.live import Gate, LiveSession
from reviewtui.shell.live_paths import prepare_live_session
from reviewtui.shell.review import Review

# The pending edit removes lines 2-4 ("x = 0 / y = 1 / z = 2"); the file then reads as its
# first five lines did, so by text alone (and by a line diff, which keeps the common
# start) the removed "y = 1" of line 3 is still line 3. Only origins tell it is gone.
TWINS = "x = 0\nx = 0\ny = 1\nz = 2\nx = 0\ny = 1\nz = 2\nx = 0\n"
LEFT = "x = 0\nx = 0\ny = 1\nz = 2\nx = 0\n"

def _accept_all(session: Path, root: Path, state: Path) -> list[str]:
    """Accept every operation the review lets be accepted; the refused ones' keys."""
    refused = []
    with Review.open(session, root, state_path=state, format="toolcalls") as workbench:
        for turn in workbench.session.turns:
            for pos in range(len(turn.reply.ops)):
                try:
                    workbench.decide((turn.index, pos), Decision.accept())
                except DecisionRefused:
                    refused.append(f"{turn.index}.{pos + 1}")
    return refused


@pytest.mark.parametrize("call", [
    {"tool": "line_replace", "from": 3, "to": 3, "content": "y = 100"},
    {"tool": "line_replace", "from": line_id(3, "y = 1"), "to": line_id(3, "y = 1"),
     "content": "y = 100"},
    {"tool": "insert", "line": 3, "content": "w = 3"},
    {"tool": "batch_edit", "operations": [{"operation": "delete", "line_range": [3, 4]}]},
])
def test_lines_a_pending_change_removed_are_not_found_in_their_twin(
        tmp_path: Path, call: dict[str, object]) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "m.py").write_text(TWINS)
    session = tmp_path / "live.jsonl"
    state = prepare_live_session(session, root)
    tools = AgentTools(LiveSession(root, session, gate=Gate.REVIEW, wait=0))
    try:
        pending = tools.mutate({"tool": "batch_edit", "path": "m.py", "operations": [
            {"operation": "delete", "line_range": [2, 4]}]}, "t")
        assert pending.startswith("pending review · m.py"), pending
        answer = tools.mutate({**call, "path": "m.py",
                               "expectedRevision": content_revision(TWINS.encode())}, "t")
    finally:
        tools.live.close()
    assert "not certainly the same lines there" in answer, answer
    assert _accept_all(session, root, state) == ["1.2"]
    assert (root / "m.py").read_text() == LEFT


def test_an_outside_copy_makes_lines_ambiguous_not_moved(tmp_path: Path) -> None:
    """Under --gate auto the user pastes a copy of f() above it, outside: the agent's
    line 2 is the pasted copy's, which the review's version does not have; it is never
    taken for the original's (the same text, one function further down)."""
    root = tmp_path / "root"
    root.mkdir()
    text = "def f():\n    return 1\n\n\ndef g():\n    return 2\n"
    (root / "m.py").write_text(text)
    tools = AgentTools(LiveSession(root, tmp_path / "live.jsonl", gate=Gate.AUTO, wait=0))
    try:
        tools.mutate({"tool": "edit", "path": "m.py", "search": "    return 2",
                      "replace": "    return 20"}, "t")
        on_disk = (root / "m.py").read_text()
        pasted = "def f():\n    return 1\n\n\n" + on_disk  # f() twice on disk now
        (root / "m.py").write_text(pasted)
        revision = content_revision(pasted.encode())
        # Line 2 is the pasted copy's return: the review's version has no such line.
        first = tools.mutate({"tool": "line_replace", "path": "m.py", "from": 2, "to": 2,
                              "content": "    return 100", "expectedRevision": revision}, "t")
    finally:
        tools.live.close()
    assert first.startswith("refused"), first
    assert (root / "m.py").read_text() == pasted


def test_a_forged_call_as_sent_writes_nothing_the_reviewer_did_not_see(
        tmp_path: Path) -> None:
    """A session's line call carries two forms: as shown in the review's version, and
    ``sent``, applied when the file is as the agent read it. A forged one whose forms name
    different lines (shown: sub's return; sent: add's) is accepted with the change it was
    carried past still pending: the disk draft would take the sent form, at lines the
    reviewer never saw. The accept is bound to what was shown: nothing is written."""
    app = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"
    shown = "import os\n" + app
    root = tmp_path / "root"
    root.mkdir()
    (root / "app.py").write_text(app)
    session = tmp_path / "live.jsonl"
    calls = [{"turn": 1, "request": "t"},
             {"tool": "edit", "path": "app.py", "search": "def add(a, b):",
              "replace": "import os\ndef add(a, b):"},
             {"tool": "line_replace", "path": "app.py", "from": 7, "to": 7,
              "content": "    return 0", "expectedRevision": content_revision(shown.encode()),
              "sent": {"from": 2, "to": 2,
                       "expectedRevision": content_revision(app.encode())}}]
    session.write_text("".join(json.dumps(call) + "\n" for call in calls))
    with Review.open(session, root, format="toolcalls") as review:
        shown_outcome = review.outcome((1, 1))
        assert shown_outcome.lines == (7, 7)  # what the reviewer sees: sub's return
        review.decide((1, 1), Decision.accept())
        assert (root / "app.py").read_text() == app  # add's return untouched


@pytest.mark.parametrize("sent", [
    {"from": -5, "to": 10**22, "expectedRevision": 123},
    {"line": {"nested": [1]}, "expectedRevision": "bb", "sent": {"from": 1}},
    {"operations": "x", "expectedRevision": "bb"},
    "lines 1-2",
])
def test_a_call_as_sent_that_does_not_read_is_left_out(sent: object) -> None:
    """``sent`` comes from the session file: bad references, giant or negative numbers,
    nesting, a string: the call reads as carried, with no alternative, and nothing
    fails."""
    from reviewtui.core.importers import import_session

    call = {"tool": "line_replace", "path": "a.py", "from": 2, "to": 2, "content": "x",
            "expectedRevision": "aa", "sent": sent}
    (op,) = import_session(json.dumps(call) + "\n", "x.jsonl").turns[0].reply.ops
    assert op.shape.sent is None  # type: ignore[attr-defined]
    assert op.path == "a.py"  # type: ignore[attr-defined]


def test_a_call_as_sent_cannot_name_another_file_or_tool() -> None:
    """Only line references and a revision are read from ``sent``: a path or a tool in it
    changes nothing of what the call is."""
    from reviewtui.core.importers import import_session

    call = {"tool": "line_replace", "path": "a.py", "from": 2, "to": 2, "content": "x",
            "expectedRevision": "aa", "sent": {"tool": "write", "path": "../etc/passwd",
                                               "from": 1, "to": 1, "expectedRevision": "bb"}}
    (op,) = import_session(json.dumps(call) + "\n", "x.jsonl").turns[0].reply.ops
    assert op.path == "a.py"  # type: ignore[attr-defined]
    assert op.replace_lines == ("x",)  # type: ignore[attr-defined]
    assert op.shape.sent.first.number == 1  # type: ignore[attr-defined]
