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

import re

from reviewtui.core.engine.file_edits import Proposal
from reviewtui.core.importers.gitbinary import blob_id
from reviewtui.core.model.filestate import FileState
from reviewtui.core.model.outcome import Outcome
from reviewtui.core.model.records import Edit, FullFile, GitForms
from reviewtui.core.model.tree import Tree
from reviewtui.core.record import replace

# $Id$ as git's ``ident`` checkout expands it, on one line (what ``git add`` collapses)
_IDENT = re.compile(rb"\$Id:[^$\n]*\$")
CRLF_NOTE = "written with CRLF line endings, as git's checkout writes it here"
OTHER_NOTE = "written as git's checkout writes it here (its attributes convert it)"


def as_checked_out(op: Edit | FullFile, outcome: Outcome, proposal: Proposal,
                   tree: Tree, start: Tree) -> tuple[Outcome, Proposal]:
    """``proposal`` written as git's checkout writes it when it is the blob ``op``'s
    section leaves, or that blob's text in other line endings where the file was git's
    checkout of the blob before at the turn's start (``start``: a checkout then, its
    form since changed, as git would rewrite it); the same objects otherwise. ``tree``:
    the files before ``op``; a file the diff creates that was there already (an
    untracked file of the user's holding the blob's bytes) is not rewritten (git would
    refuse to check it out: QA s38 helper-116 R11)."""
    forms, state = op.git_forms, proposal.state
    if forms is None or (isinstance(op, FullFile) and op.creates
                         and tree.get(proposal.path) is not None):
        return outcome, proposal
    # (a rename's file was at the path it moves from when the turn started)
    was = start.get(forms.before_path or proposal.path)
    if blob_id(state.data) == forms.after_blob:
        # (a file the range finds must be git's checkout of the blob it finds: your own
        # change of its line endings is not undone, QA s38 helper-118 F8)
        form = (form_of(forms.checked_out, state.data)
                if not forms.before_blob or _was_checkout(forms, was) else None)
    else:
        form = _rewritten(forms, state.data, was)
    if form is None or form == state.data:
        return outcome, proposal
    written = FileState.from_bytes(form, mode=state.mode, revision=state.revision)
    note = CRLF_NOTE if form == state.data.replace(b"\n", b"\r\n") else OTHER_NOTE
    hint = "; ".join(part for part in (outcome.hint, note) if part)
    # (what an export must carry for these bytes, where it is not the blob with CRLF:
    # the re-encoded or expanded file's blob, QA s39 helper-121 F3)
    stored = None if is_form(True, form, forms.after_blob) or blob_id(form) == forms.after_blob \
        else next((blob for blob in (state.data, state.data.replace(b"\r\n", b"\n"))
                   if blob_id(blob) == forms.after_blob), None)
    return (replace(outcome, hint=hint, after_state=written, stored=stored),
            Proposal(proposal.path, written))


def expanded_id(forms: GitForms) -> str:
    """``$Id: <blob found> $`` where git checked the file out so (``ident``: its checkout
    of the blob found holds it), "" otherwise."""
    expanded = f"$Id: {forms.before_blob} $"
    return expanded if (forms.before_blob and isinstance(forms.checked_before, bytes)
                        and expanded.encode() in forms.checked_before) else ""


def _was_checkout(forms: GitForms, was: FileState | None) -> bool:
    """Whether ``was`` (the file at the turn's start) is exactly git's checkout of the blob
    the section finds: converted (``checked_before``), or the blob as it is."""
    return (was is not None and bool(forms.before_blob)
            and is_form(forms.checked_before, was.data, forms.before_blob))


def form_of(kept: bytes | bool | None, blob: bytes) -> bytes | None:
    """The bytes a kept form (:func:`kept_form`) stands for, of ``blob`` (True: with CRLF
    line endings); None for none."""
    if kept is True:
        return blob.replace(b"\n", b"\r\n")
    return kept if isinstance(kept, bytes) else None


def is_form(kept: bytes | bool | None, data: bytes, blob: str) -> bool:
    """Whether ``data`` is git's checkout of the blob ``blob`` as ``kept`` says it (None:
    the blob itself)."""
    if kept is True:
        lf = data.replace(b"\r\n", b"\n")
        return form_of(True, lf) == data and blob_id(lf) == blob
    if isinstance(kept, bytes):
        return kept == data
    return blob_id(data) == blob


def kept_form(form: bytes, blob: str) -> bytes | bool:
    """``form`` (git's checkout of ``blob``) as an operation keeps it: True where it is the
    blob with each LF written CRLF, what an autocrlf checkout writes for most files (a
    flag, not a copy of every version of every file)."""
    return True if is_form(True, form, blob) else form


def _rewritten(forms: GitForms, data: bytes, was: FileState | None) -> bytes | None:
    """Git's checkout of the blob after, where the file was exactly git's checkout of the
    blob before at the turn's start, that one converted, and ``data`` (the review's
    result) is the blob after's text in other line endings: the review kept the file's
    CRLF where git now writes the blob as it is (QA s38 helper-116: R1, attributes that
    stop converting it; R2, a blob that holds a CR, which autocrlf leaves alone). None
    otherwise: a file with changes of its own, a hunk rejected or rewritten."""
    if forms.checked_before is None or not _was_checkout(forms, was):
        return None
    after = data.replace(b"\r\n", b"\n")
    # (an ``ident`` file, one git checked out with the blob found's id in its $Id$, keeps
    # that id, which git rewrites: the review wrote the old id, exit 0, QA s40; only
    # there: a literal "$Id: foo $" elsewhere is text, helper-125 H4)
    ident = b"$Id:" in after and bool(expanded_id(forms))
    for text in (after, _IDENT.sub(b"$Id$", after)) if ident else (after,):
        if blob_id(text) == forms.after_blob:
            # (git's checkout of it, re-encoded too: the CRLF alone was written over UTF-8
            # where git writes ISO-8859-1 or UTF-16, QA s39 helper-119 F1)
            return form_of(forms.checked_out, text)
    if isinstance(forms.checked_out, bytes) and forms.checked_out.replace(b"\r\n",
                                                                          b"\n") == after:
        return forms.checked_out
    return None


def encoded_refusal(op: Edit | FullFile, forms: GitForms) -> Outcome:
    """The outcome of an operation git would write re-encoded (a ``working-tree-encoding``
    a ``.gitattributes`` of the range gives its file): written as UTF-8 and committed,
    git read those bytes as the encoding and committed garbled text, exit 0 (QA s38
    helper-117 N2, older); or one on a path whose attributes the range changes, which git
    converts in some commit (``unsettled``: its bytes were committed as blobs B never
    had, QA s39 helper-121 F9)."""
    from reviewtui.core.model.outcome import Status

    if forms.encoding:
        return Outcome(Status.REFUSED, rule="git-encoding", path=op.path, message=(
            f"git checks {op.path} out as {forms.encoding} (working-tree-encoding, set by a "
            ".gitattributes this range changes) and reviewtui writes text as UTF-8: this "
            "change of it is not written (apply the range with git)"))
    moved = (f" (renamed to {op.path})" if forms.unsettled and forms.unsettled != op.path
             else "")
    return Outcome(Status.REFUSED, rule="git-attributes", path=op.path, message=(
        f"this range changes how git checks {forms.unsettled or op.path} out{moved} (its "
        ".gitattributes convert it in some commits and not in others) and reviewtui "
        "cannot write it as git would: this change of it is not written (apply the range "
        "with git)"))


def is_checkout_of(forms: GitForms, data: bytes) -> bool:
    """Whether ``data`` is the blob ``forms`` names as left by its section, as git stores
    it or as its checkout writes it here: what a commit of it must store is that blob, not
    what ``git add`` makes of these bytes (a file whose blob held CRLF keeps the CRLF of
    its checkout; a blob holding CRLF lost it: QA s38 helper-118 F1, F2)."""
    return blob_id(data) == forms.after_blob or (
        forms.checked_out is not None and is_form(forms.checked_out, data, forms.after_blob))
