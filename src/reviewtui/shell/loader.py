"""Find and read a session on disk: a session file, or a session directory."""

from __future__ import annotations

import contextlib
import gc
import os
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

from reviewtui.core.errors import SessionFormatError, UsageError
from reviewtui.core.importers import detect_format, import_session, looks_like_mail
from reviewtui.core.model.records import GitApplyRule, Session
from reviewtui.core.record import record, replace
from reviewtui.core.text.limits import DEFAULT_MAX_INPUT_BYTES, MAX_INPUT_ENV, too_large

TYPE_CHECKING = False  # as typing's: typing is not imported at run time (core/typed.py)
if TYPE_CHECKING:
    from typing import Any

    from reviewtui.core.importers.toolcalls import ToolcallsReading

# What a session directory may hold, looked for in this order; the content decides the
# format (--format overrides), the name only breaks ties.
SESSION_NAMES = ("session.md", "session.json", "session.jsonl", "session.claude.jsonl",
                 "session.patch", "session.diff", ".aider.chat.history.md")


@record(frozen=True, slots=True)
class LoadedSession:
    session: Session
    file: Path
    directory: Path | None  # set when a session directory was given
    base: Path | None  # the directory's base/: the files before turn 1
    format_note: str = ""  # the format asked for is not what the content looks like
    # A tool-call log: where its reading stopped (read on from there when it grows).
    reading: ToolcallsReading | None = None
    # A plain diff on a git checkout: the git rules it is read with, saved with its review
    # (with_git_rules); None: none.
    git_rules: dict[str, GitApplyRule | None] | None = None
    # A diff's kind as its text says: "worktree" (a --worktree session), "series" (mails
    # or commits, which git am applies), "" (a diff git apply applies, or not a diff).
    diff_kind: str = ""

    @property
    def config_file(self) -> Path | None:
        if self.directory is None:
            return None
        candidate = self.directory / "reviewtui.toml"
        return candidate if candidate.is_file() else None


def find_session_file(path: Path) -> tuple[Path, Path | None]:
    if path.is_dir():
        for name in SESSION_NAMES:
            if (path / name).is_file():
                return path / name, path
        raise SessionFormatError(
            f"no session file in this directory (looked for {', '.join(SESSION_NAMES)})",
            source=str(path), rule="session-dir")
    if not path.exists():
        raise SessionFormatError("no such file or directory", source=str(path), rule="missing")
    return path, None


def input_limit() -> int:
    """The largest input file read, in bytes: ``REVIEWTUI_MAX_INPUT_MB``, else 64 MB."""
    raw = os.environ.get(MAX_INPUT_ENV, "").strip()
    if not raw:
        return DEFAULT_MAX_INPUT_BYTES
    try:
        megabytes = float(raw)
    except ValueError:
        megabytes = -1.0
    if not 0 < megabytes < 1 << 40:
        raise UsageError(f"{MAX_INPUT_ENV}={raw!r} is not a size in megabytes (e.g. 256)",
                         rule="max-input")
    return int(megabytes * 1024 * 1024)


def read_input(path: Path, what: str = "session file") -> bytes:
    """The bytes of an input file, refused before reading when it is over the limit.

    A regular file is measured first; anything else (a pipe, a device) is read up to one
    byte past the limit, so ``/dev/zero`` ends as the same message instead of a hang.
    ``OSError`` is the caller's to word.
    """
    limit = input_limit()
    with path.open("rb") as handle:
        info = os.fstat(handle.fileno())
        if stat.S_ISREG(info.st_mode) and info.st_size > limit:
            raise too_large(str(path), info.st_size, limit, what)
        data = handle.read(limit + 1)
    if len(data) > limit:
        raise too_large(str(path), None, limit, what)
    return data


def decode_utf8_sig(data: bytes, errors: str = "strict") -> str:
    """``data.decode("utf-8-sig")`` (one leading BOM dropped; an error's position counted
    after it, as that codec counts), without importing the codec's module at start-up."""
    return (data[3:] if data.startswith(b"\xef\xbb\xbf") else data).decode("utf-8", errors)


def read_text(path: Path, what: str = "session file", *, sha: str | None = None,
              errors: str = "strict") -> str:
    """UTF-8 text (a BOM is dropped), or an error naming the line of the bad byte.

    ``sha``: the file is read again after it was loaded (the raw view), and must still be
    that file, of this sha256: else SessionFormatError (rule ``session-changed``) instead
    of other text at the loaded session's line numbers. ``errors``: as ``bytes.decode``'s
    (the raw view of a diff some of whose files are not UTF-8: "replace")."""
    try:
        data = read_input(path, what)
    except OSError as exc:
        raise SessionFormatError(f"cannot read: {exc.strerror}", source=str(path),
                                 rule="unreadable") from None
    if sha is not None:
        from reviewtui.core.digests import sha256  # (hashlib: the raw view only)

        if sha256(data).hexdigest() != sha:
            raise SessionFormatError("the session file changed on disk since it was "
                                     "opened: reopen it to see its text", source=str(path),
                                     rule="session-changed")
    try:
        return decode_utf8_sig(data, errors)
    except UnicodeDecodeError as exc:
        line = data.count(b"\n", 0, exc.start) + 1
        column = exc.start - data.rfind(b"\n", 0, exc.start)  # (1-based, in bytes)
        raise SessionFormatError(f"not UTF-8 text: byte 0x{data[exc.start]:02X} at column "
                                 f"{column}{_inside(data, exc.start)}",
                                 source=str(path), line=line, rule="encoding") from None


def _session_text(file: Path, format: str | None) -> str:
    """:func:`read_text`, except for a unified diff some of whose files' changes are not
    UTF-8 (git diffs a Latin-1 file as text): decoded with ``surrogateescape``, so that
    its importer leaves those files out, each said, and reads the rest
    (``core/importers/notutf8.py``)."""
    try:
        return read_text(file)
    except SessionFormatError as error:
        if error.rule != "encoding" or format not in (None, "auto", "unified"):
            raise
        text = decode_utf8_sig(read_input(file, "session file"), "surrogateescape")
        if detect_format(text, str(file)) != "unified":
            raise
        return text


def _inside(data: bytes, at: int) -> str:
    """Where byte ``at`` lies in a diff, said by its own headers: the file whose diff holds
    it, and the commit (a git range's session is written to a temporary file: its line
    alone names nothing the reader can open)."""
    said = ""
    header = data.rfind(b"\ndiff --git ", 0, at) + 1  # (0: none, or the first line)
    commit = data.rfind(b"\nFrom ", 0, at) + 1  # (0: none after the first line)
    mail = data.startswith(b"From ", commit)
    # (a commit line after the last diff header: the byte is in that commit's own header
    # or message, not in the diff before it, QA s39 helper-120 F1 named curl's CHANGES)
    if (header or data.startswith(b"diff --git ")) and not (mail and commit > header):
        end = data.find(b"\n", header)
        name = data[header + 11 : end].decode("utf-8", "replace").split(" b/")[-1]
        said = f", in the diff of {name!r}"
    sha = data[commit + 5 : commit + 17] if mail else b""
    if len(sha) == 12 and all(c in b"0123456789abcdef" for c in sha):
        said += (" of" if said else ", in the message of") + f" commit {sha.decode()}"
    return said + ": reviewtui reads UTF-8 text only" if said else ""


@contextlib.contextmanager
def gc_paused(*, freeze: bool = True) -> Iterator[None]:
    """The cyclic garbage collector off for a while (and back on only if it was on).

    Reading a session makes many small records and tuples (a 50,000-operation session
    about 430,000) and no reference cycles: while they pile up, the collections they set
    off walk them again and again, about a quarter of the parse. Reference counting still
    frees everything as usual meanwhile.

    At the end, what was made meanwhile is frozen (``gc.freeze``, as the workbench does
    with what it has evaluated) before the collector comes back: else the first
    allocation after sets off a collection of the youngest generation, which then holds
    everything made while the collector was off -- one walk over all of it (an ``apply``
    of 191 edits in 10,000-line files: 25-40 ms, a tenth of its time, finding nothing to
    free). Frozen objects are still freed by reference counting; only a cycle among them
    would wait for the end of the process.

    ``freeze=False`` is for a long-lived process that pauses again and again (a decision
    in the workbench): a freeze there would also take in whatever the screen holds at
    that moment, and the screen's objects that die in cycles later would never be freed
    (measured: ~650 objects a key in the workbench, ~236,000 after 360 keys on a
    5,000-operation session).
    """
    was_on = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_on:
            if freeze:
                gc.freeze()
            gc.enable()


# A session already read while its file was written (a git range read as git wrote it):
# (file, root, text, session). Taken by the next load_session of exactly that file, text
# and root; anything else reads the file as usual.
_primed: tuple[str, str | None, str, Session] | None = None


def prime(file: Path, root: Path | None, text: str, session: Session) -> None:
    """Let the next :func:`load_session` of ``file`` (auto-detected format, ``root``) use
    ``session``, which is what :func:`import_session` makes of ``text``, if the file still
    holds exactly ``text``."""
    global _primed
    absolute = str(root.absolute()) if root is not None else None
    _primed = (str(file), absolute, text, session)


def _take_primed(file: str, text: str, format: str | None, root: str | None
                 ) -> Session | None:
    global _primed
    entry, _primed = _primed, None
    if entry is None or format not in (None, "auto"):
        return None
    if (entry[0], entry[1]) != (file, root) or entry[2] != text:
        return None
    if detect_format(text, file) != "git":
        return None
    return entry[3]


# What is done to a session each time its file is read: file -> function. A git range
# whose files a converting checkout writes otherwise than git stores them gets git's
# checkout forms in its binary patches (shell/git_checkout.py); kept for the process, as
# the workbench reads the file again.
_adjust: dict[str, Callable[[Session], Session]] = {}


def adjust_on_load(file: Path, adjust: Callable[[Session], Session]) -> None:
    """Let every :func:`load_session` of ``file`` give ``adjust(session)``."""
    _adjust[str(file)] = adjust


def _range_forms(text: str, file: Path, root: Path) -> Callable[[Session], Session] | None:
    """For a range's session read from its file (``restore``, ``open`` or ``apply`` of the
    file kept in ``<git dir>/reviewtui``, not through ``--git``) on the checkout itself:
    git's checkout forms, as ``--git`` reads it (``shell/git_checkout.py``). Without
    them, a review made with them read as another: restoring checkpoint 0 said done and
    left a new file written CRLF (QA s38 helper-116 R4). The header is the file's, so
    untrusted (``read_origin`` takes hex ids alone): its base must be the commit ``root``
    is checked out at, and git is asked only in ``root``."""
    from reviewtui.core.errors import GitError
    from reviewtui.core.importers.gitlog import read_origin
    from reviewtui.shell.git import Repo
    from reviewtui.shell.git_checkout import checkout_forms

    try:
        origin = read_origin(text, str(file))
        if origin.kind != "range" or not (root / ".git").exists():
            return None  # (a copy of A's tree, say: no git asked)
        repo = Repo.at(root)
        # (the checkout at the range's start: a checkout of another commit was written
        # by its own attributes, QA s38 helper-117 N3, and a forged base names any)
        if repo.top.resolve() != root.resolve() or repo.head() != origin.base:
            return None
    except (SessionFormatError, GitError, UsageError, OSError):
        return None
    return _adjust.setdefault(str(file), checkout_forms(repo, origin.base, origin.head))


def with_git_rules(loaded: LoadedSession, root: Path,
                   saved: Callable[[], tuple[dict[str, Any] | None, bool]]) -> LoadedSession:
    """A plain diff's session (not a range with its own checkout forms, not a
    ``--worktree`` one) on a git checkout, with each file operation on a path git converts
    carrying what ``git apply`` (``git am`` for a series) does to it
    (``shell/git_apply_rules.py``), and those rules (``git_rules``), to be saved with the
    review. ``saved``: the saved review's rules (encoded) and whether there is none; asked
    only for such a session. A review saved without them gets none
    (``shell/state_git_apply.py`` says why). Every later reading of the file in this
    process gets the same (a live session's growth)."""
    session, file = loaded.session, loaded.file
    key = (str(file), str(root))
    if key in _pinned:  # (opened before in this process: read with them already)
        return replace(loaded, git_rules=_pinned[key])
    if (str(file) in _adjust or session.format not in ("git", "unified")
            or loaded.diff_kind == "worktree"):
        return loaded  # (nothing imported for the rest: start-up)
    from reviewtui.shell.git_apply_rules import git_apply_rules, in_checkout
    from reviewtui.shell.state_git_apply import decode_rules

    if not in_checkout(root):
        return loaded
    encoded, fresh = saved()
    if encoded is None and not fresh:
        return loaded
    rules = decode_rules(encoded) if encoded is not None else {}
    adjust = git_apply_rules(root, series=loaded.diff_kind == "series", pinned=rules)
    if adjust is None:
        return loaded
    adjust_on_load(file, adjust)
    _pinned[key] = rules
    return replace(loaded, session=adjust(session), git_rules=rules)


# (session file, root) -> the git rules its review reads it with (with_git_rules)
_pinned: dict[tuple[str, str], dict[str, GitApplyRule | None]] = {}


def _is_worktree(text: str, file: Path) -> bool:
    """Whether the session is a ``--worktree`` one: the diff of the working tree itself,
    whose every operation is already on disk as it is (git's conversions would rewrite
    your own files as the review opens: an untracked LF file was written CRLF under
    autocrlf, found testing s55's change)."""
    from reviewtui.core.importers.gitlog import MARKER, read_origin

    if not text.lstrip("\ufeff").startswith(MARKER.strip()):
        return False
    try:
        return read_origin(text, str(file)).kind == "worktree"
    except SessionFormatError:
        return False


def _holds(tree: str | Path | None) -> Callable[[str], bool] | None:
    """Whether ``tree`` holds a file at a relative path (no ``..``, nothing absolute): what
    a unified diff's reading asks of the project (``import_session``'s ``exists``)."""
    if tree is None:
        return None
    top = Path(tree)

    def holds(path: str) -> bool:
        parts = path.split("/")
        if not path or path.startswith("/") or ".." in parts or "\0" in path:
            return False
        try:
            return top.joinpath(*parts).is_file()
        except (OSError, ValueError):
            return False

    return holds


def load_session(path: str | Path, format: str | None = None,
                 root: str | Path | None = None, *,
                 after: LoadedSession | None = None) -> LoadedSession:
    """Read a session in any format (``format`` None or "auto": detected from the content).

    ``root`` is the project the session edits: absolute paths under it (Claude Code,
    apply_patch) are read as relative to it. ``after``: the same file as read before; a
    tool-call log (``format`` "toolcalls") that has only grown since is read on from where
    that reading stopped.
    """
    file, directory = find_session_file(Path(path))
    absolute = str(Path(root).absolute()) if root is not None else None
    text = _session_text(file, format)
    session = _take_primed(str(file), text, format, absolute)
    reading = None
    if session is None and format == "toolcalls":
        from reviewtui.core.importers.toolcalls import ToolcallsReading

        known = after.reading if after is not None and after.file == file else None
        with gc_paused(), contextlib.suppress(Exception):  # the whole reading below says why
            session, reading = (known or ToolcallsReading(str(file))).read(text)
    base = directory / "base" if directory is not None and (directory / "base").is_dir() else None
    if session is None:
        with gc_paused():
            session = import_session(text, str(file), format=format, root=absolute,
                                     exists=_holds(root if root is not None else base))
    adjust = _adjust.get(str(file))
    if adjust is None and session.format == "git" and root is not None:
        adjust = _range_forms(text, file, Path(root))
    if adjust is not None:
        session = adjust(session)
    note = ""
    if format not in (None, "auto") and text.strip():  # an empty file looks like nothing
        detected = detect_format(text, str(file))
        if detected != format:
            note = (f"{file}: read as --format {format}, but its content looks like "
                    f"{detected}: if paths or operations look wrong, try --format {detected} "
                    "(or auto)")
    kind = "" if session.format not in ("git", "unified") else (
        "worktree" if _is_worktree(text, file) else "series"
        if session.format == "git" or looks_like_mail(text) else "")
    return LoadedSession(session, file, directory, base, note, reading,
                         _pinned.get((str(file), absolute or "")), kind)
