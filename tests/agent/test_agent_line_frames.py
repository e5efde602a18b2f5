"""Line numbers an agent read on disk, while the review's version of the file differs
(QA s32 F6): every line-addressed call was refused then, naming a revision no answer
gives, and an answer named lines of the review's version beside the disk's revision.

Now a call is carried into the review's version when its lines are certainly the same
there (by origin while a change waits; by content and a line diff after an outside
change), and an answer's lines are the disk's."""

from __future__ import annotations

from pathlib import Path

from reviewtui.core.engine import Decision
from reviewtui.core.model.edit_shapes import content_revision
from reviewtui.core.text.hashline import line_id
from reviewtui.shell.agent_tools import AgentTools
from reviewtui.shell.live import Gate, LiveSession, Recorded
from reviewtui.shell.live_paths import prepare_live_session
from reviewtui.shell.review import Review

APP = "def add(a, b):\n    return a + b\n\n\ndef sub(a, b):\n    return a - b\n"


def _tools(tmp_path: Path, gate: Gate) -> tuple[Path, Path, Path, AgentTools]:
    root = tmp_path / "root"
    root.mkdir()
    (root / "app.py").write_text(APP)
    session = tmp_path / "live.jsonl"
    state = prepare_live_session(session, root)
    return root, session, state, AgentTools(LiveSession(root, session, gate=gate, wait=0))


def _revision(root: Path) -> str:
    return content_revision((root / "app.py").read_bytes())


def test_lines_read_on_disk_are_carried_past_a_pending_insertion(tmp_path: Path) -> None:
    root, session, state, tools = _tools(tmp_path, Gate.REVIEW)
    try:
        imports = tools.mutate({"tool": "edit", "path": "app.py", "search": "def add(a, b):",
                                "replace": "import os\nimport sys\ndef add(a, b):"}, "imports")
        assert imports.startswith("pending review · app.py"), imports
        # The agent reads the disk (no imports there) and addresses sub()'s return, line 6.
        answer = tools.mutate({"tool": "line_replace", "path": "app.py", "from": 6, "to": 6,
                               "content": "    return a - b - 0",
                               "expectedRevision": _revision(root)}, "imports")
        assert answer.startswith("pending review · app.py · lines 6-6 ·"), answer
        assert "changed since the model read it" not in answer
        with Review.open(session, root, state_path=state, format="toolcalls") as workbench:
            ops = [key for turn in workbench.session.turns
                   for key in ((turn.index, pos) for pos in range(len(turn.reply.ops)))]
            assert len(ops) == 2
            workbench.decide(ops[1], Decision.accept())
            # Accepted alone, it lands on its own line (the call as sent: the file is as
            # the agent read it); then the imports above it.
            assert (root / "app.py").read_text() == APP.replace("a - b", "a - b - 0")
            workbench.decide(ops[0], Decision.accept())
        assert (root / "app.py").read_text() == (
            "import os\nimport sys\n" + APP.replace("a - b", "a - b - 0"))
    finally:
        tools.live.close()


def test_a_line_the_pending_change_rewrote_is_not_carried(tmp_path: Path) -> None:
    root, _session, _state, tools = _tools(tmp_path, Gate.REVIEW)
    try:
        tools.mutate({"tool": "edit", "path": "app.py", "search": "    return a - b",
                      "replace": "    return b - a"}, "flip")
        by_id = line_id(6, "    return a - b")
        for call in ({"tool": "line_replace", "path": "app.py", "from": 6, "to": 6,
                      "content": "    return 0"},
                     {"tool": "line_replace", "path": "app.py", "from": by_id, "to": by_id,
                      "content": "    return 0"},
                     {"tool": "insert", "path": "app.py", "line": 5, "content": "    '''doc'''"}):
            answer = tools.mutate(call, "flip")
            assert "not certainly the same lines there" in answer, answer
            assert "lines 6" not in answer.splitlines()[0]
        assert (root / "app.py").read_text() == APP
    finally:
        tools.live.close()


def test_after_an_outside_change_answers_and_follow_ups_use_the_disk_lines(
        tmp_path: Path) -> None:
    root, _session, _state, tools = _tools(tmp_path, Gate.AUTO)
    try:
        first = tools.mutate({"tool": "edit", "path": "app.py", "search": "    return a + b",
                              "replace": "    return a + b + 0"}, "edits")
        assert first.startswith("applied · app.py · lines 2-2"), first
        # The user puts a function above, outside the review (kept over its changes).
        on_disk = (root / "app.py").read_text()
        (root / "app.py").write_text("def mul(a, b):\n    return a * b\n\n\n" + on_disk)
        second = tools.mutate({"tool": "edit", "path": "app.py",
                               "search": "def sub(a, b):\n    return a - b",
                               "replace": "def sub(a, b):\n    return a - b - 0"}, "edits")
        head = second.splitlines()[0]
        ids = f"{line_id(9, 'def sub(a, b):')}-{line_id(10, '    return a - b - 0')}"
        assert head.startswith("applied · app.py · lines 9-10 ·"), second
        assert f"now {ids}" in head
        assert f"rev {_revision(root)}" in head
        # A follow-up by those ids, and by numbers with that revision, lands in sub().
        last_id = ids.split("-")[1]
        third = tools.mutate({"tool": "line_replace", "path": "app.py", "from": last_id,
                              "to": last_id, "content": "    return a - b - 1"}, "edits")
        assert third.startswith("applied · app.py · lines 10-10"), third
        fourth = tools.mutate({"tool": "batch_edit", "path": "app.py",
                               "expectedRevision": _revision(root), "operations": [
                                   {"operation": "insert_after", "line": 6,
                                    "content": "    # add"}]}, "edits")
        assert fourth.startswith("applied · app.py · lines 7-7"), fourth
        assert (root / "app.py").read_text() == (
            "def mul(a, b):\n    return a * b\n\n\n"
            "def add(a, b):\n    return a + b + 0\n    # add\n\n\n"
            "def sub(a, b):\n    return a - b - 1\n")
        # Numbers sent with a revision the file no longer has are refused, naming the
        # disk's revision (the one a read gives), not the review's own.
        stale = tools.mutate({"tool": "line_replace", "path": "app.py", "from": 2, "to": 2,
                              "content": "x", "expectedRevision": "0123abcd"}, "edits")
        assert f"expected revision 0123abcd, actual {_revision(root)};" in stale, stale
    finally:
        tools.live.close()


def test_every_number_of_an_answer_is_read_in_the_revision_it_names(tmp_path: Path) -> None:
    """A miss lists its closest lines; with an outside change above they are the disk's
    (carried), or, where they cannot be carried, the answer names the review's version's
    revision instead, and a follow-up sending those numbers with it lands on those lines."""
    root, _session, _state, tools = _tools(tmp_path, Gate.AUTO)
    try:
        tools.mutate({"tool": "edit", "path": "app.py", "search": "    return a + b",
                      "replace": "    return a + b + 0"}, "edits")
        on_disk = (root / "app.py").read_text()
        (root / "app.py").write_text("def mul(a, b):\n    return a * b\n\n\n" + on_disk)
        missed = tools.mutate({"tool": "edit", "path": "app.py",
                               "search": "def sub(a, b):\n    return a - c",
                               "replace": "def sub(a, b):\n    return a - c - 0"}, "edits")
        assert f"rev {_revision(root)}" in missed.splitlines()[0], missed
        assert "closest: lines 9-10" in missed, missed
        assert " 9| def sub(a, b):" in missed
        # The user comments add()'s first line too: lines 5-6 of the review's version
        # (add()'s) are not on disk as they are, so the answer is in the review's version
        # and names its revision.
        lines = (root / "app.py").read_text().splitlines(keepends=True)
        lines[4] = "def add(a, b):  # user\n"
        (root / "app.py").write_text("".join(lines))
        near = tools.mutate({"tool": "edit", "path": "app.py",
                             "search": "def add(a, c):\n    return a + b + 0",
                             "replace": "def add(a, b):\n    return a + b + 1"}, "edits")
        own = near.splitlines()[0].split("rev ")[1].split()[0]
        assert own != _revision(root), near
        assert f"(rev {own} and these line numbers are the review's version of app.py" in near
        assert "closest: lines 1-2" in near, near
        follow = tools.mutate({"tool": "line_replace", "path": "app.py", "from": 2, "to": 2,
                               "content": "    return a + b + 1", "expectedRevision": own},
                              "edits")
        # Written; its lines touch the user's, so it is answered in the review's version
        # too (its line 2, a revision of that version), never by numbers of the disk's.
        assert follow.startswith("applied · app.py · lines 2-2"), follow
        assert "the review's version of app.py" in follow
        assert (root / "app.py").read_text().splitlines()[4:6] == [
            "def add(a, b):  # user", "    return a + b + 1"]
    finally:
        tools.live.close()


def test_a_carried_call_lands_on_its_own_lines_without_the_change_it_was_carried_past(
        tmp_path: Path) -> None:
    """QA s34 helper-98 r12 (and helper-95's t22): a call carried past a pending change
    was bound to it: accepted alone it was held, and with that change rejected it was
    refused though its line never moved. The call as sent travels with it and applies
    when the file is as the agent read it."""
    root, session, state, tools = _tools(tmp_path, Gate.REVIEW)
    try:
        tools.mutate({"tool": "edit", "path": "app.py", "search": "def add(a, b):",
                      "replace": "import os\nimport sys\ndef add(a, b):"}, "imports")
        answer = tools.mutate({"tool": "line_replace", "path": "app.py", "from": 6, "to": 6,
                               "content": "    return a - b - 0",
                               "expectedRevision": _revision(root)}, "imports")
        assert answer.startswith("pending review · app.py · lines 6-6"), answer
        with Review.open(session, root, state_path=state, format="toolcalls") as workbench:
            workbench.decide((1, 1), Decision.accept())  # alone: written, on its own line
            assert (root / "app.py").read_text() == APP.replace("a - b", "a - b - 0")
            workbench.decide((1, 0), Decision.reject())
            assert workbench.decisions[(1, 1)].verdict.value == "accepted"
        assert (root / "app.py").read_text() == APP.replace("a - b", "a - b - 0")
    finally:
        tools.live.close()


def test_a_carried_call_is_named_by_the_lines_and_revision_the_agent_sent(
        tmp_path: Path) -> None:
    """QA s34 helper-98 r12: ``status`` listed a carried call by the numbers of the
    review's version (10-10 for a 9-9 call), and when neither form applied its refusal
    named "expected" the review version's revision, which the agent never saw."""
    root, session, state, tools = _tools(tmp_path, Gate.REVIEW)
    try:
        tools.mutate({"tool": "edit", "path": "app.py", "search": "def add(a, b):",
                      "replace": "import os\ndef add(a, b):"}, "t")
        sent_revision = _revision(root)
        tools.mutate({"tool": "line_replace", "path": "app.py", "from": 6, "to": 6,
                      "content": "    return 0", "expectedRevision": sent_revision}, "t")
        assert tools.status().splitlines()[1] == (
            "op 1.2 replace_lines app.py 6-6, carried to 7-7: pending review")
        (root / "app.py").write_text(APP + "# outside\n")  # neither form holds now
        rec = tools.live.record({"tool": "edit", "path": "app.py", "search": "# outside",
                                 "replace": "# outside!"}, "t")
        tools.live.settle(rec)
        with Review.open(session, root, state_path=state, format="toolcalls") as workbench:
            workbench.decide((1, 0), Decision.reject())
            op = workbench.result((1, 1)).op
        text = tools.status()
        carried = Recorded((1, 1), op, op.span.start)
        answer = tools._answer(carried, tools.live.settle(carried))
    finally:
        tools.live.close()
    assert "op 1.2 replace_lines app.py 6-6, carried to 7-7" in text, text
    assert (f"expected revision {sent_revision} (its lines 6-6, carried to 7-7 of the "
            "review's version") in answer, answer
