"""Edits in shapes the grammar does not read are parse problems, never a file written
(QA s47 helper-154 M3 to M7).

Each shape below was written as the file's content, markers, label or fence lines
included, or written cut, with exit 0 (M6: exit 1, the file written cut):

* M3: a fenced edit missing its ``<<<<<<< SEARCH`` line;
* M4: Cline's (``------- SEARCH`` / ``+++++++ REPLACE``) and Aider's older
  (``<<<<<<< ORIGINAL`` / ``>>>>>>> UPDATED``) markers;
* M5: ``Edit 1 @ 2 3``, read as line 23;
* M6: a ``## Changed files`` heading of an unfenced file (a PR template) read as the footer;
* M7: a block indented like a list item, its fence lines and indentation written.
"""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.engine import evaluate_session
from reviewtui.core.model.records import FullFile, Reply
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.protocol import edit_signs
from reviewtui.core.protocol.reply import parse_reply_text
from reviewtui.core.protocol.session import parse_session

CONFIG = "name: app\nport: 3000\nmode: dev\n"
FOOTER = ["", "### Changed files:", "- config.yaml", ""]


def full_files(reply: Reply) -> list[FullFile]:
    return [op for op in reply.ops if isinstance(op, FullFile)]


def problems(reply: Reply) -> list[tuple[str, int]]:
    return [(p.rule, p.span.start) for p in reply.problems]


def block(*body: str, path: str = "config.yaml") -> str:
    return "\n".join([f"--- File: {path} ---", *body, *FOOTER])


def written(reply_text: str, files: dict[str, str]) -> dict[str, bytes | None]:
    """The files after the reply is replayed on ``files``."""
    session = parse_session("## Turn 1\n> change\n\n" + reply_text, "s.md")
    tree = Tree.from_files({p: FileState.from_bytes(t.encode()) for p, t in files.items()})
    run = evaluate_session(session, tree)
    out: dict[str, bytes | None] = {}
    for path in files:
        state = run.states[-1].tree.get(path)
        out[path] = None if state is None else state.data
    return out


# -- M3: a fenced edit missing its SEARCH line -----------------------------------------------


@pytest.mark.parametrize(("path", "info"), [("a.py", "python"), ("config.yaml", "yaml"),
                                             ("README.md", "markdown"), ("notes.txt", "")])
@pytest.mark.parametrize("fence", ["```", "~~~"])
def test_a_fenced_edit_without_its_search_line_is_stray_marker(path: str, info: str,
                                                              fence: str) -> None:
    reply = parse_reply_text(block(fence + info, "    return 1", "=======", "    return 2",
                                   ">>>>>>> REPLACE", fence, path=path))
    assert full_files(reply) == []
    assert problems(reply) == [("stray-marker", 6)]
    message = reply.problems[0].message
    assert "(line 4)" in message
    assert "four backticks" in message


def test_it_leaves_the_file_as_it_was() -> None:
    text = block("```python", "    return 1", "=======", "    return 2", ">>>>>>> REPLACE",
                 "```", path="a.py")
    assert written(text, {"a.py": "def f():\n    return 1\n"}) == {
        "a.py": b"def f():\n    return 1\n"}


def test_a_fence_of_four_backticks_keeps_them_content() -> None:
    reply = parse_reply_text(block("````markdown", "Edits end with:", "=======", "new",
                                   ">>>>>>> REPLACE", "````", path="docs/format.md"))
    (full,) = full_files(reply)
    assert full.lines == ("Edits end with:", "=======", "new", ">>>>>>> REPLACE")
    assert reply.problems == ()


def test_a_fenced_git_conflict_is_content() -> None:
    conflict = ("<<<<<<< HEAD", "mode: fast", "=======", "mode: safe", ">>>>>>> feature")
    reply = parse_reply_text(block("```yaml", *conflict, "```"))
    (full,) = full_files(reply)
    assert full.lines == conflict


# -- M4: other tools' marker dialects ---------------------------------------------------------

DIALECTS = [
    ("------- SEARCH", "+++++++ REPLACE", "Cline's SEARCH marker"),
    ("<<<<<<< ORIGINAL", ">>>>>>> UPDATED", "Aider's older marker"),
]


@pytest.mark.parametrize(("search", "replace", "named"), DIALECTS)
@pytest.mark.parametrize("fence", ["", "```yaml", "````yaml"])
def test_another_tools_markers_are_malformed_marker(search: str, replace: str, named: str,
                                                   fence: str) -> None:
    wrap = [fence] if fence else []
    close = [fence[: fence.count("`")]] if fence else []
    reply = parse_reply_text(block(*wrap, search, "port: 3000", "=======", "port: 8080", replace,
                                   *close))
    assert full_files(reply) == []
    assert problems(reply) == [("malformed-marker", 2 + bool(fence))]
    message = reply.problems[0].message
    assert named in message
    assert "'<<<<<<< SEARCH' / '=======' / '>>>>>>> REPLACE'" in message


@pytest.mark.parametrize(("search", "replace", "named"), DIALECTS)
def test_another_tools_markers_leave_the_file_as_it_was(search: str, replace: str,
                                                        named: str) -> None:
    text = block(search, "port: 3000", "=======", "port: 8080", replace)
    assert written(text, {"config.yaml": CONFIG}) == {"config.yaml": CONFIG.encode()}


@pytest.mark.parametrize(("search", "replace", "named"), DIALECTS)
def test_another_tools_edit_after_a_good_one_is_a_problem_on_its_line(
        search: str, replace: str, named: str) -> None:
    reply = parse_reply_text(block("<<<<<<< SEARCH", "name: app", "=======", "name: b",
                                   ">>>>>>> REPLACE", "", search, "port: 3000", "=======",
                                   "port: 8080", replace))
    assert ("malformed-marker", 8) in problems(reply)
    assert named in next(p.message for p in reply.problems if p.rule == "malformed-marker")
    assert [op.replace_lines for op in reply.ops] == [("name: b",)]


def test_clines_replace_after_a_divider_is_stray_marker() -> None:
    reply = parse_reply_text(block("port: 3000", "=======", "port: 8080", "+++++++ REPLACE"))
    assert full_files(reply) == []
    assert problems(reply) == [("stray-marker", 5)]


@pytest.mark.parametrize("lines", [
    ("<<<<<<< ORIGINAL", "a", "=======", "b", ">>>>>>> feature"),  # a branch named ORIGINAL
    ("<<<<<<< HEAD", "a", "=======", "b", ">>>>>>> updated-docs"),
    ("+++ b/a.py", "--- a/a.py", "text"),
])
def test_conflicts_and_diff_lines_stay_content(lines: tuple[str, ...]) -> None:
    reply = parse_reply_text(block(*lines, path="NOTES.txt"))
    (full,) = full_files(reply)
    assert full.lines == lines


# -- M5: a line range written with a space ----------------------------------------------------


@pytest.mark.parametrize("address", ["2 3", "2 3 rev", "2-3 3f2a9c1d", "12:a3 15:f0"])
def test_numbers_apart_by_a_space_are_bad_address(address: str) -> None:
    reply = parse_reply_text(block(f"Edit 1 @ {address}", "=======", "NEW", ">>>>>>> REPLACE"))
    assert reply.ops == ()
    assert problems(reply) == [("bad-address", 2)]


def test_a_range_with_a_space_leaves_the_file_as_it_was() -> None:
    lines = "".join(f"line {n}\n" for n in range(1, 31))
    text = block("Edit 1 @ 2 3", "=======", "NEW", ">>>>>>> REPLACE", path="a.txt")
    assert written(text, {"a.txt": lines}) == {"a.txt": lines.encode()}


@pytest.mark.parametrize("address", ["2 - 3", "2 -3", "2- 3", "12:a3 - 15:f0", "5"])
def test_spaces_around_the_hyphen_still_read(address: str) -> None:
    reply = parse_reply_text(block(f"Edit 1 @ {address}", "=======", "NEW", ">>>>>>> REPLACE"))
    assert reply.problems == ()
    assert len(reply.ops) == 1


# -- M6: a footer-like heading inside an unfenced file ---------------------------------------

TEMPLATE = ["## Summary", "", "What does this change?", "", "## Changed files", "", "- ", "",
            "## Testing", "", "How was it tested?"]
PR = ".github/PULL_REQUEST_TEMPLATE.md"


def test_a_heading_read_as_the_footer_before_a_second_footer_holds_the_file() -> None:
    reply = parse_reply_text("\n".join([f"--- File: {PR} ---", *TEMPLATE, "",
                                        "### Changed files:", f"- {PR}", ""]))
    assert reply.ops == ()
    assert problems(reply) == [("cut-off", 1), ("second-footer", 14)]
    message = reply.problems[0].message
    assert "'## Changed files' (line 6)" in message
    assert "another footer follows (line 14)" in message


def test_it_leaves_the_template_as_it_was() -> None:
    text = "\n".join([f"--- File: {PR} ---", *TEMPLATE, "", "### Changed files:", f"- {PR}", ""])
    assert written(text, {PR: "old\n"}) == {PR: b"old\n"}


def test_a_heading_of_another_level_with_text_after_and_no_real_footer_holds_the_file() -> None:
    reply = parse_reply_text("\n".join([f"--- File: {PR} ---", *TEMPLATE, ""]))
    assert reply.ops == ()
    assert [p.rule for p in reply.problems] == ["cut-off"]
    assert "not the protocol's '### Changed files:'" in reply.problems[0].message


@pytest.mark.parametrize("footer", [
    ["### Changed files:", "- notes.md", "", "Let me know if you need more."],
    ["###Changed files", "- other.md", "", "Let me know if you need more."],
    ["## Changed files", "- notes.md", "", "Let me know if you need more."],
    ["## Changed files", "- other.md"],
    ["## Changed files"],
    ["# Changed files:", "- notes.md", "", "Need: a.py"],
])
def test_a_footer_after_an_unfenced_file_still_ends_it(footer: list[str]) -> None:
    reply = parse_reply_text("\n".join(["--- File: notes.md ---", "# Notes", "", "text", "",
                                        *footer, ""]))
    (full,) = full_files(reply)
    assert full.lines == ("# Notes", "", "text")
    assert "cut-off" not in [p.rule for p in reply.problems]


def test_a_fenced_file_before_two_footers_is_not_held_for_it() -> None:
    reply = parse_reply_text("\n".join(["--- File: notes.md ---", "```", "text", "```", "",
                                        "### Changed files:", "- notes.md", "",
                                        "### Changed files:", "- notes.md", ""]))
    (full,) = full_files(reply)
    assert full.lines == ("text",)


# -- M7: blocks indented like list items ----------------------------------------------------


@pytest.mark.parametrize("header_indent", ["", "   ", "  ", "\t"])
@pytest.mark.parametrize("fence_indent", ["   ", " ", "    ", "\t"])
def test_an_indented_fence_is_indented_fence(header_indent: str, fence_indent: str) -> None:
    reply = parse_reply_text(block(f"{fence_indent}```json", f'{fence_indent}{{"port": 8080}}',
                                   f"{fence_indent}```", path="config.json").replace(
                                       "--- File:", f"{header_indent}--- File:", 1))
    assert full_files(reply) == []
    assert problems(reply) == [("indented-block", 2)]
    assert "'```json' is indented" in reply.problems[0].message


def test_an_indented_block_leaves_the_file_as_it_was() -> None:
    text = block("   ```json", '   {"port": 8080}', "   ```", path="config.json").replace(
        "--- File:", "   --- File:", 1)
    assert written(text, {"config.json": '{"port": 3000}\n'}) == {
        "config.json": b'{"port": 3000}\n'}


@pytest.mark.parametrize("indent", ["   ", "  ", "\t"])
def test_an_indented_header_over_content_just_as_indented_is_indented_block(indent: str) -> None:
    text = "\n".join(["## Turn 1", "> port", "", "1. The port:", "",
                      f"{indent}--- File: a.py ---", f"{indent}def f():", f"{indent}    return 2",
                      "", "### Changed files:", "- a.py", ""])
    session = parse_session(text, "s.md")
    reply = session.turns[0].reply
    assert reply.ops == ()
    assert problems(reply) == [("indented-block", 7)]
    assert f"indented by {len(indent)} characters" in reply.problems[0].message
    tree = Tree.from_files({"a.py": FileState.from_bytes(b"def f():\n    return 1\n")})
    run = evaluate_session(session, tree)
    state = run.states[-1].tree.get("a.py")
    assert state is not None
    assert state.data == b"def f():\n    return 1\n"


@pytest.mark.parametrize("content", [["def f():", "    return 2"], ["   x", "y"]])
def test_an_indented_header_over_content_at_the_start_of_the_line_is_content(
        content: list[str]) -> None:
    reply = parse_reply_text(block(*content, path="a.py").replace("--- File:", "   --- File:", 1))
    (full,) = full_files(reply)
    assert full.lines == tuple(content)
    assert reply.problems == ()


def test_indented_content_in_a_fence_at_the_start_of_the_line_is_content() -> None:
    reply = parse_reply_text(block("```python", "    return 1", "    ```", "```", path="a.py"))
    (full,) = full_files(reply)
    assert full.lines == ("    return 1", "    ```")


# -- property: no full file holds an edit's markers, in any dialect, unless ```` fences it ----

LINES = st.sampled_from([
    "x = 1", "port: 80", "", "=======", "=====", "  =======", ">>>>>>> REPLACE", ">>>> replace",
    "+++++++ REPLACE", "------- SEARCH", "<<<<<<< ORIGINAL", ">>>>>>> UPDATED", ">>>>>>> feature",
    "<<<<<<< HEAD", "- item", "+ item", "# comment", "   ```json", "Edit 1",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(LINES, max_size=12), st.sampled_from(["", "```", "~~~", "```yaml"]))
def test_no_full_file_holds_markers_of_any_dialect(body: list[str], fence: str) -> None:
    wrap = [fence] if fence else []
    close = [fence[:3]] if fence else []
    reply = parse_reply_text("\n".join(["--- File: a.txt ---", *wrap, *body, *close, *FOOTER]))
    for full in full_files(reply):
        lines = full.lines
        assert not any(edit_signs.is_search_like(line) for line in lines)
        dividers = [k for k, line in enumerate(lines) if edit_signs.is_divider_like(line)]
        if dividers:
            assert not any(edit_signs.is_replace_like(line) for line in lines[dividers[0]:])
        originals = [k for k, line in enumerate(lines) if edit_signs.is_original(line)]
        if originals:
            assert not any(edit_signs.is_updated(line) for line in lines[originals[0]:])
        content = [line for line in lines if line.strip()]
        if not fence and content:
            assert content[0] == content[0].lstrip() or not content[0].lstrip().startswith("```")
