"""What the agent is told about the reviewer's decision: the reviewer's own SEARCH (ctrl+e)
is an edit, an answer names the lines really written, and an accept the pinned disk does
not hold yet is not "applied" (QA pass 74, repros 1 and 2)."""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from reviewtui.core.engine import Decision
from reviewtui.shell.agent_tools import AgentTools
from reviewtui.shell.live import Gate, LiveSession
from reviewtui.shell.live_paths import prepare_live_session
from reviewtui.shell.review import Review

APP = 'def main():\n    print("one")\n    print("two")\n'


@contextmanager
def reviewed(tmp_path: Path, text: str = APP, gate: Gate = Gate.REVIEW
             ) -> Iterator[tuple[Path, AgentTools, Review]]:
    """A project with app.py, an agent on it and a workbench's review of its session."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "app.py").write_text(text)
    session = tmp_path / "live.jsonl"
    state = prepare_live_session(session, root)
    tools = AgentTools(LiveSession(root, session, gate=gate, wait=0))
    try:
        with Review.open(session, root, state_path=state, format="toolcalls") as workbench:
            yield root, tools, workbench
    finally:
        tools.live.close()


def decided(tools: AgentTools, workbench: Review, call: dict[str, str], decision: Decision,
            intent: str = "task") -> str:
    """The agent's answer to ``call`` once the reviewer made ``decision`` on it."""
    rec = tools.live.record(call, intent)
    workbench.reload_session()
    workbench.decide(rec.key, decision)
    return tools._answer(rec, tools.live.settle(rec))


def edit(search: str, replace: str, path: str = "app.py") -> dict[str, str]:
    return {"tool": "edit", "path": path, "search": search, "replace": replace}


def test_a_search_the_reviewer_retargets_is_answered_edited_with_where_it_landed(
        tmp_path: Path) -> None:
    """ctrl+e moved the agent's edit onto another line: the agent was told ``applied``
    (and ``status`` said accepted) as if its own line had changed."""
    with reviewed(tmp_path) as (root, tools, workbench):
        answer = decided(tools, workbench, edit('    print("two")', '    print("TWO")'),
                         Decision.with_search(('    print("one")',)))
        status = tools.status()
    assert root.joinpath("app.py").read_text() == APP.replace('"one"', '"TWO"')
    lines = answer.splitlines()
    assert lines[0].startswith("edited · app.py · lines 2-2 · "), answer
    assert lines[1:] == ["the reviewer gave it their own SEARCH: it replaced",
                         '      print("one")', "with:", '      print("TWO")'], answer
    assert status == "op 1.1 edit app.py: edited"


def test_an_answer_names_the_lines_the_change_wrote(tmp_path: Path) -> None:
    """An edited answer that wrote lines 3-5 said ``lines 3-3`` (the lines it replaced);
    an applied one the same; a deletion says which lines went."""
    with reviewed(tmp_path) as (_root, tools, workbench):
        three = ('    print("a")', '    print("b")', '    print("c")')
        edited = decided(tools, workbench, edit('    print("two")', '    print("2")'),
                         Decision.edit(three))
        applied = decided(tools, workbench,
                          edit("def main():", "import sys\n\n\ndef main():"),
                          Decision.accept())
        removed = decided(tools, workbench, edit('    print("one")', ""), Decision.accept())
        final = (Path(tools.root) / "app.py").read_text().splitlines()
    assert final == ["import sys", "", "", "def main():", *three]
    assert edited.startswith("edited · app.py · lines 3-5 · "), edited
    assert " · now 3:" in edited, edited
    assert "-5:" in edited, edited
    assert edited.splitlines()[1:] == ["the reviewer wrote instead:",
                                       *(f"  {line}" for line in three)], edited
    assert applied.startswith("applied · app.py · lines 1-4 · "), applied
    assert removed.startswith("applied · app.py · removed lines 5-5 · "), removed


def _pinned_project(tmp_path: Path, workbench: Review, tools: AgentTools) -> None:
    """Two turns accepted and written, then the disk pinned at checkpoint 1 (ctrl+t)."""
    for n, intent in ((1, "one"), (2, "two")):
        answer = decided(tools, workbench, edit(f"A = {n}", f"A = {n + 1}"),
                         Decision.accept(), intent)
        assert answer.startswith("applied"), answer
    workbench.restore(1)
    assert workbench.disk_checkpoint == 1
    assert (tools.root / "app.py").read_text() == "A = 2\n"


def test_an_accept_the_pinned_disk_does_not_hold_is_not_answered_applied(
        tmp_path: Path) -> None:
    """The disk pinned below the operation's turn: the accept is recorded, nothing is
    written. The agent was told ``applied`` and then read that the file does not exist."""
    with reviewed(tmp_path, "A = 1\n") as (root, tools, workbench):
        _pinned_project(tmp_path, workbench, tools)
        answer = decided(tools, workbench,
                         {"tool": "write", "path": "new.txt", "content": "hello\n"},
                         Decision.accept(), "three")
        pinned = tools.status().splitlines()
        assert not (root / "new.txt").exists()
        workbench.restore(workbench.checkpoint_count - 1)  # P: unpinned, replayed
        unpinned = tools.status().splitlines()
    assert answer.splitlines()[0] == "accepted · new.txt · method new-file · rev absent · op 3.1"
    assert "not written yet: the reviewer keeps the disk at checkpoint 1" in answer, answer
    assert "do not send the change again" in answer
    assert pinned == ["op 1.1 edit app.py: accepted",
                      "op 2.1 edit app.py: accepted, not written yet (disk pinned at "
                      "checkpoint 1)",
                      "op 3.1 write new.txt: accepted, not written yet (disk pinned at "
                      "checkpoint 1)"]
    assert unpinned == ["op 1.1 edit app.py: accepted", "op 2.1 edit app.py: accepted",
                        "op 3.1 write new.txt: accepted"]
    assert (root / "new.txt").read_text() == "hello\n"
    assert (root / "app.py").read_text() == "A = 3\n"


def test_a_gate_accepting_under_a_pinned_disk_says_it_is_not_written(tmp_path: Path) -> None:
    """No workbench open, the state left pinned by one: the server's own ``auto`` accept
    is recorded, and the answer says that the disk does not hold it."""
    with reviewed(tmp_path, "A = 1\n") as (_root, tools, workbench):
        _pinned_project(tmp_path, workbench, tools)
    root = tmp_path / "root"
    server = AgentTools(LiveSession(root, tmp_path / "live.jsonl", gate=Gate.AUTO, wait=0))
    try:
        answer = server.mutate({"tool": "write", "path": "new.txt", "content": "hi\n"},
                               "three")
    finally:
        server.live.close()
    assert answer.startswith("accepted · new.txt"), answer
    assert "not written yet" in answer
    assert not (root / "new.txt").exists()
