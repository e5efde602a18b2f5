"""A literal edit (Claude Code, apply_patch, tool calls) takes the file's earlier versions
only when its match reads them (importers red-team finding 10).

Every such edit used to list the checkpoints after every earlier turn naming its file, so a
session whose every turn edits one file cost time quadratic in its turns (8,000 Claude Code
turns: 11 of 17 s in that list). A landed edit reads no history; a stale one still says
which earlier version held its text, as before.
"""

from __future__ import annotations

import json

import pytest

from reviewtui.core.engine import Policy, evaluate_session, touches
from reviewtui.core.importers import import_session
from reviewtui.core.model.outcome import Diagnosis, Status
from reviewtui.core.model.tree import tree_from_bytes


def _claude(edits: list[tuple[str, str]]) -> str:
    lines = []
    for i, (old, new) in enumerate(edits):
        lines.append({"type": "user", "cwd": "/p",
                      "message": {"role": "user", "content": f"change {i}"}})
        lines.append({"type": "assistant", "cwd": "/p", "message": {
            "role": "assistant", "content": [{
                "type": "tool_use", "id": f"t{i}", "name": "Edit",
                "input": {"file_path": "/p/a.py", "old_string": old, "new_string": new}}]}})
        lines.append({"type": "user", "cwd": "/p", "message": {"role": "user", "content": [
            {"tool_use_id": f"t{i}", "type": "tool_result", "content": "ok"}]}})
    return "\n".join(json.dumps(line) for line in lines) + "\n"


BASE = tree_from_bytes({"a.py": b"a = 1\ncount = 0\nb = 2\n"})


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    real = touches.history_trees

    def counted(states, index, path):  # type: ignore[no-untyped-def]
        calls.append(path)
        return real(states, index, path)

    from reviewtui.core.engine import turn_steps
    monkeypatch.setattr(turn_steps, "history_trees", counted)
    return calls


def test_landed_literal_edits_read_no_earlier_versions(monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch)
    edits = [(f"count = {i}\n", f"count = {i + 1}\n") for i in range(300)]
    session = import_session(_claude(edits), "s.claude.jsonl", root="/p")
    run = evaluate_session(session, BASE, policy=Policy.headless())
    results = [r for t in run.turns for r in t.results]
    assert len(results) == 300
    assert all(r.outcome.status is Status.APPLIED for r in results)
    assert run.final.get("a.py").text == "a = 1\ncount = 300\nb = 2\n"
    assert calls == []


def test_a_stale_literal_edit_still_names_the_earlier_version(
        monkeypatch: pytest.MonkeyPatch) -> None:
    calls = _counting(monkeypatch)
    # Turn 4 repeats turn 1's edit: its text was there two versions ago.
    edits = [("count = 0\n", "count = 1\n"), ("count = 1\n", "count = 2\n"),
             ("count = 2\n", "count = 3\n"), ("count = 0\n", "count = 9\n")]
    session = import_session(_claude(edits), "s.claude.jsonl", root="/p")
    run = evaluate_session(session, BASE, policy=Policy.headless())
    last = run.turns[-1].results[0].outcome
    assert last.status is Status.NOT_FOUND
    assert last.candidates
    assert last.candidates[0].diagnosis is Diagnosis.STALE
    assert "version 1 of 3" in last.hint, last.hint
    assert calls == ["a.py"]  # only the failed edit took the trees
    assert run.final.get("a.py").text == "a = 1\ncount = 3\nb = 2\n"


def test_earlier_versions_cannot_be_taken_after_the_match_is_over() -> None:
    from reviewtui.core.engine.history import ReadNow

    read = ReadNow(lambda: [("x",)])
    assert list(read) == [("x",)]
    read.close()
    assert len(read) == 1  # read before close: kept
    unread = ReadNow(lambda: [("x",)])
    unread.close()
    with pytest.raises(RuntimeError, match="moved on"):
        len(unread)


def test_the_stale_check_reads_the_base_and_the_last_turns_naming_the_file() -> None:
    # 300 turns edit a.py; the stale check of a failure after them takes the base and the
    # checkpoints after the last HISTORY_TURNS of them, newest last, not all 301 trees.
    edits = [(f"count = {i}\n", f"count = {i + 1}\n") for i in range(300)]
    session = import_session(_claude(edits), "s.claude.jsonl", root="/p")
    run = evaluate_session(session, BASE, policy=Policy.headless())
    taken = touches.history_trees(run.states, run._touches(), "a.py")
    assert len(taken) == 1 + touches.HISTORY_TURNS
    assert taken[0] is run.states[0].tree
    assert taken[1:] == [state.tree for state in run.states[-touches.HISTORY_TURNS:]]
    assert touches.history_trees(run.states, run._touches(), "other.py") == [
        run.states[0].tree]


def test_a_stale_edit_within_the_window_is_named_and_an_older_one_still_fails() -> None:
    n = touches.HISTORY_TURNS + 20
    edits = [(f"count = {i}\n", f"count = {i + 1}\n") for i in range(n)]
    # 10 turns back: named stale. HISTORY_TURNS + 10 back: still not found, never landed.
    recent = (f"count = {n - 10}\n", "count = -1\n")
    old = (f"count = {n - touches.HISTORY_TURNS - 10}\n", "count = -2\n")
    for extra, stale in ((recent, True), (old, False)):
        session = import_session(_claude([*edits, extra]), "s.claude.jsonl", root="/p")
        run = evaluate_session(session, BASE, policy=Policy.headless())
        last = run.turns[-1].results[0].outcome
        assert last.status is Status.NOT_FOUND
        assert ("probably stale" in last.hint) is stale, last.hint
        assert run.final.get("a.py").text == f"a = 1\ncount = {n}\nb = 2\n"
