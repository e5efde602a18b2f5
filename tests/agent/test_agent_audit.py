"""Audit of issue 17 (`reviewtui mcp`): the tools the end-to-end test does not drive, the
project config under the automatic gates, and one parse of the live session per call."""

from __future__ import annotations

import re
import threading
from pathlib import Path
from typing import Any

import pytest

import reviewtui.shell.live as live_module
import reviewtui.shell.resume as resume_module
from reviewtui.cli import main
from reviewtui.shell.agent_tools import AgentTools
from reviewtui.shell.live import Gate, LiveSession, follow_session
from reviewtui.shell.live_paths import prepare_live_session
from reviewtui.shell.loader import load_session
from reviewtui.shell.lock import RootLock
from reviewtui.shell.review import Review

BODY = "".join(f"value_{n} = {n}\n" for n in range(20))
CONFIG = '[reserved]\npaths = ["secrets/**"]\n'


def project(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    root.mkdir()
    for n in range(3):
        (root / f"m{n}.py").write_text(BODY)
    (root / "reviewtui.toml").write_text(CONFIG)
    return root


def revision_in(answer: str) -> str:
    found = re.search(r"rev ([0-9a-f]{8})", answer)
    assert found, answer
    return found.group(1)


# -- the tools -----------------------------------------------------------------------------

@pytest.mark.slow
@pytest.mark.anyio
async def test_every_tool_has_a_schema_and_a_short_description_with_an_example(
        tmp_path: Path) -> None:
    # Imported here: the MCP package costs ~1 s of every xdist worker's collection.
    from reviewtui.shell.agent_server import build_server

    tools = AgentTools(LiveSession(project(tmp_path), tmp_path / "s.jsonl", wait=0))
    listed = {tool.name: tool for tool in await build_server(tools).list_tools()}
    assert set(listed) == {"ls", "search", "read", "edit", "replace_lines", "batch_edit",
                           "write", "move", "remove", "status", "diff"}
    for name, tool in listed.items():
        description = tool.description or ""
        assert 20 < len(description) < 500, name
        assert "e.g." in description, f"{name}: no example"
        assert tool.input_schema.get("type") == "object", name
    for name in ("edit", "replace_lines", "batch_edit", "write", "move", "remove"):
        assert "intent" in listed[name].input_schema["properties"], name
    for name in ("replace_lines", "batch_edit"):
        assert "expectedRevision" in listed[name].input_schema["properties"], name
    assert listed["edit"].input_schema["required"] == ["path", "search", "replace"]


def test_search_answers_hits_with_context_and_says_when_capped(tmp_path: Path) -> None:
    root = project(tmp_path)
    tools = AgentTools(LiveSession(root, tmp_path / "s.jsonl", wait=0))
    one = tools.search("value_7 = 7", glob="m1.py")
    assert one == "m1.py:8\n  7| value_6 = 6\n  8| value_7 = 7\n  9| value_8 = 8"
    capped = tools.search(r"value_\d+ = ", regex=True)
    assert capped.endswith("... 30 more matches not shown: narrow the pattern or the glob")
    assert capped.count("\nm") + 1 == 30  # 30 hits shown, each with its path:line
    assert tools.search("(", regex=True).startswith("error: the pattern does not compile")
    assert tools.search("nowhere to be found") == "no matches"


def test_line_ids_from_read_address_a_replace_and_come_back_new(tmp_path: Path) -> None:
    root = project(tmp_path)
    tools = AgentTools(LiveSession(root, tmp_path / "s.jsonl", gate=Gate.AUTO, wait=0))
    read = tools.read("m0.py", first=3, last=4, ids=True)
    rows = read.splitlines()[1:]
    assert [row.split("|")[1] for row in rows] == [" value_2 = 2", " value_3 = 3"]
    first, last = (row.split("|")[0] for row in rows)
    assert re.fullmatch(r"3:[0-9a-f]+", first)
    assert re.fullmatch(r"4:[0-9a-f]+", last)
    answer = tools.mutate({"tool": "line_replace", "path": "m0.py", "from": first,
                           "to": last, "content": "value_2 = -2\nvalue_3 = -3\nextra = 1\n"},
                          "ids")
    assert answer.startswith("applied · m0.py"), answer
    now = re.search(r"now (\S+)-(\S+) ·", answer)
    assert now, answer
    fresh = tools.read("m0.py", first=3, last=5, ids=True).splitlines()[1:]
    assert (now.group(1), now.group(2)) == (fresh[0].split("|")[0], fresh[2].split("|")[0])
    assert (root / "m0.py").read_text() == BODY.replace(
        "value_2 = 2\nvalue_3 = 3\n", "value_2 = -2\nvalue_3 = -3\nextra = 1\n")


def test_numbers_after_an_edit_with_the_new_revision_land(tmp_path: Path) -> None:
    """The agent edits, reads the file again and replaces lines by number with the new
    revision, all for one intent (one turn): the numbers are the current ones."""
    root = project(tmp_path)
    tools = AgentTools(LiveSession(root, tmp_path / "s.jsonl", gate=Gate.AUTO, wait=0))
    first = tools.mutate({"tool": "edit", "path": "m1.py", "search": "value_0 = 0",
                          "replace": "header = True\nvalue_0 = 0"}, "one task")
    assert first.startswith("applied"), first
    assert tools.read("m1.py", first=6, last=6).endswith("6| value_4 = 4")
    second = tools.mutate({"tool": "line_replace", "path": "m1.py", "from": "6", "to": "6",
                           "content": "value_4 = 44", "expectedRevision": revision_in(first)},
                          "one task")
    assert second.startswith("applied"), second
    assert (root / "m1.py").read_text() == "header = True\n" + BODY.replace(
        "value_4 = 4\n", "value_4 = 44\n")


def test_batch_edit_move_remove_and_diff(tmp_path: Path) -> None:
    root = project(tmp_path)
    tools = AgentTools(LiveSession(root, tmp_path / "s.jsonl", gate=Gate.AUTO, wait=0))
    batch = tools.mutate({"tool": "batch_edit", "path": "m0.py", "operations": [
        {"operation": "replace", "line_range": [2, 3], "content": "two_lines = 1"},
        {"operation": "insert_after", "line": 10, "content": "after_ten = 1"},
        {"operation": "delete", "line_range": [19, 20]}]}, "restructure")
    assert batch.startswith("applied · m0.py"), batch
    lines = BODY.splitlines()
    expected = [lines[0], "two_lines = 1", *lines[3:10], "after_ten = 1", *lines[10:18]]
    assert (root / "m0.py").read_text() == "\n".join(expected) + "\n"
    moved = tools.mutate({"tool": "move", "from": "m1.py", "to": "lib/m1.py"}, "restructure")
    assert moved.startswith("applied"), moved
    removed = tools.mutate({"tool": "delete", "path": "m2.py"}, "restructure")
    assert removed.startswith("applied"), removed
    assert sorted(p.name for p in root.rglob("*.py")) == ["m0.py", "m1.py"]
    assert (root / "lib" / "m1.py").read_text() == BODY
    diff = tools.diff()
    assert "+after_ten = 1" in diff
    assert "rename from m1.py" in diff or "a/m1.py" in diff
    assert "deleted file mode" in diff
    assert tools.diff("m0.py").count("diff --git") == 1
    status = tools.status().splitlines()
    assert status == ["op 1.1 batch_edit m0.py (3 operations): accepted",
                      "op 1.2 :mv m1.py lib/m1.py: accepted", "op 1.3 :rm m2.py: accepted"]


# -- the project config under the automatic gates -------------------------------------------

CONFIG_CALLS: list[dict[str, Any]] = [
    {"tool": "write", "path": "reviewtui.toml", "content": "[reserved]\npaths = []\n"},
    {"tool": "delete", "path": "reviewtui.toml"},
    {"tool": "move", "from": "reviewtui.toml", "to": "old.toml"},
]


@pytest.mark.parametrize("gate", [Gate.AUTO, Gate.RECORD])
@pytest.mark.parametrize("call", CONFIG_CALLS, ids=["write", "remove", "move-away"])
def test_the_automatic_gates_never_write_the_project_config(
        tmp_path: Path, gate: Gate, call: dict[str, Any]) -> None:
    """reviewtui.toml holds the reserved paths: an agent that rewrote it would lift its own
    limits. Under auto and record it waits for a human like a near match."""
    root = project(tmp_path)
    tools = AgentTools(LiveSession(root, tmp_path / "s.jsonl", gate=gate, wait=0.1))
    answer = tools.mutate(call)
    assert answer.startswith("pending review"), answer
    assert "do not send the change again" in answer
    assert (root / "reviewtui.toml").read_text() == CONFIG
    assert (root / "m0.py").read_text() == BODY
    secret = tools.mutate({"tool": "write", "path": "secrets/k.txt", "content": "k\n"})
    assert secret.startswith("refused"), secret
    assert not (root / "secrets").exists()


def test_the_reviewers_auto_gate_leaves_a_config_change_for_a_key_press(
        tmp_path: Path) -> None:
    root = project(tmp_path)
    session = tmp_path / "auto.jsonl"
    state = prepare_live_session(session, root)
    live = LiveSession(root, session, gate=Gate.REVIEW, wait=0)
    with Review.open(session, root, state_path=state, format="toolcalls") as review:
        follower = follow_session(review, "auto", cancelled=lambda: False, interval=0.01)
        live.record(CONFIG_CALLS[0])
        live.record({"tool": "edit", "path": "m0.py", "search": "value_1 = 1",
                     "replace": "value_1 = -1"})
        seen_new: list[tuple[int, int]] = []
        seen_accepted: list[tuple[int, int]] = []
        while len(seen_new) < 2:
            new, accepted, _ = next(follower)
            seen_new += new
            seen_accepted += accepted
        assert seen_accepted == [(1, 1)]
    assert (root / "reviewtui.toml").read_text() == CONFIG
    assert (root / "m0.py").read_text() == BODY.replace("value_1 = 1", "value_1 = -1")


# -- one parse of the live session per call ---------------------------------------------------

def test_an_auto_call_parses_the_session_once(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    root = project(tmp_path)
    tools = AgentTools(LiveSession(root, tmp_path / "s.jsonl", gate=Gate.AUTO, wait=0))
    first = tools.mutate({"tool": "edit", "path": "m0.py", "search": "value_1 = 1",
                          "replace": "value_1 = -1"}, "task")
    assert first.startswith("applied"), first
    parses: list[Path] = []

    def counting(path: Any, *args: Any, **kwargs: Any) -> Any:
        parses.append(Path(path))
        return load_session(path, *args, **kwargs)

    monkeypatch.setattr(live_module, "load_session", counting)
    monkeypatch.setattr(resume_module, "load_session", counting)
    for value in range(2, 6):
        answer = tools.mutate({"tool": "edit", "path": "m0.py",
                               "search": f"value_{value} = {value}",
                               "replace": f"value_{value} = -{value}"}, "task")
        assert answer.startswith("applied"), answer
    assert len(parses) == 4
    tools.live.close()


def test_a_call_another_server_recorded_in_between_is_not_missed(tmp_path: Path) -> None:
    """The reused parse is only trusted while the file is exactly what it parsed."""
    root = project(tmp_path)
    session = tmp_path / "shared.jsonl"
    first = AgentTools(LiveSession(root, session, gate=Gate.AUTO, wait=0))
    second = AgentTools(LiveSession(root, session, gate=Gate.AUTO, wait=0))
    assert first.mutate({"tool": "edit", "path": "m0.py", "search": "value_0 = 0",
                         "replace": "value_0 = -0"}, "a").startswith("applied")
    rec_a = first.live.record({"tool": "edit", "path": "m0.py", "search": "value_1 = 1",
                               "replace": "value_1 = -1"}, "a")
    rec_b = second.live.record({"tool": "edit", "path": "m1.py", "search": "value_1 = 1",
                                "replace": "value_1 = -1"}, "b")
    assert first.live.settle(rec_a).verdict == "applied"
    assert second.live.settle(rec_b).verdict == "applied"
    first.live.close()
    second.live.close()
    assert (root / "m0.py").read_text() == BODY.replace("value_0 = 0", "value_0 = -0") \
        .replace("value_1 = 1", "value_1 = -1")
    assert (root / "m1.py").read_text() == BODY.replace("value_1 = 1", "value_1 = -1")
    with Review.open(session, root, state_path=prepare_live_session(session, root),
                     format="toolcalls") as review:
        assert len(review.decisions) == 3


# -- two agents on one root ---------------------------------------------------------------------

@pytest.mark.parametrize("gate", [Gate.AUTO, Gate.RECORD])
def test_a_call_that_finds_the_root_busy_applies_once_it_is_free(
        tmp_path: Path, gate: Gate) -> None:
    """Another server holds the root for the moment of its own write: this call waits its
    turn and applies by its gate, instead of waiting for a reviewer nobody is."""
    root = project(tmp_path)
    tools = AgentTools(LiveSession(root, tmp_path / "s.jsonl", gate=gate, wait=5))
    answers: list[str] = []
    busy = RootLock(root).acquire()
    worker = threading.Thread(target=lambda: answers.append(tools.mutate(
        {"tool": "edit", "path": "m0.py", "search": "value_1 = 1", "replace": "value_1 = -1"},
        "busy")))
    worker.start()
    try:
        for _ in range(500):  # until the call is recorded
            if (tmp_path / "s.jsonl").exists():
                break
            worker.join(0.02)
        worker.join(0.3)  # and finds the root held
        assert worker.is_alive()
    finally:
        busy.release()
    worker.join(10)
    assert answers
    assert answers[0].startswith("applied · m0.py"), answers[0]
    assert (root / "m0.py").read_text() == BODY.replace("value_1 = 1", "value_1 = -1")
    tools.live.close()


def test_two_agents_writing_at_once_are_serialised(tmp_path: Path) -> None:
    root = project(tmp_path)
    session = tmp_path / "shared.jsonl"
    answers: dict[int, list[str]] = {0: [], 1: []}

    def agent(k: int) -> None:
        tools = AgentTools(LiveSession(root, session, gate=Gate.AUTO, wait=20))
        for value in range(10):
            answers[k].append(tools.mutate(
                {"tool": "edit", "path": f"m{k}.py", "search": f"value_{value} = {value}",
                 "replace": f"value_{value} = -{value}"}, f"agent {k}"))
        tools.live.close()

    threads = [threading.Thread(target=agent, args=(k,)) for k in (0, 1)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(120)
    for k in (0, 1):
        assert all(a.startswith("applied") for a in answers[k]), answers[k]
        expected = BODY
        for value in range(10):
            expected = expected.replace(f"value_{value} = {value}\n",
                                        f"value_{value} = -{value}\n")
        assert (root / f"m{k}.py").read_text() == expected


# -- a live session path that cannot be appended to ------------------------------------------

def test_mcp_refuses_a_session_path_that_is_not_a_regular_file(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    root = project(tmp_path)
    folder = tmp_path / "a-folder"
    folder.mkdir()
    link = tmp_path / "link.jsonl"
    link.symlink_to(tmp_path / "elsewhere.jsonl")
    for session in (folder, link):
        assert main(["mcp", "--root", str(root), "--session", str(session)]) == 2
        err = capsys.readouterr().err
        assert err.strip().endswith(
            "the live session must be a regular file or not exist yet [live-session]"), err
        assert "Traceback" not in err
    assert not (tmp_path / "elsewhere.jsonl").exists()


def test_a_session_that_became_unwritable_is_an_answer_not_a_crash(tmp_path: Path) -> None:
    root = project(tmp_path)
    session = tmp_path / "gone.jsonl"
    tools = AgentTools(LiveSession(root, session, gate=Gate.AUTO, wait=0))
    session.mkdir()  # replaced by a folder while the server runs
    answer = tools.mutate({"tool": "write", "path": "new.txt", "content": "n\n"})
    assert answer.startswith("error: "), answer
    assert "cannot append to the live session" in answer
    assert "[live-session]" in answer
    assert not (root / "new.txt").exists()


# -- what a failed edit tells the agent; the gates' own words -----------------------------------

def test_a_missing_search_answers_the_three_closest_candidates(tmp_path: Path) -> None:
    root = project(tmp_path)
    body = "".join(f"def f{n}(x):\n    return x + {n}\n\n\n" for n in range(40))
    (root / "funcs.py").write_text(body)
    tools = AgentTools(LiveSession(root, tmp_path / "s.jsonl", gate=Gate.AUTO, wait=0))
    answer = tools.mutate({"tool": "edit", "path": "funcs.py",
                           "search": "    return x + 21 + 0", "replace": "    return x"})
    assert answer.startswith("not_found · funcs.py"), answer
    closest = [re.fullmatch(r"closest: lines (\d+)-\d+, (\d+)% similar \((.+)\)", row)
               for row in answer.splitlines() if row.startswith("closest: ")]
    assert len(closest) == 3, answer
    assert all(found is not None for found in closest), answer
    scores = [int(found.group(2)) for found in closest if found]
    assert scores == sorted(scores, reverse=True)
    assert {found.group(3) for found in closest if found} == {"content differs"}
    assert "  86|     return x + 21" in answer  # the best one's lines, numbered
    assert (root / "funcs.py").read_text() == body


NEAR = {"tool": "edit", "path": "m0.py",
        "search": "value_1 = 1\nvalue_2 = 2\nvalue_3 = 33\nvalue_4 = 4",
        "replace": "value_1 = 1\nvalue_2 = 2\nvalue_3 = 3\nvalue_4 = 44"}


def test_record_writes_what_lands_at_once(tmp_path: Path) -> None:
    root = project(tmp_path)
    tools = AgentTools(LiveSession(root, tmp_path / "s.jsonl", gate=Gate.RECORD, wait=30))
    answer = tools.mutate({"tool": "write", "path": "new.txt", "content": "n\n"})
    assert answer.startswith("applied · new.txt"), answer
    assert (root / "new.txt").read_text() == "n\n"
    assert tools.status() == "op 1.1 write new.txt: accepted"


def test_auto_leaves_a_near_match_pending_for_the_reviewer(tmp_path: Path) -> None:
    root = project(tmp_path)
    tools = AgentTools(LiveSession(root, tmp_path / "s.jsonl", gate=Gate.AUTO, wait=0.2))
    answer = tools.mutate(NEAR)
    assert answer.startswith("pending review · m0.py"), answer
    assert "method near" in answer
    assert (root / "m0.py").read_text() == BODY
    assert tools.status() == "op 1.1 edit m0.py: pending review"


def test_auto_leaves_a_landing_that_forgave_typographic_punctuation_pending(
        tmp_path: Path) -> None:
    """The file says Don’t (a curly apostrophe), the agent typed Don't: written at once, the
    file's apostrophe became ASCII in a user-visible string nobody reviewed (QA s32 F11)."""
    root = tmp_path / "root"
    root.mkdir()
    text = 'msg = "Don\u2019t panic"\n'
    (root / "m.py").write_text(text)
    tools = AgentTools(LiveSession(root, tmp_path / "s.jsonl", gate=Gate.AUTO, wait=0.2))
    answer = tools.mutate({"tool": "edit", "path": "m.py", "search": 'msg = "Don\'t panic"',
                           "replace": 'msg = "Don\'t panic!"'})
    assert answer.startswith("pending review · m.py"), answer
    assert "method unicode-punctuation" in answer, answer
    assert (root / "m.py").read_text() == text


def test_an_empty_live_session_opens_without_a_format_warning(tmp_path: Path) -> None:
    """`open --live` before the agent's first call: the empty file is no other format."""
    root = project(tmp_path)
    session = tmp_path / "live.jsonl"
    state = prepare_live_session(session, root)
    assert load_session(session, format="toolcalls").format_note == ""
    with Review.open(session, root, state_path=state, format="toolcalls") as review:
        assert review.loaded.format_note == ""
    LiveSession(root, session, wait=0).record({"tool": "write", "path": "n.txt",
                                               "content": "n\n"})
    assert load_session(session, format="toolcalls").format_note == ""


def test_a_revision_copied_with_its_punctuation_is_the_revision(tmp_path: Path) -> None:
    """``read`` says ``rev 674751cf; lines 1-2``: an agent that copied ``674751cf;`` was
    refused with "expected revision 674751cf;, actual 674751cf" (QA pass s32, F14); and a
    read past the end said ``lines 50-18``."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "m.py").write_text("a = 1\nb = 2\nc = 3\n")
    tools = AgentTools(LiveSession(root, tmp_path / "s.jsonl", gate=Gate.AUTO, wait=0))
    try:
        read = tools.read("m.py", first=1, last=2)
        header = read.splitlines()[0]
        assert header.startswith("m.py: 3 lines, rev ")
        assert header.endswith("; lines 1-2")
        copied = header.split("rev ")[1].split()[0]
        assert copied.endswith(";")
        answer = tools.mutate({"tool": "line_replace", "path": "m.py", "from": 2, "to": 2,
                               "content": "b = 20", "expectedRevision": copied})
        past = tools.read("m.py", first=50)
    finally:
        tools.live.close()
    assert answer.startswith("applied · m.py"), answer
    assert (root / "m.py").read_text() == "a = 1\nb = 20\nc = 3\n"
    assert past.endswith("; line 50 is past the end"), past
    assert "50-" not in past


def test_open_live_refuses_a_state_the_server_does_not_read(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """QA s46 helper-141 F7: `open --live --state FILE` decided into FILE while the server
    read SESSION.review.json: the agent was told nothing was decided, then `not_found`
    for a change on disk."""
    root = tmp_path / "root"
    root.mkdir()
    session = tmp_path / "s.jsonl"
    code = main(["open", "--live", str(session), "--root", str(root), "--state",
                 str(tmp_path / "other.json")])
    err = capsys.readouterr().err
    assert code == 2
    assert "leave --state out" in err
    assert "[live-state]" in err
    assert not (tmp_path / "other.json").exists()
    # Its own path, spelled otherwise, is its own (helper-143 L1: refused).
    from reviewtui.shell.live_paths import live_state_path

    own = live_state_path(session)
    spelled = tmp_path / "x" / ".." / own.name
    assert main(["open", "--live", str(session), "--root", str(tmp_path / "nowhere"),
                 "--state", str(spelled)]) == 2
    assert "[live-state]" not in capsys.readouterr().err  # (the root is what it refuses)


def test_a_long_project_name_still_gets_a_live_session(tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """QA s46 helper-141 F14: a root of 80 CJK characters (240 bytes) made a default
    session name past 255 bytes: every agent change failed."""
    from reviewtui.shell.live_paths import default_session_path, live_state_path

    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    root = tmp_path / ("項" * 80)
    root.mkdir()
    session = default_session_path(root)
    assert len(live_state_path(session).name.encode()) <= 255
    assert default_session_path(tmp_path / ("項" * 79 + "x")) != session  # (the hash)
    (root / "a.py").write_text("a = 1\n")
    tools = AgentTools(LiveSession(root, None, gate=Gate.RECORD, wait=0))
    answer = tools.mutate({"tool": "edit", "path": "a.py", "search": "a = 1",
                           "replace": "a = 2"})
    assert answer.startswith("applied"), answer


def test_open_live_refuses_before_making_anything(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """QA s46 helper-141 F11: a refused root still made the session file and its folders;
    a FIFO as the session hung the workbench on a blank screen."""
    import os

    missing = tmp_path / "missing"
    session = tmp_path / "sub" / "deeper" / "new.jsonl"
    assert main(["open", "--live", str(session), "--root", str(missing)]) == 2
    assert "[root]" in capsys.readouterr().err
    assert not (tmp_path / "sub").exists()
    root = tmp_path / "root"
    root.mkdir()
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    assert main(["open", "--live", str(fifo), "--root", str(root)]) == 2
    assert "[live-session]" in capsys.readouterr().err
