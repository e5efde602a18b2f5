"""A plain diff's file written as ``git apply`` writes it on a converting git checkout.

A diff given as the session (not a range read with ``--git``, whose checkout forms come
from git itself: ``core/engine/checkout.py``) carries the file's bytes as git stores them.
On a checkout that converts line endings (``core.autocrlf``, a ``text``, ``eol`` or
``crlf`` attribute) ``git apply`` does not write those bytes: it reads the file as it
would store it (``crlf_to_git``: CRLF to LF), patches that, and writes the result as its
checkout would (``crlf_to_worktree``: LF to CRLF). The review wrote a new file LF where
git writes CRLF, and a CRLF blob whose lines the diff made LF stayed LF (QA s54
helper-229, a real history's 15 files, exit 0).

The shell says, for each path of such a diff, what git's conversion is
(:class:`~reviewtui.core.model.records.GitApplyRule`, from the path's attributes and the
repository's configuration); here the result of a section's last operation becomes what
git writes: the review's result read as git would have read the file (where git read
the file before as other bytes), then checked out. The rules are git 2.39's
``convert.c`` (``gather_stats``, ``convert_is_binary``, ``crlf_to_git`` as ``git apply``
calls it, without looking at the index, and ``crlf_to_worktree``); the tests hold them to
``git apply`` itself. What git does that the review cannot follow is refused with its
rule: a re-encoding checkout (``git-encoding``), ``$Id$`` expansion in a file holding one
(``git-ident``), a file of a turn after one that changes a ``.gitattributes``
(``git-attributes``: git applies it by the new rules), and lines the diff adds with CRLF
to a file git reads as LF (``git-apply-endings``: git writes them into an LF file, the
review cannot tell which; where the checkout writes every line CRLF, they are CRLF either
way).
"""

from __future__ import annotations

import re

from reviewtui.core.engine.file_edits import Proposal
from reviewtui.core.model.filestate import FileState
from reviewtui.core.model.outcome import Outcome, Status
from reviewtui.core.model.records import Edit, FullFile, GitApplyRule
from reviewtui.core.model.tree import Tree
from reviewtui.core.record import replace

# The bytes git's gather_stats counts as non-printable (NUL among them): below 32 but
# for BS, HT, ESC, FF (and CR, LF, counted apart), and DEL.
_NONPRINTABLE = bytes(set(range(32)) - {8, 9, 10, 12, 13, 27} | {127})
_OTHERS = bytes(set(range(256)) - set(_NONPRINTABLE))
_LONE_LF = re.compile(rb"(?<!\r)\n")


def refusal(op: Edit | FullFile, rule: GitApplyRule, tree: Tree) -> Outcome | None:
    """The refusal of an operation git applies by rules a turn before changed (``held``),
    of one whose file git re-encodes, or whose ``$Id$`` git expands where the file or the
    operation holds one (before it is evaluated: the file on disk is not the text the diff
    was made from, and the match said "not found" where the reason is the checkout); None
    for any other."""
    if rule.held and (not rule.held_if_cr or _holds(op, tree, "\r")):
        return Outcome(Status.REFUSED, rule="git-attributes", path=op.path, message=(
            f"turn {rule.held} of this session changes a .gitattributes by which git "
            f"converts line endings, and git applies the later turns by its new rules, "
            f"which reviewtui does not follow: this change of {op.path} is not applied "
            "(apply the series with git am)"))
    if rule.encoding:
        return Outcome(Status.REFUSED, rule="git-encoding", path=op.path, message=(
            f"git checks {op.path} out as {rule.encoding} (its working-tree-encoding "
            "attribute) and converts it from and to UTF-8 as it applies a change; "
            "reviewtui edits the file's bytes as UTF-8 text: not applied (apply this "
            "change with git)"))
    if rule.ident and _holds(op, tree, "$Id"):
        return Outcome(Status.REFUSED, rule="git-ident", path=op.path, message=(
            f"git checks {op.path} out with $Id$ expanded to its blob's id (its ident "
            "attribute) and git apply collapses and expands it; reviewtui does not: not "
            "applied (apply this diff with git apply)"))
    return None


def _holds(op: Edit | FullFile, tree: Tree, text: str) -> bool:
    """Whether ``op``'s file, or its own lines, hold ``text``."""
    state = tree.get(op.path)
    if isinstance(state, FileState) and text.encode() in state.data:
        return True
    lines = (op.search_lines + op.replace_lines) if isinstance(op, Edit) else op.lines
    return any(text in line for line in lines)


def as_git_applies(op: Edit | FullFile, rule: GitApplyRule, outcome: Outcome,
                   proposal: Proposal, start: Tree) -> tuple[Outcome, Proposal | None]:
    """``proposal`` (the review's result of a section's last operation) as ``git apply``
    writes it: read as git read the file at the turn's start (``start``), then checked
    out; the same objects where that is the review's bytes. A refusal (no proposal) where
    the diff adds CRLF lines to a file git read as LF."""
    state = proposal.state
    was = start.get(rule.source or proposal.path)
    data = state.data
    # (a binary patch's result is the blob it names, whatever git read the file as)
    exact = isinstance(op, FullFile) and op.payload is not None
    if not exact and isinstance(was, FileState) and _read_otherwise(was.data, rule):
        # (a checkout writing every line CRLF writes those lines so either way)
        if rule.adds_cr and rule.writes != "all":
            return Outcome(Status.REFUSED, rule="git-apply-endings", path=op.path, message=(
                f"git reads {op.path} with LF line endings here (its CRLF is the checkout's) "
                "and this diff adds lines ending in CRLF to it: git apply writes them into "
                "an LF file, and reviewtui cannot tell those lines from the file's own: "
                "not applied (apply this diff with git apply)")), None
        data = data.replace(b"\r\n", b"\n")
    form = checked_out(data, rule.writes)
    if form == state.data:
        return outcome, proposal
    written = FileState.from_bytes(form, mode=state.mode, revision=state.revision)
    endings = "CRLF" if b"\r\n" in form else "LF"
    note = (f"written with {endings} line endings, as git apply writes it on this checkout "
            "(core.autocrlf or its text/eol attributes)")
    hint = "; ".join(part for part in (outcome.hint, note) if part)
    # (an export carries what git stores for these bytes, not the checkout's CRLF: the
    # patch applied in the repository the diff came from committed CRLF, QA s55
    # helper-231 F3)
    return (replace(outcome, hint=hint, after_state=written, stored=data),
            Proposal(proposal.path, written))


def as_git_reads(data: bytes, rule: GitApplyRule) -> bytes:
    """The file ``data`` as git reads it before patching it by ``rule`` (a binary patch's
    blob is checked against these bytes)."""
    return data.replace(b"\r\n", b"\n") if _read_otherwise(data, rule) else data


def _stats(data: bytes) -> tuple[int, int, int, bool]:
    """(lone CRs, lone LFs, CRLFs, whether git takes it as binary), as git's
    ``gather_stats`` and ``convert_is_binary`` count them."""
    crlf = data.count(b"\r\n")
    cr, lf = data.count(b"\r"), data.count(b"\n")
    nonprintable = len(data.translate(None, _OTHERS))
    printable = len(data) - cr - lf - nonprintable
    if data.endswith(b"\x1a"):  # (an EOF character at the end is not counted)
        nonprintable -= 1
    binary = cr > crlf or b"\0" in data or (printable >> 7) < nonprintable
    return cr - crlf, lf - crlf, crlf, binary


def _read_otherwise(data: bytes, rule: GitApplyRule) -> bool:
    """Whether git apply reads the file ``data`` as other bytes before patching it
    (``crlf_to_git``; it keeps the CRLF where the diff's old lines hold some); for a
    series, whether the blob ``git am`` patches is other bytes than the file."""
    if rule.reads == "none" or rule.keep_crlf or b"\r\n" not in data:
        return False
    if rule.reads == "all":
        return True
    _lone_cr, lone_lf, _crlf, binary = _stats(data)
    # (git am patches the index's blob: a file of mixed endings under an auto rule is a
    # checkout git left as the blob is, CRLF and all; QA s55 helper-230 R4)
    return not binary and not (rule.am and lone_lf)


def checked_out(data: bytes, writes: str) -> bytes:
    """``data`` (as git stores it) as git's checkout writes it (``crlf_to_worktree``):
    with "all", each LF without a CR before it written CRLF; with "auto", the same unless
    ``data`` holds a CR already or looks binary; with "none", as it is."""
    if writes == "none" or b"\n" not in data:
        return data
    lone_cr, lone_lf, crlf, binary = _stats(data)
    if not lone_lf or (writes == "auto" and (lone_cr or crlf or binary)):
        return data
    return data.replace(b"\n", b"\r\n") if b"\r" not in data else _LONE_LF.sub(b"\r\n", data)
