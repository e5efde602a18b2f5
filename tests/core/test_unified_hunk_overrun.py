"""A hunk header that counts too few lines, and a ``diff --git`` header carrying nothing
(QA qa125w).

``@@ -1,3 +1,4 @@`` over more lines than that (a common model slip): the lines after the
counted end were skipped as text between files, so the ``-return a``/``+return a + b`` pair
they carried was lost and the file written without it, exit 0 (``git apply`` and GNU
``patch`` drop them too). Now ``-``/``+`` lines there are ``diff-hunk-overrun`` (error): the
hunk is not read and its file's patch is not whole. A lone ``diff --git a/x b/x`` line read
as a turn with no operation, "0 of 0" applied, exit 0; ``git apply`` refuses it.
"""

from __future__ import annotations

import difflib

from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.engine import Policy, evaluate_session
from reviewtui.core.importers.unified import import_unified
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.records import Edit, FullFile, ParseProblem
from reviewtui.core.model.tree import FileState, Tree

SHORT = """\
diff --git a/m.py b/m.py
--- a/m.py
+++ b/m.py
@@ -1,3 +1,4 @@
 def f():
     a = 1
+    b = 2
     return a
-    return a
+    return a + b
"""
OLD = b"def f():\n    a = 1\n    return a\n"


def _problems(text: str) -> list[tuple[str, str, int]]:
    (turn,) = import_unified(text, "d.diff").turns
    return [(p.rule, p.severity, p.span.start) for p in turn.reply.problems]


def _final(text: str, files: dict[str, bytes]) -> dict[str, bytes]:
    """The files as ``apply`` leaves them: a file whose operations do not all apply is not
    written (its patch is not whole)."""
    session = import_unified(text, "d.diff")
    tree = Tree.from_files({p: FileState.from_bytes(b) for p, b in files.items()})
    run = evaluate_session(session, tree, policy=Policy.headless())
    whole = {p for p in files if all(r.outcome.status is Status.APPLIED
                                     for t in run.turns for r in t.results
                                     if r.outcome.path == p)}
    return {p: (s.data if p in whole else files[p]) for p, s in run.final.items()}


def test_change_lines_after_the_counted_end_are_not_read_and_not_dropped() -> None:
    (turn,) = import_unified(SHORT, "d.diff").turns
    (found,) = turn.reply.problems
    assert (found.rule, found.severity, found.span.start) == ("diff-hunk-overrun", "error", 9)
    assert "line 4" in found.message
    assert "'m.py'" in found.message
    (op,) = turn.reply.ops  # not the hunk's counted part: one that cannot apply
    assert isinstance(op, FullFile)
    assert op.payload is not None
    assert (op.path, op.payload.kind) == ("m.py", "unread")
    assert _final(SHORT, {"m.py": OLD}) == {"m.py": OLD}


RIGHT = "--- a/m.py\n+++ b/m.py\n@@ -1,3 +1,4 @@\n def f():\n     a = 1\n-    return a\n" \
    "+    b = 2\n+    return a + b\n"


def test_a_diff_counted_right_is_read_whole_and_one_counted_short_is_not() -> None:
    assert _problems(RIGHT) == []
    assert _final(RIGHT, {"m.py": OLD}) == {
        "m.py": b"def f():\n    a = 1\n    b = 2\n    return a + b\n"}
    short = RIGHT.replace("@@ -1,3 +1,4 @@", "@@ -1,2 +1,3 @@")
    assert _problems(short) == [("diff-hunk-count", "warning", 3),
                                ("diff-hunk-overrun", "error", 6)]
    assert _final(short, {"m.py": OLD}) == {"m.py": OLD}


def test_a_later_file_and_hunks_are_still_read() -> None:
    text = SHORT + "diff --git a/d.txt b/d.txt\n--- a/d.txt\n+++ b/d.txt\n@@ -1 +1 @@\n-d\n+e\n"
    assert _final(text, {"m.py": OLD, "d.txt": b"d\n"}) == {"m.py": OLD, "d.txt": b"e\n"}
    plain = "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n--- a/g\n+++ b/g\n@@ -1 +1 @@\n-c\n+d\n"
    assert _problems(plain) == []  # (the next file's "--- a/g" is its header)


def test_blank_lines_do_not_hide_change_lines_after_the_hunk() -> None:
    text = "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n\n-d\n+e\n"
    assert ("diff-hunk-overrun", "error", 8) in _problems(text)


def test_a_mail_signature_is_not_a_removed_line_but_one_at_the_end_is() -> None:
    mail = "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n-- \n2.43.0\n\n"
    assert _problems(mail) == []
    bare = "--- a/f\n+++ b/f\n@@ -1 +1 @@\n-a\n+b\n-- \n"  # (a removed "- ")
    assert _problems(bare) == [("diff-hunk-overrun", "error", 6)]


def test_context_lines_alone_after_the_hunk_are_a_warning() -> None:
    text = "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n d\n e\n\nprose\n"
    assert _problems(text) == [("diff-hunk-overrun", "warning", 7)]
    (turn,) = import_unified(text, "d.diff").turns
    (edit,) = turn.reply.ops
    assert isinstance(edit, Edit)
    assert (edit.search_lines, edit.replace_lines) == (("a", "b"), ("a", "c"))


def test_a_hunk_cut_short_of_its_counts_is_still_read_as_written() -> None:
    """(The other way round: unchanged, a warning. What it lacks at its end is its trailing
    context or a change; without trailing context it is pinned to the file's end.)"""
    text = "--- a/f\n+++ b/f\n@@ -1,3 +1,3 @@\n a\n-b\n+c\n"
    assert _problems(text) == [("diff-hunk-count", "warning", 3)]
    assert _final(text, {"f": b"a\nb\nz\n"}) == {"f": b"a\nb\nz\n"}  # (not-at-end)


def test_a_git_header_with_nothing_after_it_is_said() -> None:
    for text in ("diff --git a/x b/x\n", "diff --git a/x b/x\nindex 1234567..89abcde 100644\n",
                 "diff --git a/x b/x\n--- a/x\n+++ b/x\n"):
        (turn,) = import_unified(text, "d.diff").turns
        assert turn.reply.ops == ()
        assert [(p.rule, p.severity, p.span.start) for p in turn.reply.problems] == [
            ("diff-empty-section", "error", 1)]
    for whole in ("diff --git a/x b/x\nnew file mode 100644\nindex 0000000..e69de29\n",
                  "diff --git a/x b/x\nold mode 100644\nnew mode 100755\n",
                  "diff --git a/x b/y\nsimilarity index 100%\nrename from x\nrename to y\n"):
        assert _problems(whole) == [], whole


_LINES = st.lists(st.sampled_from(["a", "b", "c", "", "- ", "-- x", "+y", " z"]),
                  min_size=1, max_size=12)


def _diff(old: list[str], new: list[str], context: int) -> str:
    return "".join(difflib.unified_diff([x + "\n" for x in old], [x + "\n" for x in new],
                                        "a/f", "b/f", n=context))


def _encoded(lines: list[str]) -> bytes:
    return "".join(x + "\n" for x in lines).encode()


@settings(max_examples=300, deadline=None)
@given(_LINES, _LINES, st.integers(0, 3))
def test_a_diff_counted_right_reads_as_its_hunks_say(
        old: list[str], new: list[str], context: int) -> None:
    text = _diff(old, new, context)
    if not text:
        return
    assert _problems(text) == []
    (turn,) = import_unified(text, "d.diff").turns
    edits = [(op.search_lines, op.replace_lines) for op in turn.reply.ops
             if isinstance(op, Edit)]
    assert edits == _hunks(text)


def _hunks(text: str) -> list[tuple[tuple[str, ...], tuple[str, ...]]]:
    """Each hunk's old and new lines, its body read to the next ``@@`` line."""
    found: list[tuple[list[str], list[str]]] = []
    for line in text.splitlines()[2:]:
        if line.startswith("@@"):
            found.append(([], []))
            continue
        if line[0] in " -":
            found[-1][0].append(line[1:])
        if line[0] in " +":
            found[-1][1].append(line[1:])
    return [(tuple(a), tuple(b)) for a, b in found]


@settings(max_examples=300, deadline=None)
@given(_LINES, _LINES, st.integers(0, 3), st.data())
def test_a_miscounted_diff_never_writes_another_file(
        old: list[str], new: list[str], context: int, data: st.DataObject) -> None:
    """Any hunk header's count off (too few or too many): the file is the diff's result
    or left as it was, never a file with part of a hunk dropped silently."""
    text = _diff(old, new, context)
    if not text:
        return
    lines = text.splitlines(keepends=True)
    heads = [i for i, line in enumerate(lines) if line.startswith("@@")]
    at = data.draw(st.sampled_from(heads))
    old_count, new_count = _counts(lines[at])
    old_count += data.draw(st.integers(-old_count, 2))
    new_count += data.draw(st.integers(-new_count, 2))
    rest = lines[at].split(" @@", 1)[1]
    start_old, start_new = lines[at][4:].split(" @@")[0].split(" +")
    lines[at] = (f"@@ -{start_old.split(',')[0]},{old_count} "
                 f"+{start_new.split(',')[0]},{new_count} @@{rest}")
    miscounted = "".join(lines)
    session = import_unified(miscounted, "d.diff")
    problems: list[ParseProblem] = [p for t in session.turns for p in t.reply.problems]
    final = _final(miscounted, {"f": _encoded(old)}).get("f")
    assert final in (_encoded(old), _encoded(new)), (miscounted, problems)


def _counts(header: str) -> tuple[int, int]:
    old, new = header[4:].split(" @@")[0].split(" +")
    return (int(old.split(",")[1]) if "," in old else 1,
            int(new.split(",")[1]) if "," in new else 1)
