"""A block a reply may hold only part of is no operation (QA s47 helper-147 H3, H4): a
reply cut off inside a full file wrote the file cut, and one cut inside its console line
ran ``:rm src`` of ``:rm src/old.py`` (a whole folder removed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from reviewtui.cli import main
from reviewtui.core.model.records import ConsoleCommand, FullFile
from reviewtui.core.protocol.grammar import Fence
from reviewtui.core.protocol.reply import parse_reply_text

FOOTER = "\n### Changed files:\n- notes.md\n"
FULL = "".join(f"item {i}\n" for i in range(12))


def _rules(text: str) -> list[str]:
    return [p.rule for p in parse_reply_text(text).problems]


def test_a_fence_that_never_closes_holds_no_operation() -> None:
    for reply in (f"--- File: notes.md ---\n```\n{FULL[:40]}",
                  "```console\n:rm src"):
        parsed = parse_reply_text(reply)
        assert parsed.ops == ()
        (problem,) = parsed.problems
        assert problem.rule == "unclosed-fence"
        assert problem.message.endswith("not read as an operation")


def test_a_reply_with_no_footer_does_not_end_in_an_operation_it_may_have_cut() -> None:
    unfenced = f"--- File: notes.md ---\n{FULL}"
    assert parse_reply_text(unfenced).ops == ()
    assert _rules(unfenced) == ["cut-off"]
    # With its footer the reply is whole: the file is one.
    (op,) = parse_reply_text(unfenced + FOOTER).ops
    assert isinstance(op, FullFile)
    assert len(op.lines) == 12
    # A fenced file closes by itself; edits end with their own marker.
    fenced = f"--- File: notes.md ---\n```\n{FULL}```\n"
    assert len(parse_reply_text(fenced).ops) == 1
    edit = "--- File: a.py ---\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n"
    assert len(parse_reply_text(edit).ops) == 1
    # Command lines outside a fence: every line is whole but the last.
    bare = parse_reply_text(":rm old.py\n:rm src")
    assert [c.args for c in bare.ops if isinstance(c, ConsoleCommand)] == [("old.py",)]
    assert [(p.rule, p.span.start) for p in bare.problems] == [("cut-off", 2)]
    # A full file before another block is closed by that block.
    two = unfenced + "\n--- File: b.md ---\n```\nb\n```\n"
    assert [op.path for op in parse_reply_text(two).ops] == ["notes.md", "b.md"]


def test_a_fence_the_files_own_sample_closed_holds_the_file() -> None:
    readme = "# Tool\n\nRun it:\n\n```\nmake demo\n```\n\nThe end.\n"
    for sample in (readme, readme.replace("```\nmake", "```sh\nmake")):
        reply = f"--- File: README.md ---\n```\n{sample}```\n{FOOTER}"
        parsed = parse_reply_text(reply)
        assert parsed.ops == (), sample
        assert "cut-off" in _rules(reply)
        # A longer fence holds the sample: the whole file is the operation.
        (op,) = parse_reply_text(reply.replace("```\n# Tool", "````\n# Tool").replace(
            "The end.\n```\n", "The end.\n````\n")).ops
        assert isinstance(op, FullFile)
        assert op.content == sample
    # Prose after a fenced file (no fence in it) leaves the file whole.
    prose = f"--- File: a.md ---\n```\nhello\n```\nThat is all.\n{FOOTER}"
    assert len(parse_reply_text(prose).ops) == 1


@given(st.integers(0, 8), st.sampled_from(["`", "~"]))
def test_a_fence_indented_four_or_more_never_closes(indent: int, char: str) -> None:
    """As CommonMark reads it: a docstring's indented sample closed the file's fence."""
    assert Fence(char, 3, "").closes(" " * indent + char * 3) is (indent <= 3)
    assert not Fence(char, 3, "").closes("\t" + char * 3)


@pytest.mark.parametrize("reply", [
    f"--- File: notes.md ---\n{FULL[:30]}",        # cut inside an unfenced full file
    f"--- File: notes.md ---\n```\n{FULL[:30]}",   # inside a fenced one
    "```console\n:rm src",                         # inside a console block
    ":rm src",                                     # inside a bare command line
])
def test_apply_writes_nothing_of_a_cut_reply_and_exits_1(
        tmp_path: Path, reply: str, capsys: pytest.CaptureFixture[str]) -> None:
    root = tmp_path / "root"
    (root / "src").mkdir(parents=True)
    (root / "notes.md").write_text(FULL)
    (root / "src" / "old.py").write_text("old\n")
    session = tmp_path / "s.md"
    session.write_text(f"## Turn 1\n> go\n\n{reply}")
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 1
    assert (root / "notes.md").read_text() == FULL
    assert (root / "src" / "old.py").read_text() == "old\n"
    out = capsys.readouterr().out
    assert "not read as an operation" in out


def test_apply_says_a_reply_with_no_footer_and_exits_1(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The edits land (each carries its own end), and the missing footer is said as
    check says it: an error, exit 1 (it was not said, exit 0)."""
    root = tmp_path / "root"
    root.mkdir()
    (root / "a.py").write_text("x = 1\n")
    session = tmp_path / "s.md"
    edit = "--- File: a.py ---\n<<<<<<< SEARCH\nx = 1\n=======\nx = 2\n>>>>>>> REPLACE\n"
    session.write_text(f"## Turn 1\n> go\n\n{edit}")
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 1
    assert (root / "a.py").read_text() == "x = 2\n"
    assert "footer-missing error" in capsys.readouterr().out
    session.write_text(f"## Turn 1\n> go\n\n{edit}\n### Changed files:\n- a.py\n")
    (root / "a.py").write_text("x = 1\n")
    assert main(["apply", str(session), "--root", str(root), "--yes"]) == 0


def test_an_indented_closing_fence_before_a_header_closes() -> None:
    """QA s47 helper-154 H1: a closing fence indented to the code above it no longer
    closed, and the next file's header and content were written into the file, exit 0."""
    reply = ("--- File: a.py ---\n```python\ndef f():\n    return 2\n    ```\n\n"
             "--- File: b.py ---\n```python\ny = 1\n```\n"
             "\n### Changed files:\n- a.py\n- b.py\n")
    assert [(op.path, op.lines) for op in parse_reply_text(reply).ops] == [  # type: ignore[union-attr]
        ("a.py", ("def f():", "    return 2")), ("b.py", ("y = 1",))]
    # Inside the file, before more of its own lines, it is the file's own text.
    inside = reply.replace("    ```\n\n--- File: b.py", "    ```\n    x = 1\n```\n\n--- File: b.py")
    assert parse_reply_text(inside).ops[0].lines[-2:] == ("    ```", "    x = 1")  # type: ignore[union-attr]


def test_a_wrapping_fence_after_an_unfenced_file_is_no_content() -> None:
    """QA s47 helper-154 H6: the fence that wraps the next block (and its closing one) was
    written into the unfenced files around it, exit 0."""
    reply = ("--- File: notes.md ---\nline1\n\n```\n--- File: b.md ---\nbb\n```\n" + FOOTER)
    assert [(op.path, op.lines) for op in parse_reply_text(reply).ops] == [  # type: ignore[union-attr]
        ("notes.md", ("line1",)), ("b.md", ("bb",))]
    # A file whose own code blocks pair up keeps its last fence line.
    own = "--- File: r.md ---\nRun:\n```\nmake\n```\n" + FOOTER
    assert parse_reply_text(own).ops[0].lines == ("Run:", "```", "make", "```")  # type: ignore[union-attr]


@pytest.mark.parametrize("shape", ["sample-open", "header-inside", "no-footer", "sample-last",
                                   "sample-in-list"])
def test_a_fenced_file_its_own_sample_may_have_closed_is_held_with_what_follows(
        shape: str) -> None:
    """QA s47 helper-154 H3: the file written cut at its own code sample, and the rest of
    its text read as blocks (a `--- File:` example in it written as a file)."""
    replies = {
        # its sample's closing fence closed the file's: the content opens a sample
        "sample-open": "--- File: r.md ---\n```\nRun:\n```sh\nmake\n```\nmore\n```\n" + FOOTER,
        # the doc goes on into a header example after the early close
        "header-inside": ("--- File: r.md ---\n```\nRun:\n```\nmake\n```\nLike this:\n\n"
                          "--- File: x.py ---\nprint(1)\n```\n" + FOOTER),
        # the reply stops after the sample
        "no-footer": "--- File: r.md ---\n```\nRun:\n```\nmake\n```\nand then",
        # a sample in a list item: its indented closing fence closed the file's (helper-157)
        "sample-in-list": ("--- File: r.md ---\n```\n1. Run:\n   ```bash\n   make\n   ```\n"
                           "2. Done.\n```\n\n--- File: b.md ---\n```\nbb\n```\n" + FOOTER),
        "sample-last": ("--- File: r.md ---\n```\nRun:\n```sh\nmake\n```\n```\n\n"
                        "--- File: b.md ---\n```\nbb\n```\n" + FOOTER),
    }
    parsed = parse_reply_text(replies[shape])
    assert "r.md" not in [getattr(op, "path", None) for op in parsed.ops], shape
    assert "x.py" not in [getattr(op, "path", None) for op in parsed.ops]
    assert "cut-off" in [p.rule for p in parsed.problems]


def test_a_sample_in_prose_after_a_closed_file_holds_nothing() -> None:
    """QA s47 helper-154 L1: a sample the model opens in prose names its language; the
    file before it was held as closed early."""
    reply = ("--- File: a.md ---\n```\ntext\n```\n\n```bash\n# drop the old one\n"
             ":rm old.md\n```\n" + FOOTER)
    assert [op.path for op in parse_reply_text(reply).ops] == ["a.md"]  # type: ignore[union-attr]
