"""Git on the command line: the runner, the repository, and the plumbing commits use.

Every call runs the ``git`` program with an argument list (no shell), an environment
without ``GIT_*`` variables but those naming the user's own configuration (so neither an
index, a repository nor an identity can be slipped in from outside:
:mod:`reviewtui.shell.git_environment`) and settings that keep the repository from running anything:
hooks point at ``/dev/null``, no fsmonitor, no external diff, no textconv, no pager,
no signing, no filter programs. A repository is untrusted input like a session file.

This module holds the runner, :class:`Repo` and the plumbing; the sessions made from
git are in :mod:`reviewtui.shell.git_sources`, committing a review in
:mod:`reviewtui.shell.git_commit` (see docs/git.md). Commits are built in a temporary
index (``GIT_INDEX_FILE``), so the user's index and working tree are never touched, and
a ref is moved only with ``update-ref`` given its expected old value.
"""

from __future__ import annotations

import email.utils
import os
import re
import stat
import subprocess
import tempfile
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from reviewtui.core.engine.links import is_link
from reviewtui.core.errors import GitError, UsageError
from reviewtui.core.importers.gitlog import GitOrigin, looks_like_git_session, read_origin
from reviewtui.core.model.tree import FileState
from reviewtui.core.record import field, record
from reviewtui.core.text.lines import split_lines
from reviewtui.shell.git_environment import config_env, git_env

GIT = "git"
SAFE_CONFIG = ("core.quotepath=off", "core.hooksPath=/dev/null", "core.fsmonitor=false",
               "core.pager=cat", "color.ui=false", "diff.external=", "commit.gpgSign=false",
               "log.showSignature=false", "core.splitIndex=false",
               # A repository may name a "promisor" remote whose URL is a program (ext::):
               # git fetches a missing object from it on its own. reviewtui needs no network.
               "protocol.allow=never")
# Diff output in the one shape the unified-diff importer reads, whatever the config says.
DIFF_ARGS = ("-p", "--binary", "--full-index", "-M", "-U3", "--no-color", "--no-ext-diff",
             "--no-textconv", "--src-prefix=a/", "--dst-prefix=b/", "--no-relative",
             "-O/dev/null", "--submodule=short")  # (diff.submodule=log drops the diff)
ZERO = "0" * 40
STATE_DIR = "reviewtui"


def _command(args: Sequence[str]) -> list[str]:
    command = [GIT]
    for setting in SAFE_CONFIG:
        command += ["-c", setting]
    return command + list(args)


def git_process_command(repo: Repo, *args: str) -> list[str]:
    """The argument list of ``git ARGS`` in ``repo`` as every call runs it (the safe
    settings), for a process kept running: run it with ``env=repo.env()`` (the
    repository's filters switched off)."""
    return _command(args)


def _cannot_run(cwd: Path, exc: OSError) -> GitError:
    if isinstance(exc, FileNotFoundError):
        return GitError("the git program is not installed (or not on PATH)", rule="no-git")
    return GitError(f"cannot run git: {exc.strerror}", source=str(cwd), rule="git")


def _failed(cwd: Path, args: Sequence[str], returncode: int, stderr: bytes) -> GitError:
    why = stderr.decode("utf-8", "replace").strip().splitlines()
    first = why[0] if why else f"exit status {returncode}"
    name = next((a for a in args if not a.startswith("-") and "=" not in a), "")
    return GitError(f"git {name} failed: {first}", source=str(cwd), rule="git")


def run_git(cwd: Path, args: Sequence[str], *, input: bytes | None = None,
            env: Mapping[str, str] | None = None, ok: Iterable[int] = (0,)) -> bytes:
    """``git ARGS`` in ``cwd``; its stdout, or a :class:`GitError` with its first line."""
    try:
        done = subprocess.run(_command(args), cwd=cwd, input=input, capture_output=True,
                              env=git_env(env), check=False)
    except OSError as exc:
        raise _cannot_run(cwd, exc) from None
    if done.returncode not in tuple(ok):
        raise _failed(cwd, args, done.returncode, done.stderr)
    return done.stdout


class GitWriter:
    """``git ARGS`` running in the background with its output appended to a file (read
    while it grows); :meth:`wait` raises what :func:`run_git` would."""

    def __init__(self, repo: Repo, args: Sequence[str], output: Path) -> None:
        self._cwd = repo.top
        self._args = list(args)
        self._errors = tempfile.TemporaryFile()  # noqa: SIM115 - closed by wait() or stop()
        try:
            with output.open("ab") as out:
                self.process = subprocess.Popen(
                    _command(self._args), cwd=self._cwd, stdin=subprocess.DEVNULL,
                    stdout=out, stderr=self._errors, env=git_env(repo.env()))
        except OSError as exc:
            self._errors.close()
            raise _cannot_run(self._cwd, exc) from None

    def running(self) -> bool:
        return self.process.poll() is None

    def wait(self) -> None:
        code = self.process.wait()
        try:
            if code != 0:
                self._errors.seek(0)
                raise _failed(self._cwd, self._args, code, self._errors.read(64 * 1024))
        finally:
            self._errors.close()

    def stop(self) -> None:
        """End it (the caller no longer wants its output)."""
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait()
        self._errors.close()


@record(frozen=True, slots=True)
class Repo:
    """A git working tree (``top``), its git directory, and the settings that switch off
    the repository's own filter programs (``overrides``)."""

    top: Path
    git_dir: Path
    overrides: tuple[tuple[str, str], ...] = ()  # (key, value): see config_env
    # core.autocrlf and core.eol as the configuration holds them (the last value of each,
    # None for a key with no value), read with the filters: git_line_config.line_config
    # reads them. None: not read.
    line: tuple[tuple[str, str | None], ...] | None = None

    @classmethod
    def at(cls, path: Path) -> Repo:
        if not path.is_dir():
            raise UsageError("not a directory", source=str(path), rule="root")
        out = run_git(path, ["rev-parse", "--show-toplevel", "--absolute-git-dir"])
        lines = split_lines(out.decode("utf-8", "surrogateescape"))  # (git ends lines with \n)
        if len(lines) != 2 or not lines[0]:
            raise GitError("not inside a git working tree (a bare repository cannot be "
                           "reviewed)", source=str(path), rule="not-a-worktree")
        top = Path(lines[0])
        overrides, line = _read_config(top)
        return cls(top, Path(lines[1]), overrides, line)

    def git(self, *args: str, input: bytes | None = None,
            env: Mapping[str, str] | None = None, ok: Iterable[int] = (0,)) -> bytes:
        return run_git(self.top, args, input=input, env={**self.env(), **(env or {})}, ok=ok)

    def env(self) -> dict[str, str]:
        """What every git call in this repository adds to its environment."""
        return config_env(self.overrides)

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
            shallow = (self.git_dir / "shallow").is_file()
            raise UsageError(f"no commit {rev!r} in {self.top}"
                             + (" (a shallow clone: its history stops at the commits "
                                "listed in .git/shallow; 'git fetch --deepen=N' brings "
                                "more)" if shallow else ""), rule="git-rev")
        return sha

    def head(self) -> str | None:
        out = self.git("rev-parse", "--verify", "--quiet", "HEAD^{commit}", ok=(0, 1))
        return out.decode().strip() or None

    def head_ref(self) -> str | None:
        """The branch HEAD is on (``refs/heads/x``); None when HEAD is detached."""
        out = self.git("symbolic-ref", "-q", "HEAD", ok=(0, 1))
        return out.decode("utf-8", "surrogateescape").strip() or None

    def tree_entries(self, rev: str) -> list[tuple[str, str, str]]:
        """(mode, blob id, path) of every file of ``rev``'s tree (submodules left out).

        A tree object names its entries freely: a crafted one can hold ``..`` or ``.git``,
        which ``ls-tree`` then lists as ``a/../../x``. Git refuses to check such a path
        out, and so does this (:class:`GitError`, rule ``git-unsafe-path``), before any
        caller can write or read anything by it. It can also name an entry twice (two
        files ``x``, or a file and a folder ``x``): one path would hold two things, so
        that is refused too (rule ``git-duplicate-entry``). Folders are listed (``-t``)
        for that check only."""
        out = self.git("ls-tree", "-r", "-t", "-z", "--full-tree", rev)
        entries = []
        listed: list[str] = []
        for item in out.split(b"\0"):
            if not item:
                continue
            meta, _, raw = item.partition(b"\t")
            mode, kind, sha = meta.decode().split()
            path = raw.decode("utf-8", "surrogateescape")
            if kind != "tree" and unsafe_tree_path(path):  # (named by what is under it)
                raise GitError(f"{rev[:12]}'s tree holds {path!r}, a path git refuses to "
                               "check out (a crafted tree object): not read",
                               source=str(self.top), rule="git-unsafe-path")
            listed.append(path)
            if kind == "blob":
                entries.append((mode, sha, path))
        _refuse_duplicates(self.top, rev, listed)
        return entries

    def blobs(self, shas: Sequence[str], names: Sequence[str] = ()) -> list[bytes]:
        """The contents of these blobs, read with one ``cat-file --batch`` (``names``: the
        path of each, for the message when one is missing)."""
        if not shas:
            return []
        out = self.git("cat-file", "--batch", input="".join(s + "\n" for s in shas).encode())
        found: list[bytes] = []
        at = 0
        for _ in shas:
            end = out.index(b"\n", at)
            header = out[at:end].split()
            if len(header) != 3:
                sha = out[at:end].split(b" ")[0].decode("ascii", "replace")
                where = (f"{names[shas.index(sha)]} ({sha})" if sha in shas and names
                         else f"the object {sha}")
                raise GitError(f"the repository lacks {where}, so it cannot be read (a partial "
                               "clone or a damaged one; reviewtui never fetches it)",
                               source=str(self.top), rule="git-missing-object")
            size = int(header[2])
            found.append(out[end + 1:end + 1 + size])
            at = end + 1 + size + 1
        return found

    def files(self, rev: str, paths: Iterable[str] | None = None) -> dict[str, FileState]:
        """File states of ``rev`` (only ``paths`` when given; symlinks left out)."""
        wanted = set(paths) if paths is not None else None
        entries = [e for e in self.tree_entries(rev)
                   if e[0] != "120000" and (wanted is None or e[2] in wanted)]
        datas = self.blobs([sha for _, sha, _ in entries], [path for _, _, path in entries])
        return {path: FileState.from_bytes(data, mode=git_mode_bits(mode))
                for (mode, _, path), data in zip(entries, datas, strict=True)}


def git_mode_bits(git_mode: str) -> int:
    """The permission bits a checkout gives a file of this git mode."""
    return 0o755 if git_mode == "100755" else 0o644


def git_mode(state: FileState) -> str:
    if is_link(state):  # the blob is the link's target, as git stores it
        return "120000"
    return "100755" if state.mode & 0o111 else "100644"


def unsafe_tree_path(path: str) -> bool:
    """Whether git would refuse to check ``path`` (from a tree) out: an empty, ``.`` or
    ``..`` part, or a ``.git`` part in any case (what ``verify_path`` refuses on every
    system; the NTFS and HFS spellings it also refuses there name ordinary files here)."""
    return any(part in ("", ".", "..") or part.lower() == ".git"
               for part in path.split("/"))


def _refuse_duplicates(top: Path, rev: str, paths: Sequence[str]) -> None:
    """Refuse a tree that names one path twice (``ls-tree -t`` lists folders too, so a
    file and a folder ``x`` are ``x`` twice): git's fsck calls it ``duplicateEntries``,
    and a copy of it would have to write two things at one name."""
    seen: set[str] = set()
    for path in paths:
        if path in seen:
            raise GitError(f"{rev[:12]}'s tree holds {path!r} twice, a tree git refuses "
                           "to check out (a crafted tree object): not read",
                           source=str(top), rule="git-duplicate-entry")
        seen.add(path)


def materialize(repo: Repo, rev: str, target: Path) -> None:
    """Write ``rev``'s tree into the empty folder ``target`` (symlinks as symlinks).

    One ``ls-tree`` and one ``cat-file --batch``; each folder is made once and each file
    is created (never opened through an existing name) with its mode in one go.
    """
    entries = repo.tree_entries(rev)
    datas = repo.blobs([sha for _, sha, _ in entries], [path for _, _, path in entries])
    made = {""}
    flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
    links: list[tuple[str, str]] = []
    for (mode, _, path), data in zip(entries, datas, strict=True):
        folder = path.rpartition("/")[0]
        full = os.path.join(target, path)
        if mode == "120000":
            # Made last: no folder or file of this copy is then reached through a link it
            # made (where names differ in case only, a case-blind disk would let "d/x"
            # pass through a link "D").
            links.append((os.fsdecode(data), full))
            continue
        if folder not in made:
            os.makedirs(target / folder, exist_ok=True)
            made.add(folder)
        fd = os.open(full, flags, 0o600)
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
            os.fchmod(fd, git_mode_bits(mode))
        finally:
            os.close(fd)
    for _, full in links:  # every folder first, then the links
        os.makedirs(os.path.dirname(full), exist_ok=True)
    for link_target, full in links:
        os.symlink(link_target, full)


def _read_config(top: Path) -> tuple[tuple[tuple[str, str], ...],
                                     tuple[tuple[str, str | None], ...]]:
    """What a review needs of the repository's configuration, in one ``git config``:

    - ``filter.X.clean=`` and the rest for every filter driver it names. A
      clean/smudge/process filter is a program the repository's configuration runs when
      git reads the working tree (``add``, ``status``); reviewtui runs none. Files are
      then read as their bytes on disk (a Git LFS file shows as its content, not its
      pointer).
    - ``core.autocrlf`` and ``core.eol``, the last value of each (what ``--get`` says;
      None for a key written with no value): how git checks text out
      (``git_line_config.line_config``). Two more processes per command before.
    """
    out = run_git(top, ["config", "-z", "--get-regexp", r"^(filter\.|core\.(autocrlf|eol)$)"],
                  ok=(0, 1))
    names: set[str] = set()
    line: dict[str, str | None] = {}
    for item in out.split(b"\0"):
        raw_key, newline, raw_value = item.partition(b"\n")
        key = raw_key.decode("utf-8", "surrogateescape")
        if key in ("core.autocrlf", "core.eol"):
            line[key] = raw_value.decode("utf-8", "surrogateescape") if newline else None
            continue
        driver, _, _ = key.removeprefix("filter.").rpartition(".")
        if driver:
            names.add(driver)
    settings: list[tuple[str, str]] = []
    for name in sorted(names):
        settings += [(f"filter.{name}.{part}", "") for part in ("clean", "smudge", "process")]
        settings.append((f"filter.{name}.required", "false"))
    return tuple(settings), tuple(sorted(line.items()))


# --- commits ----------------------------------------------------------------------------


@record(frozen=True, slots=True)
class CommitStep:
    """One commit to make: its message and the files it changes (None: removed)."""

    message: str
    changes: Mapping[str, FileState | None]
    # path -> the blob a change is (as git stores it, or as the checkout writes it): stored
    # by its id, not as ``git add`` makes of the bytes
    blobs: Mapping[str, str] = field(default_factory=dict)
    # new path -> old path of each rename made as it was: the new file is the old one's
    # blob where its bytes are exactly that blob
    moved: Mapping[str, str] = field(default_factory=dict)


def identity_check(repo: Repo) -> None:
    """Refuse early when git has no identity to write commits with."""
    repo.git("var", "GIT_AUTHOR_IDENT")
    repo.git("var", "GIT_COMMITTER_IDENT")


def build_commits(repo: Repo, parent: str, steps: Sequence[CommitStep], *,
                  checkout: bool) -> list[str]:
    """Commit objects chained from ``parent`` (no ref moves); their ids, in order.

    ``checkout``: the contents are files of the repository's working tree (a review made
    on the checkout itself), stored as ``git add`` stores them (:func:`_add_step`); else
    they are in git's stored form already (a copy written from git's objects, changed by
    diffs of those objects) and stored byte for byte."""
    made: list[str] = []
    with tempfile.TemporaryDirectory(prefix="reviewtui-index-") as tmp:
        env = {"GIT_INDEX_FILE": str(Path(tmp) / "index")}
        repo.git("read-tree", parent, env=env)
        current = parent
        for n, step in enumerate(steps):
            if step.changes and checkout:
                # The removals, then the known blobs, then what git adds: a new
                # .gitattributes among the known blobs governs the files added beside it
                # (added first, they were stored by the parent's rules: a file renamed
                # with its eol=crlf rule was committed with its CRLF, QA s40)
                removed = [path for path, state in step.changes.items() if state is None]
                blobs = dict(step.blobs)
                from reviewtui.shell.git_kept import kept_blobs  # (a review's commits)

                blobs.update(kept_blobs(repo, step, removed, env))
                if removed:
                    repo.git("update-index", "-z", "--force-remove", "--stdin", env=env,
                             input="".join(path + "\0" for path in removed).encode(
                                 "utf-8", "surrogateescape"))
                known = [f"{git_mode(state)} {blobs[path]}\t{path}\0"
                         for path, state in step.changes.items()
                         if path in blobs and state is not None]
                if known:
                    repo.git("update-index", "-z", "--index-info", env=env, input="".join(
                        known).encode("utf-8", "surrogateescape"))
                added = {path: state for path, state in step.changes.items()
                         if path not in blobs and state is not None}
                if added:
                    _add_step(repo, added, Path(tmp) / f"tree{n}", env)
            elif step.changes:
                repo.git("update-index", "-z", "--index-info",
                         input=index_lines(repo, step.changes), env=env)
            tree = repo.git("write-tree", env=env).decode().strip()
            current = repo.git("commit-tree", "--no-gpg-sign", tree, "-p", current, "-F", "-",
                               input=step.message.encode()).decode().strip()
            made.append(current)
    return made


def _add_step(repo: Repo, changes: Mapping[str, FileState | None], tree: Path,
              env: Mapping[str, str]) -> None:
    """``git add`` of ``changes`` into the index of ``env``: the files are written into an
    empty work tree (``tree``) and ``update-index --add --remove`` reads them there, so git
    converts them as ``git add`` would (``text``/``eol`` attributes, ``core.autocrlf``,
    ``ident``, ``working-tree-encoding``) with the index it would consult: a file whose
    blob there holds CRLF keeps it under ``text=auto`` (``hash-object --path`` reads no
    index, and converted it). Attributes come from that work tree, then the index. Filter
    programs stay off (:attr:`Repo.overrides`); an irreversible conversion is made, not
    refused (``core.safecrlf``, as ``git add`` warns by default)."""
    tree.mkdir()
    for path, state in changes.items():
        if state is None:
            continue
        full = tree / path
        full.parent.mkdir(parents=True, exist_ok=True)
        if git_mode(state) == "120000":
            os.symlink(os.fsdecode(state.data), full)
            continue
        full.write_bytes(state.data)
        full.chmod(0o755 if git_mode(state) == "100755" else 0o644)
    # Removals first, then the rest (a folder's files removed before a file of its name is
    # added); --replace: a file where the index has a folder, or the reverse.
    order = sorted(changes, key=lambda path: (changes[path] is not None, path))
    paths = "".join(path + "\0" for path in order)
    repo.git("-c", "core.safecrlf=false", f"--work-tree={tree}", "update-index", "--add",
             "--remove", "--replace", "-z", "--stdin",
             input=paths.encode("utf-8", "surrogateescape"), env=env)


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
    """Paths ``git status`` reports (renames as two paths), with their two-letter code.

    A submodule counts when its commit differs, not for changes in its own files:
    finding those runs ``git status`` inside it, and with it the filter programs of the
    submodule's own configuration, which the overrides here do not know."""
    out = repo.git("status", "--porcelain=v1", "-z", "--untracked-files=all", "--no-renames",
                   "--ignore-submodules=dirty")
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
    """``update-index -z --index-info`` input for these contents (None: remove), the
    removals first (a folder's files go before a file of its name comes)."""
    lines = []
    for path, state in sorted(changes.items(), key=lambda item: (item[1] is not None, item[0])):
        if state is None:
            lines.append(f"0 {ZERO}\t{path}")
            continue
        sha = stored_blob(repo, path, state)
        lines.append(f"{git_mode(state)} {sha}\t{path}")
    return "".join(line + "\0" for line in lines).encode("utf-8", "surrogateescape")


def stored_blob(repo: Repo, path: str, state: FileState) -> str:
    """``state`` stored as the blob of ``path`` byte for byte (it is in git's stored form:
    see :func:`build_commits`), written; its id."""
    out = repo.git("hash-object", "-w", "--no-filters", "--stdin", input=state.data)
    return out.decode().strip()


def sync_index(repo: Repo, commit: str, paths: Iterable[str]) -> None:
    """After moving the checked-out branch to ``commit`` the user's index follows it: the
    committed paths get that commit's entries (the index held the base before, it was
    checked), then a refresh records their stat data. The working tree already holds
    them."""
    wanted = sorted(set(paths))
    if wanted:
        # (the whole listing, read for these paths: on the command line, a commit of tens
        # of thousands of files was "Argument list too long")
        out = repo.git("ls-tree", "-r", "-z", "--full-tree", commit)
        named = set(wanted)
        found = {path: item for item in out.split(b"\0") if item
                 if (path := item.partition(b"\t")[2].decode("utf-8", "surrogateescape"))
                 in named}
        lines = [found.get(path) or f"0 {ZERO}\t{path}".encode("utf-8", "surrogateescape")
                 for path in wanted]
        repo.git("update-index", "-z", "--index-info", input=b"".join(x + b"\0" for x in lines))
    repo.git("update-index", "-q", "--refresh", ok=(0, 1))


def origin_of(session_file: Path) -> GitOrigin | None:
    """The git header of a session file; None for a session that does not come from git."""
    try:  # (a regular file only: a FIFO's second open waited for a writer for ever)
        fd = os.open(session_file, os.O_RDONLY | os.O_NONBLOCK)
        with os.fdopen(fd, "rb") as handle:
            if not stat.S_ISREG(os.fstat(fd).st_mode):
                return None
            head = handle.read(64 * 1024).decode("utf-8", "replace")
    except OSError:
        return None
    if not looks_like_git_session(head):
        return None
    return read_origin(head, str(session_file))


def author_ident(repo: Repo) -> tuple[str, str]:
    """(``Name <email>``, RFC 2822 date) from git's own configuration."""
    raw = repo.git("var", "GIT_AUTHOR_IDENT").decode("utf-8", "replace").strip()
    match = re.match(r"^(.*>) (\d+) ([+-]\d{4})$", raw)
    if match is None:
        raise GitError(f"cannot read git's author identity from {raw!r}", rule="git-ident")
    stamp = int(match.group(2))
    return match.group(1), email.utils.formatdate(stamp, localtime=False)


def disk_state(root: Path, path: str) -> FileState | None:
    full = root / path
    if full.is_symlink() or not full.is_file():
        return None
    return FileState.from_bytes(full.read_bytes(), mode=full.stat().st_mode & 0o777)
