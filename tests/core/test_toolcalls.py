# ruff: noqa: E501  (one JSON tool call per line, as harnesses write them)
"""The JSON-lines tool-call importer."""

from __future__ import annotations

import pytest

from reviewtui.core.errors import SessionFormatError
from reviewtui.core.importers import detect_format, import_session
from reviewtui.core.model.edit_shapes import Batch, LineRange, Window
from reviewtui.core.model.records import ConsoleCommand, Edit, FullFile

CALLS = """\
{"turn": 1, "request": "tidy"}
{"tool": "str_replace", "path": "a.py", "old": "x = 1", "new": "x = 2"}
{"tool": "line_replace", "path": "a.py", "from": "3:ab", "to": 4, "content": "y\\n"}
{"tool": "window_replace", "path": "a.py", "start_line": 1, "end_line": 9, "target": "z", "replacement": "w"}
{"turn": 2, "request": "more"}
{"tool": "batch_edit", "path": "a.py", "operations": [{"operation": "delete", "line_range": [1, 2]}, {"operation": "insert_after", "line": 5, "content": "q"}]}
{"tool": "write", "path": "b.txt", "content": "hi\\n"}
{"tool": "move", "from": "d.txt", "to": "c.txt"}
"""


def test_tool_calls_become_turns_of_operations() -> None:
    assert detect_format(CALLS, "calls.jsonl") == "toolcalls"
    session = import_session(CALLS, "calls.jsonl")
    assert session.format == "toolcalls"
    assert [t.request for t in session.turns] == ["tidy", "more"]
    first = session.turns[0].reply.ops
    assert isinstance(first[0], Edit)
    assert first[0].substring
    assert isinstance(first[1], Edit)
    assert isinstance(first[1].shape, LineRange)
    assert str(first[1].shape) == "3:ab-4"
    assert isinstance(first[2], Edit)
    assert isinstance(first[2].shape, Window)
    second = session.turns[1].reply.ops
    assert isinstance(second[0], Edit)
    assert isinstance(second[0].shape, Batch)
    assert any(isinstance(op, FullFile) for op in second)
    assert any(isinstance(op, ConsoleCommand) for op in second)


def test_an_unknown_tool_is_a_format_error_naming_the_line() -> None:
    with pytest.raises(SessionFormatError) as err:
        import_session('{"tool": "frobnicate", "path": "a"}\n', "x.jsonl", format="toolcalls")
    assert err.value.line == 1


@pytest.mark.parametrize(("line", "said"), [
    ("{}", "no tool and no turn"),
    ('{"tool": "frob", "path": "a"}', "unknown tool 'frob'"),
])
def test_a_line_that_is_not_a_call_says_what_a_line_is(line: str, said: str) -> None:
    with pytest.raises(SessionFormatError) as info:
        import_session(line + "\n", "calls.jsonl", format="toolcalls")
    assert info.value.line == 1
    assert info.value.message.startswith(said + "; a line is a call with a tool (one of edit,")


def test_a_call_as_sent_is_read_as_an_alternative_guarded_by_its_own_revision() -> None:
    """``reviewtui mcp`` records a call carried into the review's version with the call
    as the agent sent it (``sent``); one that does not read (no revision, a bad line
    reference, not an object) is left out and the call stays as carried."""
    text = (
        '{"tool": "line_replace", "path": "a.py", "from": 10, "to": 10, "content": "x", '
        '"expectedRevision": "aaaa1111", "sent": {"from": 9, "to": 9, "expectedRevision": "bbbb2222;"}}\n'
        '{"tool": "insert", "path": "a.py", "line": 4, "content": "y", "expectedRevision": "aaaa1111", '
        '"sent": {"line": "3:ab", "before": true, "expectedRevision": "bbbb2222"}}\n'
        '{"tool": "line_replace", "path": "a.py", "from": 10, "to": 10, "content": "x", '
        '"sent": {"from": "nine", "to": 9, "expectedRevision": "bbbb2222"}}\n'
        '{"tool": "line_replace", "path": "a.py", "from": 10, "to": 10, "content": "x", '
        '"sent": {"from": 9, "to": 9}}\n'
        '{"tool": "batch_edit", "path": "a.py", "operations": [{"operation": "delete", "line": 2}], '
        '"sent": "lines 1-2"}\n')
    ops = import_session(text, "calls.jsonl").turns[0].reply.ops
    shapes = [op.shape for op in ops if isinstance(op, Edit)]
    assert len(shapes) == 5
    first, second, bad_ref, no_revision, not_object = shapes
    assert isinstance(first, LineRange)
    assert first.sent is not None
    assert (first.sent.first.number, first.sent.expected_revision) == (9, "bbbb2222")
    assert isinstance(second, Batch)
    assert second.sent is not None
    assert str(second.sent.ops[0].first) == "3:ab"
    assert [getattr(shape, "sent", None) for shape in (bad_ref, no_revision, not_object)] == [
        None, None, None]
