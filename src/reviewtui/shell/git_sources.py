"""The session git makes of a commit range (``--git A..B``); a working tree's
(``--worktree``) is :mod:`reviewtui.shell.git_worktree`'s.

Each writes a session file (git's own output under a short header, read back by
:mod:`reviewtui.core.importers.gitlog`) and says which folder the review replays onto.
What lives where: the session file and its review state in ``<git dir>/reviewtui/``;
without a checkout at A, a range is reviewed on a copy of A's tree kept beside them
(``range-A-B.root/``). See docs/git.md.
"""

from __future__ import annotations

import contextlib
import os
import re
import shutil
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from reviewtui.core.errors import UsageError
from reviewtui.core.importers.gitlog import (
    LOG_FORMAT,
    GitOrigin,
    PieceImport,
    header_text,
)
from reviewtui.core.model.records import Session
from reviewtui.core.record import field, record
from reviewtui.shell.disk import atomic_write
from reviewtui.shell.git import DIFF_ARGS, GitWriter, Repo, materialize
from reviewtui.shell.git_checkout import checkout_forms
from reviewtui.shell.git_not_utf8 import binary_where_not_utf8
from reviewtui.shell.git_tree import tree_listing
from reviewtui.shell.loader import adjust_on_load, gc_paused, input_limit, prime
from reviewtui.shell.project import stand_in
from reviewtui.shell.statepath import default_state_path


def _is_ancestor(repo: Repo, older: str, newer: str) -> bool:
    merge_base = repo.git("merge-base", older, newer, ok=(0, 1)).decode().strip()
    return merge_base == older


def _first_parent_walk(repo: Repo, base: str, head: str) -> list[list[bytes]]:
    """The commits of the walk from ``head`` along first parents that stops at ``base``'s
    history, newest first, each with its parents (the first one listed first)."""
    return [line.split() for line in repo.git(
        "rev-list", "--first-parent", "--parents", f"{base}..{head}").splitlines()]


def _on_first_parents(walk: list[list[bytes]], base: str) -> bool:
    """Whether ``base`` is on the first-parent line the ``walk`` (:func:`_first_parent_walk`)
    followed: its oldest commit has ``base`` as its first parent (else the walk went past
    it, down another branch, and its commits were replayed on ``base``'s tree: QA s39
    helper-119 L2)."""
    return not walk or (len(walk[-1]) > 1 and walk[-1][1].decode() == base)


def _range_refused(repo: Repo, base: str, head: str) -> str | None:
    """Which rule of a range ``base..head`` fails, "ancestor" or "first-parents"; None
    when neither does. A ``base`` that is the first parent of the walk's oldest commit is
    an ancestor of ``head``: one git process says both; only a range that is refused asks
    ``merge-base`` which rule it breaks."""
    walk = _first_parent_walk(repo, base, head)
    if walk and _on_first_parents(walk, base):
        return None
    if not _is_ancestor(repo, base, head):
        return "ancestor"
    return None if _on_first_parents(walk, base) else "first-parents"


def parse_range(spec: str) -> tuple[str, str]:
    """``A..B`` (``A..`` means ``A..HEAD``); three dots are refused."""
    if "..." in spec or spec.count("..") != 1:
        raise UsageError(f"--git takes a range A..B, not {spec!r}", rule="git-range")
    a, _, b = spec.partition("..")
    if not a:
        raise UsageError("--git A..B needs A: the commit the review starts from",
                         rule="git-range")
    return a, b or "HEAD"


def _log_args(base: str, head: str) -> tuple[str, ...]:
    return ("log", "--first-parent", "--reverse", "--diff-merges=first-parent",
            "--encoding=UTF-8", f"--format={LOG_FORMAT}", *DIFF_ARGS, f"{base}..{head}", "--")


def range_text(repo: Repo, base: str, head: str) -> bytes:
    """The session file of the range ``base..head``: header, then one ``git log -p``."""
    log = repo.git(*_log_args(base, head))
    origin = GitOrigin("range", base, head, str(repo.top))
    return header_text(origin).encode() + log


@record(slots=True)
class GitSource:
    """What a command opens for ``--git``/``--worktree``: files on disk, and git's view."""

    repo: Repo
    origin: GitOrigin
    session: Path
    root: Path
    # The review state made for the source (--worktree), or kept beside a range's copy
    state: Path | None = None
    cleanup: list[Path] = field(default_factory=list)
    changed: tuple[str, ...] = ()  # --worktree: the paths it changes
    note: str = ""  # what the user should know about where the review happens
    # What else ends with the command: a tree read from git (shell/git_tree.py).
    closers: list[Callable[[], None]] = field(default_factory=list)
    # A range's review as open and apply keep it (in <git dir>/reviewtui), for a command
    # that reads one without keeping its own (export); it may not exist. The projects
    # such a review can have been made on: the checkout, or reviewtui's copy of A.
    kept_state: Path | None = None
    kept_roots: tuple[Path, ...] = ()

    def close(self) -> None:
        for end in self.closers:
            end()
        for path in self.cleanup:
            shutil.rmtree(path, ignore_errors=True)

    def read_on_checkout(self) -> None:
        """Read the range's session for a review made on the checkout itself, not on a
        copy of A (export of the review open or apply kept there): with git's checkout
        forms, as that review was evaluated (``shell/git_checkout.py``), while the
        checkout is at A (as the review was made)."""
        if self.repo.head() == self.origin.base:
            adjust_on_load(self.session, checkout_forms(self.repo, self.origin.base,
                                                        self.origin.head))


def open_range(spec: str, root: str | None, *, keep: bool, listed: bool = False) -> GitSource:
    """``--git A..B``: the session file, and the project it is replayed on.

    ``root`` is where the repository is (default: the current folder). With ``keep``
    (open, apply) the review writes to ``root`` when it is checked out at A, else to
    a copy of A's tree in ``<git dir>/reviewtui/`` (reopening resumes). Without ``keep``
    (check, stats, export: nothing is written) it reads a temporary copy of A's tree;
    with ``listed`` (a command that reads its project lazily, ``load_project(lazy=True)``)
    not even that: A's tree is read from git (:func:`_range_root`).
    ``git log`` writes the session file in the background while A's tree is copied, and
    the commits it has written are read into turns while it writes the rest; the loader
    then takes those turns (:func:`~reviewtui.shell.loader.prime`) instead of reading
    the file again.
    """
    repo = Repo.at(Path(root) if root is not None else Path.cwd())
    if root is not None and Path(root).resolve() != repo.top.resolve():
        # A range's paths are from the top of the repository: replayed under a folder of
        # it, sub/n.txt was written as sub/sub/n.txt, exit 0 (QA s38 helper-116 R10).
        raise UsageError("--git reviews commits of the whole repository: --root must be "
                         f"its top folder ({repo.top})", rule="root")
    a, b = parse_range(spec)
    base, head = _range_commits(repo, a, b)
    if base == head:
        # A range of no commits is a mistake (A..A, or B not yet moved): said before
        # anything runs or is copied.
        raise UsageError(f"{a}..{b} holds no commit (both name {base[:12]}): a range "
                         "reviews the commits after A, up to B", rule="git-range")
    name = f"range-{base[:12]}-{head[:12]}"
    origin = GitOrigin("range", base, head, str(repo.top))
    header = header_text(origin)
    scratch = Path(tempfile.mkdtemp(prefix="reviewtui-git-"))
    cleanup: list[Path] = [scratch]
    closers: list[Callable[[], None]] = []
    try:
        # Written in the scratch folder first (for --keep, copied to the state folder).
        written = scratch / f"{name}.patch"
        written.write_bytes(header.encode())
        writer = GitWriter(repo, _log_args(base, head), written)
        try:
            refused = _range_refused(repo, base, head)
            if refused == "ancestor":
                raise UsageError(f"{a} is not an ancestor of {b}: a range reviews the commits "
                                 f"on top of A (use the merge base, git merge-base {a} {b})",
                                 rule="git-range")
            if refused == "first-parents":
                raise UsageError(
                    f"{a} is not on {b}'s first-parent line (a merge brought it in from "
                    "another branch): a range is read commit by commit along first parents, "
                    f"and that walk from {b} does not pass through {a}; start the range at "
                    f"the merge that brought it in (git log --first-parent --merges {a}..{b})",
                    rule="git-range")
            tree, note = _range_root(repo, root, base, name, keep=keep, listed=listed,
                                     cleanup=cleanup, closers=closers)
            session = repo.state_dir / f"{name}.patch" if keep else written
            reader = _RangeReader(header, str(session), tree)
            data, text, parsed = reader.follow(writer, written)
        except BaseException:
            writer.stop()
            raise
        writer.wait()
        # A file diffed as text that is not UTF-8, or edited while it is not: binary.
        fixed = binary_where_not_utf8(repo, _log_args(base, head), header.encode(), data,
                                      scratch, utf8=text is not None)
        if fixed is not data:
            data, text, parsed = fixed, None, None  # (what was read while written: not it)
            written.write_bytes(data)
        if keep:
            session = write_session(repo.state_dir, f"{name}.patch", data)
            shutil.rmtree(scratch, ignore_errors=True)
            cleanup.remove(scratch)
        if parsed is not None and text is not None:
            prime(session, tree, text, parsed)
        if root is not None and tree == Path(root):
            # (on the checkout: what it writes otherwise than git stores it, git says)
            adjust_on_load(session, checkout_forms(repo, base, head))
    except BaseException:
        for end in closers:
            end()
        for path in cleanup:
            shutil.rmtree(path, ignore_errors=True)
        raise
    # On the kept copy, apply saves its review as open does, so either resumes the other
    # (a second apply, or open after apply, then knows what the copy holds and why).
    on_copy = keep and tree == repo.state_dir / f"{name}.root"
    state = default_state_path(session) if on_copy else None
    return GitSource(repo, origin, session, tree, state, cleanup=cleanup, note=note,
                     closers=closers,
                     kept_state=default_state_path(repo.state_dir / f"{name}.patch"),
                     kept_roots=(repo.top, repo.state_dir / f"{name}.root"))


class _RangeReader:
    """Reads ``git log`` into turns while git writes it (:class:`PieceImport`): a piece
    at a time, each ending where a commit starts. Gives up (the session file is then read
    as usual) on text that is not UTF-8 or over the input limit."""

    PIECE = 256 * 1024  # bytes of whole commits worth reading before git is done
    NEXT = re.compile(rb"From [0-9a-f]{40} ")

    def __init__(self, header: str, source: str, root: Path) -> None:
        self._header = header
        self._pieces: list[str] | None = [header]
        self._import: PieceImport | None = PieceImport(
            header, source, root=str(root.absolute()), literal=True)
        self._left = input_limit() - len(header.encode())  # bytes read_input would take

    def follow(self, writer: GitWriter, path: Path) -> tuple[bytes, str | None,
                                                             Session | None]:
        """The whole file's bytes once git is done; its text and session when read."""
        data = bytearray()
        done = 0  # bytes of ``data`` read into turns
        with path.open("rb") as handle:
            handle.seek(len(self._header.encode()))
            while True:
                finished = not writer.running()
                data += handle.read()
                if finished:
                    break
                cut = self._cut(data, done)
                if cut - done >= self.PIECE:
                    self._add(data[done:cut], last=False)
                    done = cut
                else:
                    time.sleep(0.002)
        self._add(data[done:], last=True)
        session = self._import.session() if self._import is not None else None
        text = "".join(self._pieces) if self._pieces is not None else None
        return self._header.encode() + bytes(data), text, session

    def _cut(self, data: bytearray, done: int) -> int:
        """Where the last commit line written in full starts (``done``: none yet)."""
        at = data.rfind(b"\nFrom ", done)
        while at >= done and self.NEXT.match(data, at + 1) is None:
            at = data.rfind(b"\nFrom ", done, at)
        return at + 1 if at >= done else done

    def _add(self, piece: bytearray, *, last: bool) -> None:
        if self._import is None or self._pieces is None:
            return
        self._left -= len(piece)
        try:
            if self._left < 0:
                raise ValueError("over the input limit")
            text = piece.decode("utf-8")
            with gc_paused():
                self._import.add(text, last=last)
            self._pieces.append(text)
        except Exception:  # the file is read as usual, with its own messages
            self._import, self._pieces = None, None


def _range_commits(repo: Repo, a: str, b: str) -> tuple[str, str]:
    """The commit ids ``a`` and ``b`` name: one ``rev-parse`` for both when both are fine,
    else each on its own (whose message names the one that is not)."""
    if a and b and not a.startswith("-") and not b.startswith("-"):
        # "--" after them: both are read as revisions, never as paths (git echoes it).
        out = repo.git("rev-parse", f"{a}^{{commit}}", f"{b}^{{commit}}", "--",
                       ok=range(256)).decode().split()
        if (len(out) == 3 and out[2] == "--"
                and all(re.fullmatch(r"[0-9a-f]{40}|[0-9a-f]{64}", sha) for sha in out[:2])):
            return out[0], out[1]
    return repo.commit(a), repo.commit(b)


def _range_root(repo: Repo, root: str | None, base: str, name: str, *, keep: bool,
                listed: bool, cleanup: list[Path], closers: list[Callable[[], None]]
                ) -> tuple[Path, str]:
    """The folder a range is reviewed on (A's tree, copied when needed), and a note.
    ``listed`` (nothing is written, the project read lazily): A's tree is not copied; an
    empty folder stands for it, listed from git and read from git's objects
    (``shell/git_tree.py``)."""
    note = ""
    if root is not None and keep:
        if repo.head() == base:
            return Path(root), ""
        # Replaying A..B onto anything but A would clash with itself: use A's tree.
        note = (f"{root} is not checked out at {base[:12]} (the range's start): reviewing "
                f"on a copy of its tree in {repo.state_dir} (commit with --branch NAME)")
    kept = repo.state_dir / f"{name}.root"
    if keep and not note:
        note = f"reviewing on a copy of {base[:12]}'s tree: {kept}"
    if keep and kept.is_dir():
        # The review kept there resumes (its state beside the session file); a command
        # that keeps nothing never reads it: it holds what the review wrote, not A's tree.
        return kept, note
    if keep:
        partial = repo.state_dir / f".{name}.root.partial"
        shutil.rmtree(partial, ignore_errors=True)
        partial.mkdir(parents=True)
        try:
            materialize(repo, base, partial)
        except BaseException:
            shutil.rmtree(partial, ignore_errors=True)
            raise
        os.replace(partial, kept)
        return kept, note
    copy = Path(tempfile.mkdtemp(prefix="reviewtui-git-base-"))
    cleanup.append(copy)
    if not listed:
        materialize(repo, base, copy)
        return copy, ""
    snap, blobs, stream = tree_listing(repo, base, copy)
    closers.append(stream.close)
    closers.append(stand_in(copy, snap, lambda path: stream.read(blobs[path])))
    return copy, ""


def write_session(directory: Path, name: str, text: bytes) -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    target = directory / name
    with contextlib.suppress(OSError):
        if target.read_bytes() == text:
            return target
    atomic_write(directory, name, text, 0o644)
    return target
