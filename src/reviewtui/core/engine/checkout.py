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
from reviewtui.core.record import replace

CRLF_NOTE = "written with CRLF line endings, as git's checkout writes it here"
OTHER_NOTE = "written as git's checkout writes it here (its attributes convert it)"


def as_checked_out(op: Edit | FullFile, outcome: Outcome,
                   proposal: Proposal) -> tuple[Outcome, Proposal]:
    """``proposal`` written as git's checkout writes it when it is the blob ``op``'s
    section leaves; the same objects otherwise."""
    state = proposal.state
    if op.checked_out is None or not op.after_blob or blob_id(state.data) != op.after_blob:
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
