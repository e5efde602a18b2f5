"""Git on the command line: sessions from commit ranges and working trees, commits out.

Every call runs the ``git`` program with an argument list (no shell), an environment
without ``GIT_*`` variables (so neither an index, a repository nor an identity can be
slipped in from outside) and settings that keep the repository from running anything:
hooks point at ``/dev/null``, no fsmonitor, no external diff, no textconv, no pager,
no signing. A repository is untrusted input like a session file.

What lives where (see docs/git.md):

* the session file that ``--git A..B`` / ``--worktree`` review, and its review state,
  are written to ``<git dir>/reviewtui/``; without ``--root`` a range is reviewed on a
  copy of A's tree kept beside them (``range-A-B.root/``);
* commits are built with plumbing in a temporary index (``GIT_INDEX_FILE``), so the
  user's index and working tree are never touched, and a ref is moved only with
  ``update-ref`` given its expected old value.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import subprocess
import tempfile
import time
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from reviewtui.core.engine import Decision, Policy, evaluate_session
from reviewtui.core.errors import GitError, UsageError
from reviewtui.core.importers.gitlog import LOG_FORMAT, GitOrigin, header_text, import_git
from reviewtui.core.tree import FileState, Tree
from reviewtui.shell.disk import atomic_write
from reviewtui.shell.project import load_project
from reviewtui.shell.state import (
    DecisionItem,
    LogEntry,
    PathRecord,
    ReviewState,
    StateFile,
    blobs_of,
    default_state_path,
    encode_record,
)

if TYPE_CHECKING:
    from reviewtui.core.export import Accepted
    from reviewtui.shell.review import Review

GIT = "git"
SAFE_CONFIG = ("core.quotepath=off", "core.hooksPath=/dev/null", "core.fsmonitor=false",
               "core.pager=cat", "color.ui=false", "diff.external=", "commit.gpgSign=false",
               "log.showSignature=false", "core.splitIndex=false")
# Diff output in the one shape the unified-diff importer reads, whatever the config says.
DIFF_ARGS = ("-p", "--binary", "--full-index", "-M", "-U3", "--no-color", "--no-ext-diff",
             "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/", "--no-relative",
             "-O/dev/null")
ZERO = "0" * 40
STATE_DIR = "reviewtui"


def git_env(extra: Mapping[str, str] | None = None) -> dict[str, str]:
    """The environment without ``GIT_*`` overrides, plus what the caller means to set."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update({"GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0", "LC_ALL": "C"})
    env.update(extra or {})
    return env


def run_git(cwd: Path, args: Sequence[str], *, input: bytes | None = None,
            env: Mapping[str, str] | None = None, ok: Iterable[int] = (0,)) -> bytes:
    """``git ARGS`` in ``cwd``; its stdout, or a :class:`GitError` with its first line."""
    command = [GIT]
    for setting in SAFE_CONFIG:
        command += ["-c", setting]
    command += list(args)
    try:
        done = subprocess.run(command, cwd=cwd, input=input, capture_output=True,
                              env=git_env(env), check=False)
    except FileNotFoundError:
        raise GitError("the git program is not installed (or not on PATH)",
                       rule="no-git") from None
    except OSError as exc:
        raise GitError(f"cannot run git: {exc.strerror}", source=str(cwd),
                       rule="git") from None
    if done.returncode not in tuple(ok):
        why = done.stderr.decode("utf-8", "replace").strip().splitlines()
        first = why[0] if why else f"exit status {done.returncode}"
        name = next((a for a in args if not a.startswith("-") and "=" not in a), "")
        raise GitError(f"git {name} failed: {first}", source=str(cwd), rule="git")
    return done.stdout


@dataclass(frozen=True, slots=True)
class Repo:
    """A git working tree (``top``), its git directory, and the settings that switch off
    the repository's own filter programs (``overrides``)."""

    top: Path
    git_dir: Path
    overrides: tuple[str, ...] = ()

    @classmethod
    def at(cls, path: Path) -> Repo:
        if not path.is_dir():
            raise UsageError("not a directory", source=str(path), rule="root")
        out = run_git(path, ["rev-parse", "--show-toplevel", "--absolute-git-dir"])
        lines = out.decode("utf-8", "surrogateescape").splitlines()
        if len(lines) != 2 or not lines[0]:
            raise GitError("not inside a git working tree (a bare repository cannot be "
                           "reviewed)", source=str(path), rule="not-a-worktree")
        top = Path(lines[0])
        return cls(top, Path(lines[1]), _filter_overrides(top))

    def git(self, *args: str, input: bytes | None = None,
            env: Mapping[str, str] | None = None, ok: Iterable[int] = (0,)) -> bytes:
        return run_git(self.top, [*self.overrides, *args], input=input, env=env, ok=ok)

    @property
    def state_dir(self) -> Path:
        return self.git_dir / STATE_DIR

    def commit(self, rev: str) -> str:
        """The full commit id ``rev`` names (never read as an option)."""
        if not rev or rev.startswith("-"):
            raise UsageError(f"{rev!r} is not a revision", rule="git-rev")
        out = self.git("rev-parse", "--verify", "--quiet", "--end-of-options",
                       f"{rev}^{{commit}}", ok=(0, 1))
        sha = out.decode().strip()
        if not sha:
            raise UsageError(f"no commit {rev!r} in {self.top}", rule="git-rev")
        return sha

    def head(self) -> str | None:
        out = self.git("rev-parse", "--verify", "--quiet", "HEAD^{commit}", ok=(0, 1))
        return out.decode().strip() or None

    def head_ref(self) -> str | None:
        """The branch HEAD is on (``refs/heads/x``); None when HEAD is detached."""
        out = self.git("symbolic-ref", "-q", "HEAD", ok=(0, 1))
        return out.decode("utf-8", "surrogateescape").strip() or None

    def tree_entries(self, rev: str) -> list[tuple[str, str, str]]:
        """(mode, blob id, path) of every file of ``rev``'s tree (submodules left out)."""
        out = self.git("ls-tree", "-r", "-z", "--full-tree", rev)
        entries = []
        for item in out.split(b"\0"):
            if not item:
                continue
            meta, _, path = item.partition(b"\t")
            mode, kind, sha = meta.decode().split()
            if kind == "blob":
                entries.append((mode, sha, path.decode("utf-8", "surrogateescape")))
        return entries

    def blobs(self, shas: Sequence[str]) -> list[bytes]:
        """The contents of these blobs, read with one ``cat-file --batch``."""
        if not shas:
            return []
        out = self.git("cat-file", "--batch", input="".join(s + "\n" for s in shas).encode())
        found: list[bytes] = []
        at = 0
        for _ in shas:
            end = out.index(b"\n", at)
            header = out[at:end].split()
            if len(header) != 3:
                raise GitError(f"cat-file: {out[at:end]!r}", rule="git")
            size = int(header[2])
            found.append(out[end + 1:end + 1 + size])
            at = end + 1 + size + 1
        return found

    def files(self, rev: str, paths: Iterable[str] | None = None) -> dict[str, FileState]:
        """File states of ``rev`` (only ``paths`` when given; symlinks left out)."""
        wanted = set(paths) if paths is not None else None
        entries = [e for e in self.tree_entries(rev)
                   if e[0] != "120000" and (wanted is None or e[2] in wanted)]
        datas = self.blobs([sha for _, sha, _ in entries])
        return {path: FileState.from_bytes(data, mode=_file_mode(mode))
                for (mode, _, path), data in zip(entries, datas, strict=True)}


def _file_mode(git_mode: str) -> int:
    return 0o755 if git_mode == "100755" else 0o644


def git_mode(state: FileState) -> str:
    return "100755" if state.mode & 0o111 else "100644"


def materialize(repo: Repo, rev: str, target: Path) -> None:
    """Write ``rev``'s tree into the empty folder ``target`` (symlinks as symlinks)."""
    entries = repo.tree_entries(rev)
    datas = repo.blobs([sha for _, sha, _ in entries])
    for (mode, _, path), data in zip(entries, datas, strict=True):
        full = target / path
        full.parent.mkdir(parents=True, exist_ok=True)
        if mode == "120000":
            os.symlink(os.fsdecode(data), full)
            continue
        full.write_bytes(data)
        full.chmod(_file_mode(mode))


def _is_ancestor(repo: Repo, older: str, newer: str) -> bool:
    merge_base = repo.git("merge-base", older, newer, ok=(0, 1)).decode().strip()
    return merge_base == older


def _filter_overrides(top: Path) -> tuple[str, ...]:
    """``-c filter.X.clean= ...`` for every filter driver the configuration names.

    A clean/smudge/process filter is a program the repository's configuration runs when
    git reads the working tree (``add``, ``status``); reviewtui runs none. Files are then
    read as their bytes on disk (a Git LFS file shows as its content, not its pointer).
    """
    out = run_git(top, ["config", "-z", "--get-regexp", r"^filter\."], ok=(0, 1))
    names: set[str] = set()
    for item in out.split(b"\0"):
        key = item.split(b"\n", 1)[0].decode("utf-8", "surrogateescape")
        driver, _, _ = key.removeprefix("filter.").rpartition(".")
        if driver:
            names.add(driver)
    args: list[str] = []
    for name in sorted(names):
        for part in ("clean", "smudge", "process"):
            args += ["-c", f"filter.{name}.{part}="]
        args += ["-c", f"filter.{name}.required=false"]
    return tuple(args)


def parse_range(spec: str) -> tuple[str, str]:
    """``A..B`` (``A..`` means ``A..HEAD``); three dots are refused."""
    if "..." in spec or ".." not in spec:
        raise UsageError(f"--git takes a range A..B, not {spec!r}", rule="git-range")
    a, _, b = spec.partition("..")
    if not a:
        raise UsageError("--git A..B needs A: the commit the review starts from",
                         rule="git-range")
    return a, b or "HEAD"


def range_text(repo: Repo, base: str, head: str) -> bytes:
    """The session file of the range ``base..head``: header, then one ``git log -p``."""
    log = repo.git("log", "--first-parent", "--reverse", "--diff-merges=first-parent",
                   "--encoding=UTF-8", f"--format={LOG_FORMAT}", *DIFF_ARGS,
                   f"{base}..{head}", "--")
    origin = GitOrigin("range", base, head, str(repo.top))
    return header_text(origin).encode() + log


@dataclass(slots=True)
class GitSource:
    """What a command opens for ``--git``/``--worktree``: files on disk, and git's view."""

    repo: Repo
    origin: GitOrigin
    session: Path
    root: Path
    state: Path | None = None  # a review state made for the source (--worktree)
    cleanup: list[Path] = field(default_factory=list)
    changed: tuple[str, ...] = ()  # --worktree: the paths it changes
    note: str = ""  # what the user should know about where the review happens

    def close(self) -> None:
        for path in self.cleanup:
            shutil.rmtree(path, ignore_errors=True)


def open_range(spec: str, root: str | None, *, keep: bool) -> GitSource:
    """``--git A..B``: the session file, and the project it is replayed on.

    ``root`` is where the repository is (default: the current folder). With ``keep``
    (open, apply) the review writes to ``root`` when it is checked out at A, else to
    a copy of A's tree in ``<git dir>/reviewtui/`` (reopening resumes). Without ``keep``
    (check, stats, export: nothing is written) it reads a temporary copy of A's tree.
    """
    repo = Repo.at(Path(root) if root is not None else Path.cwd())
    a, b = parse_range(spec)
    base, head = repo.commit(a), repo.commit(b)
    if base != head and not _is_ancestor(repo, base, head):
        raise UsageError(f"{a} is not an ancestor of {b}: a range reviews the commits on "
                         f"top of A (use the merge base, git merge-base {a} {b})",
                         rule="git-range")
    text = range_text(repo, base, head)
    name = f"range-{base[:12]}-{head[:12]}"
    cleanup: list[Path] = []
    if keep:
        session = _write_session(repo.state_dir, f"{name}.patch", text)
    else:
        scratch = Path(tempfile.mkdtemp(prefix="reviewtui-git-"))
        cleanup.append(scratch)
        session = scratch / f"{name}.patch"
        session.write_bytes(text)
    origin = GitOrigin("range", base, head, str(repo.top))
    note = ""
    if root is not None and keep:
        if repo.head() == base:
            return GitSource(repo, origin, session, Path(root), cleanup=cleanup)
        # Replaying A..B onto anything but A would clash with itself: use A's tree.
        note = (f"{root} is not checked out at {base[:12]} (the range's start): reviewing "
                f"on a copy of its tree in {repo.state_dir} (commit with --branch NAME)")
    kept = repo.state_dir / f"{name}.root"
    if keep and not note:
        note = f"reviewing on a copy of {base[:12]}'s tree: {kept}"
    if kept.is_dir():
        return GitSource(repo, origin, session, kept, cleanup=cleanup, note=note)
    if keep:
        partial = repo.state_dir / f".{name}.root.partial"
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        materialize(repo, base, partial)
        os.replace(partial, kept)
        return GitSource(repo, origin, session, kept, cleanup=cleanup, note=note)
    copy = Path(tempfile.mkdtemp(prefix="reviewtui-git-base-"))
    cleanup.append(copy)
    materialize(repo, base, copy)
    return GitSource(repo, origin, session, copy, cleanup=cleanup)


def _write_session(directory: Path, name: str, text: bytes) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / name
    with contextlib.suppress(OSError):
        if target.read_bytes() == text:
            return target
    atomic_write(directory, name, text, 0o644)
    return target


# --- the working tree ------------------------------------------------------------------


def _changed_paths(repo: Repo, env: Mapping[str, str], base: str) -> list[str]:
    out = repo.git("diff", "--cached", "--name-only", "-z", "--no-renames", "--no-ext-diff",
                   "--no-relative", base, "--", env=env)
    return [p.decode("utf-8", "surrogateescape") for p in out.split(b"\0") if p]


def worktree_text(repo: Repo, base: str, excluded: Sequence[tuple[str, str]] = ()
                  ) -> tuple[bytes, list[str]]:
    """The working tree against ``base`` as a git session file, and the paths it changes.

    Untracked files count as new (``.gitignore`` honoured); the user's index is not
    read or written: a temporary one gets ``read-tree`` + ``add -A``.
    """
    with tempfile.TemporaryDirectory(prefix="reviewtui-index-") as tmp:
        env = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
        repo.git("read-tree", base, env=env)
        repo.git("add", "-A", "--", ".", env=env)
        changed = _changed_paths(repo, env, base)
        spec = [f":(exclude,literal){path}" for path, _ in excluded]
        diff = repo.git("diff", "--cached", *DIFF_ARGS, base, "--", ".", *spec, env=env)
    origin = GitOrigin("worktree", base, base, str(repo.top), tuple(excluded))
    return header_text(origin).encode() + diff, changed


def _disk_state(root: Path, path: str) -> FileState | None:
    full = root / path
    if full.is_symlink() or not full.is_file():
        return None
    return FileState.from_bytes(full.read_bytes(), mode=full.stat().st_mode & 0o777)


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
    excluded: list[tuple[str, str]] = []
    for _ in range(4):
        text, changed = worktree_text(repo, base, excluded)
        bad = _not_replayable(repo, base, text, changed, {p for p, _ in excluded})
        if not bad:
            break
        excluded.extend(bad)
    else:
        raise GitError("the working tree keeps changing while it is read; try again",
                       source=str(repo.top), rule="git-worktree")
    stamp = time.strftime("%Y%m%dT%H%M%S", time.gmtime())
    name = f"worktree-{base[:12]}-{stamp}-{os.getpid()}.patch"
    cleanup: list[Path] = []
    if keep:
        session = _write_session(repo.state_dir, name, text)
    else:
        scratch = Path(tempfile.mkdtemp(prefix="reviewtui-git-"))
        cleanup.append(scratch)
        session = scratch / name
        session.write_bytes(text)
    origin = GitOrigin("worktree", base, base, str(repo.top), tuple(excluded))
    state = default_state_path(session)
    _accepted_state(repo, base, session, state, changed, {p for p, _ in excluded})
    return GitSource(repo, origin, session, repo.top, state, cleanup, tuple(changed))


def _head_tree(repo: Repo, base: str, changed: Iterable[str]) -> tuple[Tree, dict[str, FileState]]:
    """The project as the review starts: the disk, with HEAD's content at changed paths."""
    changed = list(changed)
    head = repo.files(base, changed)
    tree = load_project(repo.top).tree
    return tree.apply({path: head.get(path) for path in changed}), head


def _not_replayable(repo: Repo, base: str, text: bytes, changed: Sequence[str],
                    skip: set[str]) -> list[tuple[str, str]]:
    """Changed paths that HEAD + every operation does not turn into the disk's bytes."""
    session = import_git(text.decode("utf-8", "surrogateescape"), "worktree")
    start, _ = _head_tree(repo, base, changed)
    decisions = {(t.index, pos): Decision.accept(force=True)
                 for t in session.turns for pos in range(len(t.reply.ops))}
    run = evaluate_session(session, start, policy=Policy.decided_only(), decisions=decisions)
    result = run.states[-1].tree
    bad = []
    for path in changed:
        if path in skip:
            continue
        disk = _disk_state(repo.top, path)
        full = repo.top / path
        if full.is_symlink():
            bad.append((path, "a symbolic link"))
        elif disk is None and full.exists():
            bad.append((path, "not a regular file"))
        elif disk is not None and b"\0" in disk.data[:8000]:
            bad.append((path, "a binary file"))
        else:
            want = result.get(path)
            same = (want is None) == (disk is None) and (
                want is None or disk is None or want.data == disk.data)
            if not same:
                bad.append((path, "this change cannot be replayed exactly from its diff"))
            elif disk is not None and start.get(path) is not None and (
                    git_mode(disk) != git_mode(start.get(path) or disk)):
                bad.append((path, "a file mode change"))
    return bad


def _accepted_state(repo: Repo, base: str, session: Path, state_path: Path,
                    changed: Sequence[str], skip: set[str]) -> None:
    """Write the review state of "every operation accepted, the disk holds the result"."""
    import hashlib

    text = session.read_bytes()
    loaded = import_git(text.decode("utf-8", "surrogateescape"), str(session))
    _, head = _head_tree(repo, base, changed)
    state_file = StateFile(state_path)
    records: dict[str, PathRecord] = {}
    for path in changed:
        if path in skip:
            continue
        disk = _disk_state(repo.top, path)
        records[path] = PathRecord(base=head.get(path), seen=disk, ref=disk)
    items = tuple(DecisionItem.for_op((turn.index, pos), op, Decision.accept())
                  for turn in loaded.turns for pos, op in enumerate(turn.reply.ops))
    log = [LogEntry("decide", items)] if items else []
    for record in records.values():
        for sha, data in blobs_of(record):
            state_file.blobs.put(data, sha)
    state = ReviewState(session_sha=hashlib.sha256(text).hexdigest(),
                        root=str(repo.top.resolve()), log=log,
                        paths={p: encode_record(r) for p, r in sorted(records.items())})
    state_file.save(state, session)


# --- commits ----------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CommitStep:
    """One commit to make: its message and the files it changes (None: removed)."""

    message: str
    changes: Mapping[str, FileState | None]


def identity_check(repo: Repo) -> None:
    """Refuse early when git has no identity to write commits with."""
    repo.git("var", "GIT_AUTHOR_IDENT")
    repo.git("var", "GIT_COMMITTER_IDENT")


def build_commits(repo: Repo, parent: str, steps: Sequence[CommitStep]) -> list[str]:
    """Commit objects chained from ``parent`` (no ref moves); their ids, in order."""
    made: list[str] = []
    with tempfile.TemporaryDirectory(prefix="reviewtui-index-") as tmp:
        env = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
        repo.git("read-tree", parent, env=env)
        current = parent
        for step in steps:
            if step.changes:
                repo.git("update-index", "-z", "--index-info",
                         input=index_lines(repo, step.changes), env=env)
            tree = repo.git("write-tree", env=env).decode().strip()
            current = repo.git("commit-tree", "--no-gpg-sign", tree, "-p", current, "-F", "-",
                               input=step.message.encode()).decode().strip()
            made.append(current)
    return made


def move_ref(repo: Repo, ref: str, new: str, old: str, reason: str) -> None:
    """``update-ref`` with the expected old value (``ZERO``: the ref must not exist)."""
    repo.git("update-ref", "-m", reason, ref, new, old)


_BRANCH = re.compile(r"^(?!-)(?!.*\.\.)(?!.*//)[A-Za-z0-9._/-]+(?<![./])$")


def check_branch_name(repo: Repo, name: str) -> str:
    if not _BRANCH.match(name) or name.endswith(".lock"):
        raise UsageError(f"{name!r} is not a branch name reviewtui accepts", rule="branch")
    repo.git("check-ref-format", f"refs/heads/{name}")
    ref = f"refs/heads/{name}"
    exists = repo.git("rev-parse", "--verify", "--quiet", ref, ok=(0, 1)).strip()
    if exists:
        raise UsageError(f"the branch {name} already exists; reviewtui never moves an "
                         "existing branch: choose a new name", rule="branch-exists")
    return ref


def status_paths(repo: Repo) -> dict[str, str]:
    """Paths ``git status`` reports (renames as two paths), with their two-letter code."""
    out = repo.git("status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames",
                   "--ignore-submodules=none")
    found: dict[str, str] = {}
    for item in out.split(b"\0"):
        if len(item) > 3:
            found[item[3:].decode("utf-8", "surrogateescape")] = item[:2].decode()
    return found


def index_matches(repo: Repo, commit: str) -> bool:
    """The user's index holds exactly ``commit``'s tree (nothing staged)."""
    out = repo.git("diff-index", "--cached", "--name-only", "-z", "--no-renames", commit,
                   "--")
    return not out.strip(b"\0")


def index_lines(repo: Repo, changes: Mapping[str, FileState | None]) -> bytes:
    """``update-index -z --index-info`` input for these contents (None: remove)."""
    lines = []
    for path, state in sorted(changes.items()):
        if state is None:
            lines.append(f"0 {ZERO}\t{path}")
            continue
        sha = repo.git("hash-object", "-w", "--no-filters", "--stdin",
                       input=state.data).decode().strip()
        lines.append(f"{git_mode(state)} {sha}\t{path}")
    return "".join(line + "\0" for line in lines).encode("utf-8", "surrogateescape")


def sync_index(repo: Repo, changes: Mapping[str, FileState | None]) -> None:
    """After moving the checked-out branch the user's index follows it: the committed
    paths get their new entries (the index held the base before, it was checked), then a
    refresh records their stat data. The working tree already holds them."""
    if changes:
        repo.git("update-index", "-z", "--index-info", input=index_lines(repo, changes))
    repo.git("update-index", "-q", "--refresh", ok=(0, 1))



# --- committing a review ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CommitReport:
    commits: tuple[str, ...]
    ref: str
    turns: tuple[int, ...]

    def summary(self) -> str:
        if not self.commits:
            return "no accepted turn changes a file: nothing to commit"
        where = self.ref.removeprefix("refs/heads/")
        many = "s" if len(self.commits) > 1 else ""
        return (f"{len(self.commits)} commit{many} on {where} (turn{many} "
                f"{', '.join(str(t) for t in self.turns)}), now at {self.commits[-1][:12]}")


def origin_of(session_file: Path) -> GitOrigin | None:
    """The git header of a session file; None for a session that does not come from git."""
    from reviewtui.core.importers.gitlog import looks_like_git_session, read_origin

    try:
        with session_file.open("rb") as handle:
            head = handle.read(64 * 1024).decode("utf-8", "replace")
    except OSError:
        return None
    if not looks_like_git_session(head):
        return None
    return read_origin(head, str(session_file))


def commit_review(review: Review, branch: str | None = None) -> CommitReport:
    """Commit the review's accepted turns: on ``branch`` (new, from the review's base), or
    on the checked-out branch when HEAD is still the base and the working tree holds
    nothing but the review's changes. Nothing is ever rewritten or pushed."""
    from reviewtui.core.git.commits import plan_commits

    origin = origin_of(review.loaded.file)
    if origin is None or not origin.worktree:
        raise UsageError("this session does not come from git (--git A..B or --worktree): "
                         "use 'export --format patch' instead", rule="not-git")
    repo = Repo.at(Path(origin.worktree))
    if review.conflicts:
        raise GitError(f"the review has conflicts ({', '.join(sorted(review.conflicts))}): "
                       "settle them first", rule="git-conflicts")
    if review.disk_checkpoint is not None:
        raise GitError(f"checkpoint {review.disk_checkpoint} is restored on disk: restore the "
                       "last checkpoint first, so the disk holds what would be committed",
                       rule="git-restored")
    plans = plan_commits(review.draft, review.decisions, review.loaded.file.name)
    identity_check(repo)
    if branch is not None:
        ref = check_branch_name(repo, branch)
        made = build_commits(repo, origin.base,
                             [CommitStep(p.message, p.changes) for p in plans])
        if made:
            move_ref(repo, ref, made[-1], ZERO, "reviewtui: accepted turns")
        return CommitReport(tuple(made), ref, tuple(p.turn for p in plans))
    head = repo.head()
    if head != origin.base:
        raise GitError(f"HEAD moved since the review started (it was {origin.base[:12]}, "
                       f"now {(head or 'none')[:12]}): commit with --branch NAME instead",
                       source=str(repo.top), rule="git-head-moved")
    if review.root.resolve() != repo.top.resolve():
        raise GitError(f"the review was made on {review.root}, not on the checkout "
                       f"{repo.top}: commit with --branch NAME instead", rule="git-not-checkout")
    _refuse_foreign_changes(repo, review)
    if not index_matches(repo, head):
        raise GitError("the index has staged changes: commit or unstage them first, or "
                       "commit with --branch NAME", source=str(repo.top), rule="git-staged")
    made = build_commits(repo, head, [CommitStep(p.message, p.changes) for p in plans])
    ref = repo.head_ref() or "HEAD"
    if made:
        args = ("--no-deref",) if ref == "HEAD" else ()
        repo.git("update-ref", *args, "-m", "reviewtui: accepted turns", ref, made[-1], head)
        final: dict[str, FileState | None] = {}
        for plan in plans:
            final.update(plan.changes)
        sync_index(repo, final)
    return CommitReport(tuple(made), ref, tuple(p.turn for p in plans))


def _refuse_foreign_changes(repo: Repo, review: Review) -> None:
    """The working tree must hold the review's draft, and nothing else changed."""
    draft = review.draft.states[-1].tree
    ours = review.draft.checkpoint(0).diff(draft)
    foreign = sorted(path for path in status_paths(repo) if path not in ours)
    for path in sorted(ours):
        want = draft.get(path)
        disk = _disk_state(repo.top, path)
        if (want is None) != (disk is None) or (want and disk and want.data != disk.data):
            foreign.append(path)
    if foreign:
        shown = ", ".join(foreign[:5]) + (f" and {len(foreign) - 5} more"
                                          if len(foreign) > 5 else "")
        raise GitError(f"the working tree has changes the review did not make ({shown}): "
                       "commit or stash them first, or commit with --branch NAME",
                       source=str(repo.top), rule="git-dirty")


def author_ident(repo: Repo) -> tuple[str, str]:
    """(``Name <email>``, RFC 2822 date) from git's own configuration."""
    import email.utils

    raw = repo.git("var", "GIT_AUTHOR_IDENT").decode("utf-8", "replace").strip()
    match = re.match(r"^(.*>) (\d+) ([+-]\d{4})$", raw)
    if match is None:
        raise GitError(f"cannot read git's author identity from {raw!r}", rule="git-ident")
    stamp = int(match.group(2))
    return match.group(1), email.utils.formatdate(stamp, localtime=False)


def git_series(accepted: Accepted) -> str:
    """``export --format series``: the accepted turns as ``git format-patch`` mails."""
    from reviewtui.core.git.commits import plan_commits
    from reviewtui.core.git.series import series_text

    source = Path(accepted.source)
    origin = origin_of(source)
    if origin is None or not origin.worktree:
        raise UsageError("--format series needs a git session (--git A..B or --worktree)",
                         source=accepted.source, rule="not-git")
    decisions = accepted.run.decisions if accepted.reviewed else {
        r.key: Decision.accept() for t in accepted.run.turns for r in t.results if r.landed}
    plans = plan_commits(accepted.run, decisions, source.name)
    author, date = author_ident(Repo.at(Path(origin.worktree)))
    return series_text(accepted.base, plans, author, date)
