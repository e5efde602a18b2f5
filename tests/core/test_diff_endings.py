"""A unified diff's line endings and byte order mark land as the diff says (``Edit.line_bytes``,
``core/engine/endings.py``), the way ``git apply`` writes them.

Found by ``bench/history.py`` on AutoMapper's history (21 of 148 commits wrong, exit 0):
a commit that turned CRLF lines into LF, added LF lines to a file whose lines end both
ways, or removed a BOM was replayed with the file's old conventions. A diff typed with LF
for a CRLF file (a model's) still takes the file's ending: the old side's endings prove
which kind of diff it is.
"""

from __future__ import annotations

import difflib
import re

from hypothesis import assume, given, settings
from hypothesis import strategies as st

from reviewtui.core.engine import evaluate_session
from reviewtui.core.importers.unified import import_unified
from reviewtui.core.model.outcome import Status
from reviewtui.core.model.tree import FileState, Tree

BOM = "\ufeff"


def exact_diff(before: bytes, after: bytes, path: str = "f.txt", context: int = 3) -> str:
    """A git-style unified diff of two texts' bytes: each line as it is (its CR kept),
    ``\\ No newline at end of file`` after a last line without one (the test's own writer,
    so the property does not lean on the importer's reading of someone else's)."""
    old = re.findall(r"[^\n]*\n|[^\n]+$", before.decode())
    new = re.findall(r"[^\n]*\n|[^\n]+$", after.decode())
    out = [f"diff --git a/{path} b/{path}\n", f"--- a/{path}\n", f"+++ b/{path}\n"]

    def emit(mark: str, line: str) -> None:
        out.append(mark + line if line.endswith("\n") else
                   f"{mark}{line}\n\\ No newline at end of file\n")

    for group in difflib.SequenceMatcher(None, old, new, autojunk=False).get_grouped_opcodes(
            context):
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        out.append(f"@@ -{i1 + (i2 > i1)},{i2 - i1} +{j1 + (j2 > j1)},{j2 - j1} @@\n")
        for tag, a1, a2, b1, b2 in group:
            if tag == "equal":
                for line in old[a1:a2]:
                    emit(" ", line)
                continue
            for line in old[a1:a2]:
                emit("-", line)
            for line in new[b1:b2]:
                emit("+", line)
    return "".join(out)


def replay(before: bytes, diff: str) -> tuple[list[Status], bytes | None]:
    tree = Tree.from_files({"f.txt": FileState.from_bytes(before)})
    run = evaluate_session(import_unified(diff, "c.diff", literal=True), tree)
    statuses = [r.outcome.status for t in run.turns for r in t.results]
    final = run.states[-1].tree.get("f.txt")
    return statuses, None if final is None else final.data


def lands(before: bytes, after: bytes) -> bytes | None:
    statuses, data = replay(before, exact_diff(before, after))
    assert statuses
    assert all(s is Status.APPLIED for s in statuses), statuses
    return data


def test_crlf_to_lf_and_back() -> None:
    assert lands(b"a\r\nb\r\nc\r\n", b"a\nb\nc\n") == b"a\nb\nc\n"
    assert lands(b"a\nb\nc\n", b"a\r\nb\r\nc\r\n") == b"a\r\nb\r\nc\r\n"


def test_one_line_changes_its_ending_only() -> None:
    assert lands(b"a\nb\nc\n", b"a\nb\r\nc\n") == b"a\nb\r\nc\n"


def test_an_edit_in_a_mixed_file_keeps_every_other_line_as_it_was() -> None:
    # The old code wrote the unchanged CRLF line, between two changes, in the dominant LF.
    before = b"a\nb\r\nc\nd\n"
    after = b"A\nb\r\nC\nd\n"
    assert lands(before, after) == after


def test_lf_lines_added_to_a_crlf_file_stay_lf() -> None:
    before = b"".join(b"line %d\r\n" % n for n in range(8))
    after = before.replace(b"line 4\r\n", b"line 4\r\nnew\n\nmore\n")
    assert lands(before, after) == after


def test_a_byte_order_mark_removed_added_or_kept() -> None:
    with_bom = (BOM + "namespace A\r\n{\r\n}\r\n").encode()
    without = b"namespace A\r\n{\r\n}\r\n"
    assert lands(with_bom, without) == without
    assert lands(without, with_bom) == with_bom
    # The first line edited, the mark kept: written once, not twice.
    changed = (BOM + "namespace A;\r\n{\r\n}\r\n").encode()
    assert lands(with_bom, changed) == changed


def test_a_diff_typed_with_lf_for_a_crlf_file_takes_the_files_ending() -> None:
    # Its old side says LF where the file has CRLF: not the file's bytes, so the file's
    # convention stands (the model-friendly reading), as before.
    diff = "--- a/f.txt\n+++ b/f.txt\n@@ -1,3 +1,3 @@\n a\n-b\n+B\n c\n"
    statuses, data = replay(b"a\r\nb\r\nc\r\n", diff)
    assert statuses == [Status.APPLIED]
    assert data == b"a\r\nB\r\nc\r\n"


def test_a_mark_dropped_by_an_lf_diff_is_dropped_from_a_crlf_file() -> None:
    """A commit that drops a BOM, diffed by git with LF (as stored), replayed on a
    checkout that writes CRLF (core.autocrlf): the endings are the file's (the old side's
    disagree), the mark the diff's (its old side holds the file's). Before s38 the BOM
    stayed, exit 0 (Newtonsoft.Json 9317d71a). Adding one works the same way; a diff
    whose old side has no mark where the file has one proves nothing, and the mark stays."""
    stored = (BOM + "namespace A\n{\n}\n").encode()
    diff = exact_diff(stored, stored[3:].replace(b"A", b"B"))
    on_disk = stored.replace(b"\n", b"\r\n")
    statuses, data = replay(on_disk, diff)
    assert statuses == [Status.APPLIED]
    assert data == b"namespace B\r\n{\r\n}\r\n"
    statuses, data = replay(on_disk[3:], exact_diff(stored[3:], stored))
    assert (statuses, data) == ([Status.APPLIED], on_disk)
    statuses, data = replay(on_disk, exact_diff(stored[3:], stored[3:].replace(b"A", b"B")))
    assert (statuses, data) == ([Status.APPLIED], (BOM + "namespace B\r\n{\r\n}\r\n").encode())


def test_a_diff_sent_with_crlf_throughout_is_read_as_transport() -> None:
    # Every line of the diff, hunk headers too, ends in CRLF: the importer drops the CRs,
    # so the LF file stays LF.
    diff = "--- a/f.txt\r\n+++ b/f.txt\r\n@@ -1,3 +1,3 @@\r\n a\r\n-b\r\n+B\r\n c\r\n"
    statuses, data = replay(b"a\nb\nc\n", diff)
    assert statuses == [Status.APPLIED]
    assert data == b"a\nB\nc\n"


def test_the_note_says_what_the_diff_changed() -> None:
    tree = Tree.from_files({"f.txt": FileState.from_bytes(b"a\r\nb\r\nc\r\n")})
    diff = exact_diff(b"a\r\nb\r\nc\r\n", b"a\r\nb\nc\r\n")
    run = evaluate_session(import_unified(diff, "c.diff", literal=True), tree)
    (result,) = run.turns[0].results
    assert "1 new line(s) end in LF" in result.outcome.hint


_LINE = st.text(alphabet="ab é\t", min_size=0, max_size=4)
_ENDING = st.sampled_from(["\n", "\r\n"])


@st.composite
def versions(draw: st.DrawFn) -> tuple[bytes, bytes]:
    lines = draw(st.lists(st.tuples(_LINE, _ENDING), min_size=1, max_size=14))
    bom = draw(st.booleans())
    final = draw(st.booleans())
    changed = list(lines)
    for _ in range(draw(st.integers(0, 4))):
        at = draw(st.integers(0, len(changed)))
        what = draw(st.sampled_from(["text", "ending", "insert", "delete"]))
        if what == "insert" or not changed or at == len(changed):
            changed.insert(at, (draw(_LINE), draw(_ENDING)))
        elif what == "delete" and len(changed) > 1:
            del changed[at]
        elif what == "ending":
            changed[at] = (changed[at][0], "\n" if changed[at][1] == "\r\n" else "\r\n")
        else:
            changed[at] = (draw(_LINE), changed[at][1])
    new_bom = draw(st.booleans()) if draw(st.booleans()) else bom
    new_final = draw(st.booleans()) if draw(st.booleans()) else final

    def text(rows: list[tuple[str, str]], mark: bool, ends: bool) -> bytes:
        body = "".join(line + end for line, end in rows)
        if not ends:
            body = body.removesuffix("\r\n").removesuffix("\n")
        return ((BOM if mark else "") + body).encode()

    return text(lines, bom, final), text(changed, new_bom, new_final)


@settings(max_examples=300, deadline=None)
@given(versions())
def test_any_exact_diff_lands_byte_for_byte_or_not_at_all(pair: tuple[bytes, bytes]) -> None:
    """Whatever the endings, marks and final newlines of both versions: an exact diff of
    them gives the second version's bytes, never other bytes (it may be refused)."""
    before, after = pair
    # Known limit, left out: a file whose last byte is a lone CR (content, with no newline
    # after it). The matcher forgives a CR at a line's end, so such a last line is matched
    # loosely and its CR may be doubled or lost. No real file was seen to end that way.
    assume(before != after and not before.endswith(b"\r") and not after.endswith(b"\r"))
    statuses, data = replay(before, exact_diff(before, after))
    if all(s is Status.APPLIED for s in statuses):
        assert data == after


BLANK_HUNK = ("--- a/f.txt\n+++ b/f.txt\n@@ -1 +1,2 @@\n \n+import os\n")


def test_blank_old_lines_are_lines_of_the_file_not_an_append() -> None:
    # A file of one blank line given content: the blank line is context, kept once (the
    # old code read an all-blank old side as an empty SEARCH and appended both lines).
    statuses, data = replay(b"\n", BLANK_HUNK)
    assert statuses == [Status.APPLIED]
    assert data == b"\nimport os\n"


def test_blank_old_lines_land_only_where_git_pins_them() -> None:
    # Already applied (the file's blank line is no longer its last): blank lines alone
    # cannot place the hunk anywhere else, so it does not land.
    tree = Tree.from_files({"f.txt": FileState.from_bytes(b"\nimport os\n")})
    run = evaluate_session(import_unified(BLANK_HUNK, "c.diff", literal=True), tree)
    (result,) = run.turns[0].results
    assert result.outcome.status is Status.NOT_FOUND
    assert result.outcome.rule == "blank-lines-moved"
    assert "start and end" in result.outcome.message
    final = run.states[-1].tree.get("f.txt")
    assert final is not None
    assert final.data == b"\nimport os\n"


def test_an_apply_patch_chunk_whose_context_is_blank_replaces_at_the_end() -> None:
    # Found by a differential run against Codex's apply_patch: a file of one blank line,
    # a chunk with that blank line as context and "*** End of File". The blank context
    # was read as an empty SEARCH and appended again ("\n\n    pass\n"); Codex, like git,
    # writes "\n    pass\n".
    from reviewtui.core.importers.codex import import_apply_patch
    from reviewtui.core.model.records import literal_session

    patch = ("*** Begin Patch\n*** Update File: f.txt\n@@\n \n+    pass\n"
             "*** End of File\n*** End Patch\n")
    tree = Tree.from_files({"f.txt": FileState.from_bytes(b"\n")})
    # (Exact text, as every importer but File Ops marks it when a session is loaded.)
    run = evaluate_session(literal_session(import_apply_patch(patch, "p.txt")), tree)
    (result,) = run.turns[0].results
    assert result.outcome.status is Status.APPLIED
    final = run.states[-1].tree.get("f.txt")
    assert final is not None
    assert final.data == b"\n    pass\n"
