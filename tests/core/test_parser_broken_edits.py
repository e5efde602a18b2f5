"""A slightly malformed edit is a parse problem, never a full file (QA s47 helper-147 H2).

Before, a block whose SEARCH marker or line range the grammar could not read had no
SEARCH marker, so it was taken as the file's whole content: the label and the markers
were written over the file, exit 0, no finding.
"""

from __future__ import annotations

import textwrap

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.engine import evaluate_session
from reviewtui.core.model.records import FullFile, Reply
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.protocol import edit_signs
from reviewtui.core.protocol.reply import parse_reply_text
from reviewtui.core.protocol.session import parse_session

CONFIG = "name: app\nport: 80\nhost: localhost\nworkers: 4\n"


def parse(text: str) -> Reply:
    return parse_reply_text(textwrap.dedent(text).lstrip("\n"))


def full_files(reply: Reply) -> list[FullFile]:
    return [op for op in reply.ops if isinstance(op, FullFile)]


def problems(reply: Reply) -> list[tuple[str, int]]:
    return [(p.rule, p.span.start) for p in reply.problems]


def addressed(address: str, fence: str = "") -> str:
    wrap = [fence] if fence else []
    return "\n".join(["--- File: config.yaml ---", *wrap, f"Edit 1 @ {address}", "=======",
                      "port: 8080", "host: 0.0.0.0", ">>>>>>> REPLACE", *(["```"] if fence else []),
                      "", "### Changed files:", "- config.yaml", ""])


def marked(marker: str, fence: str = "", label: str = "Edit 1") -> str:
    wrap = [fence] if fence else []
    return "\n".join(["--- File: config.yaml ---", *wrap, *([label] if label else []), marker,
                      "port: 80", "=======", "port: 8080", ">>>>>>> REPLACE",
                      *(["```"] if fence else []), "", "### Changed files:", "- config.yaml", ""])


ADDRESSES = ["2–3", "L2-L3", "lines 2-3", "2..3", "2—3", "2 to 3"]
MARKERS = ["<<<< SEARCH", "<<<<<<<<<< SEARCH", "<<<<<<< search", "<<<<<<< SEARCH:",
           "  <<<<<<< SEARCH", "<<< Search"]


@pytest.mark.parametrize("address", ADDRESSES)
@pytest.mark.parametrize("fence", ["", "```yaml"])
def test_an_address_the_grammar_cannot_read_is_bad_address(address: str, fence: str) -> None:
    reply = parse_reply_text(addressed(address, fence))
    assert full_files(reply) == []
    assert reply.ops == ()
    line = 3 if fence else 2
    assert problems(reply) == [("bad-address", line)]
    message = reply.problems[0].message
    assert f"'Edit 1 @ {address}'" in message
    assert "'@ 140-148'" in message
    assert "'config.yaml' is not read as the file's content" in message


@pytest.mark.parametrize("marker", MARKERS)
@pytest.mark.parametrize("fence", ["", "```yaml"])
@pytest.mark.parametrize("label", ["Edit 1", ""])
def test_a_search_marker_a_little_off_is_malformed_marker(marker: str, fence: str,
                                                          label: str) -> None:
    reply = parse_reply_text(marked(marker, fence, label))
    assert full_files(reply) == []
    line = 2 + bool(fence) + bool(label)
    assert problems(reply) == [("malformed-marker", line)]
    assert repr(marker.strip()) in reply.problems[0].message
    assert "write '<<<<<<< SEARCH'" in reply.problems[0].message


def test_a_divider_then_a_replace_marker_unfenced_is_stray_marker() -> None:
    reply = parse("""
        --- File: config.yaml ---
        port: 80
        =======
        port: 8080
        >>>>>>> REPLACE
        """)
    assert full_files(reply) == []
    assert problems(reply) == [("stray-marker", 5)]
    assert "(line 3)" in reply.problems[0].message
    assert "fence the content" in reply.problems[0].message


def test_a_bare_label_before_unfenced_content_is_dangling_label() -> None:
    reply = parse("""
        --- File: config.yaml ---
        Edit 1
        port: 8080
        """)
    assert full_files(reply) == []
    assert problems(reply) == [("dangling-label", 2)]


# -- what stays a full file -------------------------------------------------------------


def test_a_fenced_file_may_hold_a_divider_and_a_replace_marker() -> None:
    reply = parse("""
        --- File: docs/format.md ---
        ````markdown
        Edits end with:
        =======
        new lines
        >>>>>>> REPLACE
        ````
        """)
    (full,) = full_files(reply)
    assert full.lines == ("Edits end with:", "=======", "new lines", ">>>>>>> REPLACE")
    assert reply.problems == ()


def test_a_git_conflict_unfenced_is_content() -> None:
    conflict = ["# Notes", "<<<<<<< HEAD", "- mode: fast", "=======", "- mode: safe",
                ">>>>>>> feature"]
    reply = parse_reply_text("\n".join(["--- File: NOTES.md ---", *conflict, "",
                                        "### Changed files:", "- NOTES.md", ""]))
    (full,) = full_files(reply)
    assert full.lines == tuple(conflict)
    assert reply.problems == ()


@pytest.mark.parametrize("first", ["Edit 1: the manuscript", "Edit 2 (draft)", "Edit 3 @ 2–3"])
def test_a_fenced_file_may_start_like_a_label(first: str) -> None:
    reply = parse_reply_text("\n".join(["--- File: notes.txt ---", "```", first, "=====",
                                        "text", "```", ""]))
    (full,) = full_files(reply)
    assert full.lines == (first, "=====", "text")


def test_rst_underlines_and_doctests_are_content() -> None:
    reply = parse("""
        --- File: README.rst ---
        Project
        =======

        >>> replace("a")
        'b'

        ### Changed files:
        - README.rst
        """)
    (full,) = full_files(reply)
    assert full.lines[0] == "Project"


# -- apply: the file is left as it was ---------------------------------------------------


@pytest.mark.parametrize("reply", [addressed(a) for a in ADDRESSES] + [marked(m) for m in MARKERS])
def test_nothing_is_written_for_a_broken_edit(reply: str) -> None:
    session = parse_session("## Turn 1\n> port 8080\n\n" + reply, "s.md")
    tree = Tree.from_files({"config.yaml": FileState.from_bytes(CONFIG.encode())})
    run = evaluate_session(session, tree)
    assert [res.outcome for t in run.turns for res in t.results] == []
    state = run.states[-1].tree.get("config.yaml")
    assert state is not None
    assert state.data == CONFIG.encode()
    assert session.turns[0].reply.problems


# -- property: no full file holds what only an edit holds ----------------------------------

LINES = st.sampled_from([
    "x = 1", "port: 80", "", "Edit 1", "Edit 2 @ 2–3", "**Edit 3**", "Edit 4: why",
    "=======", "=====", "===", "  =======", ">>>>>>> REPLACE", ">>>> replace", ">>> replace",
    ">>>>>>> feature", "<<<<<<< HEAD", "<<<< SEARCH", "<<<<<<< search", "<<< search:",
    "# comment", "```", "````", "- item",
])


@settings(max_examples=300, deadline=None)
@given(st.lists(LINES, max_size=12), st.booleans())
def test_no_full_file_holds_an_edits_markers(body: list[str], fenced: bool) -> None:
    wrap = ["````"] if fenced else []
    reply = parse_reply_text("\n".join(["--- File: a.txt ---", *wrap, *body, *wrap, ""]))
    for full in full_files(reply):
        lines = full.lines
        assert not any(edit_signs.is_search_like(line) for line in lines)
        content = [line for line in lines if line.strip()]
        if not reply.blocks[0].fenced and content:
            assert edit_signs.label_rest(content[0]) is None
            dividers = [k for k, line in enumerate(lines) if edit_signs.is_divider_like(line)]
            assert not any(edit_signs.is_replace_like(line)
                           for line in lines[dividers[0]:]) if dividers else True


# -- a broken edit among good ones -----------------------------------------------------------


@pytest.mark.parametrize(("broken", "rule"), [
    ("Edit 2 @ 2–3\n=======\nport: 8080\n>>>>>>> REPLACE", "bad-address"),
    ("Edit 2\n<<<< SEARCH\nport: 80\n=======\nport: 8080\n>>>>>>> REPLACE", "malformed-marker"),
    ("<<<<<<< search\nport: 80\n=======\nport: 8080\n>>>>>>> REPLACE", "malformed-marker"),
])
@pytest.mark.parametrize("after", ["", "Edit 3\n<<<<<<< SEARCH\nworkers: 4\n=======\n"
                                   "workers: 8\n>>>>>>> REPLACE\n\n"])
def test_a_broken_edit_after_a_good_one_is_a_problem_on_its_line(broken: str, rule: str,
                                                                 after: str) -> None:
    reply = parse_reply_text("--- File: config.yaml ---\nEdit 1\n<<<<<<< SEARCH\nname: app\n"
                             f"=======\nname: b\n>>>>>>> REPLACE\n\n{broken}\n\n{after}"
                             "### Changed files:\n- config.yaml\n")
    assert (rule, 9 + broken.startswith("Edit 2\n<")) in problems(reply)
    assert all(len(op.replace_lines) == 1 for op in reply.ops)  # the good edits alone
    assert len(reply.ops) == 1 + bool(after)
