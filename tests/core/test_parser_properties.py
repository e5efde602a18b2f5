"""The parser returns a result for any text: never an exception, spans always inside."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.errors import SessionFormatError
from reviewtui.core.model.records import Reply
from reviewtui.core.protocol.reply import parse_reply_text, split_lines
from reviewtui.core.protocol.session import parse_session

VALID_REPLY = """```console
:mv src/a.js src/b.js
:rm tmp/*.log
```
--- File: src/b.js ---
Edit 1
<<<<<<< SEARCH
const a = 1;
=======
const a = 2;
>>>>>>> REPLACE
--- File: README.md ---
````markdown
# Hi
```
code
```
````
### Changed files:
- src/b.js
- README.md (new)
Need: lib/x.js
"""

GRAMMAR_LINES = [
    "--- File: a.py ---", "<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE", "Edit 1", "```",
    "````", "```console", ":rm a.py", ":mv a b", ":undo", ":bogus", "### Changed files:",
    "- a.py", "Need:", "## Turn 1", "> request", "", "x = 1", "~~~", "**Edit 2**",
]


def check_spans(reply: Reply, total: int) -> None:
    limit = max(total, 1)
    spans = [op.span for op in reply.ops] + [p.span for p in reply.problems]
    spans += [r.span for r in reply.stray]
    for span in spans:
        assert 1 <= span.start <= span.end <= limit, (span, total)


@settings(max_examples=300, deadline=None)
@given(st.text())
def test_arbitrary_text_never_raises(text: str) -> None:
    reply = parse_reply_text(text)
    check_spans(reply, len(split_lines(text)))
    for source in ("fuzz.md", "fuzz.json", "fuzz"):
        try:
            session = parse_session(text, source)
        except SessionFormatError as err:  # a structured error is an answer too
            error: SessionFormatError | None = err
        else:
            error = None
        if error is not None:
            assert (error.source, bool(error.rule)) == (source, True)
            continue
        assert all(t.index == n for n, t in enumerate(session.turns, start=1))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(GRAMMAR_LINES), max_size=40))
def test_grammar_soup_never_raises(lines: list[str]) -> None:
    text = "\n".join(lines)
    check_spans(parse_reply_text(text), len(lines))


@settings(max_examples=300, deadline=None)
@given(st.data())
def test_mutated_valid_reply_never_raises(data: st.DataObject) -> None:
    lines = VALID_REPLY.split("\n")
    for _ in range(data.draw(st.integers(1, 4))):
        action = data.draw(st.sampled_from(["drop", "dup", "insert", "edit"]))
        i = data.draw(st.integers(0, len(lines) - 1))
        if action == "drop" and len(lines) > 1:
            del lines[i]
        elif action == "dup":
            lines.insert(i, lines[i])
        elif action == "insert":
            lines.insert(i, data.draw(st.sampled_from(GRAMMAR_LINES)))
        else:
            lines[i] = data.draw(st.text(max_size=12))
    text = "\n".join(lines)
    check_spans(parse_reply_text(text), len(split_lines(text)))


def test_unmutated_valid_reply_parses_cleanly() -> None:
    reply = parse_reply_text(VALID_REPLY)
    assert reply.problems == ()
    assert reply.stray == ()
    assert [op.kind for op in reply.ops] == ["console", "console", "edit", "full_file"]
    assert reply.need == ("lib/x.js",)
