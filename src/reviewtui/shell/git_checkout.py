"""What a converting checkout writes for the files of a range.

A checkout that converts (``core.autocrlf``, ``core.eol``, an ``eol``/``text`` attribute,
``working-tree-encoding``, ``ident``) writes a file otherwise than git stores it. When a
range is reviewed on the checkout itself (a copy of A's tree holds the blobs as git
stores them, and is written so), two kinds of operation need to know what it writes:

- A binary patch (a file git diffs as text that is not UTF-8, reviewed as binary:
  ``shell/git_not_utf8.py``) is checked by blob id, so the file on disk, git's checkout of
  the blob, was not the blob its patch was made for, and the patch was refused (QA s35
  helper-103 F4). It now carries git's checkout of its two blobs where either is not the
  blob (:class:`~reviewtui.core.model.records.CheckoutForms`); the engine takes it when
  the file is exactly git's checkout of the blob before, and writes git's checkout of the
  blob after (``core/engine/filebytes.py``). Writing the LF form's result with CRLF by
  hand was tried and reverted (QA s36 helper-105: git does not convert every blob so).
- The last operation of each file's section says which blob it leaves
  (``Edit.after_blob``). A new file, or one git had left as it stores it (no newline,
  CRLF already in the blob, empty), came out of the review as git stores the new version:
  LF where git writes CRLF, UTF-8 where it writes UTF-16 (QA s37 helper-111 F3, F4, F6).
  It now carries git's checkout of that blob where that is other bytes (``checked_out``);
  a result that is exactly the blob is written so (``core/engine/checkout.py``).

Git says what its checkout writes, by the attributes of the right commit: each blob is
checked out into an empty folder from an index of that commit with the blob put at its
path (:func:`_checked_out`). A file's form before a turn is by the attributes of the
commit before it, after the turn by the turn's own commit's (:func:`_epochs`: a range that
adds, edits or removes a ``.gitattributes`` is read right, which the working tree's
attributes, read by ``git cat-file --filters`` until s38, were not: such a patch was
refused). The repository's filter programs stay off (:attr:`Repo.overrides`), as
everywhere. Not covered: a pure rename into a folder whose attributes differ (git names no
blob: the bytes move as they are, QA s37 helper-111 F5).
"""

from __future__ import annotations

import bisect
import contextlib
import os
import re
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from reviewtui.core.engine.filebytes import NULL_ID
from reviewtui.core.errors import GitError
from reviewtui.core.importers.gitbinary import blob_id
from reviewtui.core.model.records import (
    CheckoutForms,
    ConsoleCommand,
    Edit,
    FileBlock,
    FileBytes,
    FullFile,
    Session,
    Turn,
)
from reviewtui.core.record import replace
from reviewtui.shell.git import Repo

ATTRIBUTES = ".gitattributes"

# (commit whose attributes apply, path, blob) -> git's checkout of the blob there (True:
# the blob with CRLF line endings; None: the blob itself, or not known)
_Formed = dict[tuple[str, str, str], bytes | bool | None]


def checkout_forms(repo: Repo, base: str, *, checkout: bool
                   ) -> Callable[[Session], Session]:
    """What to do to a range's session (from the commit ``base``) each time it is read: on
    the checkout itself (``checkout``), its binary patches and the operations that leave a
    blob carry git's checkout forms where those are not the blobs. Git is asked once per
    blob, and only for a path the checkout may convert (:func:`_converting`)."""
    formed: _Formed = {}
    stored: dict[str, bytes] = {}  # blob id -> its bytes (a binary patch's, where needed)
    listed: dict[str, dict[str, str]] = {}  # commit -> its .gitattributes files (path, id)

    def adjust(session: Session) -> Session:
        if not checkout:
            return session
        epochs = _epochs(session, base)
        befores = _found_by(session, epochs, base)
        wanted: dict[tuple[str, str, str], None] = {}
        for turn, before, after in zip(session.turns, befores, epochs, strict=True):
            for op in turn.reply.ops:
                for key in _blobs_of(op, before, after):
                    if key not in formed:
                        wanted[key] = None
        if wanted:
            _ask(repo, session, list(wanted), formed)
        if not any(formed.values()):
            return session
        binary = [blob for turn, before, after in zip(session.turns, befores, epochs,
                                                       strict=True)
                  for op in turn.reply.ops if isinstance(op, FullFile)
                  and (patch := _patch(op)) is not None
                  for blob in _binary_blobs(op, patch, before, after, formed)
                  if blob not in stored]
        # A text file converted before its section and not after it (attributes that
        # stop converting it, a blob with a CR): its form is the blob's own bytes.
        binary += [blob for turn, before, after in zip(session.turns, befores, epochs,
                                                        strict=True)
                   for op in turn.reply.ops
                   if (blob := _unconverted_after(op, before, after, formed))
                   and blob not in stored]
        if binary:
            with contextlib.suppress(GitError):  # (a partial clone: patches as they come)
                stored.update(zip(binary, repo.blobs(binary), strict=True))
        held = (_attributes_by(repo, epochs, base, listed) if _touches_attributes(session)
                else {})
        return replace(session, turns=tuple(
            _turn(turn, before, after, formed, stored, held.get(after, ()))
            for turn, before, after in zip(session.turns, befores, epochs, strict=True)))

    return adjust


def _patch(op: object) -> FileBytes | None:
    """The bytes of a binary patch of a file that exists before it (a delta or literal
    with both ids); None for any other operation."""
    if isinstance(op, FullFile) and op.payload is not None \
            and op.payload.kind in ("literal", "delta") \
            and _full(op.payload.old_id) and _full(op.payload.new_id):
        return op.payload
    return None


def _full(blob: str) -> bool:
    return len(blob) == 40 and blob != NULL_ID


# For one turn: the commit by whose attributes the file at a path was last checked out
# (the range's start for a path no turn before wrote; "" the turn before's, for any path)
_Before = dict[str, str]


def _found_by(session: Session, epochs: list[str], base: str) -> list[_Before]:
    """For each turn, the commit whose attributes its files were written by before it:
    the one the turn before read, for a binary patch (as before s38), and for a file
    another section of the range left, that section's (a file written CRLF by one
    commit's attributes keeps that form while commits that do not touch it pass, as git
    leaves a file it does not check out: QA s38 helper-116 R1)."""
    found: list[_Before] = []
    last: dict[str, str] = {}
    for turn, previous, epoch in zip(session.turns, [base, *epochs[:-1]], epochs,
                                     strict=True):
        paths = [op.path for op in turn.reply.ops
                 if isinstance(op, (Edit, FullFile)) and op.git_forms is not None]
        found.append({"": previous, **{path: last.get(path, base) for path in paths}})
        last.update(dict.fromkeys(paths, epoch))
    return found


def _blobs_of(op: object, before: _Before, after: str) -> list[tuple[str, str, str]]:
    """The (commit, path, blob) whose checkout forms ``op`` needs: a binary patch's two
    blobs, or those the operation's section finds and leaves (:class:`GitForms`), the
    one before by the attributes before the turn; none for a link (no bytes of its own)
    or a path git could not have written."""
    if not isinstance(op, (Edit, FullFile)) or not _plain_path(op.path):
        return []
    if (patch := _patch(op)) is not None:
        return [(before[""], op.path, patch.old_id), (after, op.path, patch.new_id)]
    forms = op.git_forms
    if forms is None or (isinstance(op, FullFile) and op.mode is not None
                         and op.mode & 0o170000 == 0o120000):
        return []
    found = before.get(op.path, before[""])
    return [(after, op.path, forms.after_blob),
            *([(found, op.path, forms.before_blob)] if forms.before_blob else [])]


def _unconverted_after(op: object, before: _Before, after: str, formed: _Formed) -> str:
    """The blob ``op``'s section leaves where it finds one git's checkout converts and
    leaves one it does not (:func:`_op` then needs the blob's own bytes); "" otherwise."""
    if not isinstance(op, (Edit, FullFile)) or op.git_forms is None \
            or not op.git_forms.before_blob or _patch(op) is not None:
        return ""
    forms = op.git_forms
    if (formed.get((before.get(op.path, before[""]), op.path, forms.before_blob)) is not None
            and formed.get((after, op.path, forms.after_blob)) is None
            and (after, op.path, forms.after_blob) in formed):
        return forms.after_blob
    return ""


def _binary_blobs(op: FullFile, patch: FileBytes, before: _Before, after: str,
                  formed: _Formed) -> list[str]:
    """The blobs a binary patch's forms need (none when git checks both out as they are)."""
    old, new = patch.old_id, patch.new_id
    if formed.get((before[""], op.path, old)) is None and formed.get((after, op.path, new)) is None:
        return []
    return [old, new]


def _plain_path(path: str) -> bool:
    """A path git could have written (relative, no ``..``): the only ones read back."""
    parts = path.split("/")
    return bool(path) and not path.startswith("/") and "\0" not in path \
        and not any(part in ("", ".", "..") for part in parts)


def _touches_attributes(session: Session) -> bool:
    return any(_names_attributes(turn) for turn in session.turns)


def _names_attributes(turn: Turn) -> bool:
    """Whether an operation of the turn names a ``.gitattributes``: an edit, a new or
    deleted one, one moved away or into place (a command's every argument: QA s37
    helper-111 F2, a range deleting it was written by A's rules)."""
    return any(name.rstrip("/").rsplit("/", 1)[-1] == ATTRIBUTES for op in turn.reply.ops
               for name in (op.args if isinstance(op, ConsoleCommand) else (op.path,)))


def _epochs(session: Session, base: str) -> list[str]:
    """For each turn, the commit whose attributes a checkout of it reads: ``base``'s until
    a turn names a ``.gitattributes``, then that turn's commit (its ``From`` line in the
    session file); "" where that cannot be read (no forms are asked there)."""
    epochs, commit = [], base
    starts: list[tuple[int, str]] | None = None  # (line, commit) of each From line
    for turn in session.turns:
        if _names_attributes(turn):
            if starts is None:
                starts = _commit_lines(Path(session.source))
            at = bisect.bisect_right(starts, (turn.span.start, "~")) - 1
            commit = starts[at][1] if at >= 0 else ""
        epochs.append(commit)
    return epochs


_FROM = re.compile(rb"From ([0-9a-f]{40}) ")


def _commit_lines(file: Path) -> list[tuple[int, str]]:
    """The 1-based line of each commit's ``From <id>`` line in a range's session file, and
    the id (read a line at a time: the file may be large)."""
    found = []
    try:
        with file.open("rb") as handle:
            for number, line in enumerate(handle, start=1):
                if line.startswith(b"From ") and (match := _FROM.match(line)) is not None:
                    found.append((number, match.group(1).decode()))
    except OSError:
        return []
    return found


def _ask(repo: Repo, session: Session, wanted: list[tuple[str, str, str]],
         formed: _Formed) -> None:
    """Git's checkout of each (commit, path, blob) ``wanted``, into ``formed`` (None: the
    blob as it is). Asked only where the checkout may convert: core.autocrlf or core.eol,
    an attribute that converts on one of the paths, or a range that changes attributes.
    Both sides of a binary patch are asked, either may be converted alone: a blob git
    checks out as it is (CRLF already, a NUL, no line at all) may be followed by one it
    converts (QA s37 helper-111 F1: B was written as git stores it)."""
    for key in wanted:
        formed[key] = None
    if _touches_attributes(session):
        converting = None  # (the working tree's attributes are not the range's: ask all)
    else:
        converting = _converting(repo, sorted({path for _commit, path, _blob in wanted}))
    by_commit: dict[str, list[tuple[str, str]]] = {}
    for commit, path, blob in wanted:
        if commit and (converting is None or path in converting):
            by_commit.setdefault(commit, []).append((path, blob))
    found: _Formed = {}
    for commit, pairs in by_commit.items():
        try:
            checked_out = _checked_out(repo, commit, pairs)
        except GitError:  # (a partial clone, a path git cannot write: the blob as it is)
            continue
        found.update(((commit, path, blob), form) for (path, blob), form
                     in checked_out.items())
    if found and not _attributes_changed(repo):
        formed.update(found)


def _kept(form: bytes, blob: str) -> bytes | bool:
    """``form`` (git's checkout of ``blob``), or True where it is the blob with each LF
    written CRLF: what an autocrlf checkout writes for most files, kept as a flag
    instead of a copy of every version."""
    lf = form.replace(b"\r\n", b"\n")
    crlf = b"\r" not in lf and lf.replace(b"\n", b"\r\n") == form and blob_id(lf) == blob
    return True if crlf else form


def _form(kept: bytes | bool | None, blob: bytes) -> bytes | None:
    """The bytes a form :func:`_kept` stands for, of ``blob``."""
    if kept is True:
        return blob.replace(b"\n", b"\r\n")
    return kept if isinstance(kept, bytes) else None


def _attributes_changed(repo: Repo) -> bool:
    """Whether the working tree holds a ``.gitattributes`` that is not the checked-out
    commit's (changed, new or deleted): its files were written by other rules than the
    commits' (``git checkout`` itself refuses to overwrite them), and whatever is written
    there is committed by those: nothing is converted (a binary patch is refused)."""
    out = repo.git("status", "--porcelain=v1", "-z", "--untracked-files=all",
                   "--ignore-submodules=all", "--", f":(glob)**/{ATTRIBUTES}")
    return bool(out.strip(b"\0"))


def _checked_out(repo: Repo, commit: str, pairs: list[tuple[str, str]]
                 ) -> dict[tuple[str, str], bytes | bool]:
    """What ``git checkout`` writes for each (path, blob) by ``commit``'s attributes,
    where that is not the blob (as :func:`_kept` keeps it): an index holding ``commit``'s
    ``.gitattributes`` files (what git reads there) and the blobs at their paths, checked
    out into an empty folder; as many times as one path has blobs, or a path is a folder
    of another (a layer holds neither). A layer git cannot check out (a path that is a
    folder of an attributes file) leaves its blobs as they are, not the others (QA s38
    helper-116 R9: one such path lost every form of the range)."""
    attributes = _attribute_entries(repo, commit)
    found: dict[tuple[str, str], bytes | bool] = {}
    with tempfile.TemporaryDirectory(prefix="reviewtui-checkout-") as tmp:

        def check_out(n: int, layer: dict[str, str]) -> None:
            env = {"GIT_INDEX_FILE": str(Path(tmp) / f"index-{n}")}
            names = [path.encode("utf-8", "surrogateescape") for path in layer]
            tree = Path(tmp) / str(n)
            tree.mkdir()
            try:
                repo.git("update-index", "-z", "--index-info", env=env, input=attributes
                         + b"".join(b"100644 blob %s\t%s\0" % (blob.encode(), name)
                                    for name, blob in zip(names, layer.values(),
                                                          strict=True)))
                repo.git(f"--work-tree={tree}", "checkout-index", "-f", "-z", "--stdin",
                         env=env, input=b"".join(name + b"\0" for name in names))
            except GitError:
                return
            for path, blob in layer.items():
                with contextlib.suppress(OSError):  # (not written: the blob as it is)
                    data = tree.joinpath(*path.split("/")).read_bytes()
                    if blob_id(data) != blob:
                        found[(path, blob)] = _kept(data, blob)

        layers = _layers(pairs)
        # (each layer its own index and folder: git runs them side by side, a hot file's
        # hundreds of versions cost a second less on two cores)
        with ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1,
                                                       len(layers)))) as pool:
            list(pool.map(check_out, range(len(layers)), layers))
    return found


def _attribute_entries(repo: Repo, commit: str) -> bytes:
    """``update-index --index-info`` input for ``commit``'s ``.gitattributes`` files (its
    ``ls-tree`` lines: mode, type, id, path)."""
    listing = repo.git("ls-tree", "-r", "-z", "--full-tree", commit)
    name = ATTRIBUTES.encode()
    return b"".join(entry + b"\0" for entry in listing.split(b"\0")
                    if b"\t" in entry and entry.startswith(b"100")
                    and entry.rsplit(b"\t", 1)[1].rsplit(b"/", 1)[-1] == name)


def _attributes_by(repo: Repo, epochs: list[str], base: str,
                   listed: dict[str, dict[str, str]]
                   ) -> dict[str, tuple[tuple[str, str], ...]]:
    """For each commit whose attributes the range's forms were asked by, its
    ``.gitattributes`` files (path, blob id), "" for a path another of them has: what the
    files must hold for its forms to be written (core/engine/checkout.py). ``listed``:
    the files of the commits listed before (the workbench reads the session again)."""
    files: dict[str, dict[str, str]] = {}
    for commit in dict.fromkeys([base, *epochs]):
        if commit and commit not in listed:
            listed[commit] = {entry.split(b"\t", 1)[1].decode("utf-8", "surrogateescape"):
                              entry.split(b"\t", 1)[0].split()[2].decode()
                              for entry in _attribute_entries(repo, commit).split(b"\0")
                              if entry}
        if commit:
            files[commit] = listed[commit]
    paths = sorted({path for held in files.values() for path in held})
    return {commit: tuple((path, held.get(path, "")) for path in paths)
            for commit, held in files.items()}


def _layers(pairs: list[tuple[str, str]]) -> list[dict[str, str]]:
    """``pairs`` (path, blob) in as few layers as hold no path twice and no path that is a
    folder of another (git cannot put both in one index)."""
    layers: list[tuple[dict[str, str], set[str]]] = []  # (path -> blob, its folders)
    for path, blob in pairs:
        parts = path.split("/")
        folders = {"/".join(parts[:n]) for n in range(1, len(parts))}
        for layer, held in layers:
            if path not in layer and path not in held and not folders & layer.keys():
                break
        else:
            layer, held = {}, set()
            layers.append((layer, held))
        layer[path] = blob
        held |= folders
    return [layer for layer, _held in layers]


_ON = (b"true", b"yes", b"on", b"1")
# The attributes by which git may check a file out otherwise than it stores it (a filter
# program: off here): ``eol=crlf``, ``crlf`` (the old name of ``text``, which a CRLF
# setting makes convert), ``ident``, any ``working-tree-encoding``.
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


def _converting(repo: Repo, paths: list[str]) -> set[str]:
    """The ``paths`` git may check out otherwise than it stores them: all of them with
    CRLF line endings configured (``core.autocrlf``, ``core.eol``), else those with an
    attribute that converts on checkout (``eol=lf`` and ``text=auto`` alone do not: a
    common ``.gitattributes`` cost a checkout of every version of every file, QA s38
    helper-116 R6). Three git calls instead of one per blob; a wrong "no" would only
    leave a patch refused, or a file written as git stores it, as before s38."""
    autocrlf = repo.git("config", "--get", "core.autocrlf", ok=(0, 1)).strip().lower()
    eol = repo.git("config", "--get", "core.eol", ok=(0, 1)).strip().lower()
    if _on(autocrlf) or eol == b"crlf":
        return set(paths)
    # (core.eol "native" is CRLF on Windows: there a text attribute converts too)
    native_crlf = os.name == "nt" and eol in (b"", b"native")
    out = repo.git("check-attr", "-z", "--stdin", *_CONVERTING, "text",
                   input="".join(path + "\0" for path in paths).encode("utf-8",
                                                                      "surrogateescape"))
    fields = out.split(b"\0")
    found = set()
    for at in range(0, len(fields) - 2, 3):  # (path, attribute, value) each
        name, value = fields[at + 1], fields[at + 2]
        if value == b"unspecified" or (name == b"eol" and value != b"crlf") or (
                name == b"crlf" and value in (b"unset", b"input")) or (
                name == b"text" and (not native_crlf or value == b"unset")):
            continue
        found.add(fields[at].decode("utf-8", "surrogateescape"))
    return found


def _turn(turn: Turn, before: _Before, after: str, formed: _Formed,
          stored: dict[str, bytes], attributes: tuple[tuple[str, str], ...]) -> Turn:
    blocks = []
    for block in turn.reply.blocks:
        if isinstance(block, FileBlock):
            ops = tuple(_op(op, before, after, formed, stored, attributes)
                        for op in block.ops)
            if any(new is not old for new, old in zip(ops, block.ops, strict=True)):
                block = replace(block, ops=ops)
        blocks.append(block)
    if all(new is old for new, old in zip(blocks, turn.reply.blocks, strict=True)):
        return turn
    return replace(turn, reply=replace(turn.reply, blocks=tuple(blocks)))


def _op(op: Edit | FullFile, before: _Before, after: str, formed: _Formed,
        stored: dict[str, bytes], attributes: tuple[tuple[str, str], ...]
        ) -> Edit | FullFile:
    if isinstance(op, FullFile) and (patch := _patch(op)) is not None:
        if patch.checkout is not None:
            return op
        old_id, new_id = patch.old_id, patch.new_id
        old_blob, new_blob = stored.get(old_id), stored.get(new_id)
        if old_blob is None or new_blob is None:
            return op
        old = _form(formed.get((before[""], op.path, old_id)), old_blob)
        new = _form(formed.get((after, op.path, new_id)), new_blob)
        taken = (CheckoutForms(old if old is not None else old_blob, old_blob) if new is None
                 else CheckoutForms(old if old is not None else old_blob, old_blob, new,
                                    new_blob))
        kept = op.git_forms
        return replace(op, payload=replace(patch, checkout=taken), git_forms=(
            replace(kept, attributes=attributes) if kept is not None else None))
    forms = op.git_forms
    if forms is None or forms.checked_out is not None or forms.checked_before is not None:
        return op
    form = formed.get((after, op.path, forms.after_blob))
    found = (formed.get((before.get(op.path, before[""]), op.path, forms.before_blob))
             if forms.before_blob else None)
    if form is None and found is not None:
        form = stored.get(forms.after_blob)  # (converted before, not after: the blob)
    if form is None:
        return op
    return replace(op, git_forms=replace(forms, checked_out=form, checked_before=found,
                                         attributes=attributes))
