"""The literal formats' failed edits (Claude Code's text edits, apply_patch's placed
chunks) are diagnosed when read, and that diagnosis is exactly the eager engine's.

The placed path (``file_edits._place_deferred``) runs ``placement.locate`` without the
diagnosis, then again with it when the outcome's candidates, message or hint are first
read. A reject early in a session whose 8,000 Claude Code turns all edit one file made
every later edit fail; each was diagnosed (with every earlier version for the stale
check) as it was evaluated, and the reject took 28 s in a terminal. The properties below
replay generated sessions of both formats under random decisions, read every outcome
only after the run has moved on, and compare each with a run that diagnoses at once.
"""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_engine_deferred_diagnosis import (
    assert_explained_as_eager,
    eager_run,
    near_files,
    steps,
)
from test_engine_incremental import keys_of, make_tree

from reviewtui.core.engine import Decision, Policy, evaluate_session
from reviewtui.core.engine.decisions import OpKey
from reviewtui.core.engine.results import OpResult
from reviewtui.core.importers import import_session
from reviewtui.core.model.deferred import DeferredOutcome
from reviewtui.core.model.outcome import Status

# Lines one word apart (near landings, stale notes) and two short ones (exact landings,
# ambiguity): the deferred diagnosis test's vocabulary.
LINES = ["alpha beta gamma delta", "alpha beta gamma omega", "one", "two"]
PATHS = ["a.txt", "b.txt"]

piece = st.lists(st.sampled_from(LINES), min_size=1, max_size=2).map("\n".join)


@st.composite
def claude_sessions(draw: st.DrawFn) -> str:
    items: list[dict[str, object]] = []
    for turn in range(draw(st.integers(2, 6))):
        items.append({"type": "user", "cwd": "/p",
                      "message": {"role": "user", "content": f"turn {turn}"}})
        uses = []
        for n in range(draw(st.integers(1, 2))):
            old = draw(piece) + draw(st.sampled_from(["", "\n"]))
            new = draw(st.sampled_from(["", *LINES])) + draw(st.sampled_from(["", "\n"]))
            uses.append({"type": "tool_use", "id": f"t{turn}-{n}", "name": "Edit",
                         "input": {"file_path": "/p/" + draw(st.sampled_from(PATHS)),
                                   "old_string": old, "new_string": new,
                                   "replace_all": draw(st.booleans())}})
        items.append({"type": "assistant", "cwd": "/p",
                      "message": {"role": "assistant", "content": uses}})
        items.append({"type": "user", "cwd": "/p", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": use["id"], "content": "ok"}
            for use in uses]}})
    return "".join(json.dumps(item) + "\n" for item in items)


@st.composite
def chunk(draw: st.DrawFn) -> str:
    out = []
    for _ in range(draw(st.integers(1, 4))):
        mark = draw(st.sampled_from([" ", " ", "-", "+"]))
        out.append(mark + draw(st.sampled_from(LINES)))
    if not any(line[0] in " -" for line in out):
        out.insert(0, " " + draw(st.sampled_from(LINES)))
    if draw(st.integers(0, 4)) == 0:
        out.append("*** End of File")
    return "\n".join(out) + "\n"


@st.composite
def patch_sessions(draw: st.DrawFn) -> str:
    patches = []
    for _ in range(draw(st.integers(2, 5))):
        body = ""
        for path in draw(st.lists(st.sampled_from(PATHS), min_size=1, max_size=2,
                                  unique=True)):
            chunks = draw(st.lists(chunk(), min_size=1, max_size=3))
            body += f"*** Update File: {path}\n" + "".join("@@\n" + c for c in chunks)
        patches.append("*** Begin Patch\n" + body + "*** End Patch\n")
    return "\n".join(patches)


def _evaluated(text: str, fmt: str, files: dict[str, str], pending_joins: bool,
               data: st.DataObject) -> None:
    session = import_session(text, "s", format=fmt, root="/p")
    if not keys_of(session):
        return
    base = make_tree(files)
    policy = Policy.headless() if pending_joins else Policy.decided_only()
    run = evaluate_session(session, base, policy=policy)
    seen: list[tuple[dict[OpKey, Decision], list[OpResult]]] = [
        ({}, [r for turn in run.turns for r in turn.results])]
    for decisions in steps(session, data):
        run.update(decisions)
        seen.append((decisions, [r for turn in run.turns for r in turn.results]))
    for decisions, results in reversed(seen):
        assert_explained_as_eager(results, eager_run(session, base, policy, decisions))


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=claude_sessions(), files=near_files, pending_joins=st.booleans(), data=st.data())
def test_claude_code_edits_diagnosed_late_equal_the_eager_engine(
        text: str, files: dict[str, str], pending_joins: bool, data: st.DataObject) -> None:
    _evaluated(text, "claude", files, pending_joins, data)


@pytest.mark.slow
@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=patch_sessions(), files=near_files, pending_joins=st.booleans(), data=st.data())
def test_apply_patch_chunks_diagnosed_late_equal_the_eager_engine(
        text: str, files: dict[str, str], pending_joins: bool, data: st.DataObject) -> None:
    _evaluated(text, "apply_patch", files, pending_joins, data)


def test_a_failed_claude_edit_is_diagnosed_only_when_read() -> None:
    text = "".join(json.dumps(item) + "\n" for item in [
        {"type": "user", "cwd": "/p", "message": {"role": "user", "content": "go"}},
        {"type": "assistant", "cwd": "/p", "message": {"role": "assistant", "content": [
            {"type": "tool_use", "id": "t1", "name": "Edit", "input": {
                "file_path": "/p/a.txt", "old_string": "alpha beta gamma omega\n",
                "new_string": "one\n"}}]}},
        {"type": "user", "cwd": "/p", "message": {"role": "user", "content": [
            {"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]}},
    ])
    session = import_session(text, "s", format="claude", root="/p")
    base = make_tree({"a.txt": "alpha beta gamma delta\ntwo\n"})
    run = evaluate_session(session, base, policy=Policy.headless())
    outcome = run.turns[0].results[0].outcome
    assert isinstance(outcome, DeferredOutcome)
    assert outcome.status is Status.NOT_FOUND
    assert outcome._full is None  # nothing read the diagnosis yet
    assert outcome.candidates[0].start == 1  # the near line, found when read
    assert outcome.hint
    assert outcome == eager_run(session, base, Policy.headless(), {})[0].outcome
