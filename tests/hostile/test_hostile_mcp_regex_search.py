"""A backtracking pattern in `search regex=true` (red-team finding 03) held the interpreter
lock and froze every call of the MCP server. Regex searches now run in a child process
killed at a deadline; literal searches stay in process."""

from __future__ import annotations

from pathlib import Path

import pytest

import reviewtui.shell.regex_search as regex_search
from reviewtui.shell.agent_tools import AgentTools
from reviewtui.shell.live import LiveSession


def tools_for(tmp_path: Path, text: str) -> AgentTools:
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.txt").write_text(text)
    (root / "b.py").write_text("def load(path):\n    return open(path)\n")
    return AgentTools(LiveSession(root, tmp_path / "s.jsonl", wait=0))


def test_a_backtracking_pattern_is_stopped_at_the_deadline(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # 25 a's: about two seconds of backtracking in process, far past this deadline.
    monkeypatch.setattr(regex_search, "SEARCH_SECONDS", 0.3)
    tools = tools_for(tmp_path, "a" * 25 + "b\n")
    answer = tools.search("^(a+)+$", regex=True)
    assert answer.startswith("error: the pattern took longer than 0.3 s"), answer
    assert tools.search("def load(", regex=False).startswith("b.py:1")


def test_a_regex_search_still_finds_and_counts(tmp_path: Path) -> None:
    tools = tools_for(tmp_path, "".join(f"x{n} = {n}\n" for n in range(40)))
    answer = tools.search(r"^x\d+ = 3\d$", regex=True)
    assert answer.splitlines()[0] == "a.txt:31"
    assert "... 0 more" not in answer
    assert answer.count("a.txt:") == 10
    assert tools.search(r"open\(", regex=True).startswith("b.py:2")
    assert tools.search("zzz", regex=True) == "no matches"


def test_a_pattern_that_does_not_compile_says_so(tmp_path: Path) -> None:
    tools = tools_for(tmp_path, "a\n")
    assert tools.search("(", regex=True).startswith("error: the pattern does not compile (")
