"""A fenced file's own code samples are read as CommonMark reads fences (QA s47 helper-158
L1): a sample is closed only by a bare fence of its own character at least as long as the
one that opened it, and every other line inside it is its text. Fence lines were counted,
whatever their kind, so a Markdown file in a ```` fence whose ``~~~`` sample shows a ```
line was held as cut off; and one whose sample a fence of another kind did not close was
written though the file's fence may have closed inside it."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.cli import main
from reviewtui.core.model.records import FullFile
from reviewtui.core.protocol.reply import parse_reply_text

FOOTER = "\n### Changed files:\n- doc.md\n"


def _reply(content: str, fence: str) -> str:
    return f"--- File: doc.md ---\n{fence}md\n{content}{fence}\n{FOOTER}"


@pytest.mark.parametrize(("fence", "content"), [
    # a list item's ~~~ sample shows a ``` line (the QA repro)
    ("````", "# T\n\n- step:\n  ~~~md\n  ```\n  ~~~\n- done\n"),
    ("````", "Open a block with:\n\n~~~\n```python\n~~~\n\nand close it.\n"),
    # inside a ``` sample, a fence with an info string is its text
    ("````", "Nested:\n\n```\n```python\n```\n"),
    # a shorter fence of the sample's own character does not close it
    ("`````", "````md\n```\nx\n````\n"),
    # a ~~~~ wrapper: ``` samples holding a ~~~ line
    ("~~~~", "```\n~~~\n```\nend\n"),
    # a tilde fence's info string may hold backticks
    ("````", "~~~ `x`\n```\n```py\n~~~\n"),
])
def test_a_sample_showing_another_fence_leaves_the_file_whole(fence: str, content: str) -> None:
    parsed = parse_reply_text(_reply(content, fence))
    assert parsed.problems == ()
    (op,) = parsed.ops
    assert isinstance(op, FullFile)
    assert op.content == content


def test_a_sample_left_open_holds_the_file() -> None:
    for fence, content in [
        # a ~~~ sample a ``` line does not close: the ```` line may be the sample's own
        ("````", "Run:\n~~~\n```\nmake\n"),
        # a ```` sample a shorter fence does not close: the ````` line may be its own
        ("`````", "````md\nx\n```\n"),
        ("````", "~~~~\n~~~\nmore\n"),
        # still held (these were wrong writes): in a ``` fence a ``` line closes the file's
        ("```", "Run:\n~~~\n"),
        ("```", "1. Run:\n   ```bash\n   make\n"),
    ]:
        parsed = parse_reply_text(_reply(content, fence))
        assert parsed.ops == (), content
        (problem,) = parsed.problems
        assert problem.rule == "cut-off"
        assert "is not closed in it" in problem.message


def test_a_file_whose_fence_lines_do_not_pair_up_is_held_when_what_follows_may_be_its_own(
        ) -> None:
    """Its samples all close, but its fence may have closed at a ```` line of its own that
    opened a sample showing a reply: that reply's blocks, and the file's closing fences
    after them, were the file's text (a wrong file, and one more, exit 0). Counted, these
    files were held whatever followed; now when the footer lists what follows, they are
    not."""
    doc = "Show:\n~~~\n```\n~~~\n"
    other = "--- File: b.txt ---\n```\nb\n```\n"
    whole = (f"--- File: doc.md ---\n````\n{doc}````\n\n{other}\nSee.\n\n"
             "### Changed files:\n- doc.md\n- b.txt\n")
    assert [(op.path, op.content) for op in parse_reply_text(whole).ops] == [  # type: ignore[union-attr]
        ("doc.md", doc), ("b.txt", "b\n")]
    for rest in (
        # its own sample's reply: a block the footer does not list, then its fences
        "\n--- File: x.py ---\nprint(1)\n````\n````\n",
        "\n--- File: x.py ---\n```python\nprint(1)\n```\n````\n````\n",
        "\n```console\n:rm src\n```\n````\n````\n",
        # its own sample's text, opening with a language: left over after the file
        "```python\nx\n```\n````\n````\n",
    ):
        reply = (f"--- File: doc.md ---\n````\n{doc}````\n{rest}\n"
                 "### Changed files:\n- doc.md\n")
        parsed = parse_reply_text(reply)
        assert parsed.ops == (), rest
        first = parsed.problems[0]
        assert first.rule == "cut-off"
        assert ("do not pair up" in first.message
                or "a bare fence line that may close it" in first.message)


def test_apply_writes_a_markdown_file_whose_tilde_sample_shows_a_backtick_fence(
        tmp_path: Path) -> None:
    want = "# T\n\n- step:\n  ~~~md\n  ```\n  ~~~\n- done\n"
    root = tmp_path / "root"
    root.mkdir()
    session = tmp_path / "s.md"
    session.write_text(f"## Turn 1\n> x\n\n{_reply(want, '````')}")
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 0
    assert (root / "doc.md").read_text() == want


_TEXT = st.sampled_from(["text", "more text", "", "- item", "  indented", "a `` b"])


@st.composite
def _sample(draw: st.DrawFn) -> list[str]:
    """A CommonMark fenced code block whose text holds fence lines that do not close it."""
    char = draw(st.sampled_from("`~"))
    other = "~" if char == "`" else "`"
    length = draw(st.integers(3, 6))
    pad = st.integers(0, 3).map(lambda n: " " * n)
    info = draw(st.sampled_from(["", "md", "sh"] + (["`x`"] if char == "~" else [])))
    lines = [draw(pad) + char * length + info]
    inner = st.one_of(
        _TEXT,
        # another character's fence, bare or with an info string
        st.tuples(pad, st.integers(3, 8), st.sampled_from(["", "py"])).map(
            lambda t: t[0] + other * t[1] + t[2]),
        # its own character: with an info string at any length, or shorter
        st.tuples(pad, st.integers(3, 8)).map(lambda t: t[0] + char * t[1] + "py"),
        st.tuples(pad, st.integers(3, max(3, length - 1))).map(
            lambda t: t[0] + char * t[1] if t[1] < length else "text"),
        # indented four spaces or more: code, not a fence
        st.integers(3, 8).map(lambda n: "    " + char * n),
    )
    lines += draw(st.lists(inner, max_size=5))
    lines.append(draw(pad) + char * draw(st.integers(length, length + 2))
                 + draw(st.sampled_from(["", " "])))
    return lines


def _run(line: str, char: str) -> int:
    stripped = line.lstrip(" ")
    return len(stripped) - len(stripped.lstrip(char))


@settings(max_examples=300, deadline=None)
@given(st.lists(st.one_of(_TEXT.map(lambda t: [t]), _sample()), min_size=1, max_size=8),
       st.sampled_from("`~"), st.booleans())
def test_a_markdown_file_of_samples_in_a_longer_fence_is_read_back_exactly(
        parts: list[list[str]], char: str, another: bool) -> None:
    lines = [line for part in parts for line in part]
    fence = char * max(3, 1 + max(_run(line, char) for line in lines))
    content = "".join(line + "\n" for line in lines)
    reply = _reply(content, fence)
    if another:  # a file after it, which the footer lists
        reply = reply.replace(FOOTER, "\n--- File: b.txt ---\n```\nb\n```\n" + FOOTER
                              + "- b.txt\n")
    parsed = parse_reply_text(reply)
    assert parsed.problems == ()
    op, *rest = parsed.ops
    assert isinstance(op, FullFile)
    assert op.lines == tuple(lines)
    assert len(rest) == another


def test_a_fenced_file_a_bare_fence_left_over_after_it_is_held() -> None:
    """helper-161, QA s48 helper-162 #1: a ```` fence closed at the first line of the
    file's own ```` sample (its fence lines pair up: nothing counted odd), the sample
    showing a reply or a command; that reply's x.py was written from the sample, or its
    ``:rm`` ran, and the file cut, exit 0. The sample's closing fence and the file's are
    left over after it, past the blocks read from the sample: the file is held with
    every block after it, whatever the footer lists."""
    doc = "# Title\n\nShow:\n"
    for sample in ("--- File: x.py ---\nprint(1)\n````\nDone.\n````\n",
                   ":rm notes.txt\n````\n\nThat is all.\n````\n",
                   "--- File: x.py ---\n```python\nprint(1)\n```\n````\nDone.\n````\n"):
        reply = f"--- File: README.md ---\n````markdown\n{doc}````\n{sample}\n### Changed files:\n"
        for footer in ("- README.md\n", "- README.md\n- x.py\n"):
            parsed = parse_reply_text(reply + footer)
            assert parsed.ops == (), sample
            first = parsed.problems[0]
            assert (first.rule, first.span.start) == ("cut-off", 1)
            assert "a bare fence line that may close it" in first.message


def test_a_fenced_file_followed_by_blocks_with_their_own_fences_is_read() -> None:
    """QA s48 helper-162 #5: two fenced files, the second one's path spelled otherwise in
    the footer (``./b.py``, a numbered list) or left out: both read (a hold of every
    fenced file a block the footer does not list followed, 58b84c1, held them); a sample
    the model opens in text with a language after them is its own."""
    files = ("--- File: a.py ---\n```python\nx = 1\n```\n\n"
             "--- File: b.py ---\n```python\ny = 2\n```\n")
    for footer in ("- a.py\n- ./b.py\n", "1. a.py\n2. b.py\n", "- a.py\n"):
        parsed = parse_reply_text(f"{files}\n### Changed files:\n{footer}")
        assert [op.path for op in parsed.ops] == ["a.py", "b.py"], footer  # type: ignore[union-attr]
    prose = "\nRun it:\n```bash\npython a.py\n```\n"
    parsed = parse_reply_text(f"{files}{prose}\n### Changed files:\n- a.py\n- b.py\n")
    assert [op.path for op in parsed.ops] == ["a.py", "b.py"]  # type: ignore[union-attr]


def test_a_bare_fenced_block_right_after_a_fenced_file_is_held() -> None:
    """QA s48 helper-164 #1, helper-165 #3, #4: a Markdown file in a ``` fence whose bare
    sample shows a header: the fence closed at the sample's first line, and the sample's
    header, its closing fence, the document's next line and the real closing fence read as
    a fenced src/app.py, written over the project's own (exit 0), whatever the footer
    names; and a Python file whose docstring shows such a sample. The header right after
    the closing fence, its file opened by a fence without a language: held, with it."""
    reply = ("--- File: docs/protocol.md ---\n```\n# Protocol\n\nEvery file starts with a "
             "header:\n\n```\n--- File: src/app.py ---\n```\nThe content follows, fenced.\n"
             "```\n\n### Changed files:\n")
    for footer in ("- docs/protocol.md\n", "1. docs/protocol.md\n",
                   "- docs/protocol.md (shows the `--- File: src/app.py ---` header)\n",
                   "- docs/protocol.md\n- src/app.py\n"):
        parsed = parse_reply_text(reply + footer)
        assert parsed.ops == (), footer
        assert "'src/app.py' (line 8) follows the fence that closes it at once" in (
            parsed.problems[0].message)
    program = ("--- File: tool.py ---\n```python\n\"\"\"Tool.\n\nA reply:\n\n```\n"
               "--- File: src/app.py ---\n```\n\"\"\"\n\nprint(1)\n```\n\n"
               "### Changed files:\n- tool.py\n")
    assert parse_reply_text(program).ops == ()
    # A blank line before the next header, or its fence naming a language: read.
    for other in (reply.replace("```\n--- File: src/app.py", "```\n\n--- File: src/app.py"),
                  reply.replace("--- File: src/app.py ---\n```\n", "--- File: src/app.py ---\n"
                                "```python\n")):
        assert [op.path for op in parse_reply_text(other + "- docs/protocol.md\n- src/app.py\n"
                                                   ).ops] == [  # type: ignore[union-attr]
            "docs/protocol.md", "src/app.py"]


def test_a_programs_file_is_not_held_for_a_bare_sample_in_text_after_later_blocks() -> None:
    """QA s48 helper-164 #3: a Python file fenced with its language, a SEARCH/REPLACE edit,
    then prose with a bare-fenced command: 7263519 read the sample's fences as left over
    from the Python file and held every block. A program's file is not read past the next
    block for its own samples; a document's is."""
    edit = "--- File: c.py ---\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n"
    prose = "\nTest:\n```\npytest\n```\n"
    reply = (f"--- File: a.py ---\n```python\nprint(1)\n```\n\n{edit}{prose}\n"
             "### Changed files:\n- a.py\n- c.py\n")
    assert [op.path for op in parse_reply_text(reply).ops] == ["a.py", "c.py"]  # type: ignore[union-attr]
    document = reply.replace("a.py ---\n```python\nprint(1)", "a.md ---\n```markdown\n# A")
    assert parse_reply_text(document.replace("- a.py", "- a.md")).ops == ()


def test_a_python_file_ending_inside_a_string_is_held() -> None:
    """QA s48 helper-167 #2: a Python file whose docstring shows a sample reply, a blank
    line after the sample's opening fence: the ```python fence closed there, tool.py was
    written cut (inside its docstring) and src/app.py from the rest of it, exit 0. A
    Python file whose text ends inside a string is held, with what follows."""
    for sample in ("```\n\n--- File: src/app.py ---\n```\n",
                   "```\n--- File: src/app.py ---\n<<<<<<< SEARCH\nx\n=======\ny\n"
                   ">>>>>>> REPLACE\n```\n"):
        reply = ("--- File: tool.py ---\n```python\n\"\"\"Tool.\n\nA reply:\n\n" + sample
                 + "\"\"\"\n\nprint(1)\n```\n\n### Changed files:\n- tool.py\n")
        parsed = parse_reply_text(reply)
        assert parsed.ops == (), sample
        assert ("ends inside a string, comment or element opened at line 3"
                in parsed.problems[0].message)


def test_a_program_then_a_bare_fenced_file_on_the_next_line_is_read() -> None:
    """QA s48 helper-167 #3: a Python file, then a Makefile whose header follows the
    closing fence at once and whose fence names no language: both read (25d1404 held
    them); the Python file's text is whole."""
    reply = ("--- File: a.py ---\n```python\nprint(1)\n```\n--- File: Makefile ---\n```\n"
             "all:\n\tpython a.py\n```\n\n### Changed files:\n- a.py\n- Makefile\n")
    assert [op.path for op in parse_reply_text(reply).ops] == ["a.py", "Makefile"]  # type: ignore[union-attr]


def test_a_python_script_named_by_its_shebang_ending_inside_a_string_is_held() -> None:
    """QA s48 helper-168: bin/tool, a Python script with no suffix in a bare fence, whose
    docstring showed a sample reply: written cut, and run.sh from the rest, exit 0."""
    reply = ("--- File: bin/tool ---\n```\n#!/usr/bin/env python3\n\"\"\"Tool.\n\nA reply:\n\n"
             "```\n\n--- File: run.sh ---\n```\n\"\"\"\nprint(1)\n```\n\n"
             "### Changed files:\n- bin/tool\n")
    parsed = parse_reply_text(reply)
    assert parsed.ops == ()
    assert "ends inside a string, comment or element opened at line 4" in parsed.problems[0].message


def test_a_shell_script_ending_inside_a_here_document_is_held() -> None:
    """QA s48 helper-168: a heredoc of tool.sh showing a sample reply closed its ```bash
    fence; src/app.py was written from the rest of the script, exit 0. Closed
    here-documents (<<-, quoted delimiters) and a shift (<<) are the script's own."""
    reply = ("--- File: tool.sh ---\n```bash\ncat <<'EOF'\nTool.\n\nA reply:\n\n```\n\n"
             "--- File: src/app.py ---\n```\nEOF\necho done\n```\n\n### Changed files:\n"
             "- tool.sh\n")
    parsed = parse_reply_text(reply)
    assert parsed.ops == ()
    assert "ends inside a string, comment or element opened at line 3" in parsed.problems[0].message
    whole = ("--- File: tool.sh ---\n```bash\ncat <<-\"EOF\"\n\tx\n\tEOF\necho $((1 << 2))\n"
             "cat <<END\ny\nEND\n```\n\n### Changed files:\n- tool.sh\n")
    assert [op.path for op in parse_reply_text(whole).ops] == ["tool.sh"]  # type: ignore[union-attr]


def test_here_documents_are_read_as_the_shell_reads_them() -> None:
    """QA s48 helper-169: a \\EOF delimiter, a heredoc on a line with a <<< here-string were
    not seen (src/app.py written from the rest, exit 0); a shift in arithmetic, << in a
    string or a comment, a delimiter with - were taken for open heredocs (held)."""
    def script(body: str) -> str:
        return f"--- File: tool.sh ---\n```bash\n{body}```\n\n### Changed files:\n- tool.sh\n"

    for opener in ("cat <<\\EOF", "cat <<EOF; read -r x <<< \"$y\""):
        cut = (f"--- File: tool.sh ---\n```bash\n{opener}\nA reply:\n\n```\n\n"
               "--- File: src/app.py ---\n```\nEOF\necho done\n```\n\n### Changed files:\n"
               "- tool.sh\n")
        assert parse_reply_text(cut).ops == (), opener
    for body in ("echo $(( 1 << bits ))\n", "(( x = y << z ))\n", "echo 'a << b'\n",
                 "# feed input with <<EOF\n", "cat <<END-OF-TEXT\nx\nEND-OF-TEXT\n",
                 "cat <<EOF  \nx\nEOF\n"):
        assert [op.path for op in parse_reply_text(script(body)).ops] == ["tool.sh"], body  # type: ignore[union-attr]
    # bash ends a body only at a line that is exactly its delimiter: "EOF  " is body text
    # (this test said the opposite; QA s48 helper-173 W7: src/app.py written, exit 0)
    assert parse_reply_text(script("cat <<EOF\nx\nEOF  \n")).ops == ()


def test_a_script_is_read_as_the_shell_reads_it_across_lines() -> None:
    """QA s48 helper-170: quotes were counted line by line, so a ' inside "..", an escaped
    quote, $'\\'', a # or (( in a string, a string closed on the opener's line, a second
    heredoc on a line hid the heredoc (src/app.py written, exit 0); and a shift or a
    string split over lines, ;# comments, a delimiter "E"OF were taken for open ones; and
    a here-string "<<<x" was read as "<" then a heredoc "<<x" (a read-through's own)."""
    def reply(opener: str) -> str:
        return (f"--- File: tool.sh ---\n```bash\n{opener}\nA reply:\n\n```\n\n"
                "--- File: src/app.py ---\n```\nEOF\necho done\n```\n\n### Changed files:\n"
                "- tool.sh\n")

    for opener in ('echo "it\'s done" && cat <<EOF', "echo '\"'; cat <<EOF",
                   "echo it\\'s; cat <<EOF", "echo $'\\''; cat <<EOF",
                   "grep -v ' #' f; cat <<EOF", 'echo "(("; cat <<EOF',
                   "awk '\n{ print }' f; cat <<EOF", "cat <<A; cat <<EOF\nA"):
        assert parse_reply_text(reply(opener)).ops == (), opener
    for body in ("echo $(( 1\n<< bits ))\n", "echo 'a\n<<FILE'\n", "echo hi;# cat <<EOF\n",
                 'cat <<"E"OF\nx\nEOF\n', "cat <<'E' <<<x; y=$(( 1 << i ))\nline\nE\n"):
        whole = f"--- File: tool.sh ---\n```bash\n{body}```\n\n### Changed files:\n- tool.sh\n"
        assert [op.path for op in parse_reply_text(whole).ops] == ["tool.sh"], body  # type: ignore[union-attr]
