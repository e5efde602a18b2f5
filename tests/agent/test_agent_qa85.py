"""QA pass 85 (an adversarial pass on ``reviewtui mcp``, gates auto and record): answers
that disagreed with the disk, and malformed calls that decided what was written."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

import anyio
import pytest

from reviewtui.shell.agent_tools import AgentTools
from reviewtui.shell.live import ON_PENDING, Gate, LiveSession

if TYPE_CHECKING:
    from mcp.server.mcpserver import MCPServer

TEN = "".join(f"l{n} = {n}\n" for n in range(1, 11))


def _server(tools: AgentTools) -> MCPServer:
    """The MCP server, its SDK imported where used: ~1.5 s of every xdist worker's
    collection otherwise, for three tests of this module."""
    from reviewtui.shell.agent_server import build_server

    return build_server(tools)


def _tools(tmp_path: Path, files: dict[str, str], gate: Gate = Gate.AUTO) -> AgentTools:
    root = tmp_path / "root"
    root.mkdir()
    for name, text in files.items():
        (root / name).write_text(text)
    return AgentTools(LiveSession(root, tmp_path / "live.jsonl", gate=gate, wait=0))


@pytest.mark.skipif(not Path("/proc/self/fdinfo").is_dir(),
                    reason="no /proc: who holds a file open cannot be told here")
def test_a_change_built_on_a_pending_one_is_not_answered_applied(tmp_path: Path) -> None:
    """``h = 1 -> h = 2`` stays pending (the file was held open); then ``h = 2 -> h = 5``
    was matched in the pending text and answered "applied", status "accepted", with
    nothing on disk. It now waits too; an edit of what the disk holds still lands."""
    from heldkit import held_open

    tools = _tools(tmp_path, {"held.py": "h = 1\nk = 1\n"})
    target = tools.root / "held.py"
    with held_open(target):
        first = tools.mutate({"tool": "edit", "path": "held.py", "search": "h = 1",
                              "replace": "h = 2"}, "one")
    assert first.startswith("pending review"), first
    stacked = tools.mutate({"tool": "edit", "path": "held.py", "search": "h = 2",
                            "replace": "h = 5"}, "two")
    assert not stacked.startswith("applied"), stacked
    assert "accepted" not in tools.status().splitlines()[1], tools.status()
    assert target.read_text() == "h = 1\nk = 1\n"
    landed = tools.mutate({"tool": "edit", "path": "held.py", "search": "k = 1",
                           "replace": "k = 9"}, "three")
    assert landed.startswith("applied"), landed
    assert target.read_text() == "h = 1\nk = 9\n"
    tools.live.close()


@pytest.mark.parametrize("operation", [
    {"operation": "replace", "line_range": [2, 6]},  # no content: it deleted lines 2-6
    {"operation": "replace", "line_range": [1, 1], "contents": "typo in the key"},
    {"operation": "replace", "line_range": [1, 2], "content": 5},
    {"operation": "insert_after", "line": 1},
    {"operation": "delete", "line": 1, "content": "x"},
], ids=["no-content", "misspelt-key", "content-not-text", "insert-no-content",
        "delete-with-content"])
def test_a_malformed_batch_operation_is_not_recorded(tmp_path: Path,
                                                     operation: dict[str, object]) -> None:
    tools = _tools(tmp_path, {"a.py": TEN})
    answer = tools.mutate({"tool": "batch_edit", "path": "a.py", "operations": [operation]},
                          "batch")
    assert answer.startswith("error: the call was not recorded"), answer
    assert (tools.root / "a.py").read_text() == TEN
    tools.live.close()


def test_a_move_into_a_folder_of_its_own_name_is_refused_and_status_still_answers(
        tmp_path: Path) -> None:
    """``a.py -> a.py/b.py`` was answered "applied" with nothing moved, and every later
    status and diff answered a path-conflict error."""
    tools = _tools(tmp_path, {"a.py": "a = 1\n", "c.py": "c = 1\n"})
    answer = tools.mutate({"tool": "move", "from": "a.py", "to": "a.py/b.py"}, "move")
    assert answer.startswith("refused"), answer
    assert "into a folder of its own name" in answer
    assert tools.mutate({"tool": "edit", "path": "c.py", "search": "c = 1",
                         "replace": "c = 2"}, "edit").startswith("applied")
    assert "op 2.1 edit c.py: accepted" in tools.status()
    assert "+c = 2" in tools.diff()
    assert (tools.root / "a.py").read_text() == "a = 1\n"
    tools.live.close()


def test_a_malformed_project_config_is_an_answer_not_a_crash(tmp_path: Path) -> None:
    """ls and search raised (the agent got "Error executing tool ls", the server's stderr
    a traceback); they answer the config's own line now."""
    tools = _tools(tmp_path, {"reviewtui.toml": 'reserved = ["secret.py"]\n', "a.py": "a\n"})
    server = _server(tools)

    async def ask(name: str, args: dict[str, object]) -> str:
        result = await server.call_tool(name, args)
        return "\n".join(getattr(block, "text", "") for block in result.content)

    for name, args in (("ls", {}), ("search", {"pattern": "a"})):
        answer = anyio.run(ask, name, args)
        # (root-relative: an agent is told no local layout)
        assert answer.startswith("error: reviewtui.toml:1: [reserved] must be a table"), answer
    tools.live.close()


def test_a_long_line_is_answered_cut_with_a_count(tmp_path: Path) -> None:
    """A minified file's one line of megabytes was answered whole by read and by every
    search hit."""
    from reviewtui.core.agent.answers import LINE_MAX

    tools = _tools(tmp_path, {"min.js": "var a=1;" * 50_000 + "\n", "b.py": "b = 1\n"})
    for answer in (tools.read("min.js"), tools.search("var a")):
        assert len(answer) < LINE_MAX + 300, len(answer)
        assert f"{8 * 50_000 - LINE_MAX:,} more characters of this line not shown" in answer
    assert tools.read("b.py").endswith("1| b = 1")  # (short lines as they are)
    tools.live.close()


def test_replace_lines_takes_line_numbers_as_numbers(tmp_path: Path) -> None:
    """The description says "numbers or ids"; a number was refused with pydantic's text."""
    tools = _tools(tmp_path, {"a.py": TEN})
    server = _server(tools)

    async def ask() -> str:
        result = await server.call_tool("replace_lines", {"path": "a.py", "first": 2,
                                                          "last": 2, "content": "l2 = 20\n"})
        return "\n".join(getattr(block, "text", "") for block in result.content)

    answer = anyio.run(ask)
    assert answer.startswith("applied"), answer
    assert (tools.root / "a.py").read_text() == TEN.replace("l2 = 2\n", "l2 = 20\n")
    tools.live.close()


def test_a_file_on_disk_under_a_decomposed_name_is_read_and_its_edits_say_why(
        tmp_path: Path) -> None:
    """ls listed ``café.py`` written decomposed (as macOS does); read said it does not
    exist, and an edit by the on-disk spelling said to name it as it is on disk."""
    decomposed = "cafe\u0301.py"
    tools = _tools(tmp_path, {decomposed: "x = 1\n"})
    for spelling in (decomposed, "caf\u00e9.py"):
        answer = tools.read(spelling)
        assert "1| x = 1" in answer, answer
        assert "decomposed spelling" in answer
        edit = tools.mutate({"tool": "edit", "path": spelling, "search": "x = 1",
                             "replace": "x = 2"}, "edit")
        assert edit.startswith("refused"), edit
        assert "rename it to the composed spelling (NFC)" in edit
    assert (tools.root / decomposed).read_text() == "x = 1\n"
    tools.live.close()


def test_crlf_text_written_over_an_lf_file_says_lf_is_kept(tmp_path: Path) -> None:
    """The file's LF was kept without a word (the reverse said "CRLF kept")."""
    tools = _tools(tmp_path, {"old.sh": "echo lf\n"})
    answer = tools.mutate({"tool": "write", "path": "old.sh", "content": "echo crlf\r\n"}, "w")
    assert answer.startswith("applied"), answer
    assert "LF kept (the new text's CRLF endings are not written)" in answer
    assert (tools.root / "old.sh").read_bytes() == b"echo crlf\n"
    tools.live.close()


def test_read_says_what_is_wrong_with_a_range_or_a_folder(tmp_path: Path) -> None:
    """A reversed range answered "lines 5-1" and no lines, a negative first was clamped,
    and a folder "does not exist"."""
    tools = _tools(tmp_path, {"a.py": TEN})
    (tools.root / "pkg").mkdir()
    assert tools.read("a.py", 5, 2).endswith("error: last (2) is before first (5)")
    assert "error: lines are numbered from 1" in tools.read("a.py", -5, 2)
    assert tools.read("pkg") == "error: pkg is a folder; ls lists its files (e.g. glob='pkg/**')"
    assert tools.read("a.py", 2, 3).splitlines()[1:] == ["2| l2 = 2", "3| l3 = 3"]
    tools.live.close()


@pytest.mark.parametrize(("files", "call", "said"), [
    # 'newdir/' was written as a file named newdir
    ({"a.py": "a = 1\n"}, {"tool": "write", "path": "newdir/", "content": "x = 1\n"},
     "names a folder"),
    # it said "add -f ... recoverable with :unrm", the File Ops console's commands
    ({"src.py": "s\n", "dst.py": "d\n"}, {"tool": "move", "from": "src.py", "to": "dst.py"},
     "remove it first, or move to another name"),
    # it waited "pending review" for a write that can never be made, naming the root
    ({"a.py": "a = 1\n"}, {"tool": "write", "path": "a.py/b.py", "content": "b = 1\n"},
     "a.py is a file, so a.py/b.py cannot be created inside it"),
], ids=["folder-path", "move-onto-a-file", "file-inside-a-file"])
def test_a_call_that_cannot_land_is_refused_at_once_saying_why(
        tmp_path: Path, files: dict[str, str], call: dict[str, str], said: str) -> None:
    tools = _tools(tmp_path, files)
    answer = tools.mutate(call, "call")
    assert answer.startswith("refused"), answer
    assert said in answer
    assert ":unrm" not in answer
    assert str(tools.root) not in answer
    assert {p.name: p.read_text() for p in tools.root.iterdir()} == files
    tools.live.close()


@pytest.mark.parametrize("call", [
    {"tool": "line_replace", "path": "a.py", "from": "2", "to": "2", "content": "TWO\n"},
    {"tool": "batch_edit", "path": "a.py",
     "operations": [{"operation": "replace", "line": 2, "content": "TWO\n"}]},
], ids=["replace_lines", "batch_edit"])
def test_a_line_numbered_change_waiting_for_review_never_lands_on_other_lines(
        tmp_path: Path, call: dict[str, object]) -> None:
    """QA pass 84a repro-3: sent without a revision, it waited for the reviewer; the user
    added two lines at the top; the accept replaced 'half', not the 'two' the agent read.
    The call is recorded with the revision of the file it was sent against."""
    from reviewtui.core.engine import Decision
    from reviewtui.core.errors import ReviewtuiError
    from reviewtui.shell.live_paths import live_state_path
    from reviewtui.shell.review import Review

    tools = _tools(tmp_path, {"a.py": "one\ntwo\nthree\nfour\n"}, gate=Gate.REVIEW)
    answer = tools.mutate(call, "t")
    assert answer.startswith("pending review"), answer
    edited = "zero\nhalf\none\ntwo\nthree\nfour\n"
    (tools.root / "a.py").write_text(edited)  # the user's editor, while it waits
    session = tmp_path / "live.jsonl"
    with Review.open(session, tools.root, state_path=live_state_path(session),
                     format="toolcalls") as review:
        assert review.outcome((1, 0)).status.value != "applied"
        with pytest.raises(ReviewtuiError):
            review.decide((1, 0), Decision.accept())
    assert (tools.root / "a.py").read_text() == edited
    tools.live.close()


def test_a_pending_write_or_delete_never_overwrites_what_the_user_did_meanwhile(
        tmp_path: Path) -> None:
    """QA pass 84a repro-4: a new-file write and a delete waited for the reviewer; the user
    created that file and edited the other; accepting overwrote the new file and deleted
    the edits. The calls are recorded with the file as it was: both are refused now."""
    from reviewtui.core.engine import Decision
    from reviewtui.core.errors import ReviewtuiError
    from reviewtui.shell.live_paths import live_state_path
    from reviewtui.shell.review import Review

    tools = _tools(tmp_path, {"d.py": "D = 1\n"}, gate=Gate.REVIEW)
    for call in ({"tool": "write", "path": "c.py", "content": "C = 'agent'\n"},
                 {"tool": "delete", "path": "d.py"}):
        assert tools.mutate(call, "t").startswith("pending review")
    (tools.root / "c.py").write_text("C = 'the user's new module'\n")
    (tools.root / "d.py").write_text("D = 1\nUSER_WORK = 'two hours of edits'\n")
    session = tmp_path / "live.jsonl"
    with Review.open(session, tools.root, state_path=live_state_path(session),
                     format="toolcalls") as review:
        for key in ((1, 0), (1, 1)):
            assert review.outcome(key).status.value == "refused"
            with pytest.raises(ReviewtuiError):
                review.decide(key, Decision.accept())
    assert (tools.root / "c.py").read_text() == "C = 'the user's new module'\n"
    assert (tools.root / "d.py").read_text() == "D = 1\nUSER_WORK = 'two hours of edits'\n"
    tools.live.close()


def test_a_write_and_a_delete_still_land_on_the_files_they_were_sent_against(
        tmp_path: Path) -> None:
    tools = _tools(tmp_path, {"d.py": "D = 1\n"})
    assert tools.mutate({"tool": "write", "path": "c.py", "content": "c\n"}, "t").startswith(
        "applied")
    assert tools.mutate({"tool": "delete", "path": "d.py"}, "t").startswith("applied")
    assert sorted(p.name for p in tools.root.iterdir()) == ["c.py"]
    tools.live.close()


def test_a_reviewer_s_accept_of_a_change_built_on_a_pending_one_is_not_applied(
        tmp_path: Path) -> None:
    """QA pass 84a repro-2: the reviewer accepted Edit 2 (it edits what pending Edit 1
    writes); the workbench said "recorded, not written yet", the agent was told "applied"
    with nothing on disk. It is told "accepted", not written yet, and why."""
    from reviewtui.core.engine import Decision
    from reviewtui.shell.live_paths import live_state_path
    from reviewtui.shell.review import Review

    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("x = compute(1, 2)\n")
    session = tmp_path / "live.jsonl"
    live = LiveSession(root, session, gate=Gate.REVIEW, wait=0)
    live.record({"tool": "edit", "path": "a.py", "search": "x = compute(1, 2)",
                 "replace": "x = NEW"}, "t")
    second = live.record({"tool": "edit", "path": "a.py", "search": "x = NEW",
                          "replace": "x = NEWER"}, "t")
    with Review.open(session, root, state_path=live_state_path(session),
                     format="toolcalls") as review:
        review.decide(second.key, Decision.accept())  # the reviewer's y on Edit 2 alone
    settled = live.settle(second)
    assert settled.verdict == "accepted"
    assert settled.pinned == ON_PENDING
    assert (root / "a.py").read_text() == "x = compute(1, 2)\n"
    live.close()


def test_an_ambiguous_edit_names_ten_places_and_counts_the_rest(tmp_path: Path) -> None:
    """QA pass 84a repro-5: 1,000 matching stubs made a 10 KB answer (2,000,000 lines of
    one text, 31 MB)."""
    tools = _tools(tmp_path, {"stubs.py": "def f():\n    pass\n\n" * 1_000})
    answer = tools.mutate({"tool": "edit", "path": "stubs.py", "search": "    pass",
                           "replace": "    return None"}, "t")
    assert answer.startswith("ambiguous"), answer[:200]
    assert "SEARCH matches 1000 places in stubs.py (lines 2-2, 5-5," in answer
    assert "and 990 more)" in answer
    assert len(answer) < 2_000, len(answer)
    tools.live.close()


@pytest.mark.parametrize("first", [True, "２", 1.5], ids=["bool", "fullwidth", "float"])
def test_a_line_number_that_is_not_one_is_refused(tmp_path: Path, first: object) -> None:
    """QA pass 84a repro-7: ``true`` was taken as line 1 and written, a fullwidth ``２`` as
    line 2; nothing is written for either now."""
    tools = _tools(tmp_path, {"a.py": TEN})
    server = _server(tools)

    async def ask() -> str:
        result = await server.call_tool("replace_lines", {"path": "a.py", "first": first,
                                                          "last": first, "content": "X\n"})
        return "\n".join(getattr(block, "text", "") for block in result.content)

    from mcp.server.mcpserver.exceptions import ToolError

    try:
        answer = anyio.run(ask)
    except ToolError as err:  # (the SDK's own refusal of an argument of the wrong type)
        answer = f"error: {err}"
    assert answer.startswith("error: "), answer
    assert (tools.root / "a.py").read_text() == TEN
    tools.live.close()


def test_a_not_found_answer_names_its_closest_place_once(tmp_path: Path) -> None:
    """The message said "closest: lines 1-2 (...)" and the candidate block below said it
    again; now the block alone does, with the lines."""
    tools = _tools(tmp_path, {"a.py": "def f(a,b):\n    return a+b\n"})
    answer = tools.mutate({"tool": "edit", "path": "a.py", "search": "return a + b",
                           "replace": "return b + a"}, "swap")
    lines = answer.splitlines()
    assert lines[0].startswith("not_found · a.py"), answer
    assert lines[1:] == ["SEARCH not found in a.py",
                         "closest: lines 2-2, 100% similar (whitespace only)",
                         "  2|     return a+b"]
    tools.live.close()


@pytest.mark.parametrize(("functions", "cut"), [(150, False), (260, True)])
def test_a_long_files_outline_says_when_it_stops_at_its_cap(
        tmp_path: Path, functions: int, cut: bool) -> None:
    """The outline of a read without a range ends at 200 entries; it ended without saying
    so, and an agent took the last one for the end of the file."""
    body = "".join(f"def f{n}(x):\n    return x + {n}\n\n" for n in range(functions))
    tools = _tools(tmp_path, {"big.py": body})
    answer = tools.read("big.py")
    entries = [line for line in answer.splitlines() if line.startswith("  ") and ": def f" in line]
    assert len(entries) == min(functions, 200)
    more = [line for line in answer.splitlines() if "more after line" in line]
    if cut:
        assert more == ["  ... more after line 598 (the outline stops at 200 entries): read a "
                        "range from there"]
    else:
        assert more == []
    tools.live.close()


def test_status_names_a_line_addressed_change_by_its_tool_and_lines(tmp_path: Path) -> None:
    """QA pass 84a: status listed a replace_lines call as an "edit"."""
    tools = _tools(tmp_path, {"a.py": TEN})
    for call in ({"tool": "line_replace", "path": "a.py", "from": 2, "to": 3,
                  "content": "x = 1"},
                 {"tool": "batch_edit", "path": "a.py", "operations": [
                     {"operation": "replace", "line_range": [1, 1], "content": "y = 2"},
                     {"operation": "delete", "line": 5}]},
                 {"tool": "edit", "path": "a.py", "search": "l9 = 9", "replace": "l9 = 90"}):
        assert tools.mutate(call, "change").startswith("applied")
    assert tools.status().splitlines() == [
        "op 1.1 replace_lines a.py 2-3: accepted",
        "op 1.2 batch_edit a.py (2 operations): accepted",
        "op 1.3 edit a.py: accepted"]
    tools.live.close()


def test_status_of_a_batch_of_one_operation_is_singular(tmp_path: Path) -> None:
    tools = _tools(tmp_path, {"a.py": TEN})
    assert tools.mutate({"tool": "batch_edit", "path": "a.py", "operations": [
        {"operation": "delete", "line": 5}]}, "one").startswith("applied")
    assert tools.status() == "op 1.1 batch_edit a.py (1 operation): accepted"
    tools.live.close()
