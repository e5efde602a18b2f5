"""An agent writes a line separator JSON leaves raw (U+0085, U+2028, U+2029) into a file.

The live session is JSON lines. ``str.splitlines`` also splits at these three, which JSON
does not escape: the call's line was cut in two, the session stopped being readable, and
every later call of the agent failed with "not JSON" -- the session was lost for review.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from reviewtui.core.engine import Verdict
from reviewtui.shell.agent_tools import AgentTools
from reviewtui.shell.live import Gate, LiveSession, follow_session
from reviewtui.shell.live_paths import prepare_live_session
from reviewtui.shell.review import Review

BODY = "const s = 'x';\nconst t = 1;\n"


def _project(tmp_path: Path) -> tuple[Path, Path]:
    """(root holding a.js, the live session's path)."""
    (tmp_path / "root").mkdir()
    (tmp_path / "root" / "a.js").write_text(BODY)
    return tmp_path / "root", tmp_path / "live.jsonl"


@pytest.mark.parametrize("separator", ["\u0085", "\u2028", "\u2029"])
def test_a_call_writing_a_separator_lands_and_the_session_goes_on(
        tmp_path: Path, separator: str) -> None:
    root, session = _project(tmp_path)
    agent = AgentTools(LiveSession(root, session, gate=Gate.AUTO, wait=0))
    first = agent.mutate({"tool": "edit", "path": "a.js", "search": "const s = 'x';\n",
                          "replace": f"const s = 'x{separator}y';\n"}, "strings")
    second = agent.mutate({"tool": "edit", "path": "a.js", "search": "const t = 1;\n",
                           "replace": "const t = 2;\n"}, "strings")
    assert first.startswith("applied"), first
    assert second.startswith("applied"), second
    assert (root / "a.js").read_text() == f"const s = 'x{separator}y';\nconst t = 2;\n"
    agent.live.close()
    # The reviewer's workbench reads the same session: both calls, both accepted.
    with Review.open(session, root, state_path=prepare_live_session(session, root),
                     format="toolcalls") as review:
        assert [d.verdict for d in review.decisions.values()] == [Verdict.ACCEPTED] * 2
        assert review.session.turns[0].reply.ops[0].replace_lines == (  # type: ignore[union-attr]
            f"const s = 'x{separator}y';",)


def test_a_workbench_following_the_session_takes_in_such_a_call(tmp_path: Path) -> None:
    root, session = _project(tmp_path)
    state = prepare_live_session(session, root)
    agent = LiveSession(root, session, gate=Gate.REVIEW, wait=0)
    with Review.open(session, root, state_path=state, format="toolcalls") as review:
        agent.record({"tool": "edit", "path": "a.js", "search": "const s = 'x';\n",
                      "replace": "const s = 'x\u2028y';\n"}, "strings")
        checks = iter([False, True])
        seen = list(follow_session(review, "review", cancelled=lambda: next(checks),
                                   interval=0))
        assert seen == [(((1, 0),), (), "")]
        agent.record({"tool": "edit", "path": "a.js", "search": "const t = 1;\n",
                      "replace": "const t = 2;\n"}, "strings")
        assert review.reload_session() == [(1, 1)]
