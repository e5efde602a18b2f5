"""Importers: every grammar element and error path, the placement facts, detection, lint.

Each importer is pure (text in, ``Session`` out); these tests read small texts and, where
the meaning matters, evaluate the session over a tiny tree and look at the result.
"""

from __future__ import annotations

import json
import textwrap
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from reviewtui.cli import main
from reviewtui.core.engine import evaluate_session
from reviewtui.core.engine.session import SessionRun
from reviewtui.core.errors import SessionFormatError
from reviewtui.core.importers import FORMATS, detect_format, import_session
from reviewtui.core.importers.aider import import_aider
from reviewtui.core.importers.claude import import_claude
from reviewtui.core.importers.codex import import_apply_patch
from reviewtui.core.importers.common import relative_path
from reviewtui.core.importers.unified import import_unified
from reviewtui.core.lint.rules import lint_session
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.records import (
    CommandName,
    ConsoleCommand,
    Edit,
    FullFile,
    Operation,
    Session,
    Span,
)
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.shell.loader import load_session


def tree(files: dict[str, str | bytes]) -> Tree:
    return Tree.from_files({p: FileState.from_bytes(d.encode() if isinstance(d, str) else d)
                            for p, d in files.items()})


def run(session: Session, files: dict[str, str | bytes]) -> SessionRun:
    return evaluate_session(session, tree(files))


def files_after(r: SessionRun) -> dict[str, bytes]:
    final = r.states[-1].tree
    return {p: final.get(p).data for p in final.paths()}  # type: ignore[union-attr]


def statuses(r: SessionRun) -> list[str]:
    return [str(res.outcome.status) for t in r.turns for res in t.results]


def patch(body: str) -> str:
    return "*** Begin Patch\n" + textwrap.dedent(body) + "*** End Patch\n"


# -- apply_patch -------------------------------------------------------------------------


def test_apply_patch_sections_map_to_operations_in_turn_order() -> None:
    text = patch("""\
        *** Add File: docs/new.md
        +hello
        +world
        *** Delete File: old.txt
        *** Update File: src/app.py
        *** Move to: src/main.py
        @@ def main():
        -    print("hi")
        +    print("hello")
        """)
    session = import_apply_patch(text, "p.patch")
    assert session.format == "apply_patch"
    (turn,) = session.turns
    ops = turn.reply.ops
    assert isinstance(ops[0], FullFile)
    assert ops[0].lines == ("hello", "world")
    assert isinstance(ops[1], ConsoleCommand)
    assert ops[1].name is CommandName.RM
    assert ops[1].literal
    assert ops[1].args == ("old.txt",)
    mv = ops[2]
    assert isinstance(mv, ConsoleCommand)
    assert mv.args == ("src/app.py", "src/main.py")
    assert mv.force
    assert mv.text == ":mv -f src/app.py src/main.py"
    edit = ops[3]
    assert isinstance(edit, Edit)
    assert edit.path == "src/main.py"
    assert edit.anchor == ("def main():",)
    assert edit.final_newline is True
    assert edit.search_lines == ('    print("hi")',)
    assert edit.span == Span(8, 10)
    r = run(session, {"old.txt": "x\n", "src/app.py": 'def main():\n    print("hi")\n'})
    assert files_after(r) == {"docs/new.md": b"hello\nworld\n",
                              "src/main.py": b'def main():\n    print("hello")\n'}


def test_an_empty_apply_patch_is_rejected_as_codex_rejects_it() -> None:
    """QA s44 helper-134 L1 (Codex scenario 005_rejects_empty_patch): read as "0 of 0
    operations applied", exit 0; alone in its file it is an error, among several a turn
    with nothing and the problem."""
    with pytest.raises(SessionFormatError) as info:
        import_apply_patch("*** Begin Patch\n*** End Patch\n", "p")
    assert (info.value.rule, info.value.line) == ("patch-empty", 1)
    two = patch("*** Add File: a.txt\n+a\n") + "\n*** Begin Patch\n*** End Patch\n"
    turns = import_apply_patch(two, "p").turns
    assert [len(t.reply.ops) for t in turns] == [1, 0]
    assert [p.rule for p in turns[1].reply.problems] == ["patch-empty"]


def test_apply_patch_context_lines_and_empty_lines() -> None:
    text = patch("""\
        *** Update File: a.txt
        @@
         one
        -two
        +TWO

        @@
         three

        -four
        *** End of File
        """)
    (edit1, edit2) = import_apply_patch(text, "p").turns[0].reply.ops
    assert isinstance(edit1, Edit)
    assert isinstance(edit2, Edit)
    # As in Codex, an empty line inside a chunk is an empty context line, so the chunk
    # ends with one; the matcher forgives that blank edge as Codex's retry does.
    assert edit1.search_lines == ("one", "two", "")
    assert edit1.replace_lines == ("one", "TWO", "")
    assert edit2.search_lines == ("three", "", "four")
    assert edit2.at_end
    r = run(import_apply_patch(text, "p"), {"a.txt": "one\ntwo\nthree\n\nfour\n"})
    assert files_after(r) == {"a.txt": b"one\nTWO\nthree\n\n"}


def test_apply_patch_first_chunk_may_omit_the_context_marker() -> None:
    text = patch("""\
        *** Update File: a.py
         import os
        +import sys
        """)
    r = run(import_apply_patch(text, "p"), {"a.py": "import os\n"})
    assert files_after(r) == {"a.py": b"import os\nimport sys\n"}


def test_anchor_narrows_an_otherwise_ambiguous_chunk() -> None:
    source = "def a():\n    return 1\n\ndef b():\n    return 1\n"
    anchored = patch("*** Update File: m.py\n@@ def b():\n-    return 1\n+    return 2\n")
    r = run(import_apply_patch(anchored, "p"), {"m.py": source})
    assert files_after(r)["m.py"] == b"def a():\n    return 1\n\ndef b():\n    return 2\n"
    plain = patch("*** Update File: m.py\n@@\n-    return 1\n+    return 2\n")
    r = run(import_apply_patch(plain, "p"), {"m.py": source})
    assert statuses(r) == ["ambiguous"]  # Codex would take the first; reviewtui never picks


def test_anchor_trimmed_match_and_missing_anchor() -> None:
    source = "class A:\n    def f(self):\n        return 1\n"
    change = "-        return 1\n+        return 2\n"
    found = patch("*** Update File: m.py\n@@   def f(self):  \n" + change)
    assert statuses(run(import_apply_patch(found, "p"), {"m.py": source})) == ["applied"]
    missing = patch("*** Update File: m.py\n@@ def g(self):\n" + change)
    r = run(import_apply_patch(missing, "p"), {"m.py": source})
    outcome = r.turns[0].results[0].outcome
    assert outcome.status is Status.NOT_FOUND
    assert outcome.rule == "anchor-not-found"
    assert "def g(self):" in outcome.message


def test_nested_context_lines_narrow_further_with_a_note() -> None:
    source = ("class A:\n    def run(self):\n        x = 1\n"
              "class B:\n    def run(self):\n        x = 1\n")
    text = patch("*** Update File: m.py\n@@ class B:\n@@     def run(self):\n-        x = 1\n"
                 "+        x = 2\n")
    session = import_apply_patch(text, "p")
    assert [p.rule for p in session.turns[0].reply.problems] == ["patch-nested-context"]
    r = run(session, {"m.py": source})
    assert files_after(r)["m.py"].decode().endswith("class B:\n    def run(self):\n        x = 2\n")


def test_end_of_file_chunk_must_match_the_last_lines() -> None:
    text = patch("*** Update File: t.txt\n@@\n-x\n+y\n*** End of File\n")
    assert files_after(run(import_apply_patch(text, "p"), {"t.txt": "a\nx\n"})) == {
        "t.txt": b"a\ny\n"}
    r = run(import_apply_patch(text, "p"), {"t.txt": "x\na\n"})
    outcome = r.turns[0].results[0].outcome
    assert outcome.status is Status.NOT_FOUND
    assert outcome.rule == "not-at-end"
    assert "lines 1-1" in outcome.message


def test_pure_addition_appends_and_updates_end_with_a_newline() -> None:
    text = patch("*** Update File: t.txt\n@@\n+added\n")
    assert files_after(run(import_apply_patch(text, "p"), {"t.txt": "a"})) == {
        "t.txt": b"a\nadded\n"}
    fix = patch("*** Update File: t.txt\n@@\n-a\n+b\n")
    assert files_after(run(import_apply_patch(fix, "p"), {"t.txt": "a"})) == {"t.txt": b"b\n"}


def test_several_patches_are_several_turns_with_the_prose_as_request() -> None:
    text = ("Please add a file.\n" + patch("*** Add File: a.txt\n+1\n")
            + "\nNow remove it.\n\n" + patch("*** Delete File: a.txt\n"))
    session = import_apply_patch(text, "log.txt")
    assert [t.request for t in session.turns] == ["Please add a file.", "Now remove it."]
    assert files_after(run(session, {})) == {}


def test_reusing_a_removed_path_splits_the_patch_into_ordered_turns() -> None:
    text = patch("*** Delete File: a.txt\n*** Add File: a.txt\n+new\n")
    session = import_apply_patch(text, "p")
    assert len(session.turns) == 2
    assert [p.rule for p in session.turns[1].reply.problems] == ["split-turn"]
    assert files_after(run(session, {"a.txt": "old\n"})) == {"a.txt": b"new\n"}


@pytest.mark.parametrize(("body", "before", "after", "turns"), [
    # a file replaced by a folder of the same name (QA pass 84b: refused, "it is a file")
    ("*** Delete File: x\n*** Add File: x/inner\n+in\n", {"x": "a\n"}, {"x/inner": b"in\n"}, 2),
    # a folder replaced by a file of the same name
    ("*** Delete File: x/inner\n*** Add File: x\n+flat\n", {"x/inner": "in\n"}, {"x": b"flat\n"},
     2),
    # a sibling of a removed file is no reason to split
    ("*** Delete File: d/a.txt\n*** Add File: d/b.txt\n+b\n", {"d/a.txt": "a\n"},
     {"d/b.txt": b"b\n"}, 1),
], ids=["file-to-folder", "folder-to-file", "sibling"])
def test_a_path_under_or_above_a_removed_one_runs_after_the_removal(
        body: str, before: dict[str, str], after: dict[str, bytes], turns: int) -> None:
    session = import_apply_patch(patch(body), "p")
    assert len(session.turns) == turns
    assert files_after(run(session, before)) == after


def test_a_diff_making_a_file_where_it_removes_a_folder_removes_first() -> None:
    """git's order (``x`` before ``x/inner``): the new file came before the removal of the
    folder's file, and was refused as a directory."""
    text = ("diff --git a/x b/x\nnew file mode 100644\n--- /dev/null\n+++ b/x\n@@ -0,0 +1 @@\n"
            "+flat\ndiff --git a/x/inner b/x/inner\ndeleted file mode 100644\n"
            "--- a/x/inner\n+++ /dev/null\n@@ -1 +0,0 @@\n-in\n")
    session = import_unified(text, "p.diff")
    result = run(session, {"x/inner": "in\n", "y": "keep\n"})
    assert files_after(result) == {"x": b"flat\n", "y": b"keep\n"}
    assert set(statuses(result)) == {"applied"}


def test_delete_file_names_one_file_never_a_directory_or_a_glob() -> None:
    r = run(import_apply_patch(patch("*** Delete File: dir\n"), "p"), {"dir/a.txt": "x\n"})
    assert statuses(r) == ["not_found"]
    assert "directory" in r.turns[0].results[0].outcome.message
    r = run(import_apply_patch(patch("*** Delete File: *.txt\n"), "p"), {"a.txt": "x\n"})
    assert statuses(r) == ["not_found"]
    assert files_after(r) == {"a.txt": b"x\n"}


@pytest.mark.parametrize(("body", "rule", "line"), [
    ("*** Frobnicate File: foo\n", "patch-bad-header", 2),
    ("*** Update File: foo.txt\n", "patch-empty-update", 2),
    ("*** Update File: foo.txt\n@@\n", "patch-empty-chunk", 3),
    ("*** Update File: foo.txt\n@@\n*** End of File\n", "patch-empty-chunk", 4),
    ("*** Update File: foo.txt\n@@\n-a\n+b\nstray\n", "patch-bad-line", 6),
    ("*** Update File: foo.txt\n@@\n-a\n+b\n*** Bogus\n", "patch-bad-header", 6),
    ("*** Update File: foo.txt\n@@\n-a\n+b\n@@x\n", "patch-bad-line", 6),
    ("*** Update File: foo.txt\nstray\n", "patch-bad-line", 3),
])
def test_a_lone_bad_patch_is_a_format_error_naming_line_and_rule(
        body: str, rule: str, line: int) -> None:
    with pytest.raises(SessionFormatError) as info:
        import_apply_patch("*** Begin Patch\n" + body + "*** End Patch\n", "p.patch")
    assert (info.value.rule, info.value.line, info.value.source) == (rule, line, "p.patch")
    assert str(info.value).startswith(f"p.patch:{line}: ")


def test_a_bad_patch_among_several_is_a_turn_without_operations() -> None:
    text = patch("*** Add File: a.txt\n+1\n") + "*** Begin Patch\n*** Bogus\n*** End Patch\n"
    session = import_apply_patch(text, "p")
    assert len(session.turns) == 2
    assert not session.turns[1].reply.ops
    (bad,) = session.turns[1].reply.problems
    assert bad.rule == "patch-bad-header"
    assert bad.span.start == 6


def test_unterminated_and_missing_patches() -> None:
    with pytest.raises(SessionFormatError) as info:
        import_apply_patch("*** Begin Patch\n*** Add File: a\n+x\n", "p")
    assert info.value.rule == "patch-unterminated"
    with pytest.raises(SessionFormatError) as info:
        import_apply_patch("just prose\n", "p")
    assert info.value.rule == "no-patch"


def test_absolute_patch_paths_under_the_root_become_relative() -> None:
    text = patch("*** Add File: /work/proj/a.txt\n+x\n*** Add File: /etc/b.txt\n+y\n")
    ops = import_apply_patch(text, "p", root="/work/proj").turns[0].reply.ops
    assert [op.path for op in ops] == ["a.txt", "/etc/b.txt"]  # type: ignore[union-attr]


# -- Aider -------------------------------------------------------------------------------

AIDER = """\

# aider chat started at 2024-06-01 10:00:00

> Aider v0.40.0
> Added greeting.py to the chat.

#### Make the greeting
#### friendlier.  

Here is the change:

greeting.py
```python
<<<<<<< SEARCH
    return "Hi " + name
=======
    return "Hello, " + name + "!"
>>>>>>> REPLACE
```

> Applied edit to greeting.py

#### Add a module for farewells

````python
farewell.py
<<<<<<<<< SEARCH
=========
def bye(name):
    return "Bye, " + name
>>>>>>>>> REPLACE
````

```bash
python -m pytest
```
"""


def test_aider_requests_turns_blocks_and_spans() -> None:
    session = import_aider(AIDER, ".aider.chat.history.md")
    assert session.format == "aider"
    first, second = session.turns
    assert first.request == "Make the greeting\nfriendlier."
    assert first.heading_span == Span(7, 8)
    (edit,) = first.reply.ops
    assert isinstance(edit, Edit)
    assert edit.path == "greeting.py"
    assert edit.search_lines == ('    return "Hi " + name',)
    assert edit.span == Span(14, 18)
    assert edit.search_span == Span(14, 16)
    (new,) = second.reply.ops
    assert isinstance(new, Edit)
    assert new.path == "farewell.py"
    assert new.at_end
    assert new.search_lines == ()
    assert [p.rule for p in second.reply.problems] == ["aider-shell"]
    r = run(session, {"greeting.py": 'def hi(name):\n    return "Hi " + name\n'})
    assert files_after(r) == {
        "greeting.py": b'def hi(name):\n    return "Hello, " + name + "!"\n',
        "farewell.py": b'def bye(name):\n    return "Bye, " + name\n'}


def test_aider_empty_search_appends_to_an_existing_file() -> None:
    text = "#### more\n\nnotes.md\n```\n<<<<<<< SEARCH\n=======\n- more\n>>>>>>> REPLACE\n```\n"
    r = run(import_aider(text, "h.md"), {"notes.md": "- one\n"})
    assert files_after(r) == {"notes.md": b"- one\n- more\n"}


@pytest.mark.parametrize(("before", "name"), [
    ("src/app.py\n```python\n", "src/app.py"),  # name above the fence
    ("```python\nsrc/app.py\n", "src/app.py"),  # name inside the fence
    ("```src/app.py\n", "src/app.py"),  # name on the fence line
    ("**src/app.py**:\n", "src/app.py"),  # decorated, no fence at all
    ("# `src/app.py`\n```\n", "src/app.py"),
])
def test_aider_file_name_positions(before: str, name: str) -> None:
    text = f"#### x\n{before}<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n"
    (edit,) = import_aider(text, "h.md").turns[0].reply.ops
    assert edit.path == name  # type: ignore[union-attr]


def test_aider_block_without_a_name_reuses_the_previous_file() -> None:
    text = ("#### x\na.py\n```\n<<<<<<< SEARCH\n1\n=======\n2\n>>>>>>> REPLACE\n```\n\n"
            "Also:\n\n<<<<<<< SEARCH\n3\n=======\n4\n>>>>>>> REPLACE\n")
    ops = import_aider(text, "h.md").turns[0].reply.ops
    assert [op.path for op in ops] == ["a.py", "a.py"]  # type: ignore[union-attr]


GOOD_BLOCK = "ok.py\n<<<<<<< SEARCH\nx\n=======\ny\n>>>>>>> REPLACE\n"


@pytest.mark.parametrize(("reply", "rule", "line"), [
    ("<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n" + GOOD_BLOCK, "aider-filename", 2),
    (GOOD_BLOCK + "a.py\n<<<<<<< SEARCH\na\n", "aider-block", 9),
    (GOOD_BLOCK + "a.py\n<<<<<<< SEARCH\na\n=======\nb\n", "aider-block", 11),
])
def test_aider_malformed_reply_applies_nothing(reply: str, rule: str, line: int) -> None:
    session = import_aider("#### x\n" + reply, "h.md")
    (turn,) = session.turns
    assert turn.reply.ops == ()
    (bad,) = turn.reply.problems
    assert (bad.rule, bad.span.start) == (rule, line)


def test_aider_needs_requests_or_blocks() -> None:
    with pytest.raises(SessionFormatError) as info:
        import_aider("plain text\n", "h.md")
    assert info.value.rule == "no-requests"


# -- unified diffs -----------------------------------------------------------------------


def test_unified_plain_diff_without_git_headers() -> None:
    text = "--- a/x.txt\t2024-01-01\n+++ b/x.txt\t2024-01-02\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n"
    session = import_unified(text, "d.diff")
    (edit,) = session.turns[0].reply.ops
    assert isinstance(edit, Edit)
    assert edit.path == "x.txt"
    assert edit.line_hint == 0
    assert files_after(run(session, {"x.txt": "a\nb\n"})) == {"x.txt": b"a\nc\n"}


def test_unified_line_number_picks_among_equal_places_then_content_decides() -> None:
    source = "x\nsame\nx\nsame\nx\n"
    # (with trailing context: a hunk without it is pinned to the end of the file)
    hinted = "--- a/f\n+++ b/f\n@@ -3,3 +3,3 @@\n x\n-same\n+SAME\n x\n"
    assert files_after(run(import_unified(hinted, "d"), {"f": source})) == {
        "f": b"x\nsame\nx\nSAME\nx\n"}
    shifted = "--- a/f\n+++ b/f\n@@ -40,3 +40,3 @@\n x\n-same\n+SAME\n x\n"
    assert statuses(run(import_unified(shifted, "d"), {"f": source})) == ["ambiguous"]
    moved = "--- a/f\n+++ b/f\n@@ -40,2 +40,2 @@\n a\n-b\n+B\n"
    assert files_after(run(import_unified(moved, "d"), {"f": "a\nb\n"})) == {"f": b"a\nB\n"}


def test_unified_no_newline_markers_set_the_final_newline() -> None:
    drop = "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n\\ No newline at end of file\n"
    assert files_after(run(import_unified(drop, "d"), {"f": "a\n"})) == {"f": b"b"}
    add = "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+a\n"
    assert files_after(run(import_unified(add, "d"), {"f": "a"})) == {"f": b"a\n"}


def test_unified_new_deleted_renamed_and_unsupported_sections() -> None:
    text = textwrap.dedent("""\
        diff --git a/new.txt b/new.txt
        new file mode 100644
        --- /dev/null
        +++ b/new.txt
        @@ -0,0 +1,2 @@
        +one
        +two
        \\ No newline at end of file
        diff --git a/empty.txt b/empty.txt
        new file mode 100644
        index 0000000..e69de29
        diff --git a/gone.txt b/gone.txt
        deleted file mode 100644
        --- a/gone.txt
        +++ /dev/null
        @@ -1 +0,0 @@
        -bye
        diff --git a/old name.txt b/new name.txt
        similarity index 100%
        rename from old name.txt
        rename to new name.txt
        diff --git a/bin.png b/bin.png
        Binary files a/bin.png and b/bin.png differ
        diff --git a/a.sh b/a.sh
        old mode 100644
        new mode 100755
        diff --git a/c1 b/c2
        similarity index 100%
        copy from c1
        copy to c2
        """)
    session = import_unified(text, "d.diff")
    (turn,) = session.turns
    rules = sorted(p.rule for p in turn.reply.problems)
    # Binary changes and mode changes are operations now (issue 14): only copies remain.
    assert rules == ["diff-copy"]
    r = run(session, {"gone.txt": "bye\n", "old name.txt": "keep\n"})
    assert files_after(r) == {"new.txt": b"one\ntwo", "empty.txt": b"",
                              "new name.txt": b"keep\n"}
    outcomes = {res.outcome.path: res.outcome for t in r.turns for res in t.results}
    assert outcomes["bin.png"].rule == "binary-no-data"
    assert outcomes["a.sh"].rule == "missing-file"


def test_unified_quoted_paths_and_format_patch_series() -> None:
    text = textwrap.dedent("""\
        From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001
        Subject: [PATCH 1/2] First

        diff --git "a/caf\\303\\251.txt" "b/caf\\303\\251.txt"
        --- "a/caf\\303\\251.txt"
        +++ "b/caf\\303\\251.txt"
        @@ -1 +1 @@
        -a
        +b
        --\x20
        2.40.0

        From 2222222222222222222222222222222222222222 Mon Sep 17 00:00:00 2001
        Subject: [PATCH 2/2] Second
         continued

        diff --git a/x b/x
        --- a/x
        +++ b/x
        @@ -1 +1 @@
        -1
        +2
        """)
    session = import_unified(text, "s.mbox")
    assert [t.request for t in session.turns] == ["First", "Second continued"]
    assert session.turns[0].reply.ops[0].path == "café.txt"  # type: ignore[union-attr]
    assert files_after(run(session, {"café.txt": "a\n", "x": "1\n"})) == {
        "café.txt": b"b\n", "x": b"2\n"}


def test_unified_short_hunk_and_bad_header_are_reported() -> None:
    short = "--- a/f\n+++ b/f\n@@ -1,4 +1,4 @@\n a\n-b\n+c\nprose\n"
    (turn,) = import_unified(short, "d").turns
    assert [p.rule for p in turn.reply.problems] == ["diff-hunk-count"]
    bad = "diff --git a/f b/f\n--- a/f\n+++ b/f\n@@ nonsense @@\n-a\n+b\n"
    (turn,) = import_unified(bad, "d").turns
    assert [p.rule for p in turn.reply.problems] == ["diff-bad-hunk"]
    # One operation that cannot apply stands for what could not be read (the file's
    # patch is then not whole: apply writes none of it).
    (op,) = turn.reply.ops
    assert isinstance(op, FullFile)
    assert op.payload is not None
    assert (op.path, op.payload.kind) == ("f", "unread")
    with pytest.raises(SessionFormatError) as info:
        import_unified("no diff here\n", "d")
    assert info.value.rule == "no-diff"


def test_unified_zero_context_addition_is_placed_by_line_for_review() -> None:
    text = "--- a/f\n+++ b/f\n@@ -1,0 +2 @@\n+new\n"
    r = run(import_unified(text, "d"), {"f": "a\nb\n"})
    outcome = r.turns[0].results[0].outcome
    assert outcome.status is Status.NEEDS_REVIEW
    assert outcome.method == "line-number"
    assert outcome.after_state is not None
    assert outcome.after_state.data == b"a\nnew\nb\n"


# -- Claude Code -------------------------------------------------------------------------


def jsonl(*items: dict[str, object]) -> str:
    return "".join(json.dumps(item) + "\n" for item in items)


def user(content: object, **extra: object) -> dict[str, object]:
    return {"type": "user", "cwd": "/p", "message": {"role": "user", "content": content},
            **extra}


def tool(name: str, data: dict[str, object], ident: str = "t1") -> dict[str, object]:
    return {"type": "assistant", "cwd": "/p", "message": {"role": "assistant", "content": [
        {"type": "text", "text": "ok"},
        {"type": "tool_use", "id": ident, "name": name, "input": data}]}}


def done(ident: str = "t1") -> dict[str, object]:
    """Claude Code's result of a call that succeeded (only those are replayed)."""
    return user([{"type": "tool_result", "tool_use_id": ident, "content": "ok"}])


def test_claude_prompts_start_turns_and_tool_calls_become_operations() -> None:
    text = jsonl(
        {"type": "summary", "summary": "Title here"},
        user("Caveat: local commands below", isMeta=True),
        user("first prompt"),
        tool("Edit", {"file_path": "/p/a.py", "old_string": "x = 1", "new_string": "x = 2"}),
        user([{"type": "tool_result", "tool_use_id": "t1", "content": "ok"}]),
        user([{"type": "text", "text": "second prompt"}]),
        tool("MultiEdit", {"file_path": "/p/a.py", "edits": [
            {"old_string": "x", "new_string": "y", "replace_all": True},
            {"old_string": "y = 2", "new_string": "y = 3"}]}, "t2"), done("t2"),
        tool("Write", {"file_path": "b.txt", "content": "no newline"}, "t3"), done("t3"),
        user("sub-agent prompt", isSidechain=True),
    )
    session = import_claude(text, "s.jsonl")
    assert (session.format, session.title) == ("claude", "Title here")
    assert [t.request for t in session.turns] == ["first prompt", "second prompt"]
    edit = session.turns[0].reply.ops[0]
    assert isinstance(edit, Edit)
    assert edit.substring
    assert edit.path == "a.py"
    assert edit.span == Span(4, 4)
    r = run(session, {"a.py": "x = 1\nprint(x)\n"})
    assert files_after(r) == {"a.py": b"y = 3\nprint(y)\n", "b.txt": b"no newline"}


def test_claude_failed_call_is_shown_and_never_replayed() -> None:
    text = jsonl(user("go"),
                 tool("Edit", {"file_path": "/p/a.py", "old_string": "nope", "new_string": "x"}),
                 user([{"type": "tool_result", "tool_use_id": "t1", "is_error": True,
                        "content": "<tool_use_error>String to replace not found in file."
                                   "</tool_use_error>"}]))
    (turn,) = import_claude(text, "s.jsonl").turns
    (note,) = turn.reply.problems
    assert (note.rule, note.span, note.severity) == ("tool-failed", Span(2, 3), "warning")
    assert "String to replace not found in file." in note.message
    assert turn.reply.ops == ()


def test_claude_retry_after_a_failed_edit_lands_once() -> None:
    edit = {"file_path": "/p/a.py", "old_string": "foo()", "new_string": "foo()\nbar()"}
    text = jsonl(user("add bar"), tool("Edit", edit),
                 user([{"type": "tool_result", "tool_use_id": "t1", "is_error": True,
                        "content": "File has not been read yet. Read it first."}]),
                 tool("Edit", edit, "t2"), done("t2"),
                 tool("Edit", {"file_path": "/p/a.py", "old_string": "DEBUG = False",
                               "new_string": "DEBUG = True"}, "t3"),
                 user([{"type": "tool_result", "tool_use_id": "t3", "is_error": True,
                        "content": "The user doesn't want to proceed with this tool use."}]))
    session = import_claude(text, "s.jsonl")
    assert files_after(run(session, {"a.py": "foo()\nDEBUG = False\n"})) == {
        "a.py": b"foo()\nbar()\nDEBUG = False\n"}
    assert [p.rule for p in session.turns[0].reply.problems] == ["tool-failed", "tool-failed"]


def test_claude_a_call_logged_twice_is_replayed_once() -> None:
    """QA s44 helper-134 H1: Claude Code writes some entries more than once, verbatim (the
    same uuid; anthropics/claude-code#5034), or the same call under another entry; the
    insertion ran once and was replayed twice, exit 0. Read once, with a note; a prompt
    logged twice makes no second turn."""
    edit = {"file_path": "/p/a.py", "old_string": "total = sum(xs)\n",
            "new_string": "total = sum(xs)\nlog(total)\n"}
    prompt, call, result = (dict(user("log it"), uuid="u1"),
                            dict(tool("Edit", edit), uuid="a1"), dict(done(), uuid="r1"))
    verbatim = jsonl(prompt, call, result, prompt, call, result)
    renamed = jsonl(prompt, call, result, dict(call, uuid="a2"), dict(result, uuid="r2"))
    for text, again in ((verbatim, 5), (renamed, 4)):
        session = import_claude(text, "s.jsonl")
        (turn,) = session.turns
        assert len(turn.reply.ops) == 1
        assert [(p.rule, p.span.start, p.severity) for p in turn.reply.problems] == [
            ("claude-duplicate", again, "info")]
        assert "t1" in turn.reply.problems[0].message
        assert files_after(run(session, {"a.py": "total = sum(xs)\nreturn total\n"})) == {
            "a.py": b"total = sum(xs)\nlog(total)\nreturn total\n"}
    # A line that reuses a uuid with other content is no copy: read as itself.
    reused = jsonl(prompt, call, result, dict(tool("Edit", {
        "file_path": "/p/a.py", "old_string": "return total", "new_string": "return 0"}, "t2"),
        uuid="a1"), dict(done("t2"), uuid="r2"))
    assert len(import_claude(reused, "s.jsonl").turns[0].reply.ops) == 2
    # Two calls of one text under other ids are two calls: both replayed.
    twice = jsonl(prompt, tool("Edit", edit), done(), tool("Edit", edit, "t2"), done("t2"))
    assert len(import_claude(twice, "s.jsonl").turns[0].reply.ops) == 2


@pytest.mark.parametrize(("data", "old", "new"), [
    (b"one\r\ntwo\r\nthree\r\n", "one\r\ntwo", "ONE\r\nTWO"),  # QA s44 helper-134 M4
    (b"one\r\ntwo\r\nthree\r\n", "one", "ONE\r\nNEW"),  # (was ONE CR CR LF, exit 0)
    (b"one\r\ntwo\r\nthree\r\n", "two\r\n", ""),
    (b"one\r\ntwo\r\nthree\r\n", "two\r\nthree", "TWO"),
    (b"one\ntwo\r\nthree\n", "two\r\n", "TWO\r\n"),  # mixed endings
    (b"one\ntwo\r\nthree\n", "two\r\n", "TWO\r\nNEW\r\n"),
    (b"one\ntwo\nthree\n", "two", "TWO\r\nNEW"),  # an LF file given a CRLF
], ids=["crlf-both", "crlf-new", "crlf-removed", "crlf-joined", "mixed", "mixed-grown",
        "lf-given-crlf"])
def test_claude_text_with_the_files_crlf_lands_as_claude_code_wrote_it(
        data: bytes, old: str, new: str) -> None:
    """An Edit's old_string and new_string hold the file's own bytes: Claude Code replaces
    the one with the other in the raw file. Here the file's lines are read without their
    CR and written with it again, so CRLF in the text is the file's ending."""
    text = jsonl(user("go"), tool("Edit", {"file_path": "/p/a.txt", "old_string": old,
                                           "new_string": new}), done())
    r = run(import_claude(text, "s.jsonl"), {"a.txt": data})
    assert statuses(r) == ["applied"]
    assert files_after(r) == {"a.txt": data.replace(old.encode(), new.encode(), 1)}


@pytest.mark.parametrize(("command", "noted"), [
    ("git reset --hard HEAD", True), ("cat > f.py <<EOF", True), ("echo x >> notes.txt", True),
    ("sudo rm -rf build", True), ("VAR=1 rm x", True), ("find . -name '*.pyc' -delete", True),
    ("ls | xargs rm", True), ("black src", True), ("tee out.log", True), ("cd x && rm y", True),
    ("git clean -fd", True), ("ls -la", False), ("make 2>&1 | tail", False),
    ("pytest -q 2>/dev/null", False), ("cmd > /dev/null", False), ("git status", False),
    ("git diff", False), ("find . -name x", False), ("grep -r foo src", False)])
def test_claude_shell_commands_that_may_change_files_are_noted(command: str,
                                                               noted: bool) -> None:
    """QA s44 helper-134 M2: a ``git reset --hard`` between two edits (and redirections,
    ``sudo``/``VAR=1`` prefixes, ``find -delete``, ``xargs rm``, formatters) went unnoted,
    and the replayed file differed from Claude Code's with nothing said."""
    text = jsonl(user("go"), tool("Bash", {"command": command}), done())
    (turn,) = import_claude(text, "s.jsonl").turns
    assert [p.rule for p in turn.reply.problems] == (["claude-shell"] if noted else [])


def test_claude_call_without_a_result_is_unknown_and_not_replayed() -> None:
    text = jsonl(user("go"), tool("Write", {"file_path": "/p/a.py", "content": "x\n"}))
    (turn,) = import_claude(text, "s.jsonl").turns
    assert turn.reply.ops == ()
    assert [(p.rule, p.severity) for p in turn.reply.problems] == [("tool-no-result", "warning")]


def test_claude_paths_are_relative_to_the_first_cwd_not_a_later_cd() -> None:
    moved = {"type": "assistant", "cwd": "/home/u/proj/pkg", "message": {
        "role": "assistant", "content": [{"type": "tool_use", "id": "e", "name": "Edit",
                                          "input": {"file_path": "/home/u/proj/pkg/README.md",
                                                    "old_string": "1", "new_string": "2"}}]}}
    text = jsonl({"type": "user", "cwd": "/home/u/proj", "message": {"content": "bump"}},
                 moved, done("e"))
    for root in (None, "/elsewhere", "/home/u/proj"):
        (op,) = import_claude(text, "s.jsonl", root=root).turns[0].reply.ops
        assert op.path == "pkg/README.md"


def test_claude_substring_edits_are_exact_and_refuse_ambiguity() -> None:
    ambiguous = jsonl(user("go"), tool("Edit", {"file_path": "a", "old_string": "ab",
                                                "new_string": "X"}), done())
    r = run(import_claude(ambiguous, "s"), {"a": "ab ab\n"})
    assert statuses(r) == ["ambiguous"]
    inside = jsonl(user("go"), tool("Edit", {"file_path": "a", "old_string": "b\nc",
                                             "new_string": "B"}), done())
    assert files_after(run(import_claude(inside, "s"), {"a": "a b\nc d\n"})) == {
        "a": b"a B d\n"}
    loose = jsonl(user("go"), tool("Edit", {"file_path": "a", "old_string": "x = 1   ",
                                            "new_string": "x = 2"}), done())
    assert statuses(run(import_claude(loose, "s"), {"a": "    x = 1\n"})) == ["needs_review"]


def test_claude_paths_outside_root_and_cwd_stay_absolute_and_are_refused() -> None:
    text = jsonl(user("go"), tool("Write", {"file_path": "/elsewhere/a", "content": "x"}),
                 done())
    session = import_claude(text, "s", root="/root/proj")
    assert session.turns[0].reply.ops[0].path == "/elsewhere/a"  # type: ignore[union-attr]
    assert statuses(run(session, {})) == ["refused"]
    assert relative_path("/root/proj/src/a.py", ["/root/proj"]) == "src/a.py"
    assert relative_path("C:\\w\\proj\\a.py", ["C:\\w\\proj"]) == "a.py"
    assert relative_path("/root/projx/a", ["/root/proj"]) == "/root/projx/a"


def test_claude_notes_bad_lines_bad_input_and_shell_commands() -> None:
    text = (jsonl(user("go"), tool("Edit", {"old_string": "a", "new_string": "b"}),
                  tool("Bash", {"command": "git mv a b"}, "t2"),
                  tool("Bash", {"command": "pytest -q"}, "t3"),
                  tool("NotebookEdit", {"notebook_path": "n.ipynb"}, "t4"))
            + "{truncated\n")
    (turn,) = import_claude(text, "s").turns
    assert [p.rule for p in turn.reply.problems] == [
        "claude-bad-input", "claude-shell", "claude-not-replayed", "claude-bad-line"]
    with pytest.raises(SessionFormatError) as info:
        import_claude("not json\n", "s")
    assert info.value.rule == "no-transcript"


# -- the engine's placement facts on their own ---------------------------------------------


def edit(search: tuple[str, ...], replace: tuple[str, ...], **facts: object) -> Session:
    span = Span(1, 1)
    op = Edit("f", 1, None, search, replace, span, span, span, **facts)  # type: ignore[arg-type]
    from reviewtui.core.importers.common import reply_from_ops
    from reviewtui.core.model.records import Turn

    return Session("s", "", "", (Turn(1, "", reply_from_ops([op], span), span),), format="x")


def test_replace_all_on_whole_lines() -> None:
    r = run(edit(("a",), ("b",), replace_all=True), {"f": "a\nx\na\n"})
    assert files_after(r) == {"f": b"b\nx\nb\n"}
    assert r.turns[0].results[0].outcome.locations == ((1, 1), (3, 3))


def test_file_ops_edits_are_unchanged_by_the_new_fields() -> None:
    r = run(edit(("a",), ("b",)), {"f": "a\nx\na\n"})
    assert statuses(r) == ["ambiguous"]


# -- detection, the entry point, lint, loader and CLI -------------------------------------


_CODEX_QUOTING_AIDER = (
    "#### Task: update the greeting in hello.py\n\nThe old Aider tooling would have "
    "written:\n\nhello.py\n```python\n<<<<<<< SEARCH\nprint(\"hi\")\n=======\n"
    "print(\"pwned\")\n>>>>>>> REPLACE\n```\n\nCodex ran:\n\n*** Begin Patch\n"
    "*** Update File: hello.py\n@@\n-print(\"hi\")\n+print(\"hello\")\n*** End Patch\n")
_SNAPSHOTS = "".join(
    json.dumps({"type": "file-history-snapshot", "messageId": f"m{n}", "isSnapshotUpdate": n > 0,
                "snapshot": {"messageId": f"m{n}", "trackedFileBackups": {}}}) + "\n"
    for n in range(5))


@pytest.mark.parametrize(("text", "name", "expected"), [
    ("# Session: x\n\n## Turn 1\n> hi\n", "session.md", "fileops"),
    ('[{"role": "user", "content": "hi"}]', "s.json", "chat"),
    ('{"type":"user","message":{"role":"user","content":"hi"},"sessionId":"s"}\n', "x.jsonl",
     "claude"),
    ("intro\n*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\n", "p.txt", "apply_patch"),
    ("diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", "d", "unified"),
    ("--- x\n+++ x\n@@ -1 +1 @@\n-a\n+b\n", "d", "unified"),
    ("#### do it\n\na.py\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n", "h.md", "aider"),
    ("#### hi\n", ".aider.chat.history.md", "aider"),
    ("#### show it\n\ndiff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n\n"
     "#### fix\n\nx\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n", "log.md", "aider"),
    ("> note\n\n# aider chat started at 2024-01-01\n\n#### hi\n", "log.md", "aider"),
    # Aider's structure is requests followed by blocks (QA s47 helper-148 F8): a Codex
    # patch at a line's start makes a header-less text not Aider's (import_session refuses
    # it as two formats); Aider's header keeps it Aider's whatever it quotes.
    (_CODEX_QUOTING_AIDER, "codex-session.md", "apply_patch"),
    ("# aider chat started at 2024-01-01\n\n" + _CODEX_QUOTING_AIDER, "log.md", "aider"),
    ("a.py\n<<<<<<< SEARCH\na\n=======\nb\n>>>>>>> REPLACE\n\n#### later\n", "h.md",
     "fileops"),
    ("", "session.md", "fileops"),
    # Claude Code 2.x's other line types first (QA s47 helper-148 F12: refused as a chat).
    (_SNAPSHOTS + '{"type":"user","message":{"role":"user","content":"hi"},"sessionId":"s"}\n',
     "s.jsonl", "claude"),
    ('{"type":"queue-operation","operation":"enqueue","content":"hi","sessionId":"s"}\n' * 6,
     "s.jsonl", "claude"),
    ('{"type":"message","role":"user","content":"hi","sessionId":"s"}\n', "s.jsonl", "chat"),
    ('{"type":"event","id":"e1"}\n', "s.jsonl", "chat"),
    # A Codex patch indented (a shell heredoc, a quoted transcript) with no diff about.
    ("  *** Begin Patch\n  *** Add File: a\n  +x\n  *** End Patch\n", "p.txt", "apply_patch"),
    # A patch first, a diff it adds after it (a .diff file the patch creates).
    ("*** Begin Patch\n*** Add File: a.diff\n+x\n*** End Patch\ndiff --git a/x b/x\n"
     "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+b\n", "p.txt", "apply_patch"),
])
def test_detect_format(text: str, name: str, expected: str) -> None:
    assert detect_format(text, name) == expected


def test_a_text_of_two_formats_is_refused_naming_both() -> None:
    """QA s47 helper-148 F8: the quoted Aider block was written, the patch never read."""
    with pytest.raises(SessionFormatError) as info:
        import_session(_CODEX_QUOTING_AIDER, "codex-session.md")
    assert info.value.rule == "two-formats"
    assert "--format apply_patch or --format aider" in info.value.message
    for chosen, text in (("apply_patch", 'print("hello")'), ("aider", 'print("pwned")')):
        session = import_session(_CODEX_QUOTING_AIDER, "codex-session.md", format=chosen)
        ((op,),) = [turn.reply.ops for turn in session.turns if turn.reply.ops]
        assert op.path == "hello.py"
        assert text in "\n".join(op.replace_lines if hasattr(op, "replace_lines") else op.lines)


def test_the_real_aider_history_is_still_aider() -> None:
    # (the shared corpus beside the repository, as tests/core/test_conformance.py reads it)
    corpus = (Path(__file__).resolve().parents[3] / "shared" / "corpus" / "aider-chat-history"
              / "chat-history.md")
    if not corpus.is_file():
        pytest.skip("the shared corpus (shared/ beside the repository) is not here")
    assert detect_format(corpus.read_text(encoding="utf-8"), corpus.name) == "aider"


def test_a_transcript_opening_with_snapshot_lines_is_read_past_them() -> None:
    text = _SNAPSHOTS + jsonl(user("go"), tool("Edit", {
        "file_path": "/p/a.txt", "old_string": "x", "new_string": "y"}), done())
    session = import_session(text, "s.jsonl")
    assert session.format == "claude"
    assert [op.path for turn in session.turns for op in turn.reply.ops] == ["a.txt"]


_QUOTED = {  # what a diff's lines or a commit's message may quote, column 0 in a message
    "apply_patch": "*** Begin Patch\n*** Delete File: k.txt\n*** End Patch\n",
    "fileops": "## Turn 1\n\n```console\n:rm k.txt\n```\n",
    "aider": "#### drop it\n\nk.txt\n<<<<<<< SEARCH\nimportant\n=======\n>>>>>>> REPLACE\n",
}
_DIFF = "diff --git a/d.md b/d.md\n--- a/d.md\n+++ b/d.md\n@@ -1 +1 @@\n-x\n+y\n"


@pytest.mark.parametrize("quoted", sorted(_QUOTED))
def test_a_diff_whose_lines_quote_another_format_is_a_diff(quoted: str) -> None:
    """QA s46 helper-142 H4: a git diff of a Codex fixture, read as a patch, deleted the
    file the fixture names, and the diff's own change was not made (exit 0)."""
    body = "".join(f" {line}\n" for line in _QUOTED[quoted].splitlines())
    text = (f"diff --git a/fx.txt b/fx.txt\n--- a/fx.txt\n+++ b/fx.txt\n@@ -1,5 +1,5 @@\n"
            f"{body}-end\n+END\n")
    assert detect_format(text, "c.diff") == "unified"
    session = import_session(text, "c.diff")
    (turn,) = session.turns
    assert [op.path for op in turn.reply.ops] == ["fx.txt"]


@pytest.mark.parametrize("quoted", sorted(_QUOTED))
@pytest.mark.parametrize("head", ["From 0123456789abcdef0123456789abcdef01234567 Mon Sep 17 "
                                  "00:00:00 2001\nFrom: A <a@b>\nSubject: [PATCH] doc\n\n",
                                  "commit 0123456789abcdef0123456789abcdef01234567\n"
                                  "Author: A <a@b>\n\n"], ids=["mail", "git-show"])
def test_a_commit_whose_message_quotes_another_format_is_a_diff(quoted: str, head: str) -> None:
    """QA s46 helper-142 H4b: a format-patch mail (or git show) whose message quotes a
    Codex patch, a File Ops turn or an Aider block ran the quoted operation (k.txt
    removed) and not the commit's own diff."""
    text = f"{head}Explain\n\n{_QUOTED[quoted]}\n---\n d.md | 2 +-\n\n{_DIFF}"
    assert detect_format(text, "a.patch") == "unified"
    session = import_session(text, "a.patch")
    assert [op.path for turn in session.turns for op in turn.reply.ops] == ["d.md"]


def test_import_session_forced_format_and_unknown_format() -> None:
    text = "*** Begin Patch\n*** Add File: a\n+x\n*** End Patch\n"
    assert import_session(text, "p", format="apply_patch").format == "apply_patch"
    with pytest.raises(SessionFormatError) as info:
        import_session(text, "p", format="svn")
    assert info.value.rule == "format"
    with pytest.raises(SessionFormatError):
        import_session(text, "p", format="unified")


def test_lint_reports_generic_and_format_rules_only_for_imports() -> None:
    text = patch("*** Add File: /abs/a.txt\n+...\n*** Update File: b.txt\n@@ x\n@@ y\n-a\n+b\n")
    session = import_apply_patch(text, "p")
    rules = {f.rule for f in lint_session(session)}
    # The importer marks its operations literal itself (as import_session always did): a
    # patch's "..." line is the file's content, not a model's placeholder.
    assert rules == {"absolute-path", "patch-nested-context"}
    assert "footer-missing" not in rules


def test_loader_finds_imported_session_files(tmp_path: Path) -> None:
    (tmp_path / "session.patch").write_text("*** Begin Patch\n*** Add File: a\n+x\n"
                                            "*** End Patch\n")
    loaded = load_session(tmp_path)
    assert loaded.file.name == "session.patch"
    assert loaded.session.format == "apply_patch"
    with pytest.raises(SessionFormatError):
        load_session(tmp_path, format="aider")


def test_cli_format_option_overrides_detection(tmp_path: Path,
                                               capsys: pytest.CaptureFixture[str]) -> None:
    session = tmp_path / "log.txt"
    session.write_text("#### add\n\nnew.txt\n```\n<<<<<<< SEARCH\n=======\nhi\n"
                       ">>>>>>> REPLACE\n```\n")
    root = tmp_path / "root"
    root.mkdir()
    assert main(["apply", str(session), "--format", "aider", "--yes", "--root", str(root)]) == 0
    assert (root / "new.txt").read_bytes() == b"hi\n"
    assert main(["check", str(session), "--format", "unified"]) == 2
    assert "[no-diff]" in capsys.readouterr().err


def test_every_format_is_offered_on_the_command_line() -> None:
    from reviewtui.cli import SESSION_FORMATS, build_parser

    assert SESSION_FORMATS[1:] == FORMATS
    parser = build_parser()
    for argv in (["check", "s"], ["apply", "s"], ["open", "s"],
                 ["restore", "s", "--root", "r", "--checkpoint", "0"]):
        assert parser.parse_args([*argv, "--format", "claude"]).format == "claude"
        assert parser.parse_args(argv).format == "auto"


def test_a_reader_bug_still_ends_as_a_format_error(monkeypatch: pytest.MonkeyPatch) -> None:
    import reviewtui.core.importers as importers

    def broken(text: str, source: str, root: str | None) -> Session:
        raise KeyError("boom")

    monkeypatch.setitem(importers._READERS, "unified", broken)
    with pytest.raises(SessionFormatError) as info:
        import_session("x", "d.diff", format="unified")
    assert info.value.rule == "import-failed"
    assert "KeyError" in info.value.message


# -- never a traceback ---------------------------------------------------------------------

_LINES = st.sampled_from([
    "*** Begin Patch", "*** End Patch", "*** Add File: a.txt", "*** Update File: a.txt",
    "*** Delete File: a.txt", "*** Move to: b.txt", "*** End of File", "@@", "@@ def f():",
    "+x", "-x", " x", "", "#### ask", "a.py", "```", "````", "```bash",
    "<<<<<<< SEARCH", "=======", ">>>>>>> REPLACE", "diff --git a/x b/x", "--- a/x",
    "+++ b/x", "--- /dev/null", "+++ /dev/null", "@@ -1,2 +1,2 @@", "@@ -0,0 +1 @@",
    "\\ No newline at end of file", "rename from x", "rename to y", "new file mode 100644",
    "deleted file mode 100644", "From 1111111 Mon", "Subject: s", '"a/\\303x"',
    '{"type":"user","message":{"content":"hi"}}',
    '{"type":"assistant","message":{"content":[{"type":"tool_use","name":"Edit",'
    '"input":{"file_path":"/p/a","old_string":"","new_string":"x"}}]}}',
    '{"type":"user","message":{"content":[{"type":"tool_result","is_error":true}]}}',
])
_TEXT = st.one_of(st.lists(_LINES | st.text(max_size=12), max_size=30).map("\n".join),
                  st.text(max_size=200))
_READERS = [import_apply_patch, import_aider, import_unified, import_claude]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(text=_TEXT)
def test_importers_return_a_session_or_a_format_error(text: str) -> None:
    for reader in _READERS:
        failure: SessionFormatError | None = None
        try:
            session = reader(text, "fuzz")  # type: ignore[operator]
        except SessionFormatError as err:
            failure = err
        if failure is not None:
            assert failure.rule
            assert failure.source == "fuzz"
            continue
        assert isinstance(session, Session)
        run(session, {"a.txt": "x\nx\n", "a.py": "a\n", "x": "a\nb\n"})


def _rules_and_ops(text: str) -> tuple[list[tuple[str, str]], list[Operation]]:
    (turn,) = import_unified(text, "d").turns
    return [(p.rule, p.severity) for p in turn.reply.problems], list(turn.reply.ops)


def test_unified_blank_lines_between_two_hunks_of_a_file_are_a_slip() -> None:
    """git refuses such a diff and GNU patch drops the second hunk (exit 0): the hunk after
    the blank lines can only be the same file's, so it is read as its own, with a warning."""
    text = "--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+A\n\n\n@@ -2 +2 @@\n-b\n+B\n"
    rules, ops = _rules_and_ops(text)
    assert rules == [("diff-blank-between-hunks", "warning")]
    assert [(op.path, type(op).__name__) for op in ops] == [("x", "Edit"), ("x", "Edit")]
    assert files_after(run(import_unified(text, "d"), {"x": "a\nb\nc\n"})) == {
        "x": b"A\nB\nc\n"}


def test_unified_a_hunk_after_other_text_is_not_read_and_holds_the_file_above() -> None:
    text = ("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+A\nNow the other file:\n"
            "@@ -2 +2 @@\n-b\n+B\n")
    rules, ops = _rules_and_ops(text)
    assert rules == [("diff-orphan-hunk", "error")]
    assert [(op.path, type(op).__name__) for op in ops] == [("x", "Edit"), ("x", "FullFile")]
    unread = ops[-1]
    assert isinstance(unread, FullFile)
    assert unread.payload is not None
    assert unread.payload.kind == "unread"


def test_unified_hunks_after_a_bad_header_are_one_problem_not_orphans() -> None:
    text = ("--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+A\n@@ garbled\n-b\n+B\n"
            "@@ -3 +3 @@\n-c\n+C\n--- a/y\n+++ b/y\n@@ -1 +1 @@\n-y\n+Y\n")
    rules, ops = _rules_and_ops(text)
    assert rules == [("diff-bad-hunk", "error")]
    assert [(op.path, type(op).__name__) for op in ops] == [
        ("x", "Edit"), ("x", "FullFile"), ("y", "Edit")]


def test_unified_a_mails_message_quoting_a_hunk_header_is_not_an_orphan() -> None:
    text = ("From 1111111111111111111111111111111111111111 Mon Sep 17 00:00:00 2001\n"
            "Subject: [PATCH] Quote a header\n\n@@ -1 +1 @@ is how a hunk starts.\n---\n"
            "diff --git a/x b/x\n--- a/x\n+++ b/x\n@@ -1 +1 @@\n-a\n+A\n")
    rules, ops = _rules_and_ops(text)
    assert rules == []
    assert [(op.path, type(op).__name__) for op in ops] == [("x", "Edit")]
