"""Reading a tool-call log on from where an earlier reading stopped (a live session grows)."""

from __future__ import annotations

import json
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.errors import ReviewtuiError
from reviewtui.core.importers import detect_format, import_session
from reviewtui.core.importers import toolcalls as toolcalls_module
from reviewtui.core.importers.toolcalls import ToolcallsReading

# Characters str.splitlines() splits at that JSON leaves unescaped in a string.
SEPARATORS = "\u0085\u2028\u2029"

_words = st.text(alphabet=st.sampled_from("ab \t" + SEPARATORS), max_size=6)
_calls = st.one_of(
    st.builds(lambda path, old, new: {"tool": "edit", "path": path, "search": old + "\n",
                                      "replace": new + "\n"},
              st.sampled_from(["a.py", "b.py", "c/d.py"]), _words.filter(str.strip), _words),
    st.builds(lambda path, text: {"tool": "write", "path": path, "content": text},
              st.sampled_from(["a.py", "e.txt"]), _words),
    st.builds(lambda path: {"tool": "delete", "path": path}, st.sampled_from(["a.py", "e.txt"])),
    st.builds(lambda old, new: {"tool": "move", "from": old, "to": new},
              st.sampled_from(["a.py", "e.txt"]), st.sampled_from(["f.py", "a.py"])),
    st.builds(lambda n, words: {"turn": n, "request": words},
              st.integers(min_value=0, max_value=9), _words),
)
_lines = st.lists(st.one_of(_calls.map(lambda call: json.dumps(call, ensure_ascii=False)),
                            st.just(""), st.just("  ")), min_size=1, max_size=14)


def _whole(text: str) -> Any:
    """What reading ``text`` from its first line makes of it: a session, or the error."""
    try:
        return import_session(text, "calls.jsonl", format="toolcalls")
    except ReviewtuiError as err:
        return (type(err), str(err))


def _on(reading: ToolcallsReading, text: str) -> tuple[Any, ToolcallsReading]:
    try:
        session, reading = reading.read(text)
    except ReviewtuiError as err:
        return (type(err), str(err)), reading  # a failed reading leaves the last one
    return session, reading


@settings(max_examples=150, deadline=None)
@given(_lines, st.booleans(), st.lists(st.integers(min_value=0, max_value=10**6), max_size=5),
       st.booleans())
def test_a_log_read_in_pieces_reads_as_it_does_whole(lines: list[str], crlf: bool,
                                                     cuts: list[int], restart: bool) -> None:
    text = "".join(line + ("\r\n" if crlf else "\n") for line in lines)
    reading = ToolcallsReading("calls.jsonl")
    # Growing by whole lines or by any cut (a line still being written, a "\r" without
    # its "\n" yet), as the session file is seen while the agent's server appends.
    for end in sorted({cut % (len(text) + 1) for cut in cuts} | {len(text)}):
        got, reading = _on(reading, text[:end])
        assert got == _whole(text[:end])
    if restart:  # a text that does not begin with what was read: read from the start
        other = text.replace("a.py", "z.py", 1) + '{"tool": "delete", "path": "a.py"}\n'
        assert _on(reading, other)[0] == _whole(other)


def test_reading_on_parses_only_the_new_lines(monkeypatch: pytest.MonkeyPatch) -> None:
    lines = ['{"turn": 1, "request": "one"}'] + [
        json.dumps({"tool": "edit", "path": "a.py", "search": f"x{n}\n", "replace": f"y{n}\n"})
        for n in range(40)] + ['{"turn": 2, "request": "two"}'] + [
        json.dumps({"tool": "write", "path": f"f{n}.txt", "content": "hi\n"}) for n in range(5)]
    text = "".join(line + "\n" for line in lines)
    first, reading = ToolcallsReading("calls.jsonl").read(text)
    parsed: list[str] = []
    real = toolcalls_module.load_json

    def counting(raw: str, **kwargs: Any) -> object:
        parsed.append(raw)
        return real(raw, **kwargs)

    monkeypatch.setattr(toolcalls_module, "load_json", counting)
    grown = text + '{"tool": "delete", "path": "f0.txt"}\n'
    session, _ = reading.read(grown)
    assert parsed == ['{"tool": "delete", "path": "f0.txt"}']
    assert session == import_session(grown, "calls.jsonl", format="toolcalls")
    assert session.turns[0] is first.turns[0]  # a closed turn is kept, not made again
    assert len(session.turns[-1].reply.ops) == 6


@pytest.mark.parametrize("separator", list(SEPARATORS))
def test_a_separator_inside_a_call_does_not_cut_its_line(separator: str) -> None:
    call = {"tool": "edit", "path": "a.js", "search": "s = 'x';\n",
            "replace": f"s = 'x{separator}y';\n"}
    text = json.dumps(call, ensure_ascii=False) + "\n"
    assert detect_format(text, "calls.jsonl") == "toolcalls"  # (named .txt as well:)
    assert detect_format(text, "calls.txt") == "toolcalls"
    session = import_session(text, "calls.jsonl")
    (op,) = session.turns[0].reply.ops
    assert op.replace_lines == (f"s = 'x{separator}y';",)  # type: ignore[union-attr]


def test_a_claude_transcript_with_a_separator_on_its_first_line_is_recognised() -> None:
    first = {"type": "user", "sessionId": "s", "message": {
        "role": "user", "content": "rename s\u2028 please"}}
    text = json.dumps(first, ensure_ascii=False) + "\n"
    assert detect_format(text, "transcript.jsonl") == "claude"
