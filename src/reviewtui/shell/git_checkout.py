"""What a converting checkout writes for the files of a range.

A checkout that converts (``core.autocrlf``, ``core.eol``, an ``eol``/``text`` attribute,
``working-tree-encoding``, ``ident``) writes a file otherwise than git stores it. Two
kinds of operation need to know what it writes, and here git says it (its filter
programs stay off, :attr:`Repo.overrides`, as everywhere):

Binary patches. A file git diffs as text that is not UTF-8 (a Latin-1 source) is
reviewed as a binary file (``shell/git_not_utf8.py``): its changes come as git's binary
patches, checked by blob id, so on such a checkout the file on disk was not the blob its
patch was made for, and the patch was refused (QA s35 helper-103 F4). Patching the
file's LF form and writing the result with CRLF was tried and reverted (QA s36
helper-105: git does not convert every blob so -- one with a NUL, or an attribute
saying otherwise, keeps its bytes). For each binary patch, ``git cat-file --filters
--path`` gives what a checkout writes for its two blobs at that path, and where either
is not its blob, the patch carries them (:class:`~reviewtui.core.model.records.
CheckoutForms`). The engine takes the patch when the file is exactly git's checkout of
the blob before, and writes git's checkout of the blob after
(``core/engine/filebytes.py``). Nothing is given when the range names a
``.gitattributes`` file (an edit, a removal, a move), or the working tree holds one that
is not A's: ``cat-file`` reads the working tree's attributes.

The blob each file's section leaves (``Edit.after_blob``, on its last operation). A new
file, or a file git had left as it stores it (no newline, CRLF already in the blob,
empty), came out of the review as git stores the new version: LF where git writes CRLF,
UTF-8 where it writes UTF-16 (QA s37 helper-111 F3, F4, F6). On the checkout itself (a
copy of A's tree holds blobs as git stores them), each such blob is checked out by git
into an empty folder from an index of its commit (:func:`_checked_out`: the attributes
are that commit's, a range that adds or changes them included), and where that is not
the blob, the operation carries it (``checked_out``); a result that is exactly the blob
is written so (``core/engine/checkout.py``). Not covered: a pure rename into a folder
whose attributes differ (no blob is named: the file's bytes move as they are).
"""

from __future__ import annotations

import contextlib
import re
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import TypeGuard

from reviewtui.core.engine.filebytes import NULL_ID
from reviewtui.core.errors import GitError
from reviewtui.core.importers.gitbinary import blob_id
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
# (commit whose attributes apply, path, blob) -> git's checkout of the blob there (None:
# the blob itself, or not known)
_Formed = dict[tuple[str, str, str], bytes | None]


def checkout_forms(repo: Repo, base: str, *, checkout: bool
                   ) -> Callable[[Session], Session]:
    """What to do to a range's session (from the commit ``base``) each time it is read:
    its binary patches carry git's checkout forms where those are not the blobs, and, on
    the checkout itself (``checkout``: not a copy of A's tree, which holds the blobs as
    git stores them), so does the last operation of each file's section for the blob it
    leaves (git's checkout of it by the attributes of its commit: :func:`_text_forms`).
    Git is asked once per patch or blob, and only when the checkout may convert
    (:func:`_may_convert`)."""
    known: _Known = {}
    attributes: list[bool] = []  # whether they changed in the working tree (asked once)
    formed: _Formed = {}

    def adjust(session: Session) -> Session:
        wanted = [key for key in dict.fromkeys(_binary_patches(session)) if key not in known]
        if wanted and not _touches_attributes(session):
            _ask(repo, wanted, known, attributes)
        epochs = _epochs(session, base) if checkout else [""] * len(session.turns)
        if checkout:
            _text_forms(repo, session, epochs, formed)
        if not any(known.values()) and not any(formed.values()):
            return session
        return replace(session, turns=tuple(_turn(turn, known, formed, epoch)
                                            for turn, epoch in zip(session.turns, epochs,
                                                                   strict=True)))

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
    return any(_names_attributes(turn) for turn in session.turns)


def _names_attributes(turn: Turn) -> bool:
    return any(name.rstrip("/").rsplit("/", 1)[-1] == ATTRIBUTES for op in turn.reply.ops
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


def _turn(turn: Turn, known: _Known, formed: _Formed, epoch: str) -> Turn:
    blocks = []
    for block in turn.reply.blocks:
        if isinstance(block, FileBlock):
            ops = tuple(_op(op, known, formed, epoch) for op in block.ops)
            if any(new is not old for new, old in zip(ops, block.ops, strict=True)):
                block = replace(block, ops=ops)
        blocks.append(block)
    if all(new is old for new, old in zip(blocks, turn.reply.blocks, strict=True)):
        return turn
    return replace(turn, reply=replace(turn.reply, blocks=tuple(blocks)))


def _op(op: Edit | FullFile, known: _Known, formed: _Formed, epoch: str) -> Edit | FullFile:
    if op.after_blob and op.checked_out is None:
        form = formed.get((epoch, op.path, op.after_blob))
        if form is not None:
            op = replace(op, checked_out=form)
    if not isinstance(op, FullFile) or op.payload is None or op.payload.checkout is not None:
        return op
    forms = known.get((op.path, op.payload.old_id, op.payload.new_id))
    if forms is None:
        return op
    return replace(op, payload=replace(op.payload, checkout=forms))


def _epochs(session: Session, base: str) -> list[str]:
    """For each turn, the commit whose attributes a checkout of it reads: ``base``'s until
    a turn names a ``.gitattributes``, then that turn's commit (its ``From`` line in the
    session file); "" where that cannot be read (no forms are asked there)."""
    epochs, commit = [], base
    lines: list[str] | None = None
    for turn in session.turns:
        if _names_attributes(turn):
            if lines is None:
                try:
                    lines = Path(session.source).read_text("utf-8", "replace").split("\n")
                except OSError:
                    lines = []
            commit = next((found.group(1) for at in range(min(turn.span.start, len(lines)),
                                                          0, -1)
                           if (found := _FROM.match(lines[at - 1])) is not None), "")
        epochs.append(commit)
    return epochs


_FROM = re.compile(r"From ([0-9a-f]{40}) ")


def _text_forms(repo: Repo, session: Session, epochs: list[str], formed: _Formed) -> None:
    """Git's checkout of the blob each file's section leaves (``after_blob``), by the
    attributes of its turn's commit (``epochs``), into ``formed`` (None: the blob as it
    is). Asked only where the checkout may convert: core.autocrlf or core.eol, an
    attribute that converts on one of the paths, or a range that changes attributes."""
    wanted: dict[str, dict[tuple[str, str], None]] = {}
    for turn, epoch in zip(session.turns, epochs, strict=True):
        for op in turn.reply.ops:
            if _leaves_blob(op) and (epoch, op.path, op.after_blob) not in formed:
                wanted.setdefault(epoch, {})[(op.path, op.after_blob)] = None
    if not wanted:
        return
    for epoch, pairs in wanted.items():
        for path, blob in pairs:
            formed[(epoch, path, blob)] = None
    if not _touches_attributes(session) and not _may_convert(
            repo, sorted({path for pairs in wanted.values() for path, _ in pairs})):
        return
    for epoch, pairs in wanted.items():
        if not epoch:
            continue
        try:
            found = _checked_out(repo, epoch, list(pairs))
        except GitError:  # (a partial clone, a path git cannot write: the blob as it is)
            continue
        for (path, blob), data in found.items():
            if blob_id(data) != blob:
                formed[(epoch, path, blob)] = data


def _leaves_blob(op: object) -> TypeGuard[Edit | FullFile]:
    """An operation that says which blob it leaves at a path git could have written
    (relative, no ``..``: the only ones read back), not a link (no bytes of its own)."""
    if not isinstance(op, (Edit, FullFile)) or not op.after_blob or not _plain_path(op.path):
        return False
    return not (isinstance(op, FullFile) and op.mode is not None
                and op.mode & 0o170000 == 0o120000)


def _plain_path(path: str) -> bool:
    parts = path.split("/")
    return bool(path) and not path.startswith("/") and "\0" not in path \
        and not any(part in ("", ".", "..") for part in parts)


def _checked_out(repo: Repo, commit: str, pairs: list[tuple[str, str]]
                 ) -> dict[tuple[str, str], bytes]:
    """What ``git checkout`` writes for each (path, blob) by ``commit``'s attributes: an
    index of ``commit`` (its ``.gitattributes`` are what git reads there) with the blobs
    put at their paths, checked out into an empty folder, as many times as one path has
    blobs (a layer holds each path once)."""
    layers: list[dict[str, str]] = []
    for path, blob in pairs:
        layer = next((layer for layer in layers if path not in layer), None)
        if layer is None:
            layers.append(layer := {})
        layer[path] = blob
    found: dict[tuple[str, str], bytes] = {}
    with tempfile.TemporaryDirectory(prefix="reviewtui-checkout-") as tmp:
        env = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
        repo.git("read-tree", commit, env=env)
        for n, layer in enumerate(layers):
            names = [path.encode("utf-8", "surrogateescape") for path in layer]
            repo.git("update-index", "-z", "--index-info", env=env, input=b"".join(
                b"100644 blob %s\t%s\0" % (blob.encode(), name)
                for name, blob in zip(names, layer.values(), strict=True)))
            tree = Path(tmp) / str(n)
            tree.mkdir()
            repo.git(f"--work-tree={tree}", "checkout-index", "-f", "-z", "--stdin",
                     env=env, input=b"".join(name + b"\0" for name in names))
            for path, blob in layer.items():
                with contextlib.suppress(OSError):  # (not written: the blob as it is)
                    found[(path, blob)] = tree.joinpath(*path.split("/")).read_bytes()
    return found


def _checkout(repo: Repo, path: str, blob: str) -> bytes:
    """What ``git checkout`` writes for ``blob`` at ``path`` (built-in conversions only:
    the filter programs are off). One ``cat-file`` per blob: in batch mode, git 2.39
    gives the stored size in the header of a converted blob."""
    return repo.git("cat-file", "--filters", f"--path={path}", blob)
