"""What a converting checkout writes for the files of a range's binary patches.

A file git diffs as text that is not UTF-8 (a Latin-1 source) is reviewed as a binary file
(``shell/git_not_utf8.py``): its changes come as git's binary patches, checked by blob id.
So does a text file a commit gives a NUL byte. A checkout that converts line endings
(``core.autocrlf``, an ``eol``/``text`` attribute) or expands ``$Id$`` (``ident``) writes
such a file otherwise than git stores it, so the file on disk was not the blob its patch
was made for, and the patch was refused (QA s35 helper-103 F4). Patching the file's LF
form and writing the result with CRLF was tried and reverted (QA s36 helper-105: git does
not convert every blob so -- one with a NUL, or an attribute saying otherwise, keeps its
bytes -- and the review wrote bytes that were neither git's checkout of the result nor
the original).

Here git says it: on a checkout that may convert, for each binary patch, ``git cat-file
--filters --path`` gives what a checkout writes for its two blobs at that path (the
repository's filter programs stay off, :attr:`Repo.overrides`, as everywhere), and where
either is not its blob, the patch carries them (:class:`~reviewtui.core.model.records.
CheckoutForms`). The engine then takes the patch when the file is exactly git's checkout
of the blob before, and writes git's checkout of the blob after
(``core/engine/filebytes.py``); a file holding the blob itself still takes it as before.
Nothing is given when the range names a ``.gitattributes`` file (an edit, a removal, a
move), or the working tree holds one that is not A's: a checkout of B would then read
other attributes than the ones asked here. Not covered: new files and text edits, which
are written as the review writes text (QA s37 helper-111 F3, F4).
"""

from __future__ import annotations

from collections.abc import Callable

from reviewtui.core.engine.filebytes import NULL_ID
from reviewtui.core.errors import GitError
from reviewtui.core.model.records import (
    CheckoutForms,
    ConsoleCommand,
    Edit,
    FileBlock,
    FullFile,
    Session,
    Turn,
)
from reviewtui.core.record import replace
from reviewtui.shell.git import Repo

ATTRIBUTES = ".gitattributes"

# (path, blob before, blob after) of a binary patch -> its checkout forms (None: none)
_Known = dict[tuple[str, str, str], CheckoutForms | None]


def checkout_forms(repo: Repo) -> Callable[[Session], Session]:
    """What to do to a range's session each time it is read: its binary patches carry
    git's checkout forms where those are not the blobs. Git is asked once per patch, and
    only when there is one and the checkout may convert (:func:`_ask`)."""
    known: _Known = {}
    attributes: list[bool] = []  # whether they changed in the working tree (asked once)

    def adjust(session: Session) -> Session:
        wanted = [key for key in dict.fromkeys(_binary_patches(session)) if key not in known]
        if wanted:
            if _touches_attributes(session):
                return session
            _ask(repo, wanted, known, attributes)
        if not any(known.values()):
            return session
        return replace(session, turns=tuple(_turn(turn, known) for turn in session.turns))

    return adjust


def _binary_patches(session: Session) -> list[tuple[str, str, str]]:
    return [(op.path, op.payload.old_id, op.payload.new_id)
            for turn in session.turns for block in turn.reply.blocks
            if isinstance(block, FileBlock) for op in block.ops
            if isinstance(op, FullFile) and op.payload is not None
            and op.payload.kind in ("literal", "delta")
            and _full(op.payload.old_id) and _full(op.payload.new_id)]


def _full(blob: str) -> bool:
    return len(blob) == 40 and blob != NULL_ID


def _touches_attributes(session: Session) -> bool:
    """Whether an operation of the range names a ``.gitattributes``: an edit, a new or
    deleted one, one moved away or into place (a command's every argument: QA s37
    helper-111 F2, a range deleting it was written by A's rules)."""
    return any(name.rstrip("/").rsplit("/", 1)[-1] == ATTRIBUTES
               for turn in session.turns for op in turn.reply.ops
               for name in (op.args if isinstance(op, ConsoleCommand) else (op.path,)))


def _attributes_changed(repo: Repo) -> bool:
    """Whether the working tree holds a ``.gitattributes`` that is not the checked-out
    commit's (changed, new or deleted)."""
    out = repo.git("status", "--porcelain=v1", "-z", "--untracked-files=all",
                   "--ignore-submodules=all", "--", f":(glob)**/{ATTRIBUTES}")
    return bool(out.strip(b"\0"))


def _ask(repo: Repo, wanted: list[tuple[str, str, str]], known: _Known,
         attributes: list[bool]) -> None:
    """Git's checkout forms of the patches ``wanted``, into ``known``: on a checkout that
    may convert (:func:`_may_convert`), the two blobs of each read in one ``cat-file`` and
    each checked out (``cat-file --filters``, one per blob). Both sides are asked, either
    may be converted alone: a blob before that git checks out as it is (it holds CRLF
    already, a NUL, no line at all) may be followed by one it converts (QA s37 helper-111
    F1: B was written as git stores it)."""
    for key in wanted:
        known[key] = None
    if not _may_convert(repo, sorted({path for path, _old, _new in wanted})):
        return
    try:
        blobs = repo.blobs([blob for _path, old, new in wanted for blob in (old, new)],
                           [path for path, _old, _new in wanted for _ in (0, 1)])
    except GitError:  # (a partial clone: the patches are taken as they come)
        return
    for n, key in enumerate(wanted):
        path, old_id, new_id = key
        old_blob, new_blob = blobs[2 * n], blobs[2 * n + 1]
        try:
            old, new = _checkout(repo, path, old_id), _checkout(repo, path, new_id)
        except GitError:
            continue
        if old == old_blob and new == new_blob:
            continue
        if not attributes:
            attributes.append(_attributes_changed(repo))
        if attributes[0]:
            return
        known[key] = (CheckoutForms(old, old_blob) if new == new_blob
                      else CheckoutForms(old, old_blob, new, new_blob))


_ON = (b"true", b"yes", b"on", b"1")
# The attributes by which git may check a file out otherwise than it stores it, besides
# the line endings core.autocrlf and core.eol choose (a filter program: off here).
_CONVERTING = ("eol", "crlf", "ident", "working-tree-encoding")


def _on(value: bytes) -> bool:
    """A git boolean that is true (``true``, ``yes``, ``on``, or a number other than 0:
    ``core.autocrlf=2`` converts, QA s37 helper-111 F8)."""
    if value in _ON:
        return True
    try:
        return int(value) != 0
    except ValueError:
        return False


def _may_convert(repo: Repo, paths: list[str]) -> bool:
    """Whether git may check any of ``paths`` out otherwise than it stores it: CRLF line
    endings configured (``core.autocrlf``, ``core.eol``), or an attribute that converts
    set on one of them. Two git calls instead of one per blob, on the usual checkout that
    converts nothing; a wrong "no" would only leave a patch refused, never write."""
    autocrlf = repo.git("config", "--get", "core.autocrlf", ok=(0, 1)).strip().lower()
    eol = repo.git("config", "--get", "core.eol", ok=(0, 1)).strip().lower()
    if _on(autocrlf) or eol == b"crlf":
        return True
    out = repo.git("check-attr", "-z", "--stdin", *_CONVERTING,
                   input="".join(path + "\0" for path in paths).encode("utf-8",
                                                                     "surrogateescape"))
    values = out.split(b"\0")[2::3]  # (path, attribute, value) each
    return any(value != b"unspecified" for value in values)


def _turn(turn: Turn, known: _Known) -> Turn:
    blocks = []
    for block in turn.reply.blocks:
        if isinstance(block, FileBlock):
            ops = tuple(_op(op, known) for op in block.ops)
            if any(new is not old for new, old in zip(ops, block.ops, strict=True)):
                block = replace(block, ops=ops)
        blocks.append(block)
    if all(new is old for new, old in zip(blocks, turn.reply.blocks, strict=True)):
        return turn
    return replace(turn, reply=replace(turn.reply, blocks=tuple(blocks)))


def _op(op: Edit | FullFile, known: _Known) -> Edit | FullFile:
    if not isinstance(op, FullFile) or op.payload is None or op.payload.checkout is not None:
        return op
    forms = known.get((op.path, op.payload.old_id, op.payload.new_id))
    if forms is None:
        return op
    return replace(op, payload=replace(op.payload, checkout=forms))


def _checkout(repo: Repo, path: str, blob: str) -> bytes:
    """What ``git checkout`` writes for ``blob`` at ``path`` (built-in conversions only:
    the filter programs are off). One ``cat-file`` per blob: in batch mode, git 2.39
    gives the stored size in the header of a converted blob."""
    return repo.git("cat-file", "--filters", f"--path={path}", blob)
