"""Issue 14 (and issue 12's last item): what real histories need from the importers.

One regression test (or a few) per numbered item: end-of-file and start-of-file hunks
stay where git pins them, CRLF new files keep their CRs, symbolic links are never
written as regular files, git binary patches apply (or are refused, named), apply_patch
chunks are placed in order, Aider's ``whole`` format imports, and unified mode changes
are kept. Pure: texts in, sessions evaluated over small trees.
"""

from __future__ import annotations

import base64
import hashlib
import textwrap
import zlib

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from reviewtui.core.engine import evaluate_session
from reviewtui.core.engine.links import is_link, link_state, link_target
from reviewtui.core.engine.results import Rules
from reviewtui.core.engine.session import SessionRun
from reviewtui.core.importers.aider import import_aider
from reviewtui.core.importers.codex import import_apply_patch
from reviewtui.core.importers.gitbinary import BinaryPatchError, apply_delta, read_hunk
from reviewtui.core.importers.unified import import_unified
from reviewtui.core.model.outcome import Outcome, Status
from reviewtui.core.model.records import FullFile, Session
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.shell.state import op_fingerprint


def tree(files: dict[str, str | bytes], modes: dict[str, int] | None = None) -> Tree:
    modes = modes or {}
    return Tree.from_files({
        p: FileState.from_bytes(d.encode() if isinstance(d, str) else d,
                                mode=modes.get(p, 0o644))
        for p, d in files.items()})


def run(session: Session, files: dict[str, str | bytes], *,
        modes: dict[str, int] | None = None, rules: Rules | None = None) -> SessionRun:
    return evaluate_session(session, tree(files, modes), rules=rules)


def final(r: SessionRun) -> dict[str, bytes]:
    last = r.states[-1].tree
    return {p: last.get(p).data for p in last.paths()}  # type: ignore[union-attr]


def outcomes(r: SessionRun) -> list[Outcome]:
    return [res.outcome for t in r.turns for res in t.results]


def diff(body: str) -> Session:
    return import_unified(textwrap.dedent(body), "c.diff")


# -- 1. end-of-file and start-of-file hunks ------------------------------------------------

APPEND = """\
    --- a/t.py
    +++ b/t.py
    @@ -3,3 +3,6 @@
     def test_a():
         assert a()
     
    +def test_b():
    +    assert b()
    +
    """


def test_hunk_without_trailing_context_is_pinned_to_the_end() -> None:
    # The context also stands in the middle of this drifted file: git refuses it there.
    drifted = "import a\n\ndef test_a():\n    assert a()\n\nx = 1\n"
    r = run(diff(APPEND), {"t.py": drifted})
    (outcome,) = outcomes(r)
    assert outcome.status is Status.NOT_FOUND
    assert outcome.rule == "not-at-end"
    assert final(r) == {"t.py": drifted.encode()}
    at_end = "import a\n\ndef test_a():\n    assert a()\n\n"
    r = run(diff(APPEND), {"t.py": at_end})
    assert final(r)["t.py"] == (at_end + "def test_b():\n    assert b()\n\n").encode()


def test_end_pin_also_beats_an_exact_match_at_the_hinted_line() -> None:
    # Lines 3-5 match exactly where the header points, but they are not the file's end.
    text = "import a\n\ndef test_a():\n    assert a()\n\nmore = 2\n"
    assert outcomes(run(diff(APPEND), {"t.py": text}))[0].rule == "not-at-end"


def test_hunk_from_line_1_without_leading_context_is_pinned_to_the_start() -> None:
    body = """\
        --- a/f
        +++ b/f
        @@ -1,3 +1,3 @@
        -a
        +A
         b
         c
        """
    r = run(diff(body), {"f": "x\na\nb\nc\nd\n"})
    assert outcomes(r)[0].rule == "not-at-start"
    assert final(r) == {"f": b"x\na\nb\nc\nd\n"}
    assert final(run(diff(body), {"f": "a\nb\nc\nd\n"})) == {"f": b"A\nb\nc\nd\n"}


@pytest.mark.parametrize(("body", "text", "want"), [
    # nlohmann/json 904642f261 (doc/examples/is_boolean.output): a line appended after
    # three like lines at the end; they also match one line up, within the slack.
    ("--- a/f\n+++ b/f\n@@ -2,3 +2,4 @@\n x\n x\n x\n+y\n", "x\nx\nx\nx\n",
     b"x\nx\nx\nx\ny\n"),
    ("--- a/f\n+++ b/f\n@@ -1,3 +1,4 @@\n+y\n x\n x\n x\n", "x\nx\nx\nx\n",
     b"y\nx\nx\nx\nx\n"),
], ids=["end", "start"])
def test_a_pinned_hunk_of_repeated_lines_goes_at_its_edge(body: str, text: str,
                                                          want: bytes) -> None:
    """Its lines match more than once near the edge, but only one place is the edge: it
    goes there, as git applies it (it was refused as ambiguous: QA pass s31)."""
    r = run(diff(body), {"f": text})
    assert outcomes(r)[0].status is Status.APPLIED
    assert final(r) == {"f": want}


def test_hunk_without_any_context_is_not_pinned() -> None:
    # -U0: git cannot tell the end from a missing context either; the line number places it.
    body = "--- a/f\n+++ b/f\n@@ -2 +2 @@\n-b\n+B\n"
    (edit,) = diff(body).turns[0].reply.ops
    assert not edit.at_end  # type: ignore[union-attr]
    assert not edit.at_start  # type: ignore[union-attr]
    assert final(run(diff(body), {"f": "a\nb\nc\n"})) == {"f": b"a\nB\nc\n"}


def test_apply_patch_end_of_file_stays_pinned() -> None:
    text = ("*** Begin Patch\n*** Update File: f\n@@\n a\n-b\n+B\n*** End of File\n"
            "*** End Patch\n")
    r = evaluate_session(import_apply_patch(text, "p"), tree({"f": "a\nb\na\nb\nc\n"}))
    assert outcomes(r)[0].rule == "not-at-end"


# -- 2. CRLF new files ---------------------------------------------------------------------

def test_new_file_keeps_crlf_byte_for_byte() -> None:
    text = ("diff --git a/w.bat b/w.bat\nnew file mode 100644\n--- /dev/null\n+++ b/w.bat\n"
            "@@ -0,0 +1,2 @@\n+@echo off\r\n+echo hi\r\n")
    assert final(run(import_unified(text, "c.diff"), {})) == {
        "w.bat": b"@echo off\r\necho hi\r\n"}


def test_a_diff_carried_with_crlf_throughout_is_read_as_lf() -> None:
    text = ("--- /dev/null\r\n+++ b/n.txt\r\n@@ -0,0 +1,2 @@\r\n+one\r\n+two\r\n")
    assert final(run(import_unified(text, "c.diff"), {})) == {"n.txt": b"one\ntwo\n"}


# -- 3. symbolic links -----------------------------------------------------------------------

def link_diff(path: str, target: str, header: str = "new file mode 120000") -> Session:
    return import_unified(
        f"diff --git a/{path} b/{path}\n{header}\n--- /dev/null\n+++ b/{path}\n"
        f"@@ -0,0 +1 @@\n+{target}\n\\ No newline at end of file\n", "c.diff")


def test_new_symlink_is_a_link_in_the_tree_never_a_regular_file() -> None:
    r = run(link_diff("sub/link", "../docs/readme.md"), {"docs/readme.md": "hi\n"})
    (outcome,) = outcomes(r)
    assert (outcome.status, outcome.method) == (Status.APPLIED, "new-link")
    state = r.states[-1].tree.get("sub/link")
    assert state is not None
    assert is_link(state)
    assert link_target(state) == "../docs/readme.md"


@pytest.mark.parametrize("target", [
    "../../etc/passwd",  # lexically out of the root, from the link's folder
    "../..",
    "/etc/passwd",  # absolute
    "",
    "a\0b",
    "a\x1b[31mb",  # a terminal escape: never printed as a target
])
def test_a_link_leading_out_or_unusable_is_refused_by_rule(target: str) -> None:
    r = run(link_diff("sub/link", target), {"docs/readme.md": "hi\n"})
    (outcome,) = outcomes(r)
    assert outcome.status is Status.REFUSED
    assert outcome.rule in ("symlink-escape", "symlink-target")
    assert "sub/link" not in final(r)


def test_regular_file_made_a_link_without_removal_is_refused() -> None:
    text = ("diff --git a/f b/f\nold mode 100644\nnew mode 120000\n--- a/f\n+++ b/f\n"
            "@@ -1 +1 @@\n-text\n+g\n\\ No newline at end of file\n")
    r = run(import_unified(text, "c.diff"), {"f": "text\n", "g": "x\n"})
    assert [o.rule for o in outcomes(r)] == ["symlink-over-file"]
    assert final(r)["f"] == b"text\n"  # never a regular file holding the link's target
    assert r.states[-1].tree.get("f").mode == 0o644  # type: ignore[union-attr]


def link_tree(files: dict[str, str], links: dict[str, str]) -> Tree:
    return Tree.from_files({**{p: FileState.from_bytes(d.encode()) for p, d in files.items()},
                            **{p: link_state(t) for p, t in links.items()}})


def test_changing_an_existing_symlink_gives_it_the_new_target() -> None:
    text = ("diff --git a/l b/l\nindex 1111111..2222222 120000\n--- a/l\n+++ b/l\n"
            "@@ -1 +1 @@\n-a\n\\ No newline at end of file\n+b\n"
            "\\ No newline at end of file\n")
    r = evaluate_session(import_unified(text, "c.diff"), link_tree({"a": "", "b": ""},
                                                                   {"l": "a"}),
                         rules=Rules(symlinks={"l": "a"}))
    assert [(o.status, o.method) for o in outcomes(r)] == [(Status.APPLIED, "link")]
    assert r.states[-1].tree.get("l") == link_state("b")


TYPE_CHANGES = {
    "file to link": ({"f": "text\n", "g": "x\n"}, {},
                     "diff --git a/f b/f\ndeleted file mode 100644\n--- a/f\n+++ /dev/null\n"
                     "@@ -1 +0,0 @@\n-text\n"
                     "diff --git a/f b/f\nnew file mode 120000\n--- /dev/null\n+++ b/f\n"
                     "@@ -0,0 +1 @@\n+g\n\\ No newline at end of file\n",
                     {"f": link_state("g")}),
    "link to file": ({"g": "x\n"}, {"f": "g"},
                     "diff --git a/f b/f\ndeleted file mode 120000\n--- a/f\n+++ /dev/null\n"
                     "@@ -1 +0,0 @@\n-g\n\\ No newline at end of file\n"
                     "diff --git a/f b/f\nnew file mode 100644\n--- /dev/null\n+++ b/f\n"
                     "@@ -0,0 +1 @@\n+text\n",
                     {"f": FileState.from_bytes(b"text\n")}),
    "link removed": ({"g": "x\n"}, {"f": "g"},
                     "diff --git a/f b/f\ndeleted file mode 120000\n--- a/f\n+++ /dev/null\n"
                     "@@ -1 +0,0 @@\n-g\n\\ No newline at end of file\n",
                     {"f": None}),
}


@pytest.mark.parametrize("case", TYPE_CHANGES)
def test_links_are_made_removed_and_turned_into_files(case: str) -> None:
    files, links, text, expected = TYPE_CHANGES[case]
    r = evaluate_session(import_unified(text, "c.diff"), link_tree(files, links),
                         rules=Rules(symlinks=links))
    assert all(o.status is Status.APPLIED for o in outcomes(r)), outcomes(r)
    for path, state in expected.items():
        assert r.states[-1].tree.get(path) == state
        if state is not None:
            assert is_link(r.states[-1].tree.get(path)) == is_link(state)


def test_a_later_edit_through_a_new_link_is_refused() -> None:
    text = ("diff --git a/lib b/lib\nnew file mode 120000\n--- /dev/null\n+++ b/lib\n"
            "@@ -0,0 +1 @@\n+src\n\\ No newline at end of file\n"
            "diff --git a/lib/a.py b/lib/a.py\n--- a/lib/a.py\n+++ b/lib/a.py\n"
            "@@ -1 +1 @@\n-x = 1\n+x = 2\n"
            "diff --git a/lib/new.py b/lib/new.py\nnew file mode 100644\n--- /dev/null\n"
            "+++ b/lib/new.py\n@@ -0,0 +1 @@\n+y = 1\n")
    r = run(import_unified(text, "c.diff"), {"src/a.py": "x = 1\n"})
    assert [(o.status, o.rule) for o in outcomes(r)] == [
        (Status.APPLIED, ""), (Status.REFUSED, "symlink"), (Status.REFUSED, "symlink")]
    assert final(r)["src/a.py"] == b"x = 1\n"


def test_a_link_is_never_text_edited_or_moved() -> None:
    base = link_tree({"a": "x\n"}, {"l": "a"})
    edit = import_unified("--- a/l\n+++ b/l\n@@ -1 +1 @@\n-a\n+b\n", "c.diff")
    r = evaluate_session(edit, base, rules=Rules(symlinks={"l": "a"}))
    assert [o.rule for o in outcomes(r)] == ["symlink"]
    move = import_unified("diff --git a/l b/m\nsimilarity index 100%\nrename from l\n"
                          "rename to m\n", "c.diff")
    r = evaluate_session(move, base, rules=Rules(symlinks={"l": "a"}))
    assert [o.status for o in outcomes(r)] == [Status.REFUSED]
    assert r.states[-1].tree.get("l") == link_state("a")


# -- 4. git binary patches -------------------------------------------------------------------

def encode_lines(data: bytes) -> list[str]:
    """Git's binary hunk body for ``data``: deflated, then base85 lines of 52 bytes."""
    packed = zlib.compress(data)
    out = []
    for at in range(0, len(packed), 52):
        chunk = packed[at : at + 52]
        size = len(chunk)
        mark = chr(ord("A") + size - 1) if size <= 26 else chr(ord("a") + size - 27)
        padded = chunk + b"\0" * (-size % 4)
        out.append(mark + base64.b85encode(padded).decode())
    return out


def blob(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def varint(n: int) -> bytes:
    out = bytearray()
    while True:
        byte, n = n & 0x7F, n >> 7
        out.append(byte | (0x80 if n else 0))
        if not n:
            return bytes(out)


def literal_patch(path: str, old: bytes | None, new: bytes) -> str:
    old_id = blob(old) if old is not None else "0" * 40
    lines = [f"diff --git a/{path} b/{path}"]
    if old is None:
        lines.append("new file mode 100644")
    lines += [f"index {old_id}..{blob(new)}" + ("" if old is None else " 100644"),
              "GIT binary patch", f"literal {len(new)}", *encode_lines(new), "",
              "literal 0", "HcmV?d00001", ""]
    return "\n".join(lines) + "\n"


def delta_patch(path: str, old: bytes, new: bytes, delta: bytes) -> str:
    lines = [f"diff --git a/{path} b/{path}", f"index {blob(old)}..{blob(new)} 100644",
             "GIT binary patch", f"delta {len(delta)}", *encode_lines(delta), "",
             "delta 0", "HcmV?d00001", ""]
    return "\n".join(lines) + "\n"


PNG = bytes(range(256)) * 3 + b"\0\x89PNG"


def test_binary_literal_creates_and_rewrites_byte_for_byte() -> None:
    r = run(import_unified(literal_patch("logo.png", None, PNG), "c.diff"), {})
    assert final(r) == {"logo.png": PNG}
    changed = PNG[::-1]
    r = run(import_unified(literal_patch("logo.png", PNG, changed), "c.diff"), {"logo.png": PNG})
    assert final(r) == {"logo.png": changed}
    assert outcomes(r)[0].status is Status.APPLIED


def test_binary_delta_applies_copy_and_insert() -> None:
    new = PNG[:100] + b"NEW BYTES" + PNG[200:]
    # copy 100 bytes from 0; insert 9 bytes; copy len-200 bytes from 200
    rest = len(PNG) - 200
    delta = (varint(len(PNG)) + varint(len(new)) + bytes([0x80 | 0x10, 100]) + b"\x09NEW BYTES"
             + bytes([0x80 | 0x01 | 0x10 | 0x20, 200, rest & 0xFF, rest >> 8]))
    assert apply_delta(PNG, delta) == new
    r = run(import_unified(delta_patch("logo.png", PNG, new, delta), "c.diff"),
            {"logo.png": PNG})
    assert final(r) == {"logo.png": new}


def test_binary_patch_on_another_version_is_refused_not_applied() -> None:
    other = PNG + b"drift"
    r = run(import_unified(literal_patch("logo.png", PNG, PNG[::-1]), "c.diff"),
            {"logo.png": other})
    (outcome,) = outcomes(r)
    assert (outcome.status, outcome.rule) == (Status.REFUSED, "binary-stale")
    assert final(r) == {"logo.png": other}


def test_damaged_binary_data_is_refused() -> None:
    text = literal_patch("logo.png", None, PNG).replace(blob(PNG), "1" * 40)
    (outcome,) = outcomes(run(import_unified(text, "c.diff"), {}))
    assert outcome.rule == "binary-verify"
    with pytest.raises(BinaryPatchError):
        apply_delta(b"abc", varint(3) + varint(5) + b"\x05ab")


def test_binary_files_differ_without_data_is_an_operation_that_cannot_apply() -> None:
    text = "diff --git a/x.bin b/x.bin\nindex 1234567..89abcde 100644\n" \
           "Binary files a/x.bin and b/x.bin differ\n"
    r = run(import_unified(text, "c.diff"), {"x.bin": b"\0old"})
    (outcome,) = outcomes(r)
    assert (outcome.status, outcome.rule) == (Status.REFUSED, "binary-no-data")
    assert "x.bin" in outcome.message


@settings(max_examples=60, deadline=None)
@given(st.binary(max_size=3000))
def test_base85_zlib_round_trip(data: bytes) -> None:
    lines = [f"literal {len(data)}", *encode_lines(data), ""]
    hunk = read_hunk(lines, 0)
    assert (hunk.kind, hunk.data, hunk.end) == ("literal", data, len(lines))
    # Read no further than its section's end (``stop``), as from a slice of the lines (a
    # slice per section made a commit of many binary files quadratic: helper-103).
    after = [*lines[:-1], *encode_lines(b"next section"), ""]
    stopped = read_hunk(after, 0, len(lines) - 1)
    assert (stopped.data, stopped.end) == (data, len(lines) - 1)


# -- 8. apply_patch chunks in order ----------------------------------------------------------

def test_identical_chunks_are_placed_in_order() -> None:
    text = textwrap.dedent("""\
        *** Begin Patch
        *** Update File: f.py
        @@
         def one():
        -    return 0
        +    return 1
        @@
         def one():
        -    return 0
        +    return 2
        *** End Patch
        """)
    base = "def one():\n    return 0\n\ndef one():\n    return 0\n"
    r = evaluate_session(import_apply_patch(text, "p"), tree({"f.py": base}))
    assert [o.status for o in outcomes(r)] == [Status.APPLIED, Status.APPLIED]
    assert final(r) == {"f.py": b"def one():\n    return 1\n\ndef one():\n    return 2\n"}


def test_a_chunk_before_the_previous_one_is_found_but_needs_review() -> None:
    # Leniency (docs/formats.md): Codex refuses it; reviewtui looks in the whole file after
    # the in-order search, where it must be unique, and offers the place for review: the
    # chunk's own text may be gone and this be other lines (importers red-team finding 06).
    text = ("*** Begin Patch\n*** Update File: f\n@@\n-c\n+C\n@@\n-a\n+A\n*** End Patch\n")
    r = evaluate_session(import_apply_patch(text, "p"), tree({"f": "a\nb\nc\n"}))
    first, second = outcomes(r)
    assert first.status is Status.APPLIED
    assert second.status is Status.NEEDS_REVIEW
    assert second.rule == "out-of-order"
    assert second.lines == (1, 1)
    assert "above the previous chunk" in second.message
    assert final(r) == {"f": b"a\nb\nC\n"}  # (the display run: needs review lands only
    # when a human accepts it)


def test_a_chunk_whose_text_is_gone_does_not_land_on_an_earlier_copy() -> None:
    # The red-team case: the model edits b(); b's 'return 1' is gone, a()'s is not.
    base = "def a():\n    return 1\n\ndef b():\n    x = 0\n    return 0\n"
    text = ("*** Begin Patch\n*** Update File: m.py\n@@\n def b():\n-    x = 0\n+    x = 5\n"
            "@@\n-    return 1\n+    return 2\n*** End Patch\n")
    r = evaluate_session(import_apply_patch(text, "p"), tree({"m.py": base}))
    assert [o.status for o in outcomes(r)] == [Status.APPLIED, Status.NEEDS_REVIEW]
    assert b"def a():\n    return 1\n" in final(r)["m.py"]


# -- 9. Aider's whole format -----------------------------------------------------------------

WHOLE = """\
# aider chat started at 2024-05-01 10:00:00

> Model: gpt-3.5-turbo with whole edit format

#### say hi

Here is the updated file:

hello.py
```
def hello():
    return "hi"
```

```bash
python hello.py
```
"""


def test_aider_whole_format_imports_full_files() -> None:
    session = import_aider(WHOLE, "h.md")
    ops = session.turns[0].reply.ops
    assert len(ops) == 1
    assert isinstance(ops[0], FullFile)
    assert (ops[0].path, ops[0].lines) == ("hello.py", ("def hello():", '    return "hi"'))
    r = run(session, {"hello.py": "def hello():\n    return 'x'\n"})
    assert final(r) == {"hello.py": b'def hello():\n    return "hi"\n'}


def test_aider_format_the_importer_does_not_read_is_said() -> None:
    text = WHOLE.replace("whole edit format", "udiff edit format")
    (turn,) = import_aider(text, "h.md").turns
    assert turn.reply.ops == ()
    assert sorted(p.rule for p in turn.reply.problems) == ["aider-format", "aider-shell"]


# -- issue 12: a unified mode change is kept -------------------------------------------------

def test_mode_changes_are_kept_with_and_without_hunks() -> None:
    only = "diff --git a/a.sh b/a.sh\nold mode 100644\nnew mode 100755\n"
    r = run(import_unified(only, "c.diff"), {"a.sh": "echo\n"})
    assert r.states[-1].tree.get("a.sh").mode == 0o755  # type: ignore[union-attr]
    both = ("diff --git a/a.sh b/a.sh\nold mode 100755\nnew mode 100644\n--- a/a.sh\n"
            "+++ b/a.sh\n@@ -1 +1 @@\n-echo\n+echo hi\n")
    r = run(import_unified(both, "c.diff"), {"a.sh": "echo\n"}, modes={"a.sh": 0o755})
    state = r.states[-1].tree.get("a.sh")
    assert state is not None
    assert (state.data, state.mode) == (b"echo hi\n", 0o644)
    new = ("diff --git a/run b/run\nnew file mode 100755\n--- /dev/null\n+++ b/run\n"
           "@@ -0,0 +1 @@\n+go\n")
    assert run(import_unified(new, "c.diff"), {}).states[-1].tree.get("run").mode == 0o755  # type: ignore[union-attr]


def test_a_decision_is_bound_to_the_binary_content_and_mode() -> None:
    one = import_unified(literal_patch("logo.png", None, PNG), "c.diff").turns[0].reply.ops[0]
    two = import_unified(literal_patch("logo.png", None, PNG[::-1]), "c.diff")
    other = two.turns[0].reply.ops[0]
    assert op_fingerprint(one) != op_fingerprint(other)
    x = import_unified("diff --git a/a b/a\nold mode 100644\nnew mode 100755\n", "c")
    y = import_unified("diff --git a/a b/a\nold mode 100755\nnew mode 100644\n", "c")
    assert op_fingerprint(x.turns[0].reply.ops[0]) != op_fingerprint(y.turns[0].reply.ops[0])


def test_a_new_link_through_which_another_link_leads_out_is_refused() -> None:
    """``d/l -> q/../x`` (dangling) is inside the root as written; made ``d/q -> ..``,
    the kernel follows ``q`` before the ``..`` and ``d/l`` leads out (QA s36 helper-108:
    written, exit 0). A link that led out already is not the new link's doing."""
    diff = ("diff --git a/d/q b/d/q\nnew file mode 120000\nindex 0000000..a96aa0e\n"
            "--- /dev/null\n+++ b/d/q\n@@ -0,0 +1 @@\n+..\n\\ No newline at end of file\n")
    base = link_tree({"d/keep": "k\n"}, {"d/l": "q/../x"})
    r = evaluate_session(import_unified(diff, "c.diff"), base,
                         rules=Rules(symlinks={"d/l": "q/../x"}))
    assert [(o.status, o.rule) for o in outcomes(r)] == [(Status.REFUSED, "symlink-escape")]
    assert "through which the link d/l would lead outside" in outcomes(r)[0].message
    assert r.states[-1].tree.get("d/q") is None
    out = link_tree({"d/keep": "k\n"}, {"d/usr": "/usr/share"})
    r = evaluate_session(import_unified(diff, "c.diff"), out,
                         rules=Rules(symlinks={"d/usr": "/usr/share"}))
    assert [o.status for o in outcomes(r)] == [Status.APPLIED]
