"""The reply grammar: every element, with its spans, and every malformed-input path."""

from __future__ import annotations

import textwrap

import pytest

from reviewtui.core.model.records import (
    CommandName,
    ConsoleBlock,
    Edit,
    FileBlock,
    FullFile,
    Span,
)
from reviewtui.core.protocol.reply import parse_reply_text, split_lines


def parse(text: str):  # type: ignore[no-untyped-def]
    return parse_reply_text(textwrap.dedent(text).lstrip("\n"))


def rules(reply) -> list[str]:  # type: ignore[no-untyped-def]
    return [p.rule for p in reply.problems]


# -- console blocks ------------------------------------------------------------


@pytest.mark.parametrize("info", ["console", "sh", "shell", "bash", "text", ""])
def test_fenced_console_block_with_each_info_string(info: str) -> None:
    reply = parse(f"""
        ```{info}
        :mv src/a.js src/b.js
        :rm build/*.tmp
        ```
        """)
    (block,) = reply.blocks
    assert isinstance(block, ConsoleBlock)
    assert block.fenced
    assert block.span == Span(1, 4)
    mv, rm = block.commands
    assert (mv.name, mv.args, mv.span) == (CommandName.MV, ("src/a.js", "src/b.js"), Span(2, 2))
    assert (rm.name, rm.args, rm.span) == (CommandName.RM, ("build/*.tmp",), Span(3, 3))


def test_every_command_and_force_flag() -> None:
    reply = parse("""
        ```console
        :rm a.txt b/*.log
        :mv -f src/a.js lib/
        :rn -f .jsx .tsx
        :undo
        :unrm a.txt
        ```
        """)
    cmds = reply.ops
    assert [c.name for c in cmds] == ["rm", "mv", "rn", "undo", "unrm"]
    assert cmds[0].args == ("a.txt", "b/*.log")
    assert (cmds[1].force, cmds[1].args) == (True, ("src/a.js", "lib/"))
    assert (cmds[2].force, cmds[2].args) == (True, (".jsx", ".tsx"))
    assert cmds[3].args == ()
    assert not cmds[0].force


def test_quoted_path_with_space() -> None:
    reply = parse("""
        ```console
        :mv "docs/old name.md" docs/new.md
        ```
        """)
    assert reply.ops[0].args == ("docs/old name.md", "docs/new.md")


def test_bare_command_lines_outside_fence() -> None:
    reply = parse("""
        :rm old.txt
        :mv a.py b.py

        ### Changed files:
        - old.txt (removed)
        """)
    (block,) = reply.blocks
    assert isinstance(block, ConsoleBlock)
    assert not block.fenced
    assert [c.name for c in block.commands] == ["rm", "mv"]
    assert not reply.ops[0].fenced


def test_unknown_command_is_an_error_with_its_line() -> None:
    reply = parse("""
        ```console
        :rm a.txt
        :cp a.txt b.txt
        ```
        """)
    assert rules(reply) == ["unknown-command"]
    assert reply.problems[0].span == Span(3, 3)
    assert [c.name for c in reply.ops] == ["rm"]


@pytest.mark.parametrize("line", [":mv onlyone", ":rn a b c", ":undo now", ":rm", ":unrm"])
def test_wrong_argument_count(line: str) -> None:
    reply = parse(f"""
        ```console
        {line}
        ```
        """)
    assert rules(reply) == ["bad-command-arguments"]
    assert reply.ops == ()


def test_fence_with_non_command_lines_is_not_console() -> None:
    reply = parse("""
        ```sh
        :rm a
        echo hi
        ```
        """)
    assert reply.blocks == ()
    assert reply.stray[0].span == Span(1, 4)


# -- file blocks: search/replace -------------------------------------------------


def test_labelled_edits_with_spans() -> None:
    reply = parse("""
        --- File: src/app.js ---
        Edit 1
        <<<<<<< SEARCH
        const a = 1;
        =======
        const a = 2;
        >>>>>>> REPLACE

        Edit 2
        <<<<<<< SEARCH
        b();
        =======
        >>>>>>> REPLACE
        """)
    (block,) = reply.blocks
    assert isinstance(block, FileBlock)
    assert block.path == "src/app.js"
    assert block.header_span == Span(1, 1)
    e1, e2 = block.ops
    assert isinstance(e1, Edit)
    assert isinstance(e2, Edit)
    assert (e1.number, e1.ordinal, e1.span) == (1, 1, Span(2, 7))
    assert e1.search_lines == ("const a = 1;",)
    assert e1.replace_lines == ("const a = 2;",)
    assert e1.search_span == Span(3, 5)
    assert e1.search == "const a = 1;\n"
    assert (e2.number, e2.ordinal) == (2, 2)
    assert e2.replace_lines == ()
    assert e2.replace == ""


@pytest.mark.parametrize("width", [5, 7, 9])
def test_marker_widths_and_trailing_spaces(width: int) -> None:
    reply = parse(
        f"--- File: a.py ---\n{'<' * width} SEARCH  \nx = 1\n{'=' * width} \n"
        f"x = 2\n{'>' * width} REPLACE\n"
    )
    (edit,) = reply.ops
    assert isinstance(edit, Edit)
    assert edit.search_lines == ("x = 1",)
    assert edit.replace_lines == ("x = 2",)


def test_four_or_ten_marker_chars_are_not_markers() -> None:
    reply = parse("--- File: a.py ---\n<<<< SEARCH\nx\n====\ny\n>>>> REPLACE\n")
    assert not any(isinstance(op, Edit) for op in reply.ops)


def test_unlabelled_edits_and_whitespace_kept_exactly() -> None:
    reply = parse(
        "--- File: main.go ---\n<<<<<<< SEARCH\n\tif x {  \n=======\n\tif y {\n>>>>>>> REPLACE\n"
    )
    (edit,) = reply.ops
    assert isinstance(edit, Edit)
    assert (edit.number, edit.label) == (None, 1)
    assert edit.search_lines == ("\tif x {  ",)


def test_whole_file_block_in_a_fence() -> None:
    reply = parse("""
        --- File: a.py ---
        ```python
        Edit 1
        <<<<<<< SEARCH
        x = 1
        =======
        x = 2
        >>>>>>> REPLACE
        ```
        ### Changed files:
        - a.py
        """)
    (block,) = reply.blocks
    assert isinstance(block, FileBlock)
    assert block.span == Span(1, 9)
    assert reply.ops[0].search_lines == ("x = 1",)
    assert reply.stray == ()


def test_fence_around_header_and_edits() -> None:
    reply = parse("""
        ```
        --- File: a.py ---
        <<<<<<< SEARCH
        x = 1
        =======
        x = 2
        >>>>>>> REPLACE
        ```
        """)
    assert [op.path for op in reply.ops] == ["a.py"]
    assert reply.stray == ()


def test_fence_around_each_edit() -> None:
    reply = parse("""
        --- File: a.py ---
        Edit 1
        ```python
        <<<<<<< SEARCH
        x = 1
        =======
        x = 2
        >>>>>>> REPLACE
        ```
        Edit 2
        ```python
        <<<<<<< SEARCH
        y = 1
        =======
        y = 2
        >>>>>>> REPLACE
        ```
        """)
    assert [op.number for op in reply.ops] == [1, 2]
    assert reply.stray == ()
    assert reply.problems == ()


def test_search_content_may_hold_marker_like_lines_of_other_widths() -> None:
    reply = parse(
        "--- File: a.md ---\n<<<<<<< SEARCH\n====\ntitle\n=======\n----\n>>>>>>> REPLACE\n"
    )
    assert reply.ops[0].search_lines == ("====", "title")


def test_missing_divider_is_unterminated() -> None:
    reply = parse("""
        --- File: a.py ---
        <<<<<<< SEARCH
        x = 1
        >>>>>>> REPLACE
        """)
    assert rules(reply) == ["unterminated-edit"]
    assert reply.ops == ()


def test_missing_replace_marker_at_end() -> None:
    reply = parse("--- File: a.py ---\n<<<<<<< SEARCH\nx\n=======\ny\n")
    assert rules(reply) == ["unterminated-edit"]
    assert reply.problems[0].span.start == 2


def test_missing_replace_before_next_header_does_not_swallow_it() -> None:
    reply = parse("""
        --- File: a.py ---
        <<<<<<< SEARCH
        x
        =======
        y
        --- File: b.py ---
        print(1)

        ### Changed files:
        - b.py
        """)
    assert rules(reply) == ["unterminated-edit"]
    assert [(op.kind, op.path) for op in reply.ops] == [("full_file", "b.py")]


def test_stray_divider_and_dangling_label() -> None:
    reply = parse("""
        --- File: a.py ---
        Edit 1
        <<<<<<< SEARCH
        x
        =======
        y
        >>>>>>> REPLACE
        >>>>>>> REPLACE
        Edit 2
        """)
    assert sorted(rules(reply)) == ["dangling-label", "stray-marker"]


def test_edit_before_any_header() -> None:
    reply = parse("""
        <<<<<<< SEARCH
        x
        =======
        y
        >>>>>>> REPLACE
        """)
    assert rules(reply) == ["edit-without-header"]
    assert reply.ops == ()
    assert reply.problems[0].span == Span(1, 5)


def test_header_without_path_and_empty_block() -> None:
    reply = parse("""
        --- File:  ---
        --- File: b.py ---

        ### Changed files:
        - b.py
        """)
    assert sorted(rules(reply)) == ["empty-file-block", "empty-file-block", "header-without-path"]


def test_prose_between_edits_of_one_file_is_stray() -> None:
    reply = parse("""
        --- File: a.py ---
        <<<<<<< SEARCH
        x
        =======
        y
        >>>>>>> REPLACE
        Now the second change:
        <<<<<<< SEARCH
        p
        =======
        q
        >>>>>>> REPLACE
        """)
    assert len(reply.ops) == 2
    assert [r.span for r in reply.stray] == [Span(7, 7)]


# -- file blocks: full content ------------------------------------------------------


def test_full_file_unfenced_until_next_header() -> None:
    reply = parse("""
        --- File: notes.txt ---
        line one
          line two

        --- File: b.txt ---
        bee

        ### Changed files:
        - notes.txt
        - b.txt
        """)
    first, second = reply.ops
    assert isinstance(first, FullFile)
    assert first.lines == ("line one", "  line two")
    assert first.span == Span(2, 3)
    assert first.content == "line one\n  line two\n"
    assert second.lines == ("bee",)


def test_full_file_fenced_is_stripped_and_longer_fence_holds_backticks() -> None:
    reply = parse("""
        --- File: README.md ---
        ````markdown
        # Title
        ```sh
        make demo
        ```
        ````
        ### Changed files:
        - README.md (new)
        """)
    (op,) = reply.ops
    assert isinstance(op, FullFile)
    assert op.lines == ("# Title", "```sh", "make demo", "```")
    assert op.span == Span(3, 6)
    assert reply.footer is not None


def test_full_file_ends_at_console_block() -> None:
    reply = parse("""
        --- File: a.txt ---
        alpha
        ```console
        :rm b.txt
        ```
        """)
    full, rm = reply.ops
    assert isinstance(full, FullFile)
    assert full.lines == ("alpha",)
    assert rm.name == CommandName.RM


def test_unclosed_fence_is_reported() -> None:
    reply = parse("""
        --- File: a.txt ---
        ```
        alpha
        """)
    # The reply stops inside the fence: its content may be cut off, and is no operation
    # (QA s47 helper-147 H3: a cut file was written).
    assert rules(reply) == ["unclosed-fence"]
    assert reply.ops == ()
    assert "not read as an operation" in reply.problems[0].message


def test_empty_full_file_in_fence() -> None:
    reply = parse("--- File: empty.txt ---\n```\n```\n")
    (op,) = reply.ops
    assert isinstance(op, FullFile)
    assert op.lines == ()
    assert op.content == ""


# -- footer, Need, stray text ----------------------------------------------------------


def test_footer_entries_with_notes() -> None:
    reply = parse("""
        --- File: a.py ---
        x
        ### Changed files:
        - a.py (new)
        - `src/b.py` — renamed the helper
        - c.py (deleted)
        Need: lib/d.py, lib/e.py
        """)
    assert reply.footer is not None
    assert [(e.path, e.note) for e in reply.footer.entries] == [
        ("a.py", "(new)"),
        ("src/b.py", "renamed the helper"),
        ("c.py", "(deleted)"),
    ]
    assert reply.footer.span == Span(3, 6)
    assert reply.need == ("lib/d.py", "lib/e.py")
    assert reply.need_span == Span(7, 7)


def test_need_as_list_items() -> None:
    reply = parse("""
        ### Changed files:
        - a.py
        Need:
        - lib/d.py
        - lib/e.py
        """)
    assert reply.need == ("lib/d.py", "lib/e.py")
    assert reply.need_span == Span(3, 5)


def test_stray_text_is_never_file_content() -> None:
    reply = parse("""
        Sure! Here is the change you asked for.

        --- File: a.py ---
        <<<<<<< SEARCH
        x
        =======
        y
        >>>>>>> REPLACE
        That should fix it.
        ### Changed files:
        - a.py
        Let me know if you need more.
        """)
    assert [(r.span, r.after_footer) for r in reply.stray] == [
        (Span(1, 1), False),
        (Span(9, 9), False),
        (Span(12, 12), True),
    ]
    assert reply.ops[0].replace_lines == ("y",)


def test_code_sample_in_prose_is_stray() -> None:
    reply = parse("""
        Example:
        ```python
        print("hi")
        ```
        """)
    assert reply.blocks == ()
    assert [r.span for r in reply.stray] == [Span(1, 1), Span(2, 4)]


def test_second_footer() -> None:
    reply = parse("""
        ### Changed files:
        - a.py
        ### Changed files:
        """)
    assert rules(reply) == ["second-footer"]


def test_crlf_reply() -> None:
    text = "--- File: a.py ---\r\n<<<<<<< SEARCH\r\nx\r\n=======\r\ny\r\n>>>>>>> REPLACE\r\n"
    reply = parse_reply_text(text)
    assert reply.ops[0].search_lines == ("x",)
    assert split_lines("a\r\nb\r\n") == ["a", "b"]
    assert split_lines("a\nb") == ["a", "b"]


def test_ops_keep_reply_order() -> None:
    reply = parse("""
        --- File: b.py ---
        b
        ```console
        :rm c.py
        ```
        --- File: a.py ---
        a

        ### Changed files:
        - a.py
        """)
    assert [(op.kind, getattr(op, "path", None)) for op in reply.ops] == [
        ("full_file", "b.py"),
        ("console", "c.py"),
        ("full_file", "a.py"),
    ]


def test_footer_path_with_colon_note() -> None:
    reply = parse("### Changed files:\n- src/a.py: updated the loop\n")
    assert reply.footer is not None
    assert [(e.path, e.note) for e in reply.footer.entries] == [("src/a.py", "updated the loop")]


def test_fenced_edits_mark_the_block_fenced_and_spans_skip_blank_lines() -> None:
    reply = parse("""
        --- File: b.py ---
        ```python
        <<<<<<< SEARCH
        a
        =======
        b
        >>>>>>> REPLACE
        ```

        --- File: c.py ---
        <<<<<<< SEARCH
        a
        =======
        b
        >>>>>>> REPLACE

        ### Changed files:
        - b.py
        """)
    first, second = reply.blocks
    assert isinstance(first, FileBlock)
    assert isinstance(second, FileBlock)
    assert first.fenced
    assert not second.fenced
    assert second.span == Span(10, 15)


def test_orphan_label_before_header_is_reported_once() -> None:
    reply = parse("Edit 1\n--- File: a.py ---\nx = 1\n\n### Changed files:\n- a.py\n")
    assert rules(reply) == ["dangling-label"]


def test_force_flag_only_for_mv_and_rn() -> None:
    reply = parse("```console\n:rm -f a.py\n```\n")
    assert rules(reply) == ["bad-command-arguments"]
    assert reply.ops == ()
