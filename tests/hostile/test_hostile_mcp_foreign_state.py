"""Threat: a live review state shipped beside a live session answers the agent.

While the agent waits for the reviewer (``--gate review``), the server reads the decision
from the live state file. A state this machine did not seal decides nothing, there as in
the workbench: a shipped one holding an accept of the call the agent was about to make
had it answered ``applied`` for a change nobody made (QA s46 helper-141 F2).
"""

from __future__ import annotations

import re
from pathlib import Path

from reviewtui.core.engine import Decision, Verdict
from reviewtui.shell.live import Gate, LiveSession
from reviewtui.shell.live_paths import prepare_live_session
from reviewtui.shell.review import Review

_SEAL = re.compile(rb',\n "seal": "[0-9a-f]{64}"\n}\n\Z')


def test_only_a_state_this_machine_sealed_answers_the_agent(tmp_path: Path) -> None:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("a = 1\n")
    session = tmp_path / "live.jsonl"
    state = prepare_live_session(session, root)
    live = LiveSession(root, session, gate=Gate.REVIEW, wait=0)
    rec = live.record({"tool": "write", "path": "new.py", "content": "x = 1\n"})
    with Review.open(session, root, state_path=state, format="toolcalls") as review:
        review.decide(rec.key, Decision.accept())
    sealed = state.read_bytes()
    found = live.saved_decision(rec)
    assert found is not None
    assert found.verdict is Verdict.ACCEPTED
    # The same bytes without the seal (shipped, hand-made, another machine's), naming this
    # very root: no decision.
    state.write_bytes(_SEAL.sub(b"\n}\n", sealed))
    assert b'"seal"' not in state.read_bytes()
    assert live.saved_decision(rec) is None
    state.write_bytes(sealed)
    assert live.saved_decision(rec) is not None
