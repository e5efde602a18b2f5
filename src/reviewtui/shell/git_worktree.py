"""The session git makes of a working tree (``--worktree``): the uncommitted changes
against HEAD as a review already accepted on disk.

The session file is the diff from HEAD (git's own, or made here for a file whose line
endings git converts); the review state written beside it says every operation was
accepted and written, so the disk is the draft. What cannot be replayed exactly from its
diff (a binary file, text that is not UTF-8, a mode change, a link) is left out, named in
a note. Commit ranges: :mod:`reviewtui.shell.git_sources`. See docs/git.md.
"""

from __future__ import annotations

import hashlib
import os
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from reviewtui.core.engine import Decision, OpKey, Policy, evaluate_session
from reviewtui.core.errors import GitError, UsageError
from reviewtui.core.export.patch import unified_patch
from reviewtui.core.importers.gitlog import (
    GitOrigin,
    header_text,
    import_git,
)
from reviewtui.core.model.filestate import looks_like_data
from reviewtui.core.model.records import Session
from reviewtui.core.model.tree import FileState, Tree
from reviewtui.core.review.log import LogKind
from reviewtui.core.text.lines import encodes_utf8
from reviewtui.shell.git import DIFF_ARGS, Repo, disk_state, git_mode
from reviewtui.shell.git_sources import GitSource, write_session
from reviewtui.shell.project import Project, load_project
from reviewtui.shell.state import (
    DecisionItem,
    LogEntry,
    PathRecord,
    ReviewState,
    StateFile,
)
from reviewtui.shell.state_records import blobs_of, encode_record
from reviewtui.shell.statepath import default_state_path


def _changed_paths(repo: Repo, env: Mapping[str, str], base: str) -> list[str]:
    out = repo.git("diff", "--cached", "--name-only", "-z", "--no-renames", "--no-ext-diff",
                   "--no-relative", base, "--", env=env)
    return [p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p]


def gitlinks(repo: Repo, rev: str) -> list[str]:
    """The paths of ``rev``'s tree that are submodules (git mode 160000)."""
    out = repo.git("ls-tree", "-r", "-z", "--full-tree", rev)
    return [item.partition(b"\t")[2].decode("utf-8", "surrogateescape")
            for item in out.split(b"\0") if item.split(b" ", 2)[1:2] == [b"commit"]]


def submodule_changes(repo: Repo, base: str, links: Sequence[str]) -> list[tuple[str, str]]:
    """The submodules whose checkout is not at ``base``'s commit, each with why it is left
    out of the review. Nothing runs inside a submodule: ``--ignore-submodules=dirty``
    compares its HEAD only (looking for changes in its files would run ``git status``
    there, and with it the filter programs of the submodule's own configuration)."""
    if not links:
        return []
    with tempfile.TemporaryDirectory(prefix="reviewtui-index-") as tmp:
        env = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
        repo.git("read-tree", base, env=env)
        out = repo.git("diff-index", "--name-only", "-z", "--no-renames",
                       "--ignore-submodules=dirty", base, "--",
                       *(f":(literal){path}" for path in links), env=env)
    return [(path.decode("utf-8", "surrogateescape"), "a submodule (its commit is not reviewed)")
            for path in out.split(b"\0") if path]


def worktree_text(repo: Repo, base: str, excluded: Sequence[tuple[str, str]] = (),
                  links: Sequence[str] = (),
                  checkout: Mapping[str, FileState | None] | None = None
                  ) -> tuple[bytes, list[str]]:
    """The working tree against ``base`` as a git session file, and the paths it changes.

    Untracked files count as new (``.gitignore`` honoured); the user's index is not
    read or written: a temporary one gets ``read-tree`` + ``add -A``. The submodules
    ``links`` are left out of the ``add``, which would run ``git status`` in each (and
    the filter programs its configuration names: see :func:`submodule_changes`).

    ``checkout``: paths reviewed by their own diff, each with ``base``'s content as a
    checkout writes it (:func:`_checkout_forms`; None: not in ``base``). git's diff of
    them is of its stored, converted text; theirs is made here, from that content to the
    disk's bytes, so it replays to exactly what the working tree holds.
    """
    own = sorted(checkout or {})
    with tempfile.TemporaryDirectory(prefix="reviewtui-index-") as tmp:
        env = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
        repo.git("read-tree", base, env=env)
        # (core.safecrlf off: git refused the whole working tree for one file of mixed
        # endings under autocrlf; that file's own diff is made below: QA pass s28)
        repo.git("-c", "core.safecrlf=false", "add", "-A", "--", ".",
                 *(f":(exclude,literal){path}" for path in links), env=env)
        changed = _changed_paths(repo, env, base)
        spec = [f":(exclude,literal){path}" for path in (*(p for p, _ in excluded), *own)]
        diff = repo.git("diff", "--cached", *DIFF_ARGS, base, "--", ".", *spec, env=env)
    if own:
        assert checkout is not None
        before = Tree.from_files({p: state for p, state in checkout.items() if state is not None})
        after = Tree.from_files({p: state for p in own
                                 if (state := disk_state(repo.top, p)) is not None})
        diff += unified_patch(before, after).encode("utf-8", "surrogateescape")
    left_out = {path for path, _ in excluded}
    staged = repo.git("diff-index", "--cached", "--name-only", "-z", "--no-renames", base,
                      "--").decode("utf-8", "surrogateescape").split("\0")
    reviewed = set(changed) - left_out
    origin = GitOrigin("worktree", base, base, str(repo.top), tuple(excluded),
                       tuple(sorted(reviewed.intersection(staged))))
    return header_text(origin).encode() + diff, changed


def open_worktree(root: str | None, *, keep: bool) -> GitSource:
    """``--worktree``: the uncommitted changes as a review already accepted on disk.

    The session is the diff from HEAD; the review state made for it says "the review
    started on HEAD's content and every operation was accepted and written", so the disk
    is exactly the draft. Rejecting an operation then writes HEAD's lines back there,
    and any outside change is handled like in every review. A change the engine cannot
    replay exactly (a binary file, a mode change, a symbolic link) is left out of the
    session and out of the review, named in a note.
    """
    repo = Repo.at(Path(root) if root is not None else Path.cwd())
    if root is not None and Path(root).resolve() != repo.top.resolve():
        raise UsageError("--worktree reviews a whole working tree: --root must be its top "
                         f"folder ({repo.top})", rule="root")
    base = repo.head()
    if base is None:
        raise UsageError("this repository has no commit yet: --worktree reviews changes "
                         "against HEAD", source=str(repo.top), rule="git-no-head")
    # The check below evaluates exactly what Review.open will: the same tree, the same
    # project rules (reserved paths, symbolic links), the same decisions.
    project = load_project(repo.top)
    links = gitlinks(repo, base)
    excluded = submodule_changes(repo, base, links)
    # HEAD as a checkout writes it wherever that is not git's stored text (core.autocrlf,
    # eol attributes, ident): the review starts there, so a reject puts back what
    # `git checkout` would (QA pass s28: a deleted or emptied file came back LF where the
    # checkout writes CRLF). Those paths get a diff made here, from that to the disk.
    forms: dict[str, FileState | None] | None = None
    checkout: dict[str, FileState | None] = {}
    for _ in range(5):
        text, changed = worktree_text(repo, base, excluded, links, checkout)
        unnamed = [path for path in changed if not encodes_utf8(path)
                   and path not in {p for p, _ in excluded}]
        if unnamed:  # (QA pass s28: a traceback, in the patch writer or the state's save)
            excluded.extend((path, _NOT_UTF8) for path in unnamed)
            continue
        legacy = _not_utf8_text(repo, base, [path for path in changed
                                             if path not in {p for p, _ in excluded}])
        if legacy:  # (QA s36 helper-105: a traceback, or the whole review refused)
            excluded.extend((path, _NOT_UTF8_TEXT) for path in legacy)
            continue
        if forms is None:
            left_out = {path for path, _ in excluded}
            reviewed = [path for path in changed if path not in left_out]
            stored = _head_files(repo, base, reviewed)
            forms = _checkout_forms(repo, base, reviewed, stored)
            checkout = {path: form for path, form in forms.items() if form is not None
                        and path in stored and form.data != stored[path].data}
            # Checked out as HEAD has it and still "changed" to git: its `git add` would
            # store it otherwise (a blob of mixed endings under eol=crlf). No content change
            # to review: said, not passed over in silence (QA pass s28).
            for path, form in list(checkout.items()):
                disk = disk_state(repo.top, path)
                if disk is not None and form is not None and disk.data == form.data:
                    excluded.append((path, _RENORMALIZED))
                    del checkout[path]
            if checkout or any(why == _RENORMALIZED for _, why in excluded):
                continue  # read again, these paths by their own diffs
        bad = _not_replayable(repo, base, text, changed, {p for p, _ in excluded}, project,
                              checkout)
        if not bad:
            break
        # A file whose line endings on disk are not what git stores (core.autocrlf, an
        # eol attribute, a CRLF file where the checkout writes LF) is reviewed by its own
        # diff from HEAD's checkout, once: if that does not replay to the disk's bytes
        # either, it is left out, named in a note.
        converted = [path for path, why in bad if why == _CONVERTED and path not in checkout]
        checkout.update((path, forms.get(path)) for path in converted)
        for path, why in bad:
            if path not in converted:
                excluded.append((path, why))
                checkout.pop(path, None)
    else:
        raise GitError("the working tree keeps changing while it is read; try again",
                       source=str(repo.top), rule="git-worktree")
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    name = f"worktree-{base[:12]}-{stamp}-{os.getpid()}.patch"
    cleanup: list[Path] = []
    if keep:
        session = write_session(repo.state_dir, name, text)
    else:
        scratch = Path(tempfile.mkdtemp(prefix="reviewtui-git-"))
        cleanup.append(scratch)
        session = scratch / name
        session.write_bytes(text)
    origin = GitOrigin("worktree", base, base, str(repo.top), tuple(excluded))
    state = default_state_path(session)
    _accepted_state(repo, base, session, state, changed, {p for p, _ in excluded}, checkout)
    return GitSource(repo, origin, session, repo.top, state, cleanup, tuple(changed))


_NOT_UTF8 = ("its name is not UTF-8, and a review keeps every path in UTF-8: rename it to "
             "review it")
_NOT_UTF8_TEXT = ("not UTF-8 text (a Latin-1 source, say): a working tree's review reads UTF-8 "
                  "text alone, and leaves it out as it leaves binary files")
_RENORMALIZED = ("exactly as a checkout of HEAD writes it, but git would store it otherwise "
                 "(its line endings renormalized by `git add`): no change of its content to "
                 "review")
_CONVERTED = ("its line endings on disk are not git's (core.autocrlf or an eol attribute "
              "converts them), and the diff replays git's: it cannot be reviewed in place")


def _not_utf8_text(repo: Repo, base: str, paths: Sequence[str]) -> list[str]:
    """The changed paths whose content on disk or at ``base`` is text that is not UTF-8
    (no NUL byte: one with a NUL is a binary file, left out as such)."""
    def legacy(state: FileState) -> bool:  # (binary to the review: a NUL, or not UTF-8)
        return state.binary and not looks_like_data(state.data)

    on_disk = [path for path in paths
               if (disk := disk_state(repo.top, path)) is not None and legacy(disk)]
    rest = [path for path in paths if path not in on_disk]
    at_base = repo.files(base, rest) if rest else {}
    return sorted({*on_disk, *(path for path, state in at_base.items() if legacy(state))})


def _head_files(repo: Repo, base: str, changed: Iterable[str],
                checkout: Mapping[str, FileState | None] | None = None
                ) -> dict[str, FileState]:
    """HEAD's content at the changed paths (absent: new in the working tree); for the
    paths of ``checkout``, as a checkout writes it (see :func:`worktree_text`)."""
    files = repo.files(base, list(changed))
    for path, state in (checkout or {}).items():
        if state is not None:
            files[path] = state
    return files


def _checkout_forms(repo: Repo, base: str, paths: Sequence[str],
                    stored: Mapping[str, FileState]) -> dict[str, FileState | None]:
    """``base``'s content at ``paths`` as ``git checkout`` writes it (None: a path ``base``
    does not hold as a file; ``stored``: its files there as git stores them). Checked out
    into an empty work tree from a temporary index of ``base``, so git converts them by
    ``base``'s own ``.gitattributes`` (those of the working tree are the agent's, maybe
    just added: QA pass s28) and the repository's configuration, line endings, ``ident``
    and ``working-tree-encoding`` included; its filter programs stay off, as for every
    call."""
    forms: dict[str, FileState | None] = {path: None for path in paths if path not in stored}
    held = [path for path in paths if path in stored]
    if not held:
        return forms
    with tempfile.TemporaryDirectory(prefix="reviewtui-checkout-") as tmp:
        env = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
        repo.git("read-tree", base, env=env)
        tree = Path(tmp) / "tree"
        tree.mkdir()
        repo.git(f"--work-tree={tree}", "checkout-index", "-f", "-z", "--stdin",
                 input="".join(path + "\0" for path in held).encode("utf-8", "surrogateescape"),
                 env=env)
        for path in held:
            try:
                data = (tree / path).read_bytes()
            except OSError:  # (not written: git's stored text then)
                forms[path] = stored[path]
                continue
            forms[path] = FileState.from_bytes(data, mode=stored[path].mode)
    return forms


def _accept_all(session: Session) -> dict[OpKey, Decision]:
    """The decisions of a working tree's review as it opens (the state records them)."""
    return {(t.index, pos): Decision.accept() for t in session.turns
            for pos in range(len(t.reply.ops))}


def _not_replayable(repo: Repo, base: str, text: bytes, changed: Sequence[str],
                    skip: set[str], project: Project,
                    checkout: Mapping[str, FileState | None] | None = None
                    ) -> list[tuple[str, str]]:
    """Changed paths that HEAD + every operation does not turn into the disk's bytes
    (HEAD as checked out at the paths of ``checkout``)."""
    session = import_git(text.decode("utf-8", "surrogateescape"), "worktree",
                         root=str(repo.top))
    head = _head_files(repo, base, changed, checkout)
    start = project.tree.apply({path: head.get(path) for path in changed})
    run = evaluate_session(session, start, rules=project.rules, policy=Policy.decided_only(),
                           decisions=_accept_all(session))
    result = run.states[-1].tree
    bad = []
    for path in changed:
        if path in skip:
            continue
        disk = disk_state(repo.top, path)
        full = repo.top / path
        if full.is_symlink():
            bad.append((path, "a symbolic link"))
        elif disk is None and full.exists():
            bad.append((path, "not a regular file"))
        elif disk is not None and looks_like_data(disk.data):
            bad.append((path, "a binary file"))
        else:
            want = result.get(path)
            same = (want is None) == (disk is None) and (
                want is None or disk is None or want.data == disk.data)
            if not same and want is not None and disk is not None and (
                    disk.data.replace(b"\r\n", b"\n") == want.data.replace(b"\r\n", b"\n")):
                bad.append((path, _CONVERTED))
            elif not same:
                bad.append((path, "this change cannot be replayed exactly from its diff"))
            elif disk is not None and start.get(path) is not None and (
                    git_mode(disk) != git_mode(start.get(path) or disk)):
                bad.append((path, "a file mode change"))
    return bad


def _accepted_state(repo: Repo, base: str, session: Path, state_path: Path,
                    changed: Sequence[str], skip: set[str],
                    checkout: Mapping[str, FileState | None] | None = None) -> None:
    """Write the review state of "every operation accepted, the disk holds the result"."""
    text = session.read_bytes()
    loaded = import_git(text.decode("utf-8", "surrogateescape"), str(session),
                        root=str(repo.top))
    head = _head_files(repo, base, changed, checkout)
    state_file = StateFile(state_path)
    records: dict[str, PathRecord] = {}
    for path in changed:
        if path in skip:
            continue
        disk = disk_state(repo.top, path)
        records[path] = PathRecord(base=head.get(path), seen=disk, ref=disk)
    decisions = _accept_all(loaded)
    items = tuple(DecisionItem.for_op(key, op, decisions[key])
                  for turn in loaded.turns for key, op in
                  (((turn.index, pos), op) for pos, op in enumerate(turn.reply.ops)))
    log = [LogEntry(LogKind.DECIDE, items)] if items else []
    for path_record in records.values():
        for sha, data in blobs_of(path_record):
            state_file.blobs.put(data, sha)
    state = ReviewState(session_sha=hashlib.sha256(text).hexdigest(),
                        root=str(repo.top.resolve()), log=log,
                        paths={p: encode_record(r) for p, r in sorted(records.items())})
    state_file.save(state, session)
