"""The state file's text: the JSON of the saved state, a line per log entry."""

from __future__ import annotations

import json
import tempfile
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reviewtui.core.engine import Decision, Verdict
from reviewtui.core.errors import InputLimitError, StateFormatError
from reviewtui.core.review.log import DecisionItem, LogEntry, LogKind
from reviewtui.core.text.limits import JSON_TOO_DEEP
from reviewtui.shell.state import (
    _MAX_DEPTH,
    ReviewState,
    StateFile,
    _check_depth,
    decode_state,
    parse_state_json,
    state_text,
)

_SCALARS = st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text()
_JSON = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=3)
                     | st.dictionaries(st.text(max_size=5), inner, max_size=3), max_leaves=12)


@given(st.dictionaries(st.text(max_size=8), _JSON, max_size=6))
def test_the_text_reads_back_as_the_document(doc: dict[str, Any]) -> None:
    text = state_text(doc)
    assert json.loads(text) == doc
    assert text.endswith("}\n")


def test_each_log_entry_and_path_record_is_a_line_of_its_own() -> None:
    doc = {"format": "reviewtui-state", "log": [{"kind": "decide", "items": [1, 2]},
                                                 {"kind": "undo"}],
           "paths": {"a.py": {"seen": "ab"}, "ü.py": {"seen": None}}, "ui": {}}
    lines = state_text(doc).splitlines()
    assert '  {"kind": "decide", "items": [1, 2]},' in lines
    assert '  {"kind": "undo"}' in lines
    assert '  "ü.py": {"seen": null}' in lines  # as written, not escaped
    assert ' "ui": {}' in lines
    assert json.loads("\n".join(lines)) == doc


_ITEMS = st.builds(
    lambda turn, pos, verdict, seconds: LogEntry(
        LogKind.DECIDE, (DecisionItem(turn, pos, f"f{pos}.py", None, "ab" * 8,
                                      Decision(verdict)),), seconds=seconds),
    st.integers(1, 9), st.integers(0, 5), st.sampled_from(list(Verdict)),
    st.none() | st.floats(0, 1000))
_ENTRIES = _ITEMS | st.sampled_from([LogEntry(LogKind.UNDO), LogEntry(LogKind.REDO),
                                     LogEntry(LogKind.RESTORE, checkpoint=2)])


@given(st.lists(st.lists(_ENTRIES, max_size=4), min_size=1, max_size=5))
def test_saves_of_a_growing_log_write_what_a_first_save_writes(
        steps: list[list[LogEntry]]) -> None:
    """A save encodes only the log entries the last save did not hold; the file is the
    same as a new state file's first save of the same state (``saved_at`` aside)."""
    with tempfile.TemporaryDirectory() as folder:
        kept = StateFile(Path(folder) / "kept.json")
        log: list[LogEntry] = []
        for step in steps:
            log.extend(step)
            if step and len(log) > 1 and step[0].kind is LogKind.UNDO:
                log.pop(0)  # (a log that lost an entry: the rest is still the same objects)
            state = ReviewState(session_sha="cd" * 32, log=list(log), ui={"k": len(log)})
            kept.save(state, Path(folder) / "s.md")
            fresh = StateFile(Path(folder) / "fresh.json")
            fresh.save(state, Path(folder) / "s.md")
            assert _without_time(kept.path) == _without_time(fresh.path)
            assert decode_state(json.loads(kept.path.read_text())).log == [
                LogEntry.from_json(entry.to_json()) for entry in log]  # (seconds rounded)


def _without_time(path: Path) -> list[str]:
    """The file's lines but its time and its seal (shell/stateseal.py), which covers it."""
    return [line for line in path.read_text().splitlines()
            if '"saved_at"' not in line and '"seal"' not in line]


def _every_value_within(doc: Any, limit: int) -> bool:
    """The depth rule walked value by value (the document at depth 1)."""
    stack = [(doc, 1)]
    while stack:
        value, depth = stack.pop()
        if depth > limit:
            return False
        children = value.values() if isinstance(value, dict) else (
            value if isinstance(value, list) else ())
        stack.extend((child, depth + 1) for child in children)
    return True


_NESTED = st.recursive(_SCALARS, lambda inner: st.lists(inner, max_size=2)
                       | st.dictionaries(st.text(max_size=2), inner, max_size=2),
                       max_leaves=30)


@given(st.integers(0, 9).flatmap(lambda wraps: _NESTED.map(
    lambda doc: _wrapped(doc, wraps))))
def test_the_depth_check_refuses_exactly_what_a_walk_of_every_value_refuses(doc: Any) -> None:
    expected = _every_value_within(doc, _MAX_DEPTH)
    try:
        _check_depth(doc)
    except StateFormatError:
        assert not expected
    else:
        assert expected


def _wrapped(doc: Any, levels: int) -> Any:
    for level in range(levels):
        doc = [doc] if level % 2 else {"k": doc}
    return doc


def test_a_state_too_deep_or_with_a_long_number_is_refused_as_before(tmp_path: Path) -> None:
    """The generic JSON limits, which name the line, still come first for a bad state."""
    deep = '{"log": ' + "[" * 300 + "]" * 300 + "}"
    with pytest.raises(InputLimitError) as err:
        parse_state_json(deep.encode(), "s.json")
    assert err.value.rule == JSON_TOO_DEEP
    with pytest.raises(StateFormatError, match="deeper than"):
        parse_state_json(b'{"a": [[[[[[[[1]]]]]]]]}', "s.json")
    with pytest.raises(StateFormatError, match="digits"):
        parse_state_json(b'{"a": 12345678901234567890123}', "s.json")
    assert parse_state_json(b'{"a": [[1, {"b": 2}]]}', "s.json") == {"a": [[1, {"b": 2}]]}
