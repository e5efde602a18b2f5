"""A result that is the blob a git diff's section leaves is written as git's checkout
writes it (``core/engine/checkout.py``); any other result keeps the review's bytes."""

from __future__ import annotations

import hashlib

from reviewtui.core.engine import Decision, evaluate_session
from reviewtui.core.importers import import_session
from reviewtui.core.model.records import Edit, FileBlock, FullFile, GitForms, Session
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.record import replace


def _blob(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


BEFORE = b"one\ntwo\n3\n4\n5\n6\n7\n8\n"
AFTER = b"one\nTWO\n3\n4\n5\n6\n7\nEIGHT\n"
FORM = AFTER.replace(b"\n", b"\r\n")  # (what an autocrlf checkout writes)
NULL, NEW = "0" * 40, _blob(b"n\n")
DIFF = f"""\
diff --git a/f.txt b/f.txt
index {_blob(BEFORE)}..{_blob(AFTER)} 100644
--- a/f.txt
+++ b/f.txt
@@ -1,3 +1,3 @@
 one
-two
+TWO
 3
@@ -7,2 +7,2 @@
 7
-8
+EIGHT
diff --git a/n.txt b/n.txt
new file mode 100644
index {NULL}..{NEW}
--- /dev/null
+++ b/n.txt
@@ -0,0 +1 @@
+n
"""


def _session(forms: dict[str, bytes | bool]) -> Session:
    """The diff as the git source gives it on a checkout whose forms are ``forms``."""
    session = import_session(DIFF, "range.patch", format="unified", root="/p")

    def formed(op: Edit | FullFile) -> Edit | FullFile:
        if op.git_forms is None:
            return op
        return replace(op, git_forms=replace(op.git_forms, checked_out=forms.get(op.path)))

    turns = tuple(replace(turn, reply=replace(turn.reply, blocks=tuple(
        replace(block, ops=tuple(formed(op) for op in block.ops))
        if isinstance(block, FileBlock) else block for block in turn.reply.blocks)))
        for turn in session.turns)
    return replace(session, turns=turns)


def _final(session: Session, decisions: dict | None = None) -> Tree:  # type: ignore[type-arg]
    run = evaluate_session(session, Tree.from_files({"f.txt": FileState.from_bytes(BEFORE)}),
                           decisions=decisions)
    return run.checkpoint(len(session.turns))


def test_only_the_last_operation_of_a_section_names_the_blob_it_leaves() -> None:
    ops = [op for turn in _session({}).turns for op in turn.reply.ops]
    assert [(op.path, op.git_forms) for op in ops] == [
        ("f.txt", None), ("f.txt", GitForms(_blob(AFTER), _blob(BEFORE))),
        ("n.txt", GitForms(_blob(b"n\n")))]


def test_the_blob_is_written_as_the_checkout_writes_it() -> None:
    session = _session({"f.txt": FORM, "n.txt": b"n\r\n"})
    tree = _final(session)
    assert tree.get("f.txt").data == FORM
    assert tree.get("n.txt").data == b"n\r\n"
    run = evaluate_session(session, Tree.from_files({"f.txt": FileState.from_bytes(BEFORE)}))
    last = [r for t in run.turns for r in t.results if r.op.path == "f.txt"][-1]
    assert "CRLF line endings, as git's checkout writes it" in last.outcome.hint
    assert last.outcome.after_state is not None
    assert last.outcome.after_state.data == FORM


def test_a_crlf_flag_stands_for_the_blob_with_crlf_endings() -> None:
    """The usual autocrlf form is carried as a flag, not a copy of the file."""
    tree = _final(_session({"f.txt": True, "n.txt": True}))
    assert (tree.get("f.txt").data, tree.get("n.txt").data) == (FORM, b"n\r\n")


def test_without_forms_the_blob_is_written_as_stored() -> None:
    tree = _final(_session({}))
    assert (tree.get("f.txt").data, tree.get("n.txt").data) == (AFTER, b"n\n")


def test_a_result_that_is_not_the_blob_keeps_the_reviews_bytes() -> None:
    """The first hunk rejected: the file is neither A nor B, and git's checkout of B is
    not what it should hold (it would bring back the rejected change)."""
    session = _session({"f.txt": FORM, "n.txt": b"n\r\n"})
    tree = _final(session, {(1, 0): Decision.reject()})
    assert tree.get("f.txt").data == b"one\ntwo\n3\n4\n5\n6\n7\nEIGHT\n"


def test_a_result_already_in_the_checkouts_form_is_left_alone() -> None:
    """A CRLF file keeps CRLF by its own convention: the form is what it holds."""
    session = _session({"f.txt": FORM, "n.txt": b"n\r\n"})
    run = evaluate_session(session, Tree.from_files(
        {"f.txt": FileState.from_bytes(BEFORE.replace(b"\n", b"\r\n"))}))
    assert run.checkpoint(1).get("f.txt").data == FORM
    last = [r for t in run.turns for r in t.results if r.op.path == "f.txt"][-1]
    assert "git's checkout" not in last.outcome.hint
