"""A Claude Code transcript replays to the files Claude Code left: its Edit tool's own
rules (a deletion takes the line's newline with it) and the user's changes to a proposed
edit (QA s46 helper-142 H1, H2: both replayed into another file, exit 0).
"""

from __future__ import annotations

import json

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.engine import evaluate_session
from reviewtui.core.engine.session import SessionRun
from reviewtui.core.importers.claude import import_claude
from reviewtui.core.importers.toolcalls import import_toolcalls
from reviewtui.core.model.tree import FileState, Tree


def _jsonl(*items: dict[str, object]) -> str:
    return "".join(json.dumps(item) + "\n" for item in items)


def _user(content: object, **extra: object) -> dict[str, object]:
    return {"type": "user", "cwd": "/p", "message": {"role": "user", "content": content},
            **extra}


def _call(name: str, data: dict[str, object], ident: str = "t1") -> dict[str, object]:
    return {"type": "assistant", "cwd": "/p", "message": {"role": "assistant", "content": [
        {"type": "tool_use", "id": ident, "name": name, "input": data}]}}


def _done(ident: str = "t1", outcome: dict[str, object] | None = None) -> dict[str, object]:
    extra = {"toolUseResult": outcome} if outcome is not None else {}
    return _user([{"type": "tool_result", "tool_use_id": ident, "content": "ok"}], **extra)


def _after(text: str, files: dict[str, str]) -> tuple[SessionRun, dict[str, str]]:
    run = evaluate_session(import_claude(text, "s.jsonl"), Tree.from_files(
        {p: FileState.from_bytes(d.encode()) for p, d in files.items()}))
    final = run.states[-1].tree
    return run, {p: final.get(p).data.decode() for p in final.paths()}  # type: ignore[union-attr]


def claude_edit(content: str, old: str, new: str, replace_all: bool) -> str:
    """Claude Code's Edit tool on a file's text, as its source reads: an empty new_string
    of a text that does not end in a newline takes the newline after it, where the file
    holds the text followed by one (then only such occurrences are replaced)."""
    if not new and not old.endswith("\n") and old + "\n" in content:
        old += "\n"
    return content.replace(old, new) if replace_all else content.replace(old, new, 1)


def test_an_edit_that_deletes_a_line_removes_it_whole() -> None:
    text = _jsonl(_user("drop y"), _call("Edit", {"file_path": "/p/f.py",
                                                  "old_string": "    y = 2",
                                                  "new_string": ""}), _done())
    _, files = _after(text, {"f.py": "def f():\n    x = 1\n    y = 2\n    return x\n"})
    assert files == {"f.py": "def f():\n    x = 1\n    return x\n"}


def test_a_multi_edit_deletion_and_a_deleted_tail_of_the_last_line() -> None:
    text = _jsonl(_user("go"), _call("MultiEdit", {"file_path": "a", "edits": [
        {"old_string": "b = 2", "new_string": ""},
        {"old_string": " + y", "new_string": ""}]}), _done())
    _, files = _after(text, {"a": "a = 1\nb = 2\nc = x + y\n"})
    assert files == {"a": "a = 1\nc = x"}  # (Claude Code's: the tail took the newline too)


@settings(max_examples=300, deadline=None)
@given(st.text("ab \n", min_size=1, max_size=30), st.data())
def test_an_edit_replays_as_claude_code_made_it(content: str, data: st.DataObject) -> None:
    start = data.draw(st.integers(0, len(content) - 1))
    old = content[start:data.draw(st.integers(start + 1, len(content)))]
    new = data.draw(st.sampled_from(["", "X", "X\n", "\n"]))
    replace_all = data.draw(st.booleans())
    if not replace_all and content.count(old) > 1:
        replace_all = True  # (Claude Code refuses it: no successful call to replay)
    text = _jsonl(_user("go"), _call("Edit", {"file_path": "a", "old_string": old,
                                              "new_string": new,
                                              "replace_all": replace_all}), _done())
    run, files = _after(text, {"a": content})
    (result,) = run.turns[0].results
    assert result.landed, result.outcome
    assert files == {"a": claude_edit(content, old, new, replace_all)}


def test_a_generic_str_replace_keeps_the_newline() -> None:
    """A tool-call log's str_replace replaces the text alone (as Anthropic's text editor
    tool does): only Claude Code's Edit takes the newline."""
    calls = json.dumps({"tool": "str_replace", "path": "a", "old": "b = 2", "new": ""})
    run = evaluate_session(import_toolcalls(calls, "c.json"), Tree.from_files(
        {"a": FileState.from_bytes(b"a = 1\nb = 2\nc = 3\n")}))
    assert run.states[-1].tree.get("a").data == b"a = 1\n\nc = 3\n"  # type: ignore[union-attr]


def _modified(name: str, data: dict[str, object], outcome: dict[str, object]) -> str:
    return _jsonl(_user("go"), _call(name, data),
                  _done(outcome={"filePath": "/p/a", "userModified": True, **outcome}))


def test_an_edit_the_user_changed_before_accepting_replays_as_accepted() -> None:
    text = _modified("Edit", {"file_path": "/p/a", "old_string": "timeout = 10",
                              "new_string": "timeout = 9999"},
                     {"oldString": "timeout = 10", "newString": "timeout = 30",
                      "replaceAll": False})
    run, files = _after(text, {"a": "timeout = 10\n"})
    assert files == {"a": "timeout = 30\n"}
    (note,) = import_claude(text, "s").turns[0].reply.problems
    assert (note.rule, note.severity) == ("claude-user-modified", "info")


def test_a_write_the_user_changed_replays_as_accepted() -> None:
    text = _modified("Write", {"file_path": "/p/a", "content": "model\n"},
                     {"type": "update", "content": "user\n"})
    assert _after(text, {"a": "old\n"})[1] == {"a": "user\n"}


def test_a_change_the_user_made_that_the_transcript_does_not_hold_is_not_replayed() -> None:
    same = _modified("Edit", {"file_path": "/p/a", "old_string": "x", "new_string": "y"},
                     {"oldString": "x", "newString": "y"})
    multi = _modified("MultiEdit", {"file_path": "/p/a", "edits": [
        {"old_string": "x", "new_string": "y"}]}, {"edits": []})
    for text in (same, multi):
        (turn,) = import_claude(text, "s").turns
        assert turn.reply.ops == ()
        (note,) = turn.reply.problems
        assert (note.rule, note.severity) == ("claude-user-modified", "warning")
        assert _after(text, {"a": "x\n"})[1] == {"a": "x\n"}


def test_a_relative_path_is_in_the_folder_claude_code_was_in() -> None:
    """QA s47 helper-148 F1: Claude Code resolves a relative file_path against its working
    folder at the call (each line's cwd, which follows the shell's cd); after ``cd sub``
    an Edit of a.txt changed sub/a.txt, and the replay the project's a.txt, exit 0."""
    cd = {"type": "assistant", "cwd": "/p/sub", "message": {"role": "assistant", "content": [
        {"type": "tool_use", "id": "t1", "name": "Edit",
         "input": {"file_path": "a.txt", "old_string": "x = 1", "new_string": "x = 2"}}]}}
    text = _jsonl(_user("bump x"), cd, _done())
    _, files = _after(text, {"a.txt": "x = 1\n", "sub/a.txt": "x = 1\n"})
    assert files == {"a.txt": "x = 1\n", "sub/a.txt": "x = 2\n"}
    assert [op.path for op in import_claude(text, "s.jsonl").turns[0].reply.ops] == [
        "sub/a.txt"]
    # Out of the project (cd ..): a path the engine refuses, never one under the root.
    out = text.replace('"/p/sub"', '"/elsewhere"')
    assert [op.path for op in import_claude(out, "s.jsonl").turns[0].reply.ops] == [
        "/elsewhere/a.txt"]
    # Started in the project's sub-folder: relative to that start, as an absolute path.
    started = _jsonl({**_user("bump x"), "cwd": "/p/sub"}, cd, _done())
    assert [op.path for op in import_claude(started, "s.jsonl", root="/p").turns[0]
            .reply.ops] == ["sub/a.txt"]
