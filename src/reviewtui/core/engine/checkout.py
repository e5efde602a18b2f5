"""A file a git range leaves as its commit stores it, written as git's checkout writes it.

A converting checkout (``core.autocrlf``, ``core.eol``, an ``eol``, ``text`` or
``working-tree-encoding`` attribute) writes a file otherwise than git stores it. The
review writes a diff's text as the diff gives it, in the file's own line endings where
it has some: a new file, or a file git had left as it stores it (no newline in it, CRLF
already in the blob, empty), came out as git stores the new version, LF where ``git
checkout`` writes CRLF, and UTF-8 where it writes UTF-16 (which ``--commit`` then
committed garbled), all with exit 0 (QA s37 helper-111 F3, F4, F6).

The git source says which blob each file's section leaves (``Edit.after_blob``) and,
where git's checkout of that blob is other bytes, what they are (``checked_out``: git
said it, by the attributes of the commit, see ``shell/git_checkout.py``; True for the
blob with each LF written CRLF). When the review's result is exactly that blob, the
checkout's bytes are written instead: what ``git checkout`` of the commit writes there.
Any other result (a hunk rejected, the reviewer's own text, a file with changes of its
own, a result already in git's checkout form) keeps the review's bytes.
"""

from __future__ import annotations

from reviewtui.core.engine.file_edits import Proposal
from reviewtui.core.importers.gitbinary import blob_id
from reviewtui.core.model.filestate import FileState
from reviewtui.core.model.outcome import Outcome
from reviewtui.core.model.records import Edit, FullFile
from reviewtui.core.model.tree import Tree
from reviewtui.core.record import replace

CRLF_NOTE = "written with CRLF line endings, as git's checkout writes it here"
OTHER_NOTE = "written as git's checkout writes it here (its attributes convert it)"


def attributes_hold(op: Edit | FullFile, tree: Tree) -> bool:
    """Whether ``tree`` holds the ``.gitattributes`` files ``op``'s forms were asked by
    (each as git stores it, or with CRLF endings as a checkout may write it), and none
    where there was none: a turn that adds or changes them, rejected or skipped, left
    others, and the forms would write what git checks out by rules the files do not
    hold (QA s38 helper-116 R3: committed CRLF, or UTF-16 bytes as UTF-8 text)."""
    for path, blob in op.attributes:
        state = tree.get(path)
        if state is None or not blob:
            if state is not None or blob:
                return False
            continue
        if blob_id(state.data) != blob and blob_id(state.data.replace(b"\r\n", b"\n")) != blob:
            return False
    return True


def as_checked_out(op: Edit | FullFile, outcome: Outcome, proposal: Proposal,
                   tree: Tree) -> tuple[Outcome, Proposal]:
    """``proposal`` written as git's checkout writes it when it is the blob ``op``'s
    section leaves; the same objects otherwise. ``tree``: the files before ``op``; a
    file the diff creates that was there already (an untracked file of the user's
    holding the blob's bytes) is not rewritten (git would refuse to check it out: QA s38
    helper-116 R11), nor any while the attributes do not hold (:func:`attributes_hold`)."""
    state = proposal.state
    if op.checked_out is None or not op.after_blob or blob_id(state.data) != op.after_blob:
        return outcome, proposal
    if (isinstance(op, FullFile) and op.creates and tree.get(proposal.path) is not None
            or not attributes_hold(op, tree)):
        return outcome, proposal
    if isinstance(op.checked_out, bytes):
        form = op.checked_out
    elif op.checked_out is True:
        form = state.data.replace(b"\n", b"\r\n")
    else:
        return outcome, proposal
    if form == state.data:
        return outcome, proposal
    written = FileState.from_bytes(form, mode=state.mode, revision=state.revision)
    note = CRLF_NOTE if form == state.data.replace(b"\n", b"\r\n") else OTHER_NOTE
    hint = "; ".join(part for part in (outcome.hint, note) if part)
    return (replace(outcome, hint=hint, after_state=written),
            Proposal(proposal.path, written))
