"""An edit with more than one divider-like line lands only as the file proves it meant
(QA s47 helper-147 H6).

Before, the first ``=======`` was always the divider: a SEARCH quoting a git conflict or
an RST title underline was split there and written garbled, exit 0.
"""

from __future__ import annotations

import textwrap

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.engine import evaluate_session
from reviewtui.core.engine.session import SessionRun
from reviewtui.core.model.outcome import Outcome, Status
from reviewtui.core.model.records import DividerSplit, Edit
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.protocol.reply import parse_reply_text
from reviewtui.core.protocol.session import parse_session

NOTES = "# Notes\n\n<<<<<<< HEAD\n- mode: fast\n=======\n- mode: safe\n>>>>>>> feature\n\nEnd.\n"
RESOLVE = """\
    ## Turn 1
    > resolve the conflict, keep safe mode

    --- File: NOTES.md ---
    Edit 1
    <<<<<<< SEARCH
    <<<<<<< HEAD
    - mode: fast
    =======
    - mode: safe
    >>>>>>> feature
    =======
    - mode: safe
    >>>>>>> REPLACE
    """
README = "Project\n=======\n\nA tool.\n"


def run(text: str, files: dict[str, str]) -> SessionRun:
    session = parse_session(textwrap.dedent(text), "s.md")
    tree = Tree.from_files({p: FileState.from_bytes(d.encode()) for p, d in files.items()})
    return evaluate_session(session, tree)


def outcome(r: SessionRun) -> Outcome:
    (result,) = [res for t in r.turns for res in t.results]
    return result.outcome


def text(r: SessionRun, path: str) -> str | None:
    state = r.states[-1].tree.get(path)
    return None if state is None else state.data.decode()


def session(path: str, body: list[str]) -> str:
    return "\n".join(["## Turn 1", "> do it", "", f"--- File: {path} ---", "<<<<<<< SEARCH",
                      *body, ">>>>>>> REPLACE", ""])


# -- the parser keeps every reading ----------------------------------------------------------


def test_the_parser_keeps_the_reading_at_each_later_divider() -> None:
    reply = parse_reply_text(textwrap.dedent(RESOLVE).split("\n", 3)[3])
    (edit,) = reply.ops
    assert isinstance(edit, Edit)
    assert edit.search_lines == ("<<<<<<< HEAD", "- mode: fast")
    assert edit.other_splits == (DividerSplit(
        9, ("<<<<<<< HEAD", "- mode: fast", "=======", "- mode: safe", ">>>>>>> feature"),
        ("- mode: safe",)),)


def test_an_edit_with_one_divider_has_no_other_reading() -> None:
    reply = parse_reply_text("--- File: a ---\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n")
    (edit,) = reply.ops
    assert isinstance(edit, Edit)
    assert edit.other_splits == ()


# -- the engine: the reading the file supports, or none --------------------------------------


def test_resolving_a_quoted_conflict_is_refused_not_doubled() -> None:
    r = run(RESOLVE, {"NOTES.md": NOTES})
    found = outcome(r)
    assert (found.status, found.rule) == (Status.REFUSED, "ambiguous-divider")
    assert "lines 9, 12" in found.message
    assert "whichever of lines 9, 12 ends it" in found.message
    assert text(r, "NOTES.md") == NOTES


def test_an_rst_title_quoted_with_its_underline_is_refused() -> None:
    r = run(session("README.rst", ["Project", "=======", "=======", "Project X", "=========="]),
            {"README.rst": README})
    assert (outcome(r).status, outcome(r).rule) == (Status.REFUSED, "ambiguous-divider")
    assert text(r, "README.rst") == README


def test_an_underline_in_replace_alone_still_lands() -> None:
    """Only the first reading's SEARCH ("Project") is in the file: the edit as it was."""
    r = run(session("README.rst", ["Project", "=======", "Project X", "========="]),
            {"README.rst": "Project\n\nA tool.\n"})
    assert outcome(r).status is Status.APPLIED
    assert text(r, "README.rst") == "Project X\n=========\n\nA tool.\n"


def test_a_new_file_holding_an_underline_is_created() -> None:
    r = run(session("docs/index.rst", ["=======", "Title", "====="]), {})
    assert outcome(r).status is Status.APPLIED
    assert text(r, "docs/index.rst") == "Title\n=====\n"


def test_a_first_reading_of_an_empty_search_is_refused_as_it_was() -> None:
    """An empty SEARCH on an existing file is refused (`empty-search`); a later reading is
    not taken in its place: an empty SEARCH whose REPLACE starts an RST overline title
    (Guide, =======) read at the overline landed garbled (QA s47 helper-154 H2), and the
    file cannot tell that from a SEARCH that starts with a divider-like line."""
    r = run(session("a.txt", ["=======", "old", "=======", "new"]),
            {"a.txt": "=======\nold\nkeep\n"})
    assert outcome(r).rule == "empty-search"
    assert text(r, "a.txt") == "=======\nold\nkeep\n"


def test_a_reading_found_nowhere_fails_as_the_first_reading() -> None:
    r = run(RESOLVE, {"NOTES.md": "# Notes\n"})
    assert outcome(r).status is Status.NOT_FOUND
    assert text(r, "NOTES.md") == "# Notes\n"


# -- property: written only as meant -------------------------------------------------------

FILE_LINES = st.sampled_from(["a", "b", "c", "=======", "=====", "<<<<<<< HEAD",
                              ">>>>>>> feature", "Title"])


@settings(max_examples=200, deadline=None)
@given(st.lists(FILE_LINES, min_size=1, max_size=10), st.data())
def test_an_edit_is_written_as_meant_or_not_at_all(lines: list[str], data: st.DataObject) -> None:
    """The model quotes a slice of the file as SEARCH (divider-like lines and all) and
    writes any REPLACE: the file afterwards is that edit, or the file as it was."""
    start = data.draw(st.integers(0, len(lines) - 1))
    stop = data.draw(st.integers(start + 1, len(lines)))
    search = lines[start:stop]
    replace = data.draw(st.lists(FILE_LINES, max_size=4))
    before = "".join(line + "\n" for line in lines)
    r = run(session("f.txt", [*search, "=======", *replace]), {"f.txt": before})
    after = text(r, "f.txt")
    meant = "".join(line + "\n" for line in [*lines[:start], *replace, *lines[stop:]])
    assert after in (before, meant)
    if outcome(r).status is Status.APPLIED:
        assert after == meant or before == meant
