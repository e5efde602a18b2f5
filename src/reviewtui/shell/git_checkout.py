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
- The last operation of each file's section says which blobs it finds and leaves
  (``Edit.git_forms``). A new file, or one git had left as it stores it (no newline,
  CRLF already in the blob, empty), came out of the review as git stores the new version:
  LF where git writes CRLF, UTF-8 where it writes UTF-16 (QA s37 helper-111 F3, F4). It
  now carries git's checkout of those blobs where that is other bytes (``checked_out``,
  ``checked_before``); a result that is exactly the blob is written so, and so is one
  that is its text in other line endings on a file that was git's checkout of the blob
  before (``core/engine/checkout.py``).

Git says what its checkout writes: each blob is checked out into an empty folder from an
index holding the range's start's ``.gitattributes`` files and the blob at its path
(:func:`checked_out`). In a range that adds, edits or removes a ``.gitattributes``,
only the paths git checks out alike in each attribute state that matters to them get
forms (:func:`~reviewtui.shell.git_attribute_states.stable_paths`, then :func:`_settle`
for those whose rules differ); the others are refused: following the attributes from
commit to commit was tried in s38 and taken out after two QA passes (helper-116,
helper-117) found a turn's files checked by attributes it had not written yet, a
reviewer's accepts not re-evaluating the files they govern, and the review's own
attribute files read back as the user's. A pure rename (git names no blob) between paths
whose attributes check its blob out differently is refused (:func:`_renames_checked`).
The repository's filter programs stay off (:attr:`Repo.overrides`), as everywhere.
"""

from __future__ import annotations

import contextlib
import functools
import os
import tempfile
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

from reviewtui.core.engine.checkout import expanded_id, form_of, kept_form
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
    GitApplyRule,
    Session,
    Turn,
)
from reviewtui.core.record import replace
from reviewtui.shell.git import Repo
from reviewtui.shell.git_attribute_states import (
    ATTRIBUTES,
    CONVERTING,
    Reading,
    attr_values,
    attribute_entries,
    attribute_states,
    attributes_changed,
    checkout_rule,
    commit_of_turn,
    converts,
    each_command,
    each_op,
    encoded_writes,
    is_deletion,
    is_move,
    plain_path,
    pure_renames,
    refused_where_encoded,
    stable_paths,
    touches_attributes,
)
from reviewtui.shell.git_line_config import config_converts

# (path, blob) -> git's checkout of the blob there (True: the blob with CRLF line endings;
# None: the blob itself, or not known)
_Formed = dict[tuple[str, str], bytes | bool | None]
# In a range that changes attributes: (the start's attribute files (``update-index
# --index-info`` input), by which every path git checks out alike throughout is read;
# those of them git converts)
_Kept = tuple[bytes, set[str]]


def checkout_forms(repo: Repo, base: str, head: str = "") -> Callable[[Session], Session]:
    """What to do to a range's session (from the commit ``base``) each time it is read on
    the checkout itself (a copy of A's tree holds the blobs as git stores them, and needs
    none): its binary patches and the operations that leave a blob carry git's checkout
    forms where those are not the blobs. Git is asked once per blob, and only for a path
    the checkout may convert (:func:`_converting`). In a range that changes attributes,
    only paths they leave alone get forms (:func:`stable_paths`); the others git converts
    are refused, and so are files the range re-encodes (:func:`encoded_writes`)."""
    formed: _Formed = {}
    stored: dict[str, bytes] = {}  # blob id -> its bytes (a binary patch's, where needed)
    encoded: dict[tuple[int, str], str] = {}  # (turn, path) -> the encoding git writes
    # (a range that changes attributes) the paths git checks out alike throughout; the
    # start's attribute files and those of the paths git converts; the paths git checks
    # out otherwise in some state that matters to them (refused)
    stable: set[str] = set()
    kept: list[_Kept] = []
    unsettled: set[str] = set()
    renames: dict[tuple[int, str, str], str] = {}  # (commit, old, new) -> a pure rename's blob
    asked: list[bool] = []  # (whether it was: once per process)
    encodings: dict[str, str] = {}  # path -> the encoding git checks it out in ("": none)

    def adjust(session: Session) -> Session:
        touching = touches_attributes(session)
        if touching:
            if not head:
                return session
            if not asked:
                try:  # (one reading of the range's attribute states for both)
                    states = attribute_states(repo, base, head)
                except GitError:
                    states = None
                encoded.update(encoded_writes(repo, states, session))
                reading = stable_paths(repo, states, session)
                unsettled.update(reading.unsettled)
                if states is not None:
                    stable.update(reading.stable)
                    kept.append((states[0][0], set(reading.converting)))
                    _settle(repo, states[0], reading, session, formed, stable, kept[0],
                            unsettled)
                asked.append(True)
            session = refused_where_encoded(session, encoded, unsettled)
        wanted = [key for turn in session.turns for op in turn.reply.ops
                  for key in _blobs_of(op) if key not in formed
                  and (not touching or _within(op, stable))]
        wanted += [key for turn in session.turns for op in turn.reply.ops
                   if is_deletion(op) and plain_path(op.args[0])
                   and (not touching or op.args[0] in stable)
                   and (key := (op.args[0], op.expect_blob)) not in formed]
        if wanted:
            _ask(repo, base, list(dict.fromkeys(wanted)), formed,
                 kept[0] if touching and kept else None)
        if head:
            session = _renames_checked(repo, base, head, session, formed, renames,
                                       (stable, kept[0], unsettled) if touching and kept
                                       else None)
        if not any(formed.values()):
            return session
        session = _deletions_formed(session, formed)
        needed = [blob for turn in session.turns for op in turn.reply.ops
                  for blob in _blobs_needed(op, formed) if blob not in stored]
        if needed:
            with contextlib.suppress(GitError):  # (a partial clone: patches as they come)
                stored.update(zip(needed, repo.blobs(needed), strict=True))
        session = replace(session, turns=tuple(_turn(turn, formed, stored)
                                               for turn in session.turns))
        return _encoded_edits(repo, session, encodings)

    return adjust


def _encoded_edits(repo: Repo, session: Session, encodings: dict[str, str]) -> Session:
    """``session`` with each edit of a file git checks out re-encoded (a
    ``working-tree-encoding`` the range leaves alone) refused by name: the file on disk is
    UTF-16 (say) where the hunks are UTF-8 text, and the edit said "not found, nothing in
    the file is similar" (QA s54 helper-229). Asked only for the files whose checkout
    before a section is other bytes than the blob, besides its line endings (one
    ``check-attr`` of those, once a path); a new or whole file is written in git's form
    already (``core/engine/checkout.py``)."""
    candidates = sorted({op.path for turn in session.turns for op in turn.reply.ops
                         if isinstance(op, Edit) and op.git_forms is not None
                         and isinstance(op.git_forms.checked_before, bytes)
                         and op.path not in encodings})
    if candidates:
        try:
            values = attr_values(repo, candidates, ("working-tree-encoding",))
        except GitError:
            values = {}
        for path in candidates:
            encodings[path] = checkout_rule(values.get(path, {}), ("false", False))[1]
    if not any(encodings.values()):
        return session

    def refused(op: Edit | FullFile) -> Edit | FullFile:
        encoding = encodings.get(op.path, "")
        if not encoding or not isinstance(op, Edit) or op.git_apply is not None:
            return op
        return replace(op, git_apply=GitApplyRule(encoding=encoding))

    return replace(session, turns=tuple(each_op(turn, refused) for turn in session.turns))


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


def _blobs_of(op: object) -> list[tuple[str, str]]:
    """The (path, blob) whose checkout forms ``op`` needs: a binary patch's two blobs, or
    those its section finds and leaves (:class:`GitForms`); none for a link (no bytes of
    its own) or a path git could not have written."""
    if not isinstance(op, (Edit, FullFile)) or not plain_path(op.path):
        return []
    if (patch := _patch(op)) is not None:
        return [(op.path, patch.old_id), (op.path, patch.new_id)]
    forms = op.git_forms
    if forms is None or (isinstance(op, FullFile) and op.mode is not None
                         and op.mode & 0o170000 == 0o120000):
        return []
    if forms.before_path and not plain_path(forms.before_path):
        return []
    return [(op.path, forms.after_blob),
            *([(_before(op), forms.before_blob)] if forms.before_blob else [])]


def _before(op: Edit | FullFile) -> str:
    """The path at which ``op``'s section finds its blob before (a rename's source)."""
    forms = op.git_forms
    return forms.before_path if forms is not None and forms.before_path else op.path


def _blobs_needed(op: object, formed: _Formed) -> list[str]:
    """The blobs whose own bytes :func:`_op` needs: a binary patch's two where git checks
    either out otherwise; the blob a text section leaves where git converts the one it
    finds and not this one (a blob holding a CR, which autocrlf leaves alone)."""
    if not isinstance(op, (Edit, FullFile)):
        return []
    if (patch := _patch(op)) is not None:
        if formed.get((op.path, patch.old_id)) is None \
                and formed.get((op.path, patch.new_id)) is None:
            return []
        return [patch.old_id, patch.new_id]
    forms = op.git_forms
    if (forms is not None and forms.before_blob
            and formed.get((_before(op), forms.before_blob)) is not None
            and formed.get((op.path, forms.after_blob)) is None
            and (op.path, forms.after_blob) in formed):
        return [forms.after_blob]
    return []


def _renames_checked(repo: Repo, base: str, head: str, session: Session, formed: _Formed,
                     renames: dict[tuple[int, str, str], str],
                     settled: tuple[set[str], _Kept, set[str]] | None) -> Session:
    """``session`` with each pure rename (git names no blob: 100% alike) refused where
    git's checkout writes its blob otherwise at the new path than at the old (their
    attributes differ: an encoding, ``-text``, ``eol``): the rename moves the bytes as they
    are, exit 0, and ``--commit`` committed a blob B never had (QA s39 helper-119 F3,
    older). The blobs come from one ``git log --raw -M`` of the range, asked only when the
    range has a rename with no content change; one whose blob cannot be found (a kept
    session file whose turns do not match the range's commits: helper-121 F2) is refused
    where either path converts. ``settled``: in a range that changes attributes, the paths
    git checks out alike throughout, with :data:`_Kept`, and those it does not (a rename
    into or out of one is refused: helper-121 F1)."""
    edited = {(turn.index, op.git_forms.before_path) for turn in session.turns
              for op in turn.reply.ops if isinstance(op, (Edit, FullFile))
              and op.git_forms is not None and op.git_forms.before_path}
    pure = [(turn, op) for turn in session.turns for op in turn.reply.ops
            if is_move(op) and (turn.index, op.args[0]) not in edited
            and all(plain_path(path) for path in op.args)]
    if not pure:
        return session
    stable, kept, unsettled = settled if settled is not None else (None, None, set())
    refused: dict[tuple[int, str, str], str] = {}
    why = {"form": (" (the two paths' attributes convert it differently) and a rename moves "
                    "the bytes as they are"),
           "unsettled": (" (this range changes their attributes: reviewtui cannot tell how "
                         "git writes it there)"),
           "unknown": (" (the session's turns do not match the range's commits: reviewtui "
                       "cannot tell which blob it moves)")}
    for turn, op in pure:
        if any(path in unsettled for path in op.args):
            refused[(turn.index, op.args[0], op.args[1])] = "unsettled"
    pure = [(turn, op) for turn, op in pure
            if (turn.index, op.args[0], op.args[1]) not in refused
            and (stable is None or all(path in stable for path in op.args))]
    blobs: dict[tuple[int, str, str], str] = {}
    if pure:
        try:
            if not renames:
                renames.update(pure_renames(repo, base, head))
                renames.setdefault((-1, "", ""), "")  # (asked: not again)
            commits = len(repo.git("rev-list", "--first-parent", f"{base}..{head}").split())
            commit_of = commit_of_turn(session, commits)
            unknown = []
            for turn, op in pure:
                at = commit_of.get(turn.index)
                blob = renames.get((at, op.args[0], op.args[1])) if at is not None else None
                if blob:
                    blobs[(turn.index, op.args[0], op.args[1])] = blob
                else:
                    unknown.append((turn.index, op.args[0], op.args[1]))
            if unknown:
                converting = _converting(repo, sorted({p for key in unknown for p in key[1:]}))
                refused.update((key, "unknown") for key in unknown
                               if key[1] in converting or key[2] in converting)
        except GitError:
            refused.update(((turn.index, op.args[0], op.args[1]), "unknown")
                           for turn, op in pure)
    wanted = [key for (_turn_index, old, new), blob in blobs.items()
              for key in ((old, blob), (new, blob)) if key not in formed]
    if wanted:
        _ask(repo, base, list(dict.fromkeys(wanted)), formed, kept)
    refused.update((key, "form") for key, blob in blobs.items()
                   if formed.get((key[1], blob)) != formed.get((key[2], blob)))
    if not refused:
        return session

    def command(turn: Turn, op: ConsoleCommand) -> ConsoleCommand:
        reason = refused.get((turn.index, op.args[0], op.args[1])) if is_move(op) else None
        if reason is None:
            return op
        return replace(op, refused=(
            f"git checks {op.args[0]} out otherwise at {op.args[1]}" if reason == "form"
            else f"renaming {op.args[0]} to {op.args[1]} on this checkout") + why[reason]
            + ": not applied (apply the range with git)")

    return replace(session, turns=tuple(
        each_command(turn, functools.partial(command, turn)) for turn in session.turns))


def _deletions_formed(session: Session, formed: _Formed) -> Session:
    """``session`` with each deletion whose blob git checks out as other bytes than the
    blob (re-encoded, ``$Id$`` expanded) carrying those bytes: the untouched file was
    refused as "other content" (QA s39 helper-121 F4); or, where git writes it with CRLF,
    saying so (the deletion's own check reads past CRLF in text, not in a file holding a
    NUL, which ``text eol=crlf`` converts all the same: QA s41 helper-126 M1)."""
    def command(op: ConsoleCommand) -> ConsoleCommand:
        form = formed.get((op.path or "", op.expect_blob)) if is_deletion(op) else None
        if isinstance(form, bytes) or (form is True and len(op.expect_blob) == 40):
            return replace(op, expect_form=form)
        return op

    return replace(session, turns=tuple(each_command(turn, command)
                                        for turn in session.turns))


def _within(op: object, paths: set[str]) -> bool:
    """Whether ``op``'s path (and the path a rename finds its blob at) is in ``paths``."""
    if not isinstance(op, (Edit, FullFile)):
        return False
    return op.path in paths and _before(op) in paths


def _ask(repo: Repo, base: str, wanted: list[tuple[str, str]], formed: _Formed,
         kept: _Kept | None = None) -> None:
    """Git's checkout of each (path, blob) ``wanted`` by ``base``'s attributes, into
    ``formed`` (None: the blob as it is). Asked only for a path the checkout may convert
    (:func:`_converting`). Both sides of a binary patch are asked, either may be
    converted alone: a blob git checks out as it is (CRLF already, a NUL, no line at all)
    may be followed by one it converts (QA s37 helper-111 F1: B was written as git
    stores it). ``kept``: in a range that changes attributes, the start's attribute files
    and the paths git converts by them (:func:`stable_paths`), whatever the working tree's
    attribute files are."""
    for key in wanted:
        formed[key] = None
    if kept is not None:
        attributes, converting = kept
        pairs = [(path, blob) for path, blob in wanted if path in converting]
        if pairs:
            with contextlib.suppress(GitError):
                formed.update(checked_out(repo, attributes, pairs))
        return
    converting_now = _converting(repo, sorted({path for path, _blob in wanted}))
    pairs = [(path, blob) for path, blob in wanted if path in converting_now]
    if not pairs:
        return
    try:
        found = checked_out(repo, attribute_entries(repo, base), pairs)
    except GitError:  # (a partial clone, a path git cannot write: the blob as it is)
        return
    if found and not attributes_changed(repo):
        formed.update(found)


def _settle(repo: Repo, states: list[bytes], reading: Reading, session: Session,
            formed: _Formed, stable: set[str], kept: _Kept, unsettled: set[str]) -> None:
    """Of the paths whose rules differ between the attribute states that matter to them
    (``reading.differing``): those git checks every one of their blobs out the same way
    in each state go to ``stable`` (and ``kept``'s converted paths), with their forms in
    ``formed`` (``*.c text`` added on
    autocrlf converts LF text as autocrlf alone does); the others to ``unsettled`` (a
    blob holding a CR, which autocrlf leaves and ``text`` converts). An end of a pure
    rename (git names no blob here) is unsettled."""
    blobs: dict[str, set[str]] = {path: set() for path in reading.differing}
    edited = {(turn.index, op.git_forms.before_path) for turn in session.turns
              for op in turn.reply.ops if isinstance(op, (Edit, FullFile))
              and op.git_forms is not None and op.git_forms.before_path}
    for turn in session.turns:
        for op in turn.reply.ops:
            if is_move(op) and (turn.index, op.args[0]) not in edited:
                unsettled.update(path for path in op.args if path in blobs)
            pairs = _blobs_of(op) + ([(op.args[0], op.expect_blob)] if is_deletion(op)
                                     else [])
            for path, blob in pairs:
                if path in blobs and _full(blob):
                    blobs[path].add(blob)
    asked: dict[int, list[tuple[str, str]]] = {}
    for path, matter in reading.differing.items():
        if path not in unsettled:
            for state in matter:
                asked.setdefault(state, []).extend((path, blob) for blob in blobs[path])
    try:
        forms = {state: checked_out(repo, states[state], pairs)
                 for state, pairs in asked.items()}
    except GitError:
        unsettled.update(reading.differing)
        return
    for path, matter in reading.differing.items():
        if path in unsettled:
            continue
        found = {tuple(forms[state].get((path, blob)) for blob in sorted(blobs[path]))
                 for state in matter}
        if len(found) > 1:
            unsettled.add(path)
            continue
        state = min(matter)
        stable.add(path)
        kept[1].add(path)
        formed.update(((path, blob), forms[state].get((path, blob))) for blob in blobs[path])


def checked_out(repo: Repo, attributes: bytes, pairs: list[tuple[str, str]]
                 ) -> dict[tuple[str, str], bytes | bool]:
    """What ``git checkout`` writes for each (path, blob) by these ``.gitattributes``
    files (``update-index --index-info`` input: a commit's, :func:`attribute_entries`),
    where that is not the blob (as ``kept_form`` keeps it): an index holding them and the
    blobs at their paths, checked out into an empty folder; as many times as one path
    has blobs, or a path is a folder of another (a layer holds neither). A layer git
    cannot check out (a path that is a folder of an attributes file) leaves its blobs as
    they are, not the others (QA s38 helper-116 R9: one such path lost every form of the
    range)."""
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
                        found[(path, blob)] = kept_form(data, blob)

        layers = _layers(pairs)
        # (each layer its own index and folder: git runs them side by side, a hot file's
        # hundreds of versions cost a second less on two cores)
        with ThreadPoolExecutor(max_workers=max(1, min(4, os.cpu_count() or 1,
                                                       len(layers)))) as pool:
            list(pool.map(check_out, range(len(layers)), layers))
    return found


def _layers(pairs: list[tuple[str, str]]) -> list[dict[str, str]]:
    """``pairs`` (path, blob) in as few layers as hold no path twice and no path that is a
    folder of another (git cannot put both in one index); a ``.gitattributes`` blob alone
    (in the index it takes the place of the start's, whose rules the others are checked
    out by: a range's ``*.txt -text`` wrote the files beside it as stored, QA s39)."""
    layers: list[tuple[dict[str, str], set[str]]] = []  # (path -> blob, its folders)
    alone: list[dict[str, str]] = []
    for path, blob in pairs:
        if path.rsplit("/", 1)[-1] == ATTRIBUTES:
            alone.append({path: blob})
            continue
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
    return [layer for layer, _held in layers] + alone


# The attributes by which git may check a file out otherwise than it stores it (a filter
# program: off here): ``eol=crlf``, ``crlf`` (the old name of ``text``, which a CRLF
# setting makes convert), ``ident``, any ``working-tree-encoding``.
def _converting(repo: Repo, paths: list[str]) -> set[str]:
    """The ``paths`` git may check out otherwise than it stores them: all of them with
    CRLF line endings configured (``core.autocrlf``, ``core.eol``), else those with an
    attribute that converts on checkout (``eol=lf`` and ``text=auto`` alone do not: a
    common ``.gitattributes`` cost a checkout of every version of every file, QA s38
    helper-116 R6). Three git calls instead of one per blob; a wrong "no" would only
    leave a patch refused, or a file written as git stores it, as before s38."""
    every, native_crlf = config_converts(repo)
    if every:
        return set(paths)
    out = repo.git("check-attr", "-z", "--stdin", *CONVERTING, "text",
                   input="".join(path + "\0" for path in paths).encode("utf-8",
                                                                      "surrogateescape"))
    fields = out.split(b"\0")
    return {fields[at].decode("utf-8", "surrogateescape")
            for at in range(0, len(fields) - 2, 3)  # (path, attribute, value) each
            if converts(fields[at + 1], fields[at + 2], native_crlf)}


def _turn(turn: Turn, formed: _Formed, stored: dict[str, bytes]) -> Turn:
    return _ident_expanded(each_op(turn, lambda op: _op(op, formed, stored)))


def _ident_expanded(turn: Turn) -> Turn:
    """``turn`` with the edits of each file git checks out with ``$Id$`` expanded (the
    blob found is checked out with ``$Id: <blob> $``: ``ident``) searching and replacing
    ``$Id$`` as it stands on disk: a hunk holding the line was "SEARCH not found", exit 1
    (QA s40). The result, with the old id, is written as git's checkout of the blob
    after (``core/engine/checkout.py``)."""
    blocks = []
    for block in turn.reply.blocks:
        forms = block.ops[-1].git_forms if isinstance(block, FileBlock) and block.ops \
            else None
        expanded = expanded_id(forms) if forms is not None else ""
        if not expanded or not isinstance(block, FileBlock):
            blocks.append(block)
            continue
        blocks.append(replace(block, ops=tuple(
            replace(op, search_lines=tuple(line.replace("$Id$", expanded)
                                           for line in op.search_lines),
                    replace_lines=tuple(line.replace("$Id$", expanded)
                                        for line in op.replace_lines))
            if isinstance(op, Edit) and any("$Id$" in line for line in op.search_lines)
            else op for op in block.ops)))
    if all(new is old for new, old in zip(blocks, turn.reply.blocks, strict=True)):
        return turn
    return replace(turn, reply=replace(turn.reply, blocks=tuple(blocks)))


def _op(op: Edit | FullFile, formed: _Formed, stored: dict[str, bytes]) -> Edit | FullFile:
    if isinstance(op, FullFile) and (patch := _patch(op)) is not None:
        if patch.checkout is not None:
            return op
        old_id, new_id = patch.old_id, patch.new_id
        old_blob, new_blob = stored.get(old_id), stored.get(new_id)
        if old_blob is None or new_blob is None:
            return op
        old = form_of(formed.get((op.path, old_id)), old_blob)
        new = form_of(formed.get((op.path, new_id)), new_blob)
        taken = (CheckoutForms(old if old is not None else old_blob, old_blob) if new is None
                 else CheckoutForms(old if old is not None else old_blob, old_blob, new,
                                    new_blob))
        return replace(op, payload=replace(patch, checkout=taken))
    forms = op.git_forms
    if forms is None or forms.checked_out is not None or forms.checked_before is not None:
        return op
    form = formed.get((op.path, forms.after_blob))
    found = formed.get((_before(op), forms.before_blob)) if forms.before_blob else None
    if form is None and found is not None:
        form = stored.get(forms.after_blob)  # (converted before, not after: the blob)
    if form is None:
        return op
    return replace(op, git_forms=replace(forms, checked_out=form, checked_before=found))
