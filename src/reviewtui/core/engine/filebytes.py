"""Full files that are more than lines: git binary patches, modes, symbolic links.

A unified diff from ``git diff --binary`` carries binary content as a literal or a
delta, states modes (``new file mode 100755``, ``old mode``/``new mode``) and writes
symbolic links as files of mode 120000 whose content is the link's target. Each becomes
a :class:`FullFile` with a ``payload`` and/or a ``mode``; this module decides what they do
to a tree. Binary results are verified against the blob ids the diff names (as ``git
apply`` does) before anything lands. Pure.
"""

from __future__ import annotations

import stat

from reviewtui.core.engine.links import evaluate_link
from reviewtui.core.model.outcome import Outcome, Status
from reviewtui.core.model.records import FileBytes, FullFile
from reviewtui.core.model.tree import FileState, Tree

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from reviewtui.core.engine.file_edits import FileContext

NULL_ID = "0" * 40


def refused(path: str, rule: str, message: str, *,
            before_state: FileState | None = None) -> Outcome:
    return Outcome(Status.REFUSED, rule=rule, message=message, path=path,
                   before_state=before_state)


def file_mode(mode: int) -> int:
    """A git mode (``100755``) as the permission bits a file gets (``0o755``)."""
    return 0o755 if mode & 0o111 else 0o644


def with_mode(state: FileState, mode: int | None) -> FileState:
    if mode is None or state.mode == file_mode(mode):
        return state
    return FileState.from_bytes(state.data, mode=file_mode(mode), revision=state.revision + 1)


def is_link_mode(mode: int) -> bool:
    return stat.S_ISLNK(mode)


# Why a binary patch, a link or a mode change takes no edited text. (QA s36: an edit of a
# binary file was recorded as "edited", its text dropped unsaid, the binary written. A new
# such decision is refused (shell/deciding.py); one saved before stays what it did, an
# accept of the operation as sent: the engine leaves its text aside, as it always did.)
NO_TEXT_EDIT = ("a binary file, a symbolic link or a mode change has no text to edit: "
                "accept it as it is, or reject it")


def takes_no_text(op: object) -> bool:
    """Whether an operation is a binary patch, a link or a mode change alone: what
    :func:`evaluate_special` decides, with no text a reviewer could edit."""
    return isinstance(op, FullFile) and (
        op.payload is not None or (op.mode is not None and is_link_mode(op.mode)))


def evaluate_special(tree: Tree, op: FullFile, ctx: FileContext,
                     path: str) -> tuple[Outcome, FileState | None] | None:
    """The outcome of a full file with a payload or a link mode; None for plain text."""
    if op.mode is not None and stat.S_ISLNK(op.mode):
        return evaluate_link(tree, op, ctx, path)
    payload = op.payload
    if payload is None:
        return None
    current = tree.get(path)
    if payload.kind == "unread":
        return refused(path, "diff-unread", f"part of the diff of {path} cannot be read or "
                       "replayed (a diff-bad-hunk, diff-hunk-overrun, diff-orphan-hunk, "
                       "diff-not-utf8 or diff-copy finding says why): its patch is not whole"), None
    if payload.kind == "submodule":
        return refused(path, "submodule", _submodule_refusal(path, payload)), None
    if payload.kind == "missing":
        return refused(path, "binary-no-data", f"the diff says {path} changed but carries no "
                       "data ('Binary files ... differ'): make the diff with 'git diff "
                       "--binary', or apply this change by hand"), None
    if payload.kind == "keep":
        if current is None:
            return Outcome(Status.NOT_FOUND, rule="missing-file", path=path,
                           message=f"{path} does not exist: its mode cannot change"), None
        state = with_mode(current, op.mode)
        mode = f"{state.mode:o}"
        return (Outcome(Status.APPLIED, method="mode", path=path,
                        message=f"mode of {path} becomes {mode}",
                        before_state=current, after_state=state),
                state)
    # Only a binary patch's data (literal or delta) needs its reader: loaded for it alone.
    from reviewtui.core.importers.gitbinary import BinaryPatchError, apply_delta, blob_id

    was = current.data if current is not None else b""
    # A checkout that writes the blobs otherwise (core.autocrlf) and holds exactly git's
    # checkout of the blob before: its blob is patched, git's checkout of the result is
    # written (shell/git_checkout.py asked git for both).
    checkout = payload.checkout
    if (checkout is not None and current is not None and was == checkout.old
            and blob_id(checkout.old_blob) == payload.old_id):
        was = checkout.old_blob
    else:
        checkout = None
        if (current is not None and op.git_apply is not None and payload.old_id
                and blob_id(was) != payload.old_id):
            # (a plain diff on a converting checkout: git patches the file as it reads it,
            # QA s55 helper-230 R7; its result is checked out so: core/engine/git_apply.py)
            from reviewtui.core.engine.git_apply import as_git_reads

            if blob_id(read := as_git_reads(was, op.git_apply)) == payload.old_id:
                was = read
        if current is not None and payload.old_id and payload.old_id != NULL_ID \
                and blob_id(was) != payload.old_id:
            return refused(path, "binary-stale", f"{path} is not the version the binary "
                           f"patch was made for (git blob {payload.old_id[:12]})",
                           before_state=current), None
    if payload.kind == "delta":
        if current is None:
            return Outcome(Status.NOT_FOUND, rule="missing-file", path=path,
                           message=f"{path} does not exist: a binary delta needs the "
                           "file it was made from"), None
        try:
            data = apply_delta(was, payload.data)
        except BinaryPatchError as err:
            return refused(path, "binary-delta", f"the binary delta for {path} does not "
                           f"apply: {err}", before_state=current), None
    else:
        data = payload.data
    if payload.new_id and blob_id(data) != payload.new_id:
        return refused(path, "binary-verify", f"the binary patch for {path} does not "
                       f"produce git blob {payload.new_id[:12]}: the patch is damaged"), None
    kept = ""
    if checkout is not None and checkout.new is not None:
        # The file held git's checkout of the blob before: it gets git's checkout of the
        # blob after, as ``git checkout`` writes it here (git said, not worked out).
        data = checkout.new
        kept = "; written as git's checkout writes it here"
    if current is not None and (op.creates or payload.old_id == NULL_ID) \
            and current.data != data:
        # (as a text diff's new file: git checkout refuses to overwrite an untracked file)
        return refused(path, "new-file-exists", f"the diff creates {path} as a new file, "
                       f"but {path} exists with other content: it is not overwritten (a "
                       "stale diff, or a file made since); remove it first to take the "
                       "diff's", before_state=current), None
    if current is None:
        state = FileState.from_bytes(data, mode=file_mode(op.mode) if op.mode else 0o644)
        verb, method = "creates", "new-file"
    else:
        state = with_mode(current.with_data(data), op.mode)
        verb, method = "rewrites", f"binary-{payload.kind}"
    return (Outcome(Status.APPLIED, method=method, path=path,
                    message=f"{verb} {path} ({len(data)} bytes, from a git binary "
                    f"{payload.kind}{kept})", before_state=current, after_state=state),
            state)


def _submodule_refusal(path: str, payload: FileBytes) -> str:
    """Why a submodule's change is not replayed, with the commits the source names."""
    dirty = payload.new_id.endswith("-dirty")  # git diff of a worktree: changed inside
    before, after = payload.old_id[:12], payload.new_id.removesuffix("-dirty")[:12]
    if dirty and before == after:
        change = f"its checkout (at commit {after}) has changes of its own"
    elif before and after:
        change = f"its commit moves from {before} to {after}"
    elif after:
        change = f"it is added at commit {after}"
    elif before:
        change = f"it is removed (it was at commit {before})"
    else:
        change = "its commit changes"
    how = ("'git rm' it" if before and not after
           else "commit them in the submodule, then 'git add' it" if dirty and before == after
           else "check out the commit in the submodule, then 'git add' it")
    return (f"{path} is a git submodule (mode 160000) and {change}: reviewtui changes "
            "files, not the commit a submodule is checked out at, so this change is left "
            f"out; make it with git ({how})")

