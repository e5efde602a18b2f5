"""Session formats: Markdown turns, JSON and JSONL transcripts, and reviewtui.toml."""

from __future__ import annotations

import json
import textwrap

import pytest

from reviewtui.core.errors import ConfigError, SessionFormatError
from reviewtui.core.model.records import Span
from reviewtui.core.protocol.config import parse_config
from reviewtui.core.protocol.session import parse_session

MARKDOWN = textwrap.dedent("""\
    # Session: Greeting fixes
    Recorded in a workshop.

    ## Turn 1
    > Fix the greeting.
    > Keep it short.

    --- File: app.py ---
    <<<<<<< SEARCH
    print("helo")
    =======
    print("hello")
    >>>>>>> REPLACE

    ### Changed files:
    - app.py

    ## Turn 2
    > Show a README example.

    --- File: README.md ---
    ````markdown
    ## Turn 99 is text inside a file, not a turn
    ````

    ### Changed files:
    - README.md (new)
    """)


def test_markdown_turns_requests_and_metadata() -> None:
    session = parse_session(MARKDOWN, "s/session.md")
    assert session.title == "Greeting fixes"
    assert session.meta.startswith("# Session: Greeting fixes")
    assert [t.index for t in session.turns] == [1, 2]
    first, second = session.turns
    assert first.request == "Fix the greeting.\nKeep it short."
    assert first.span == Span(4, 17)
    assert first.heading_span == Span(4, 4)
    assert first.reply.ops[0].search_span == Span(9, 11)
    assert second.reply.ops[0].lines == ("## Turn 99 is text inside a file, not a turn",)
    assert session.problems == ()


def test_turn_number_mismatch_is_a_warning() -> None:
    session = parse_session("## Turn 1\nx\n## Turn 3\ny\n")
    assert [(p.rule, p.severity, p.span) for p in session.problems] == [
        ("turn-number", "warning", Span(3, 3))
    ]


def test_no_turns() -> None:
    session = parse_session("just some notes\n")
    assert session.turns == ()
    assert [p.rule for p in session.problems] == ["no-turns"]


def test_a_reply_without_a_heading_is_read_as_one_turn() -> None:
    """A model's answer saved as it came (no ``## Turn`` heading) is that answer: its edit
    is turn 1's, with a warning, not dropped as the metadata of a session of no turns."""
    reply = ("Here is the fix.\n\n--- File: a.py ---\n<<<<<<< SEARCH\nx = 1\n=======\n"
             "x = 2\n>>>>>>> REPLACE\n\n### Changed files:\n- a.py\n")
    session = parse_session(reply)
    [turn] = session.turns
    assert (turn.index, turn.request) == (1, "")
    assert [(e.search, e.replace) for e in turn.reply.ops] == [("x = 1\n", "x = 2\n")]
    assert [(p.rule, p.severity) for p in session.problems] == [("bare-reply", "warning")]
    headed = parse_session("## Turn 1\n" + reply).turns[0].reply
    assert [(e.path, e.search, e.replace) for e in turn.reply.ops] == [
        (e.path, e.search, e.replace) for e in headed.ops]


@pytest.mark.parametrize("text", [
    # notes quoting a block between paragraphs: not a reply
    ("Notes.\n\n--- File: a.py ---\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n"
     "\nMore notes on it.\n\n--- File: b.py ---\ny\n"),
    # two footers: a document about replies
    "--- File: a.py ---\nx = 2\n\n### Changed files:\n- a.py\n\n### Changed files:\n- b\n",
])
def test_text_quoting_blocks_between_prose_stays_a_session_of_no_turns(text: str) -> None:
    session = parse_session(text)
    assert session.turns == ()
    assert [p.rule for p in session.problems] == ["no-turns"]


def test_json_transcript_pairs_requests_with_replies() -> None:
    messages = [
        {"role": "system", "content": "You follow the File Ops Protocol."},
        {"role": "user", "content": "Add a file"},
        {"role": "assistant", "content": "--- File: a.txt ---\nhello\n### Changed files:\n- a.txt"},
        {"role": "assistant", "content": [{"type": "text", "text": ":rm a.txt\n\n"
                                                                "### Changed files:\n- a.txt"}]},
    ]
    session = parse_session(json.dumps(messages), "chat.json")
    assert [t.request for t in session.turns] == ["Add a file", ""]
    assert session.turns[0].reply.ops[0].lines == ("hello",)
    assert session.turns[1].reply.ops[0].name == "rm"


def test_jsonl_transcript_keeps_message_line_numbers() -> None:
    text = "\n".join(json.dumps(m) for m in [
        {"role": "user", "content": "Go"},
        {"role": "assistant", "content": "--- File: a.txt ---\nx"},
    ]) + "\n"
    session = parse_session(text, "chat.jsonl")
    assert session.turns[0].span == Span(2, 2)
    assert session.turns[0].request == "Go"


@pytest.mark.parametrize(
    ("text", "source", "line", "rule"),
    [
        ('[{"role": "user", "content": "x"},', "bad.json", 1, "json"),
        ('{"role": "user", "content": "x"}\n{oops}\n', "bad.jsonl", 2, "jsonl"),
        ('[{"content": "no role"}]', "bad.json", None, "transcript-shape"),
        ('[{"role": "user", "content": 5}]', "bad.json", None, "transcript-shape"),
        ('{"role": "user", "content": "x"}\n', "one.json", None, None),
    ],
)
def test_transcript_errors_name_file_line_and_rule(
    text: str, source: str, line: int | None, rule: str | None
) -> None:
    if rule is None:  # a single JSONL message is fine
        assert parse_session(text, source).turns == ()
        return
    with pytest.raises(SessionFormatError) as info:
        parse_session(text, source)
    err = info.value
    assert (err.source, err.line, err.rule) == (source, line, rule)
    assert str(err).startswith(source)


def test_config_reserved_paths() -> None:
    config = parse_config('[reserved]\npaths = ["dist/**", "public/sw.js"]\n')
    assert config.reserved == ("dist/**", "public/sw.js")
    assert parse_config("").reserved == ()


def test_reserved_paths_are_read_from_the_root_as_gitignore_writes_them() -> None:
    """"/greeter/**", "./greeter/**" and "greeter/" reserved nothing, silently (found by
    helper-73): they mean the folder and all it holds, as "greeter/**" does."""
    config = parse_config('[reserved]\npaths = ["/greeter/**", "./greeter/**", "greeter/",'
                          ' "/public/sw.js"]\n')
    assert config.reserved == ("greeter/**", "greeter/**", "greeter/**", "public/sw.js")


@pytest.mark.parametrize("pattern", ["", "/", "../shared/**", "a/../../b"])
def test_a_reserved_path_that_can_never_match_is_an_error(pattern: str) -> None:
    with pytest.raises(ConfigError, match="can never match") as info:
        parse_config(f'# reserved\n[reserved]\npaths = ["{pattern}"]\n', "reviewtui.toml")
    assert info.value.line == 3


@pytest.mark.parametrize(
    ("text", "line"),
    [("[reserved\n", 1), ("[reserved]\npaths = 3\n", 2), ("reserved = 1\n", 1),
     ('x = 1\n\n[checks]\n"*.py" = 3\n', 4), ("checks = 2\n", 1)],
)
def test_config_errors(text: str, line: int | None) -> None:
    with pytest.raises(ConfigError) as info:
        parse_config(text, "proj/reviewtui.toml")
    assert info.value.source == "proj/reviewtui.toml"
    assert info.value.line == line


def test_a_jsonl_message_holding_a_line_separator_stays_one_message() -> None:
    """JSON leaves U+2028 raw; ``str.splitlines`` cut the message's line in two."""
    text = "\n".join(json.dumps(m, ensure_ascii=False) for m in [
        {"role": "user", "content": "Go\u2028now"},
        {"role": "assistant", "content": "--- File: a.txt ---\nx\u2028y\n\n### Changed files:"
                                         "\n- a.txt"},
    ]) + "\n"
    session = parse_session(text, "chat.jsonl")
    assert session.turns[0].request == "Go\u2028now"
    assert session.turns[0].reply.ops[0].lines == ("x\u2028y",)
